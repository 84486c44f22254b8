/**
 * The one median (shared/stats.ts): the middle of the values sorted by number, the mean of the two
 * middle ones for an even count, NaN for none; the caller's values are left as they were.
 */
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { median, medianInPlace } from '../../shared/stats';

/** the definition, as the three copies it replaced computed it */
function byDefinition(values: readonly number[]): number {
  const v = [...values].sort((a, b) => a - b);
  const m = v.length >> 1;
  return v.length % 2 ? v[m]! : (v[m - 1]! + v[m]!) / 2;
}

describe('median', () => {
  it('is the middle value sorted by number, not by text', () => {
    expect(median([10, 9, 100])).toBe(10);
    expect(median([3, 1, 4, 1])).toBe(2);
    expect(median([286, 140, 205])).toBe(205);
    expect(median([])).toBeNaN();
  });

  it('agrees with the definition on any finite values, and leaves them as they were', () => {
    fc.assert(fc.property(fc.array(fc.double({ noNaN: true, noDefaultInfinity: true }), { maxLength: 60 }), (values) => {
      const copy = values.slice();
      const m = median(values);
      expect(values).toEqual(copy);
      if (values.length === 0) expect(m).toBeNaN();
      else expect(m === byDefinition(values), `${m} against ${byDefinition(values)}`).toBe(true); // (=== : -0 and 0 alike)
    }), { numRuns: 2000, seed: 7 });
  });

  it('in place sorts the scratch array it is given', () => {
    const a = Float64Array.of(5, 1, 4, 2);
    expect(medianInPlace(a)).toBe(3);
    expect(Array.from(a)).toEqual([1, 2, 4, 5]);
  });
});
