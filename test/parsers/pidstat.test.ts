import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { pidstat } from '../../shared/capture/parsers/sysstat/pidstat';
import { PIDSTAT_SPEC } from '../../shared/capture/parsers/sysstat/pidstat';
import type { ParsedCapture } from '../../shared/capture/types';
import { jcKey, read, readJc, series, withPrompt } from './sysstat-helpers';

const rd = (n: string): string => read('pidstat', n);
const parse = (n: string): ParsedCapture => parseText(rd(n));
const T = (h: number, m: number, s: number): number => Date.UTC(2026, 10, 29, h, m, s);

function compareWithJc(name: string): number {
  const c = parse(name);
  const jc = readJc('pidstat', name)!;
  let n = 0;
  for (const row of jc) {
    const labels = { pid: String(row.pid), command: String(row.command) };
    for (const [k, v] of Object.entries(row)) {
      if (['time', 'uid', 'pid', 'command'].includes(k)) continue;
      const num = typeof v === 'number' ? v : Number(v); // jc 1.22 leaves %wait as a string
      const s = c.series.find((x) => jcKey(x.column) === k && JSON.stringify(x.labels) === JSON.stringify(labels));
      expect(s, `${name}: ${k} ${JSON.stringify(labels)}`).toBeDefined();
      const i = s!.times!.indexOf((row.time as number) * 1000);
      expect(i).toBeGreaterThanOrEqual(0);
      const mult = PIDSTAT_SPEC.columns[s!.column]?.mult ?? 1;
      expect(s!.values[i]).toBe(num * mult);
      n++;
    }
  }
  return n;
}

describe('pidstat parser', () => {
  it('reads pidstat 1 2 (-u): series per pid and command, Average block as metrics', () => {
    const c = parse('u-1-2.txt');
    expect(c.kind).toBe('pidstat');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(c.facts).toMatchObject({ hostname: 'vm', cpu_threads: 2, kernel: '6.18.44-fc-v657' });
    const nginx = { pid: '8530', command: 'nginx' };
    expect(series(c, 'cpu_percent', nginx).values).toEqual([69.31, 69]);
    expect(series(c, 'cpu_percent', nginx).column).toBe('%CPU');
    expect(series(c, 'cpu_system_percent', nginx).values).toEqual([59.41, 60]);
    expect(series(c, 'cpu_user_percent', nginx).values).toEqual([9.9, 9]);
    expect(series(c, 'cpu_wait_percent', nginx).values).toEqual([23.76, 24]);
    expect(series(c, 'cpu_number', nginx).values).toEqual([0, 0]);
    expect(series(c, 'cpu_percent', nginx).times).toEqual([T(22, 46, 34), T(22, 46, 35)]);
    // interval reports: nothing is since boot
    expect(series(c, 'cpu_percent', nginx).firstSampleSinceBoot).toBe(false);
    const avg = c.metrics.find((m) => m.name === 'cpu_percent' && m.labels?.pid === '8530')!;
    expect(avg).toMatchObject({ value: 69.15, unit: '%', column: '%CPU', labels: nginx });
    // the Average block is not a sample
    for (const s of c.series) expect(s.values.length).toBeLessThanOrEqual(2);
  });

  it('-r, -d, -w: memory, I/O and context switches in base units', () => {
    const r = parse('r-1-2.txt');
    expect(r.warnings).toEqual([]);
    const p1 = { pid: '1', command: 'process_api' };
    expect(series(r, 'minor_faults_per_second', p1).values).toEqual([2.94, 2]);
    expect(series(r, 'rss_bytes', p1).values[0]).toBe(14712 * 1024);
    expect(series(r, 'virtual_memory_bytes', p1).values[0]).toBe(45072 * 1024);
    expect(series(r, 'memory_percent', p1).values[0]).toBe(0.06);
    const d = parse('d-1-2.txt');
    expect(series(d, 'write_bytes_per_second', { pid: '9279', command: 'load.sh' }).values).toEqual([279219.61 * 1024, 284804 * 1024]);
    expect(series(d, 'io_delay_ticks', { pid: '9279', command: 'load.sh' }).values[0]).toBe(0);
    const w = parse('w-1-2.txt');
    expect(series(w, 'voluntary_switches_per_second', { pid: '15', command: 'rcu_preempt' }).values).toEqual([58.42, 65]);
    expect(series(w, 'nonvoluntary_switches_per_second', { pid: '15', command: 'rcu_preempt' }).values).toEqual([0, 2]);
  });

  it('-urd combined blocks and -p 1 -urdw', () => {
    const c = parse('urd-1-2.txt');
    expect(c.warnings).toEqual([]);
    const p1 = { pid: '1', command: 'process_api' };
    expect(series(c, 'cpu_system_percent', p1).values).toEqual([0.99, 1]);
    expect(series(c, 'rss_bytes', p1).values[0]).toBe(14712 * 1024);
    const p = parse('p1-1-2.txt');
    expect(new Set(p.series.map((s) => s.labels?.pid))).toEqual(new Set(['1']));
    expect(series(p, 'rss_bytes', p1).values).toEqual([14840 * 1024, 14840 * 1024]);
    expect(series(p, 'voluntary_switches_per_second', p1).values).toEqual([0, 0]);
  });

  it('-t: TGID/TID rows, threads labelled tid', () => {
    const c = parse('t-1-1.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'cpu_percent', { pid: '10199', command: 'dd' }).values).toEqual([7.92]);
    expect(series(c, 'cpu_percent', { pid: '10199', tid: '10199', command: 'dd' }).values).toEqual([7.92]);
    expect(series(c, 'cpu_percent', { pid: '6228', tid: '6228', command: 'bash' }).values).toEqual([1.98]);
  });

  it('-h and -H (one line per process, epoch times) match jc', () => {
    expect(compareWithJc('H-h-1-2.txt')).toBeGreaterThan(40);
    expect(compareWithJc('H-h-urdw-1-2.txt')).toBeGreaterThan(500);
    const h = parse('h-urdw-1-2.txt');
    expect(h.warnings).toEqual([]);
    const p1 = { pid: '1', command: 'process_api' };
    expect(series(h, 'minor_faults_per_second', p1).values[0]).toBe(4);
    expect(series(h, 'rss_bytes', p1).values[0]).toBe(14712 * 1024);
    expect(series(h, 'minor_faults_per_second', p1).times![0]).toBe(T(22, 46, 45));
  });

  it('12-hour, German and Chinese clocks', () => {
    const us = parse('en_US-1-2.txt');
    expect(us.warnings).toEqual([]);
    expect(series(us, 'cpu_percent', { pid: '11141', command: 'dd' }).times).toEqual([T(22, 46, 50)]);
    expect(series(us, 'cpu_percent', { pid: '11072', command: 'dd' }).values).toEqual([37]);
    const zh = parse('zh_CN-1-2.txt');
    expect(zh.warnings).toEqual([]);
    expect(series(zh, 'cpu_percent', { pid: '11264', command: 'hey' }).values).toEqual([42]);
    expect(series(zh, 'cpu_percent', { pid: '11264', command: 'hey' }).times).toEqual([T(22, 46, 54)]);
    expect(zh.metrics.find((m) => m.name === 'cpu_percent' && m.labels?.pid === '11264')!.value).toBe(21);
    const de = parse('de_DE-urd-1-2.txt');
    expect(de.warnings).toEqual([]);
    expect(de.metrics.length).toBeGreaterThan(0);
  });

  it('-s -v (stack, threads, fds) and -l (full command lines)', () => {
    const c = parse('s-v-1-1.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'stack_size_bytes', { pid: '11722', command: 'bash' }).values).toEqual([132 * 1024]);
    expect(series(c, 'open_files', { pid: '11822', command: 'ab' }).values).toEqual([16]);
    const l = parse('l-1-2.txt');
    const cmds = new Set(l.series.map((s) => s.labels?.command));
    expect([...cmds].some((x) => x !== undefined && x.includes(' '))).toBe(true);
  });

  it('since boot only when no interval was given', () => {
    const c = parseText(withPrompt('pidstat -p 1', rd('p1-1-2.txt')));
    expect(c.command).toBe('pidstat -p 1');
    expect(series(c, 'cpu_percent', { pid: '1', command: 'process_api' }).firstSampleSinceBoot).toBe(true);
    const i = parseText(withPrompt('pidstat -p 1 -urdw 1 2', rd('p1-1-2.txt')));
    expect(series(i, 'cpu_percent', { pid: '1', command: 'process_api' }).firstSampleSinceBoot).toBe(false);
  });

  it('mangled input: truncated row and garbage give warnings, never a throw', () => {
    const lines = rd('u-1-2.txt').split('\n');
    lines[4] = lines[4]!.slice(0, 30);
    lines.splice(2, 0, 'garbage here');
    const c = parseText(lines.join('\r\n'));
    expect(c.kind).toBe('pidstat');
    expect(c.warnings.some((w) => w.startsWith('line 3: could not read "garbage'))).toBe(true);
    expect(c.warnings.some((w) => w.startsWith('line 6: truncated line'))).toBe(true);
  });

  it('detection', () => {
    expect(pidstat.detect(rd('u-1-2.txt').split('\n'))).toBeGreaterThanOrEqual(0.9);
    expect(pidstat.detect(rd('H-h-1-2.txt').split('\n'))).toBeGreaterThanOrEqual(0.9);
    expect(pidstat.detect(rd('en_US-1-2.txt').split('\n'))).toBeGreaterThanOrEqual(0.9);
    expect(pidstat.detect(rd('zh_CN-1-2.txt').split('\n'))).toBeGreaterThanOrEqual(0.9);
    expect(pidstat.detect(read('mpstat', 'P-ALL-1-2.txt').split('\n'))).toBe(0);
    expect(pidstat.detect(read('sar', 'w-W-1-2.txt').split('\n'))).toBe(0);
  });
});
