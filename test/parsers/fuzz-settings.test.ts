/** CI fuzz run of the settings parsers (see fuzzSuite.ts, fuzzCore.ts), and a check that every parser has a fuzz run. */
import { describe, expect, it } from 'vitest';
import { PARSERS } from '../../shared/capture/registry';
import { group as load } from '../../shared/capture/parsers/load/index';
import { group as fio } from '../../shared/capture/parsers/fio/index';
import { group as facts } from '../../shared/capture/parsers/facts/index';
import { group as sysstat } from '../../shared/capture/parsers/sysstat/index';
import { group as trace } from '../../shared/capture/parsers/trace/index';
import { group as settings } from '../../shared/capture/parsers/settings/index';
import { fuzzSuite } from './fuzzSuite';

fuzzSuite(settings.parsers.map((p) => p.id));

describe('fuzz coverage', () => {
  it('every registered parser is fuzzed by one of the fuzz-*.test.ts files', () => {
    const fuzzed = [load, fio, facts, sysstat, trace, settings].flatMap((g) => g.parsers.map((p) => p.id)).sort();
    expect(fuzzed).toEqual(PARSERS.map((p) => p.id).sort());
  });
});
