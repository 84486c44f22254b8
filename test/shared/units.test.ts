import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  BASE_UNITS, comparableUnits, convertValue, formatNumber, formatQuantity, parseQuantity, toBase, unitDimension, unitLabel,
} from '../../shared/units';

const q = (value: number, unit: string) => ({ value, unit });

/** parseQuantity, with values compared to 12 significant digits (0.1 × 1e6 is not exact in binary). */
function expectParse(text: string, value: number, unit: string, defaultUnit?: string): void {
  const got = parseQuantity(text, defaultUnit);
  expect(got, text).not.toBeNull();
  expect(got!.unit, text).toBe(unit);
  expect(got!.value, text).toBeCloseTo(value, Math.max(0, 12 - Math.ceil(Math.log10(Math.abs(value) || 1))));
}

describe('parseQuantity: numbers', () => {
  it.each([
    ['8,788', 8788], ['1,234,567.5', 1234567.5], ['12.5', 12.5], ['-3', -3], ['+3', 3], ['\u22123', -3],
    ['1e3', 1000], ['1.5E-3', 0.0015], ['.5', 0.5], ['  42  ', 42], ['12,5', 12.5], ['0,125', 0.125], ['1,2345', 1.2345],
  ])('%s → %d', (text, value) => {
    expect(parseQuantity(text)).toEqual(q(value, ''));
  });

  it('reads a decimal comma when the part after it is not 3 digits, thousands when it is', () => {
    expectParse('12,5 ms', 0.0125, 's');
    expectParse('1,234 ms', 1.234, 's');
    expect(parseQuantity('8,788 KiB/s')).toEqual(q(8788 * 1024, 'B/s'));
  });

  it.each([['43.0k', 43000], ['43.0K', 43000], ['1.2M', 1.2e6], ['2G', 2e9], ['3T', 3e12]])('SI multiplier %s', (text, value) => {
    expect(parseQuantity(text)).toEqual(q(value, ''));
  });

  it.each(['', '   ', 'abc', 'k', '/s', '5 6', '1,5.3', '1,234,56', '5,', '1.2.3', '1m30s', 'NaN', 'Infinity', '- 5', '9'.repeat(400)])(
    'null for %j',
    (text) => {
      expect(parseQuantity(text)).toBeNull();
    },
  );
});

describe('parseQuantity: units', () => {
  it.each([
    '/s', '1/s', 'per second', 'req/s', 'reqs/s', 'requests/s', 'requests/sec', 'rps', 'qps', 'QPS', 'tps', 'iops', 'IOPS',
    'ops/s', 'op/s', 'events/s', '#/sec', 'Req/S', 'requests per second', 'connections/s', 'count/s',
  ])('rate: 5 %s', (unit) => {
    expect(parseQuantity(`5 ${unit}`)).toEqual(q(5, '1/s'));
    // "51/s" is fifty-one per second
    if (!unit.startsWith('1')) expect(parseQuantity(`5${unit}`)).toEqual(q(5, '1/s'));
  });

  it('rates per minute and per millisecond', () => {
    expect(parseQuantity('120 /min')).toEqual(q(2, '1/s'));
    expect(parseQuantity('90 req/min')).toEqual(q(1.5, '1/s'));
    expect(parseQuantity('3 req/ms')).toEqual(q(3000, '1/s'));
  });

  it('SI multipliers on counted rates', () => {
    expect(parseQuantity('43.0k IOPS')).toEqual(q(43000, '1/s'));
    expect(parseQuantity('50k req/s')).toEqual(q(50000, '1/s'));
    expect(parseQuantity('1.2M req/s')).toEqual(q(1.2e6, '1/s'));
    expect(parseQuantity('2kreq/s')).toEqual(q(2000, '1/s'));
    expect(parseQuantity('2kIOPS')).toEqual(q(2000, '1/s'));
    expect(parseQuantity('176k /s')).toEqual(q(176000, '1/s'));
    expect(parseQuantity('43.0k', 'IOPS')).toEqual(q(43000, '1/s'));
  });

  it.each([
    ['512 B', 512], ['512 bytes', 512], ['1 kB', 1e3], ['1 KB', 1e3], ['1 KiB', 1024], ['1 kib', 1024], ['2 MB', 2e6],
    ['2 MiB', 2 * 1024 ** 2], ['2.1 GB', 2.1e9], ['3 GiB', 3 * 1024 ** 3], ['1 TB', 1e12], ['1 TiB', 1024 ** 4],
    ['1 PB', 1e15], ['1 PiB', 1024 ** 5], ['64 bit', 8],
  ])('bytes: %s', (text, value) => {
    expectParse(text, value, 'B');
  });

  it.each([
    ['168 MiB/s', 168 * 1024 ** 2], ['168MiB/s', 168 * 1024 ** 2], ['8,788 KiB/s', 8788 * 1024], ['170552 kB/s', 170552000],
    ['5 MBps', 5e6], ['5 MB/sec', 5e6], ['2 GiB per second', 2 * 1024 ** 3], ['60 MB/min', 1e6],
    ['8 bit/s', 1], ['8 b/s', 1], ['8 bps', 1], ['1 kbit/s', 125], ['1 kbps', 125], ['1 Mbit/s', 125e3], ['1 Mbps', 125e3],
    ['1 Gbit/s', 125e6], ['1 Gbps', 125e6],
  ])('byte rates: %s', (text, value) => {
    expectParse(text, value, 'B/s');
  });

  it('bare K/M/G stay SI multipliers of the number, whatever the default unit', () => {
    expect(parseQuantity('4K', 'B')).toEqual(q(4000, 'B'));
    expect(parseQuantity('2 G', 'B')).toEqual(q(2e9, 'B'));
  });

  it.each([
    ['35 ns', 35e-9], ['812 us', 812e-6], ['812 µs', 812e-6], ['812 μs', 812e-6], ['207 ms', 0.207], ['70 ms', 0.07],
    ['1.4 s', 1.4], ['3 sec', 3], ['3 secs', 3], ['3 seconds', 3], ['2 min', 120], ['1 h', 3600], ['207ms', 0.207],
  ])('durations: %s', (text, value) => {
    expectParse(text, value, 's');
  });

  it('207 ms is exactly 0.207 s', () => {
    expect(parseQuantity('207 ms')).toEqual(q(0.207, 's'));
  });

  it('percent, ratio, count', () => {
    expect(parseQuantity('95 %')).toEqual(q(95, '%'));
    expect(parseQuantity('95%')).toEqual(q(95, '%'));
    expect(parseQuantity('5 percent')).toEqual(q(5, '%'));
    expect(parseQuantity('0.05 ratio')).toEqual(q(0.05, 'ratio'));
    expect(parseQuantity('3 count')).toEqual(q(3, 'count'));
    expect(parseQuantity('3x')).toEqual(q(3, 'count'));
    expect(parseQuantity('3 x')).toEqual(q(3, 'count'));
  });

  it('a bare number takes the default unit, which may be any unit', () => {
    expect(parseQuantity('8788', 'KiB/s')).toEqual(q(8998912, 'B/s'));
    expect(parseQuantity('207', 'ms')).toEqual(q(0.207, 's'));
    expect(parseQuantity('2,197', 'IOPS')).toEqual(q(2197, '1/s'));
    expect(parseQuantity('12', 'connections')).toEqual(q(12, 'connections'));
    expect(parseQuantity('12', ' connections ')).toEqual(q(12, 'connections'));
    expect(parseQuantity('12')).toEqual(q(12, ''));
    expect(parseQuantity('12 ms', 'KiB/s')).toEqual(q(0.012, 's'));
  });

  it('keeps other unit words as typed', () => {
    expect(parseQuantity('12 connections')).toEqual(q(12, 'connections'));
    expect(parseQuantity('  3 errors  ')).toEqual(q(3, 'errors'));
    expect(parseQuantity('3 Kelvin')).toEqual(q(3, 'Kelvin'));
    expect(parseQuantity('12k connections')).toEqual(q(12000, 'connections'));
    expect(parseQuantity('5 ops')).toEqual(q(5, 'ops'));
  });

  it('stays fast on pathological input', () => {
    const inputs = [
      '9'.repeat(100_000), '1,'.repeat(50_000), `1${',123'.repeat(25_000)}x`, `1${' '.repeat(100_000)}x`, `1 ${'a'.repeat(100_000)}/s`,
      `1 ${'per '.repeat(25_000)}`, `1 ${'ab '.repeat(33_000)}/s`, `1 ${'ab-'.repeat(33_000)}1/s`, `1e${'1'.repeat(100_000)}`,
      `1.${'1'.repeat(100_000)}k`, `1 ${'k'.repeat(100_000)}`, `1${'ps'.repeat(50_000)}`, `1 ${'/'.repeat(100_000)}`,
      `${'1'.repeat(50_000)}.${'1'.repeat(50_000)}e`, `-${'\u2212'.repeat(100_000)}`,
    ];
    for (const text of inputs) {
      const start = performance.now();
      parseQuantity(text);
      parseQuantity(text, 'KiB/s');
      expect(performance.now() - start, text.slice(0, 20)).toBeLessThan(250);
    }
  });

  it('never throws on arbitrary text', () => {
    const unitish = fc.constantFrom('', ' ', 'k', 'K', 'M', '/s', 'per', 'second', 'KiB', 'B', 'b', 'ps', 'ms', '%', 'e', ',', '.', '-', '\u2212', 'µs', 'req', '#');
    const text = fc.oneof(
      fc.string({ unit: 'binary' }),
      fc.array(fc.oneof(unitish, fc.integer().map(String), fc.double().map(String)), { maxLength: 8 }).map((parts) => parts.join('')),
    );
    fc.assert(fc.property(text, fc.string(), (t, d) => {
      const r = parseQuantity(t, d);
      expect(r === null || Number.isFinite(r.value)).toBe(true);
    }), { numRuns: 2000 });
  });
});

describe('toBase', () => {
  it('converts every unit parseQuantity knows', () => {
    expect(toBase(8788, 'KiB/s')).toEqual(q(8998912, 'B/s'));
    expect(toBase(207, 'ms')).toEqual(q(0.207, 's'));
    expect(toBase(140, 'req/s')).toEqual(q(140, '1/s'));
    expect(toBase(2.1, 'GB')).toEqual(q(2.1e9, 'B'));
    expect(toBase(1, 'Gbps')).toEqual(q(125e6, 'B/s'));
    expect(toBase(95, '%')).toEqual(q(95, '%'));
    expect(toBase(0.5, 'ratio')).toEqual(q(0.5, 'ratio'));
  });

  it('leaves unknown units and no unit unchanged', () => {
    expect(toBase(12, 'connections')).toEqual(q(12, 'connections'));
    expect(toBase(12, '')).toEqual(q(12, ''));
    expect(toBase(12, 'k')).toEqual(q(12, 'k'));
  });
});

describe('comparing and converting', () => {
  it('unitDimension', () => {
    expect(unitDimension('1/s')).toBe('rate');
    expect(unitDimension('IOPS')).toBe('rate');
    expect(unitDimension('KiB/s')).toBe('data rate');
    expect(unitDimension('GB')).toBe('data size');
    expect(unitDimension('ms')).toBe('time');
    expect(unitDimension('%')).toBe(unitDimension('ratio'));
    expect(unitDimension('')).toBe(unitDimension('count'));
    expect(unitDimension('connections')).toBe('custom:connections');
    // a custom unit spelled like a dimension name is still its own thing
    expect(comparableUnits('rate', '1/s')).toBe(false);
  });

  it.each([
    ['1/s', '1/s', true], ['B/s', 'B/s', true], ['%', 'ratio', true], ['ratio', '%', true], ['', 'count', true],
    ['KiB/s', 'B/s', true], ['ms', 's', true], ['req/s', 'IOPS', true], ['connections', 'connections', true],
    ['1/s', 'B/s', false], ['B', 'B/s', false], ['s', '1/s', false], ['%', 'count', false], ['', '%', false],
    ['connections', 'Connections', false], ['connections', '', false], ['connections', 'count', false],
  ])('comparableUnits(%j, %j) = %s', (a, b, expected) => {
    expect(comparableUnits(a, b)).toBe(expected);
  });

  it('convertValue', () => {
    expect(convertValue(0.05, 'ratio', '%')).toBe(5);
    expect(convertValue(95, '%', 'ratio')).toBe(0.95);
    expect(convertValue(8788, 'KiB/s', 'B/s')).toBe(8998912);
    expect(convertValue(8998912, 'B/s', 'KiB/s')).toBe(8788);
    expect(convertValue(207, 'ms', 's')).toBe(0.207);
    expect(convertValue(1, 'GB', 'MB')).toBe(1000);
    expect(convertValue(5, '', 'count')).toBe(5);
    expect(convertValue(12, 'connections', 'connections')).toBe(12);
    expect(convertValue(1, 's', 'B')).toBeNull();
    expect(convertValue(1, '%', 'count')).toBeNull();
    expect(convertValue(1, 'connections', 'errors')).toBeNull();
  });
});

describe('formatNumber', () => {
  it.each([
    [2197, '2,197'], [1857.2, '1,857.2'], [0.0123, '0.0123'], [0.012345, '0.0123'], [97.844, '97.84'], [140, '140'],
    [-3, '\u22123'], [-1234.5, '\u22121,234.5'], [0, '0'], [-0, '0'], [-0.00001, '\u22120.00001'], [1e6, '1,000,000'],
    [NaN, '—'], [Infinity, '—'], [-Infinity, '—'],
  ])('%d → %s', (v, text) => {
    expect(formatNumber(v)).toBe(text);
  });
});

describe('formatQuantity', () => {
  it.each([
    [286, 'requests_per_second', '286 req/s'], [140, 'requests_per_second', '140 req/s'], [2197, 'iops', '2,197 IOPS'],
    [2197, 'iops_read', '2,197 IOPS'], [43000, 'iops', '43.0k IOPS'], [50000, 'requests_per_second', '50.0k req/s'],
    [176000, undefined, '176k /s'], [1.25e6, 'requests_per_second', '1.25M req/s'], [9999.5, undefined, '9,999.5 /s'],
    [999_999, undefined, '1.00M /s'], [500, 'queries_per_second', '500 QPS'], [500, 'transactions_per_second', '500 TPS'],
    [500, 'events_per_second', '500 /s'], [-43000, 'iops', '\u221243.0k IOPS'],
  ])('1/s: %d (%s) → %s', (v, metric, text) => {
    expect(formatQuantity(v, '1/s', metric)).toBe(text);
  });

  it.each([
    [8998912, 'B/s', '8,788 KiB/s'], [176160768, 'B/s', '168 MiB/s'], [100 * 1024 ** 2, 'B/s', '100 MiB/s'],
    [170552000, 'B/s', '163 MiB/s'], [512, 'B', '512 B'], [4096, 'B', '4 KiB'], [1.96 * 1024 ** 3, 'B', '1.96 GiB'],
    [23.5 * 1024 ** 3, 'B', '23.5 GiB'], [2.1e9, 'B', '2.1 GB'], [53.7e9, 'B', '53.7 GB'], [1.5 * 1024 ** 3, 'B', '1.5 GiB'],
    [0, 'B', '0 B'], [0.125, 'B/s', '0.125 B/s'], [-4096, 'B', '\u22124 KiB'], [1000, 'B', '1 kB'],
  ])('bytes: %d %s → %s', (v, unit, text) => {
    expect(formatQuantity(v, unit)).toBe(text);
  });

  it.each([
    [0.207, '207 ms'], [0.06, '60 ms'], [0.07, '70 ms'], [1.4, '1.4 s'], [0.000812, '812 µs'], [35e-9, '35 ns'],
    [125, '125 s'], [0, '0 s'], [0.9999999, '1 s'], [-0.5, '\u2212500 ms'],
  ])('s: %d → %s', (v, text) => {
    expect(formatQuantity(v, 's')).toBe(text);
  });

  it('percent, ratio, counts, custom units, non-finite values', () => {
    expect(formatQuantity(95, '%')).toBe('95 %');
    expect(formatQuantity(0.5, '%')).toBe('0.5 %');
    expect(formatQuantity(0.05, 'ratio')).toBe('5 %');
    expect(formatQuantity(1234, 'count')).toBe('1,234');
    expect(formatQuantity(1234, '')).toBe('1,234');
    expect(formatQuantity(12, 'connections')).toBe('12 connections');
    expect(formatQuantity(NaN, 'B')).toBe('—');
    expect(formatQuantity(Infinity, '1/s')).toBe('—');
    expect(formatQuantity(1e308, 'GB')).toBe('—');
  });

  it('takes values in a non-base unit it knows too', () => {
    expect(formatQuantity(8788, 'KiB/s')).toBe('8,788 KiB/s');
    expect(formatQuantity(207, 'ms')).toBe('207 ms');
  });
});

describe('unitLabel', () => {
  it.each([
    ['1/s', 'requests_per_second', 'req/s'], ['1/s', 'iops', 'IOPS'], ['1/s', 'queries_per_second', 'QPS'],
    ['1/s', 'transactions_per_second', 'TPS'], ['1/s', undefined, '/s'], ['B/s', undefined, 'B/s'], ['B', undefined, 'B'],
    ['s', 'latency_p99_seconds', 's'], ['%', undefined, '%'], ['ratio', undefined, 'ratio'], ['count', undefined, ''],
    ['', undefined, ''], ['connections', undefined, 'connections'],
  ])('%s (%s) → %j', (unit, metric, label) => {
    expect(unitLabel(unit, metric)).toBe(label);
  });
});

describe('round trips', () => {
  it.each([
    ['140 req/s', 'requests_per_second', undefined, '140 req/s'],
    ['205 req/s', 'requests_per_second', undefined, '205 req/s'],
    ['286 req/s', 'requests_per_second', undefined, '286 req/s'],
    ['2197 IOPS', 'iops', undefined, '2,197 IOPS'],
    ['2,197', 'iops', 'IOPS', '2,197 IOPS'],
    ['43.0k IOPS', 'iops', undefined, '43.0k IOPS'],
    ['8,788 KiB/s', 'bandwidth_bytes_per_second', undefined, '8,788 KiB/s'],
    ['168 MiB/s', 'bandwidth_bytes_per_second', undefined, '168 MiB/s'],
    ['100 MiB/s', 'bandwidth_bytes_per_second', undefined, '100 MiB/s'],
    ['207 ms', 'latency_p99_seconds', undefined, '207 ms'],
    ['70 ms', 'latency_p99_seconds', undefined, '70 ms'],
    ['2.1 GB', undefined, undefined, '2.1 GB'],
    ['95 %', 'cpu_util_percent', undefined, '95 %'],
    ['5 %', 'error_ratio', undefined, '5 %'],
    ['30,000 req/s', 'requests_per_second', undefined, '30.0k req/s'],
  ])('%s', (text, metric, defaultUnit, shown) => {
    const parsed = parseQuantity(text, defaultUnit);
    expect(parsed).not.toBeNull();
    expect(formatQuantity(parsed!.value, parsed!.unit, metric)).toBe(shown);
    expect(parseQuantity(shown)).toEqual(parsed);
  });

  it('5 % typed for a ratio metric is stored as 0.05 and shown as 5 %', () => {
    const parsed = parseQuantity('5 %')!;
    const stored = convertValue(parsed.value, parsed.unit, 'ratio');
    expect(stored).toBe(0.05);
    expect(formatQuantity(stored!, 'ratio', 'error_ratio')).toBe('5 %');
  });

  it('parseQuantity reads back what formatQuantity shows, within the display rounding', () => {
    const value = fc.double({ min: -1e300, max: 1e300, noNaN: true });
    fc.assert(fc.property(value, fc.constantFrom(...BASE_UNITS), (v, unit) => {
      const shown = formatQuantity(v, unit);
      const back = parseQuantity(shown);
      expect(back, shown).not.toBeNull();
      expect(comparableUnits(back!.unit, unit), shown).toBe(true);
      const inUnit = convertValue(back!.value, back!.unit, unit)!;
      if (Math.abs(v) >= 1e-6) expect(Math.abs(inUnit - v) / Math.abs(v), shown).toBeLessThan(0.01);
    }), { numRuns: 3000 });
  });
});

describe('editable and chart forms', () => {
  it('gives text that reads back exactly, in the unit people use', async () => {
    const { editableQuantity, displayScale, parseQuantity } = await import('../../shared/units');
    expect(editableQuantity(176160768, 'B/s')).toEqual({ text: '168 MiB/s', unit: '' });
    expect(editableQuantity(0.207, 's')).toEqual({ text: '207 ms', unit: '' });
    expect(editableQuantity(43000, '1/s', 'iops')).toEqual({ text: '43.0k IOPS', unit: '' });
    expect(editableQuantity(12, 'connections')).toEqual({ text: '12', unit: 'connections' });
    // not exact when shown: the plain base value and its unit
    const odd = editableQuantity(8998912.5, 'B/s');
    expect(parseQuantity(odd.text, odd.unit)).toEqual({ value: 8998912.5, unit: 'B/s' });
    expect(displayScale('B/s', 176160768)).toEqual({ factor: 1 / 2 ** 20, label: 'MiB/s' });
    expect(displayScale('s', 0.06)).toEqual({ factor: 1000, label: 'ms' });
    expect(displayScale('ratio', 0.3)).toEqual({ factor: 100, label: '%' });
    expect(displayScale('1/s', 50000, 'requests_per_second')).toEqual({ factor: 1, label: 'req/s' });
  });
});
