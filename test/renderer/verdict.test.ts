/** The "All met" cell of the verdict table (issue 7): an experiment that measured nothing is not "0 failing". */
import { describe, expect, it } from 'vitest';
import { allMetText } from '../../renderer/src/features/requirements/verdict';

describe('allMetText', () => {
  it('says ✓, how many fail, or how many were not measured', () => {
    expect(allMetText([{ met: true }, { met: true }])).toBe('✓');
    expect(allMetText([{ met: false }, { met: null }, { met: false }])).toBe('2 failing');
    expect(allMetText([{ met: null }, { met: null }])).toBe('not measured');
    expect(allMetText([{ met: true }, { met: null }])).toBe('1 not measured');
  });
});
