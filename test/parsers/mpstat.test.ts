import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { mpstat } from '../../shared/capture/parsers/sysstat/mpstat';
import type { ParsedCapture } from '../../shared/capture/types';
import { jcKey, read, readJc, series, summary, withPrompt } from './sysstat-helpers';

const rd = (n: string): string => read('mpstat', n);
const parse = (n: string): ParsedCapture => parseText(rd(n));
const T = (h: number, m: number, s: number): number => Date.UTC(2026, 10, 29, h, m, s);

/** jc rows: {cpu, percent_usr …, time} or interrupts {cpu, '24_s' …} */
function compareWithJc(name: string): number {
  const c = parse(name);
  const jc = readJc('mpstat', name)!;
  const seen = new Map<string, number>();
  let n = 0;
  for (const row of jc) {
    if (row.average === true) {
      // the Average block: compared with our metrics
      for (const [k, v] of Object.entries(row)) {
        if (['cpu', 'type', 'time', 'node', 'average'].includes(k)) continue;
        const m = c.metrics.find((x) => jcKey(x.column ?? '') === k && x.labels?.cpu === String(row.cpu));
        expect(m, `${name}: average ${k} cpu ${String(row.cpu)}`).toBeDefined();
        expect(m!.value).toBe(typeof v === 'number' ? v : Number(v));
        n++;
      }
      continue;
    }
    const key = `${String(row.type)}/${String(row.cpu)}/${Object.keys(row).join(',')}`;
    const i = seen.get(key) ?? 0;
    seen.set(key, i + 1);
    for (const [k, v] of Object.entries(row)) {
      if (['cpu', 'type', 'time', 'node'].includes(k)) continue;
      const num = typeof v === 'number' ? v : Number(v);
      const s = c.series.find((x) => jcKey(x.column) === k && x.labels?.cpu === String(row.cpu));
      expect(s, `${name}: ${k} cpu ${String(row.cpu)}`).toBeDefined();
      expect(s!.values[i]).toBe(num);
      n++;
    }
  }
  return n;
}

describe('mpstat parser', () => {
  it('reads mpstat -P ALL 1 2 per CPU, like jc', () => {
    const c = parse('P-ALL-1-2.txt');
    expect(c.kind).toBe('mpstat');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(c.facts).toMatchObject({ cpu_threads: 2, hostname: 'vm' });
    expect(series(c, 'cpu_system_percent', { cpu: 'all' }).values).toEqual([61.42, 64.36]);
    expect(series(c, 'cpu_system_percent', { cpu: '1' }).values).toEqual([58.16, 64.36]);
    expect(series(c, 'cpu_softirq_percent', { cpu: '1' }).values).toEqual([32.65, 23.76]);
    expect(series(c, 'cpu_iowait_percent', { cpu: '0' }).column).toBe('%iowait');
    expect(series(c, 'cpu_guest_nice_percent', { cpu: '0' }).values).toEqual([0, 0]);
    expect(series(c, 'cpu_idle_percent', { cpu: 'all' }).times).toEqual([T(22, 46, 34), T(22, 46, 35)]);
    expect(series(c, 'cpu_idle_percent', { cpu: 'all' }).firstSampleSinceBoot).toBe(false);
    expect(c.metrics.find((m) => m.name === 'cpu_system_percent' && m.labels?.cpu === 'all')!.value).toBe(62.91);
    expect(compareWithJc('P-ALL-1-2.txt')).toBe(9 * 10);
  });

  it('plain mpstat 1 3 and mpstat -A, like jc', () => {
    const c = parse('plain-1-3.txt');
    expect(summary(series(c, 'cpu_user_percent', { cpu: 'all' }))).toMatchObject({ count: 3, min: 9.41, max: 12.3, last: 12.3 });
    expect(compareWithJc('plain-1-3.txt')).toBe(4 * 10);
    const a = parse('A-1-1.txt');
    expect(a.warnings).toEqual([]);
    expect(series(a, 'cpu_user_percent', { node: '0' }).values).toEqual([9.52]);
    expect(series(a, 'interrupts_per_second', { cpu: '1' }).values).toEqual([19112]);
  });

  it('-I: interrupts per irq and softirqs per CPU', () => {
    const c = parse('I-ALL-1-1.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'interrupts_per_second', { cpu: 'all' }).values).toEqual([20350.5]);
    expect(series(c, 'interrupts_per_second', { cpu: '1', irq: '36' }).values).toEqual([18744.55]);
    expect(series(c, 'interrupts_per_second', { cpu: '0', irq: 'RES' }).values).toEqual([33.66]);
    expect(series(c, 'softirqs_per_second', { cpu: '0', irq: 'TIMER' }).values).toEqual([40.59]);
    expect(compareWithJc('I-ALL-1-1.txt')).toBeGreaterThan(70);
    const s = parse('I-SUM-1-2.txt');
    expect(s.kind).toBe('mpstat');
    expect(series(s, 'interrupts_per_second', { cpu: 'all' }).values).toEqual([20505, 18676]);
  });

  it('12-hour and German (decimal comma) output', () => {
    const us = parse('en_US-P-ALL-1-2.txt');
    expect(us.warnings).toEqual([]);
    expect(series(us, 'cpu_iowait_percent', { cpu: '1' }).values).toEqual([39.18, 46.15]);
    expect(series(us, 'cpu_iowait_percent', { cpu: '1' }).times).toEqual([T(22, 46, 39), T(22, 46, 40)]);
    const de = parse('de_DE-P-ALL-1-2.txt');
    expect(de.warnings).toEqual([]);
    expect(series(de, 'cpu_iowait_percent', { cpu: 'all' }).values).toEqual([22.22, 23.53]);
    expect(de.findings.map((f) => f.id)).toContain('cpu.iowait-high');
    expect(de.findings.find((f) => f.id === 'cpu.iowait-high')!.message).toMatch(/averages 22\.9 % over 2 samples/);
  });

  it('since boot when no interval was given (header and row share the time)', () => {
    const text = 'Linux 6.18.44-fc-v657 (vm) \t11/29/26 \t_x86_64_\t(2 CPU)\n\n22:49:21     CPU    %usr   %nice    %sys %iowait    %irq   %soft  %steal  %guest  %gnice   %idle\n22:49:21     all   15.95    0.00   12.32    6.54    0.00    1.43    0.02    0.00    0.00   63.75\n';
    const c = parseText(text);
    expect(c.kind).toBe('mpstat');
    expect(series(c, 'cpu_user_percent', { cpu: 'all' }).firstSampleSinceBoot).toBe(true);
    const cmd = parseText(withPrompt('mpstat -P ALL 1 2', rd('P-ALL-1-2.txt')));
    expect(cmd.command).toBe('mpstat -P ALL 1 2');
    expect(series(cmd, 'cpu_user_percent', { cpu: 'all' }).firstSampleSinceBoot).toBe(false);
  });

  it('-o JSON', () => {
    const c = parse('json-1-2.txt');
    expect(c.kind).toBe('mpstat');
    expect(c.facts).toMatchObject({ hostname: 'vm', cpu_threads: 2 });
    expect(series(c, 'cpu_system_percent', { cpu: 'all' }).values).toEqual([31.41, 20]);
    expect(series(c, 'cpu_iowait_percent', { cpu: 'all' }).times).toEqual([T(22, 46, 47), T(22, 46, 48)]);
  });

  it('detection: mpstat, not sar -u / -P', () => {
    expect(mpstat.detect(rd('P-ALL-1-2.txt').split('\n'))).toBeGreaterThanOrEqual(0.9);
    expect(mpstat.detect(rd('I-SUM-1-2.txt').split('\n'))).toBeGreaterThanOrEqual(0.8);
    expect(mpstat.detect(read('sar', 'u-1-3.txt').split('\n'))).toBe(0);
    expect(mpstat.detect(read('sar', 'u-ALL-1-2.txt').split('\n'))).toBe(0);
    expect(mpstat.detect(read('pidstat', 'u-1-2.txt').split('\n'))).toBe(0);
  });
});
