import { describe, expect, it } from 'vitest';
import { parseText, detectAll } from '../../shared/capture/registry';
import { iostat, IOSTAT_COLUMNS } from '../../shared/capture/parsers/sysstat/iostat';
import type { ParsedCapture } from '../../shared/capture/types';
import { byColumn, jcKey, read, readJc, series, summary, withPrompt } from './sysstat-helpers';

const rd = (n: string): string => read('iostat', n);
const parse = (n: string): ParsedCapture => parseText(rd(n));

/** every number jc read must equal ours (converted back to the printed unit) */
function compareWithJc(name: string): number {
  const c = parse(name);
  const jc = readJc('iostat', name)!;
  const seen = new Map<string, number>();
  let cpuIdx = 0;
  let checked = 0;
  for (const row of jc) {
    if (row.type === 'cpu') {
      for (const [k, v] of Object.entries(row)) {
        if (typeof v !== 'number') continue;
        const s = c.series.find((x) => !x.labels && jcKey(x.column) === k)!;
        expect(s, `${name}: cpu ${k}`).toBeDefined();
        expect(s.values[cpuIdx]).toBe(v);
        checked++;
      }
      cpuIdx++;
      continue;
    }
    const dev = String(row.device);
    // jc 1.22 reads an iostat -t time stamp line as a device row: skip those
    if (/^\d+\/\d+\/\d+$/.test(dev)) continue;
    const i = seen.get(dev) ?? 0;
    seen.set(dev, i + 1);
    for (const [k, v] of Object.entries(row)) {
      if (typeof v !== 'number') continue;
      const s = c.series.find((x) => x.labels?.device === dev && jcKey(x.column) === k);
      expect(s, `${name}: ${dev} ${k}`).toBeDefined();
      const spec = IOSTAT_COLUMNS[s!.column]!;
      const ours = s!.values[i]!;
      if (spec.mult === 0.001) expect(ours).toBe(v / 1000);
      else expect(ours).toBeCloseTo(v * spec.mult, 6);
      checked++;
    }
  }
  return checked;
}

describe('iostat parser', () => {
  it('reads a device row holding a colour code or a NUL like the clean row, the kind given (rows read in place)', () => {
    const text = read('iostat', 'x-1-3.txt');
    const lines = text.split('\n');
    const want = parseText(text, { kind: 'iostat' });
    const i = lines.findIndex((l) => /^vda\s+\d/.test(l));
    expect(i).toBeGreaterThan(0);
    for (const dirty of [lines[i]!.replace(/(\d+\.\d+)/, '\x1b[1;31m$1\x1b[0m'), lines[i]!.replace(' ', ' \0')]) {
      // the kind given (a re-parse as iostat, or past the first 64 KiB): rows are read in place
      const c = parseText([...lines.slice(0, i), dirty, ...lines.slice(i + 1)].join('\n'), { kind: 'iostat' });
      expect(c.series.map((x) => [x.name, x.labels, x.values])).toEqual(want.series.map((x) => [x.name, x.labels, x.values]));
      expect(c.warnings).toEqual(want.warnings);
    }
  });

  it('reads the seed capture without repeated headers (random writes, sysstat 10 layout)', () => {
    const c = parse('iostat-x-d-1-during-randwrite.txt');
    expect(c.kind).toBe('iostat');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.command).toBe('iostat -x -d 1');
    expect(c.warnings).toEqual([]);
    expect(c.facts).toMatchObject({ kernel: '3.10.0-862.el7.x86_64', hostname: '7DGroup.testing-studio.com', cpu_threads: 2, date: '03/11/2020', arch: 'x86_64' });
    const w = series(c, 'writes_per_second', { device: 'vda' });
    expect(w.column).toBe('w/s');
    expect(w.unit).toBe('1/s');
    expect(w.firstSampleSinceBoot).toBe(true);
    expect(w.values[0]).toBe(1905);
    const sm = summary(w);
    expect(sm.count).toBe(21);
    expect(sm.min).toBe(779);
    expect(sm.max).toBe(2270);
    expect(sm.last).toBe(779);
    const interval = Array.from(w.values).slice(1);
    expect(sm.mean).toBeCloseTo(interval.reduce((a, b) => a + b, 0) / 20, 6);
    expect(w.lines).toEqual([5, 25]);
    // every column of the 10.x layout, in base units
    expect(series(c, 'write_bytes_per_second', { device: 'vda' }).values[0]).toBe(7876 * 1024);
    expect(series(c, 'avg_request_size_bytes', { device: 'vda' }).values[0]).toBeCloseTo(8.27 * 512, 9);
    expect(series(c, 'avg_queue_size', { device: 'vda' }).values[0]).toBe(199.6);
    expect(series(c, 'await_seconds', { device: 'vda' }).values[0]).toBe(91.33 / 1000);
    expect(series(c, 'read_await_seconds', { device: 'vda' }).values[0]).toBe(0.79 / 1000);
    expect(series(c, 'write_await_seconds', { device: 'vda' }).values[0]).toBe(92.47 / 1000);
    expect(series(c, 'service_time_seconds', { device: 'vda' }).values[0]).toBe(0.43 / 1000);
    expect(series(c, 'util_percent', { device: 'vda' }).values[0]).toBe(83);
    expect(series(c, 'write_merges_per_second', { device: 'vda' }).values[0]).toBe(64);
    expect(series(c, 'read_merges_per_second', { device: 'vda' }).values[0]).toBe(0);
    expect(series(c, 'reads_per_second', { device: 'vda' }).values[0]).toBe(24);
    expect(series(c, 'read_bytes_per_second', { device: 'vda' }).values[0]).toBe(96 * 1024);
    expect(c.series).toHaveLength(13);
    const ids = c.findings.map((f) => f.id).sort();
    expect(ids).toEqual(['io.device-saturated', 'io.random-writes']);
    const rw = c.findings.find((f) => f.id === 'io.random-writes')!;
    expect(rw.message).toMatch(/vda: w\/s ≈ 2,\d{3}, wkB\/s ≈ 8,\d{3}: 4\.\d KiB per write/);
    expect(rw.evidence).toBe('lines 5-25');
    expect(compareWithJc('iostat-x-d-1-during-randwrite.txt')).toBe(21 * 13);
  });

  it('reads the seed sequential-write capture', () => {
    const c = parse('iostat-x-d-1-during-seqwrite.txt');
    expect(c.command).toBe('iostat -x -d 1');
    expect(series(c, 'writes_per_second', { device: 'vda' }).values[1]).toBe(2530);
    expect(series(c, 'write_bytes_per_second', { device: 'vda' }).values[1]).toBe(174645248);
    expect(series(c, 'write_merges_per_second', { device: 'vda' }).values[1]).toBe(39715);
    const f = c.findings.find((x) => x.id === 'io.sequential-writes')!;
    expect(f.message).toMatch(/KiB per write/);
    expect(c.findings.some((x) => x.id === 'io.random-writes')).toBe(false);
    compareWithJc('iostat-x-d-1-during-seqwrite.txt');
  });

  it('reads the sysstat 12 -x layout with avg-cpu (iostat -x 1 3) like jc', () => {
    const c = parse('x-1-3.txt');
    expect(c.kind).toBe('iostat');
    expect(c.warnings).toEqual([]);
    expect(c.facts).toMatchObject({ kernel: '6.18.44-fc-v657', hostname: 'vm', cpu_threads: 2, date: '11/29/26' });
    const w = series(c, 'writes_per_second', { device: 'vda' });
    expect(w.values).toEqual([1390.06, 20026, 20335]);
    expect(series(c, 'discards_per_second', { device: 'vda' }).values[2]).toBe(15);
    expect(series(c, 'flushes_per_second', { device: 'vda' }).values[0]).toBe(16.36);
    expect(series(c, 'write_avg_request_size_bytes', { device: 'vda' }).values[1]).toBeCloseTo(12.2 * 1024, 9);
    expect(series(c, 'avg_queue_size', { device: 'vda' }).values[2]).toBe(0.75);
    expect(series(c, 'util_percent', { device: 'vda' }).values).toEqual([5.43, 74.8, 72]);
    expect(series(c, 'cpu_system_percent').values).toEqual([7.04, 83.84, 87.06]);
    expect(series(c, 'cpu_user_percent').firstSampleSinceBoot).toBe(true);
    expect(c.series.filter((s) => s.labels?.device === 'vda')).toHaveLength(22);
    expect(compareWithJc('x-1-3.txt')).toBe(3 * (6 + 22));
  });

  for (const name of ['x-d-1-3.txt', 'c-1-3.txt', 'plain-1-2.txt', 'x-t-1-3.txt', 'x-m-1-2.txt', 'd-m-1-2.txt', 'd-k-1-2.txt', 'x-p-all-1-2.txt', 'x-s-1-2.txt']) {
    it(`matches jc on ${name}`, () => {
      const c = parse(name);
      expect(c.kind).toBe('iostat');
      expect(c.warnings).toEqual([]);
      expect(compareWithJc(name)).toBeGreaterThan(5);
    });
  }

  it('converts -m (MB/s) and -d totals to bytes', () => {
    const c = parse('d-m-1-2.txt');
    expect(byColumn(c, 'MB_wrtn/s', { device: 'vda' }).values).toEqual([41.11 * 1048576, 277.13 * 1048576]);
    expect(series(c, 'write_bytes_total', { device: 'vda' }).values[0]).toBe(13576 * 1048576);
    expect(series(c, 'transfers_per_second', { device: 'vda' }).values[1]).toBe(20151);
    const x = parse('x-m-1-2.txt');
    expect(byColumn(x, 'rMB/s', { device: 'vda' }).values[0]).toBe(13.52 * 1048576);
    // rareq-sz stays in kB under -m
    expect(series(x, 'read_avg_request_size_bytes', { device: 'vda' }).values[0]).toBeCloseTo(11.58 * 1024, 9);
  });

  it('reads -t time stamps in C, en_US (AM/PM), de_DE (decimal comma), zh_CN and ISO formats', () => {
    const t = (n: string): (number | null)[] => series(parse(n), 'writes_per_second', { device: 'vda' }).times!;
    expect(t('x-t-1-3.txt')).toEqual([Date.UTC(2026, 10, 29, 22, 46, 40), Date.UTC(2026, 10, 29, 22, 46, 41), Date.UTC(2026, 10, 29, 22, 46, 42)]);
    expect(t('x-t-en_US.txt')).toEqual([Date.UTC(2026, 10, 29, 22, 46, 42), Date.UTC(2026, 10, 29, 22, 46, 43)]);
    expect(t('x-t-de_DE.txt')).toEqual([Date.UTC(2026, 10, 29, 22, 46, 43), Date.UTC(2026, 10, 29, 22, 46, 44)]);
    expect(t('x-t-zh_CN.txt')).toEqual([Date.UTC(2026, 10, 29, 22, 46, 44), Date.UTC(2026, 10, 29, 22, 46, 45)]);
    expect(t('x-t-iso.txt')).toEqual([Date.UTC(2026, 10, 29, 22, 46, 45), Date.UTC(2026, 10, 29, 22, 46, 46)]);
    const de = parse('x-t-de_DE.txt');
    expect(de.facts.date).toBe('29.11.2026');
    expect(series(de, 'reads_per_second', { device: 'vda' }).values[0]).toBe(1207.19);
    expect(series(de, 'cpu_user_percent').values).toEqual([18.64, 1.62]);
    expect(series(de, 'discard_avg_request_size_bytes', { device: 'vda' }).values[1]).toBeCloseTo(40481 * 1024, 6);
    expect(parse('x-t-zh_CN.txt').facts.date).toBe('2026年11月29日');
    for (const n of ['x-t-en_US.txt', 'x-t-de_DE.txt', 'x-t-zh_CN.txt', 'x-t-iso.txt']) expect(parse(n).warnings).toEqual([]);
  });

  it('reads the sysstat 9 "Time:" stamp on the banner date', () => {
    const lines = rd('iostat-x-d-1-during-seqwrite.txt').split('\n');
    // a derived variant: sysstat 9 printed "Time: hh:mm:ss AM" before each report
    const text = [...lines.slice(0, 3), 'Time: 09:04:54 AM', ...lines.slice(3, 5), '', 'Time: 09:04:55 AM', lines[3], lines[5]].join('\n');
    const c = parseText(text);
    expect(c.warnings).toEqual([]);
    const w = series(c, 'writes_per_second', { device: 'vda' });
    expect(w.values).toEqual([2101, 2530]);
    expect(w.times).toEqual([Date.UTC(2020, 2, 11, 9, 4, 54), Date.UTC(2020, 2, 11, 9, 4, 55)]);
  });

  it('-y: the first report is an interval report (from the command line, or the extra blank line)', () => {
    const c = parse('x-y-1-2.txt');
    expect(series(c, 'writes_per_second', { device: 'vda' }).firstSampleSinceBoot).toBe(false);
    expect(summary(series(c, 'writes_per_second', { device: 'vda' })).min).toBe(19923);
    const p = parseText(withPrompt('iostat -x -y 1 2', rd('x-1-3.txt')));
    expect(p.command).toBe('iostat -x -y 1 2');
    expect(series(p, 'writes_per_second', { device: 'vda' }).firstSampleSinceBoot).toBe(false);
    expect(series(parse('x-z-1-2.txt'), 'writes_per_second', { device: 'vda' }).firstSampleSinceBoot).toBe(true);
  });

  it('-p ALL: one series set per device and partition, NaN-padded where -z left a device out', () => {
    const c = parse('x-p-all-1-2.txt');
    const devs = new Set(c.series.map((s) => s.labels?.device).filter(Boolean));
    expect(devs.has('vda')).toBe(true);
    expect(devs.has('loop0')).toBe(true);
    for (const s of c.series) expect(s.values).toHaveLength(2);
  });

  it('-h: device in the last column, k/M/G suffixes scaled by 1024 from the column unit, % values', () => {
    const c = parse('x-h-1-2.txt');
    expect(c.kind).toBe('iostat');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'reads_per_second', { device: 'vda' }).values).toEqual([1170.98, 2]);
    expect(series(c, 'read_bytes_per_second', { device: 'vda' }).values[0]).toBeCloseTo(13.2 * 1024 * 1024, 3);
    expect(series(c, 'read_bytes_per_second', { device: 'vda' }).values[1]).toBeCloseTo(20 * 1024, 6);
    expect(series(c, 'read_merges_percent', { device: 'vda' }).values[0]).toBe(2.1);
    expect(series(c, 'util_percent', { device: 'vda' }).values).toEqual([9.3, 66.4]);
    expect(series(c, 'cpu_user_percent').values).toEqual([18.2, 25.8]);
    const d = parse('d-h-1-2.txt');
    expect(d.kind).toBe('iostat');
    expect(series(d, 'write_bytes_total', { device: 'vda' }).values[0]).toBeCloseTo(15.4 * 1024 ** 3, 0);
  });

  it('-o JSON', () => {
    const c = parse('json-x-1-2.txt');
    expect(c.kind).toBe('iostat');
    expect(c.facts).toMatchObject({ hostname: 'vm', kernel: '6.18.44-fc-v657', cpu_threads: 2 });
    expect(series(c, 'writes_per_second', { device: 'vda' }).values).toEqual([2606.58, 19595]);
    expect(series(c, 'util_percent', { device: 'vda' }).values).toEqual([9.85, 62]);
    expect(series(c, 'write_bytes_per_second', { device: 'vda' }).values[1]).toBe(244848 * 1024);
    expect(series(c, 'cpu_iowait_percent').values).toEqual([1.91, 17.65]);
    const t = parse('json-x-t-1-2.txt');
    expect(t.kind).toBe('iostat');
    expect(series(t, 'writes_per_second', { device: 'vda' }).times).toEqual([Date.UTC(2026, 10, 29, 23, 10, 57), Date.UTC(2026, 10, 29, 23, 10, 58)]);
    expect(series(t, 'cpu_user_percent').values[0]).toBe(59.87);
  });

  it('survives CRLF, ANSI colours, a prompt, a garbage line and a truncated last row', () => {
    const lines = rd('x-1-3.txt').split('\n');
    const last = lines.findLastIndex((l) => l.startsWith('vda'));
    lines[last] = lines[last]!.slice(0, 60);
    lines.splice(3, 0, 'some unrelated text here');
    const text = '\x1b[1;32muser@host:~$\x1b[0m iostat -x 1 3\r\n' + lines.join('\r\n');
    const c = parseText(text);
    expect(c.kind).toBe('iostat');
    expect(c.command).toBe('iostat -x 1 3');
    expect(c.warnings.some((w) => /^line 5: could not read "some unrelated/.test(w))).toBe(true);
    expect(c.warnings.some((w) => /could not read "vda/.test(w))).toBe(true);
    const w = series(c, 'writes_per_second', { device: 'vda' });
    expect(w.values.slice(0, 2)).toEqual([1390.06, 20026]);
    expect(w.values).toHaveLength(3);
    expect(Number.isNaN(w.values[2])).toBe(true);
  });

  it('detects iostat output and nothing else of the family', () => {
    expect(iostat.detect(rd('x-1-3.txt').split('\n'))).toBeGreaterThanOrEqual(0.9);
    expect(iostat.detect(rd('c-1-3.txt').split('\n'))).toBeGreaterThanOrEqual(0.9);
    expect(iostat.detect(read('mpstat', 'P-ALL-1-2.txt').split('\n'))).toBe(0);
    expect(iostat.detect(read('sar', 'd-1-2.txt').split('\n'))).toBe(0);
    expect(iostat.detect(read('vmstat', 'd-1-2.txt').split('\n'))).toBe(0);
    expect(iostat.detect(read('mpstat', 'json-1-2.txt').split('\n'))).toBe(0);
    expect(detectAll(rd('iostat-x-d-1-during-randwrite.txt').split('\n'))[0]!.kind).toBe('iostat');
  });
});
