import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { vmstat } from '../../shared/capture/parsers/sysstat/vmstat';
import type { ParsedCapture } from '../../shared/capture/types';
import { read, readJc, series, summary, withPrompt } from './sysstat-helpers';

const rd = (n: string): string => read('vmstat', n);
const parse = (n: string): ParsedCapture => parseText(rd(n));

const JC: Record<string, [string, number]> = {
  runnable_procs: ['procs_running', 1],
  uninterruptible_sleeping_procs: ['procs_blocked', 1],
  virtual_mem_used: ['swap_used_bytes', 1024],
  free_mem: ['memory_free_bytes', 1024],
  buffer_mem: ['buffer_bytes', 1024],
  cache_mem: ['cache_bytes', 1024],
  inactive_mem: ['memory_inactive_bytes', 1024],
  active_mem: ['memory_active_bytes', 1024],
  swap_in: ['swap_in_bytes_per_second', 1024],
  swap_out: ['swap_out_bytes_per_second', 1024],
  blocks_in: ['blocks_in_per_second', 1],
  blocks_out: ['blocks_out_per_second', 1],
  interrupts: ['interrupts_per_second', 1],
  context_switches: ['context_switches_per_second', 1],
  user_time: ['cpu_user_percent', 1],
  system_time: ['cpu_system_percent', 1],
  idle_time: ['cpu_idle_percent', 1],
  io_wait_time: ['cpu_iowait_percent', 1],
  stolen_time: ['cpu_steal_percent', 1],
};

/** jc reads memory in the printed unit; ours is bytes (× unit) */
function compareWithJc(name: string, unit = 1024): number {
  const c = parse(name);
  const jc = readJc('vmstat', name)!;
  let n = 0;
  jc.forEach((row, i) => {
    for (const [k, v] of Object.entries(row)) {
      const m = JC[k];
      if (!m || typeof v !== 'number') continue;
      const s = series(c, m[0]);
      expect(s.values[i], `${name} row ${i} ${k}`).toBe(m[1] === 1 ? v : v * unit);
      n++;
    }
    if (typeof row.epoch_utc === 'number') { expect(series(c, 'procs_running').times![i]).toBe(row.epoch_utc * 1000); n++; }
  });
  return n;
}

describe('vmstat parser', () => {
  it('reads a data row holding a colour code or a NUL like the clean row, the kind given (the in-place path used to skip it)', () => {
    const text = read('vmstat', 'plain-1-30.txt');
    const lines = text.split('\n');
    const want = parseText(text, { kind: 'vmstat' });
    const i = lines.findIndex((l, k) => k > 3 && /^\s*\d/.test(l));
    for (const dirty of [lines[i]!.replace(/(\d+)/, '\x1b[1;31m$1\x1b[0m'), lines[i]!.replace(' ', ' \0')]) {
      // the kind given (a re-parse as vmstat, or past the first 64 KiB): rows are read in place
      const c = parseText([...lines.slice(0, i), dirty, ...lines.slice(i + 1)].join('\n'), { kind: 'vmstat' });
      expect(c.series.map((x) => [x.name, x.values])).toEqual(want.series.map((x) => [x.name, x.values]));
      expect(c.warnings).toEqual(want.warnings);
    }
  });

  it('reads plain vmstat 1 3: every column, KiB → bytes, first sample since boot', () => {
    const c = parse('plain-1-3.txt');
    expect(c.kind).toBe('vmstat');
    expect(c.confidence).toBeGreaterThanOrEqual(0.95);
    expect(c.warnings).toEqual([]);
    expect(c.series.map((s) => s.name)).toEqual([
      'procs_running', 'procs_blocked', 'swap_used_bytes', 'memory_free_bytes', 'buffer_bytes', 'cache_bytes',
      'swap_in_bytes_per_second', 'swap_out_bytes_per_second', 'blocks_in_per_second', 'blocks_out_per_second',
      'interrupts_per_second', 'context_switches_per_second', 'cpu_user_percent', 'cpu_system_percent',
      'cpu_idle_percent', 'cpu_iowait_percent', 'cpu_steal_percent']);
    expect(series(c, 'procs_running').values).toEqual([10, 3, 3]);
    expect(series(c, 'memory_free_bytes').values[0]).toBe(23795548 * 1024);
    expect(series(c, 'memory_free_bytes').unit).toBe('B');
    expect(series(c, 'context_switches_per_second').values).toEqual([1656, 72746, 75417]);
    expect(series(c, 'context_switches_per_second').column).toBe('cs');
    expect(series(c, 'blocks_out_per_second').values[2]).toBe(286148);
    expect(series(c, 'cpu_system_percent').values).toEqual([7, 84, 88]);
    const cs = summary(series(c, 'context_switches_per_second'));
    expect(cs).toMatchObject({ count: 3, min: 72746, max: 75417, last: 75417, firstSampleSinceBoot: true });
    expect(series(c, 'procs_running').lines).toEqual([3, 5]);
    expect(compareWithJc('plain-1-3.txt')).toBe(3 * 17);
  });

  it('matches jc on -a, -t and -S M', () => {
    expect(compareWithJc('a-1-3.txt')).toBe(3 * 17);
    expect(compareWithJc('t-1-3.txt')).toBe(3 * 18);
    const c = parseText(withPrompt('vmstat -S M 1 3', rd('SM-1-3.txt')));
    expect(c.command).toBe('vmstat -S M 1 3');
    expect(series(c, 'memory_free_bytes').values[0]).toBe(23290 * 1048576);
    expect(series(c, 'cache_bytes').values[0]).toBe(625 * 1048576);
  });

  it('-S units come from the command line: k = 1000, K = 1024, m = 10^6, M = 2^20', () => {
    expect(series(parseText(withPrompt('vmstat -S k 1 2', rd('Sk-1-2.txt'))), 'memory_free_bytes').values[0]).toBe(24412938 * 1000);
    expect(series(parseText(withPrompt('vmstat -S K 1 2', rd('SK-1-2.txt'))), 'memory_free_bytes').values[0]).toBe(23843768 * 1024);
    expect(series(parseText(withPrompt('vmstat -Sm 1 2', rd('Sm-1-2.txt'))), 'memory_free_bytes').values[0]).toBe(24418 * 1e6);
  });

  it('without the command line, memory columns far too small for KiB are read as MiB (-S M), with a warning', () => {
    const sm = parseText(rd('SM-1-3.txt'));
    const withCmd = parseText(withPrompt('vmstat -S M 1 3', rd('SM-1-3.txt')));
    expect(series(sm, 'memory_free_bytes').values).toEqual(series(withCmd, 'memory_free_bytes').values);
    expect(sm.warnings).toEqual([expect.stringMatching(/memory columns look like MiB \(vmstat -S M\)/)]);
    // a plain KiB capture is left alone
    const kib = parseText(rd('SK-1-2.txt'));
    expect(series(kib, 'memory_free_bytes').values[0]).toBe(23843768 * 1024);
    expect(kib.warnings).toEqual([]);
  });

  it('only rates and CPU shares of the first report are since boot; memory and procs are snapshots', () => {
    const c = parseText(withPrompt('vmstat 1 2', rd('Sk-1-2.txt')));
    expect(series(c, 'memory_free_bytes').firstSampleSinceBoot).toBe(false);
    expect(series(c, 'procs_running').firstSampleSinceBoot).toBe(false);
    expect(series(c, 'context_switches_per_second').firstSampleSinceBoot).toBe(true);
    expect(series(c, 'cpu_user_percent').firstSampleSinceBoot).toBe(true);
  });

  it('-w with the procps 4 "gu" column and -t time stamps', () => {
    const c = parse('wt-1-3.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'cpu_guest_percent').values).toEqual([0, 0, 0]);
    expect(series(c, 'memory_free_bytes').values[1]).toBe(23845548 * 1024);
    expect(series(c, 'context_switches_per_second').values[1]).toBe(37898);
    expect(series(c, 'procs_running').times).toEqual([Date.UTC(2026, 10, 29, 22, 46, 39), Date.UTC(2026, 10, 29, 22, 46, 40), Date.UTC(2026, 10, 29, 22, 46, 41)]);
    expect(parse('w-1-3.txt').series).toHaveLength(18);
  });

  it('reads a German header ("frei", "Cache", "Zeitstempel") by position', () => {
    const c = parse('plain-de_DE.txt');
    expect(c.kind).toBe('vmstat');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'memory_free_bytes').values[0]).toBe(23858092 * 1024);
    expect(series(c, 'memory_free_bytes').column).toBe('frei');
    expect(series(c, 'cache_bytes').column).toBe('Cache');
    expect(series(c, 'procs_running').times![1]).toBe(Date.UTC(2026, 10, 29, 22, 46, 53));
  });

  it('-y: no since-boot sample when the command shows it', () => {
    const c = parseText(withPrompt('vmstat -y 1 3', rd('y-1-3.txt')));
    expect(series(c, 'procs_running').firstSampleSinceBoot).toBe(false);
    expect(summary(series(c, 'context_switches_per_second')).count).toBe(3);
  });

  it('a 30-sample run: repeated headers are fine, findings state the figures', () => {
    const text = rd('plain-1-30.txt');
    const lines = text.split('\n');
    const doubled = [...lines.slice(0, 17), ...lines.slice(0, 2), ...lines.slice(17)].join('\n');
    const c = parseText(doubled);
    expect(c.warnings).toEqual([]);
    expect(summary(series(c, 'procs_running')).count).toBe(30);
    const f = c.findings.find((x) => x.id === 'cpu.context-switches-high')!;
    expect(f.message).toMatch(/^cs ≈ [\d,]+\/s and in ≈ [\d,]+\/s/);
    expect(f.evidence).toMatch(/^lines 3-\d+$/);
  });

  it('context-switch finding uses the CPU count from other captures of the experiment', async () => {
    const { evaluateFindings } = await import('../../shared/capture/registry');
    const vm = parse('plain-1-30.txt');
    const lscpuLike = { ...parse('plain-1-3.txt'), kind: 'lscpu', facts: { cpu_threads: 2 } };
    const [f] = evaluateFindings([vm, lscpuLike]);
    expect(f!.find((x) => x.id === 'cpu.context-switches-high')!.message).toMatch(/on 2 CPUs \([\d,]+ context switches per CPU per second\)/);
  });

  it('-d: per-disk counters', () => {
    const c = parse('d-1-2.txt');
    expect(c.kind).toBe('vmstat');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'reads_total', { device: 'vda' }).values).toEqual([393789, 393792]);
    expect(series(c, 'read_bytes_total', { device: 'vda' }).values[0]).toBe(9117842 * 512);
    expect(series(c, 'write_time_seconds_total', { device: 'vda' }).values[1]).toBe(91231 / 1000);
    expect(series(c, 'io_time_seconds_total', { device: 'vda' }).values).toEqual([27, 28]);
    const jc = readJc('vmstat', 'd-1-2.txt')!;
    const vdaRows = jc.filter((r) => r.disk === 'vda');
    expect(series(c, 'writes_total', { device: 'vda' }).values).toEqual(vdaRows.map((r) => r.total_writes));
    expect(series(c, 'write_merges_total', { device: 'vda' }).values).toEqual(vdaRows.map((r) => r.merged_writes));
  });

  it('-s: summary as metrics and memory facts', () => {
    const c = parse('s.txt');
    expect(c.kind).toBe('vmstat');
    expect(c.warnings).toEqual([]);
    expect(c.facts.memory_total_bytes).toBe(24684092 * 1024);
    expect(c.facts.swap_total_bytes).toBe(0);
    expect(c.metrics.find((m) => m.name === 'cpu_context_switches_total')!.value).toBe(2061567);
    expect(c.metrics.find((m) => m.name === 'interrupts_total')!.value).toBe(770318);
    expect(c.metrics.find((m) => m.name === 'free_memory_bytes')!.value).toBe(23855896 * 1024);
    expect(c.metrics.find((m) => m.name === 'boot_time_seconds')!.value).toBe(1795992077);
  });

  it('-D, -f and -p', () => {
    const d = parse('D.txt');
    expect(d.kind).toBe('vmstat');
    expect(d.warnings).toEqual([]);
    const m = (c: ParsedCapture, n: string): number | undefined => c.metrics.find((x) => x.name === n)?.value;
    expect(m(d, 'disks_total')).toBe(Number(/(\d+) disks/.exec(rd('D.txt'))![1]));
    expect(m(d, 'reading_seconds_total')).toBe(Number(/(\d+) milli reading/.exec(rd('D.txt'))![1]) / 1000);
    expect(m(parse('f.txt'), 'forks_total')).toBe(Number(/(\d+) forks/.exec(rd('f.txt'))![1]));
    const p = parseText(withPrompt('vmstat -p vda 1 2', rd('p-vda-1-2.txt')));
    expect(p.warnings).toEqual([]);
    const rows = rd('p-vda-1-2.txt').trim().split('\n').slice(1).map((l) => l.trim().split(/\s+/).map(Number));
    expect(series(p, 'reads_total', { device: 'vda' }).values).toEqual(rows.map((r) => r[0]));
    expect(series(p, 'requested_write_bytes_total', { device: 'vda' }).values).toEqual(rows.map((r) => r[3]! * 512));
  });

  it('mangled: CRLF, prompt, garbage and a truncated last row', () => {
    const lines = rd('plain-1-3.txt').trimEnd().split('\n');
    lines[lines.length - 1] = lines[lines.length - 1]!.slice(0, 25);
    lines.splice(3, 0, 'Segmentation fault? no, just noise');
    const c = parseText('$ vmstat 1 3\r\n' + lines.join('\r\n') + '\r\n');
    expect(c.kind).toBe('vmstat');
    expect(c.command).toBe('vmstat 1 3');
    expect(c.warnings).toHaveLength(2);
    expect(c.warnings[0]).toMatch(/^line 5: could not read "Segmentation/);
    expect(c.warnings[1]).toMatch(/^line 7: could not read/);
    expect(series(c, 'procs_running').values).toEqual([10, 3]);
  });

  it('detection', () => {
    expect(vmstat.detect(rd('plain-1-3.txt').split('\n'))).toBeGreaterThanOrEqual(0.95);
    expect(vmstat.detect(rd('w-1-3.txt').split('\n'))).toBeGreaterThanOrEqual(0.95);
    expect(vmstat.detect(read('iostat', 'x-1-3.txt').split('\n'))).toBe(0);
    expect(vmstat.detect(read('sar', 'r-1-2.txt').split('\n'))).toBe(0);
  });
});
