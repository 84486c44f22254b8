import { describe, expect, it } from 'vitest';
import { formatPercent, pickByteUnit, splitComparator } from '../../shared/format';
import { metricInfo } from '../../shared/metrics';
import { formatQuantity, parseQuantity } from '../../shared/units';
import { sizeForInput } from '../../renderer/src/lib/format';

describe('renderer number formatting', () => {
  it('shows timeline changes with a sign and one decimal', () => {
    expect(formatPercent(46.43)).toBe('+46.4 %');
    expect(formatPercent(-5.56)).toBe('\u22125.6 %');
    expect(formatPercent(1857.23)).toBe('+1,857.2 %');
    expect(formatPercent(2000)).toBe('+2,000.0 %');
    expect(formatPercent(null)).toBe('—');
  });

  it('size inputs show short exact sizes exactly, long ones rounded in a binary unit', () => {
    expect(sizeForInput(8 * 2 ** 30)).toEqual({ unit: 'GiB', text: '8' });
    expect(sizeForInput(53687091200)).toEqual({ unit: 'GiB', text: '50' });
    expect(sizeForInput(53.7e9)).toEqual({ unit: 'GB', text: '53.7' });
    // free's 24684092 KiB: rounded for display; the input keeps the exact bytes until edited
    expect(sizeForInput(24684092 * 1024)).toEqual({ unit: 'GiB', text: '23.54' });
    expect(sizeForInput(512)).toEqual({ unit: 'B', text: '512' });
    expect(pickByteUnit(4096)).toBe('KiB');
  });
});

describe('a threshold typed with its comparator', () => {
  it('splits ≥, >=, ≤, <=, >, <, = from the value; none leaves the text as typed', () => {
    expect(splitComparator('≥ 100 MiB/s')).toEqual({ comparator: '>=', rest: '100 MiB/s' });
    expect(splitComparator(' >= 30,000')).toEqual({ comparator: '>=', rest: '30,000' });
    expect(splitComparator('<=70 ms')).toEqual({ comparator: '<=', rest: '70 ms' });
    expect(splitComparator('≤ 5 %')).toEqual({ comparator: '<=', rest: '5 %' });
    expect(splitComparator('> 1')).toEqual({ comparator: '>', rest: '1' });
    expect(splitComparator('< 1')).toEqual({ comparator: '<', rest: '1' });
    expect(splitComparator('= 0')).toEqual({ comparator: '=', rest: '0' });
    expect(splitComparator('100 MiB/s')).toEqual({ rest: '100 MiB/s' });
    // with the unit parser: "≥ 100 MiB/s" is 100 MiB/s at least
    expect(parseQuantity(splitComparator('≥ 100 MiB/s').rest)).toEqual({ value: 100 * 2 ** 20, unit: 'B/s' });
  });
});

describe('metric names people type', () => {
  it('IOPS, QPS, rps in any case are the known metrics: their unit, direction and rate word', () => {
    expect(metricInfo('IOPS')).toMatchObject({ name: 'IOPS', unit: '1/s', better: 'higher' });
    expect(metricInfo('QPS')).toMatchObject({ name: 'QPS', unit: '1/s', better: 'higher' });
    expect(metricInfo('rps').unit).toBe('1/s');
    expect(formatQuantity(43_000, '1/s', 'IOPS')).toBe('43.0k IOPS');
    expect(formatQuantity(286, '1/s', 'QPS')).toBe('286 QPS');
    expect(formatQuantity(286, '1/s', 'Requests_per_second')).toBe('286 req/s');
    expect(formatQuantity(286, '1/s', 'throughput')).toBe('286 /s');
  });
});
