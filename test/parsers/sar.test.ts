import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import { sar } from '../../shared/capture/parsers/sysstat/sar';
import type { ParsedCapture } from '../../shared/capture/types';
import { read, series, summary } from './sysstat-helpers';

const rd = (n: string): string => read('sar', n);
const parse = (n: string): ParsedCapture => parseText(rd(n));
const T = (h: number, m: number, s: number): number => Date.UTC(2026, 10, 29, h, m, s);

describe('sar parser', () => {
  it('sar -u 1 3', () => {
    const c = parse('u-1-3.txt');
    expect(c.kind).toBe('sar');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    const sys = series(c, 'cpu_system_percent', { cpu: 'all' });
    expect(sys.values).toEqual([84.26, 87.13, 87.5]);
    expect(sys.column).toBe('%system');
    expect(sys.times).toEqual([T(22, 46, 34), T(22, 46, 35), T(22, 46, 36)]);
    expect(sys.firstSampleSinceBoot).toBe(false);
    expect(summary(sys)).toMatchObject({ count: 3, min: 84.26, max: 87.5, last: 87.5 });
    expect(c.metrics.find((m) => m.name === 'cpu_system_percent')!.value).toBe(86.31);
  });

  it('sar -u ALL and -P ALL', () => {
    const a = parse('u-ALL-1-2.txt');
    expect(series(a, 'cpu_softirq_percent', { cpu: 'all' }).values).toEqual([20.81, 20.74]);
    expect(series(a, 'cpu_guest_nice_percent', { cpu: 'all' }).values).toEqual([0, 0]);
    const p = parse('P-ALL-1-2.txt');
    expect(p.kind).toBe('sar');
    expect(new Set(p.series.map((s) => s.labels?.cpu))).toEqual(new Set(['all', '0', '1']));
  });

  it('sar -n DEV: per interface, kB → bytes; German decimal commas', () => {
    const c = parse('n-DEV-1-2.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'rx_packets_per_second', { iface: 'eth0' }).values).toEqual([0, 0]);
    expect(series(c, 'ifutil_percent', { iface: 'lo' }).column).toBe('%ifutil');
    const de = parse('de_DE-n-DEV-1-2.txt');
    expect(de.warnings).toEqual([]);
    expect(series(de, 'rx_packets_per_second', { iface: 'lo' }).values).toEqual([138, 262]);
    expect(series(de, 'rx_bytes_per_second', { iface: 'lo' }).values).toEqual([9.34 * 1024, 17.9 * 1024]);
    expect(de.metrics.find((m) => m.name === 'rx_packets_per_second' && m.labels?.iface === 'lo')!.value).toBe(200);
  });

  it('sar -n TCP,ETCP, -q, -r, -b, -d, -w -W', () => {
    const t = parse('n-TCP-ETCP-1-2.txt');
    expect(t.warnings).toEqual([]);
    expect(series(t, 'tcp_active_opens_per_second').values).toEqual([0, 0]);
    expect(series(t, 'tcp_retransmits_per_second').column).toBe('retrans/s');
    const q = parse('q-1-2.txt');
    expect(series(q, 'run_queue_size').values).toEqual([3, 1]);
    expect(series(q, 'load_average_1m').values).toEqual([1.02, 1.02]);
    expect(series(q, 'procs_blocked').values).toEqual([1, 0]);
    const r = parse('r-1-2.txt');
    expect(series(r, 'memory_free_bytes').values).toEqual([23838168 * 1024, 23848464 * 1024]);
    expect(series(r, 'memory_used_percent').values).toEqual([0.66, 0.61]);
    expect(series(r, 'memory_dirty_bytes').values[0]).toBe(1920 * 1024);
    const b = parse('b-1-2.txt');
    expect(series(b, 'writes_per_second').values).toEqual([20155, 19850]);
    expect(series(b, 'write_bytes_per_second').values[0]).toBe(567648 * 512);
    const d = parse('d-1-2.txt');
    expect(series(d, 'write_bytes_per_second', { device: 'vda' }).values).toEqual([283192 * 1024, 283276 * 1024]);
    expect(series(d, 'await_seconds', { device: 'vda' }).values).toEqual([0.04 / 1000, 0.04 / 1000]);
    expect(series(d, 'util_percent', { device: 'vda' }).values).toEqual([66.4, 62.8]);
    expect(series(d, 'avg_request_size_bytes', { device: 'vda' }).values[0]).toBeCloseTo(28.4 * 1024, 9);
    const w = parse('w-W-1-2.txt');
    expect(series(w, 'context_switches_per_second').values).toEqual([41601, 82962]);
    expect(series(w, 'processes_created_per_second').values).toEqual([21, 42]);
    expect(series(w, 'swap_pages_out_per_second').values).toEqual([0, 0]);
    expect(w.findings.map((f) => f.id)).toContain('cpu.context-switches-high');
    expect(w.findings[0]!.message).toMatch(/on 2 CPUs/);
  });

  it('sar -f with a LINUX RESTART record, comments (-C) and several activities', () => {
    const c = parse('f-q-DEV-C.txt');
    expect(c.kind).toBe('sar');
    expect(c.warnings).toEqual([]);
    const rows = c.tables!.records!.rows;
    expect(rows.some((r) => r[1] === 'LINUX RESTART')).toBe(true);
    expect(rows.some((r) => r[1] === 'COM' && r[2] === 'after restart')).toBe(true);
    const runq = series(c, 'run_queue_size');
    expect(runq.values.slice(0, 6)).toEqual([2, 2, 2, 5, 2, 2]);
    expect(series(c, 'rx_packets_per_second', { iface: 'lo' }).values[3]).toBe(29598);
    const u = parse('f-u-restart.txt');
    const user = series(u, 'cpu_user_percent', { cpu: 'all' });
    expect(user.values).toEqual([0.55, 0, 50, 42.93, 15.98, 7.25, 66.83, 60.3]);
    // two rows with the same time stamp (22:47:25) are two samples
    expect(user.times!.filter((t) => t === T(22, 47, 25))).toHaveLength(2);
    expect(u.tables!.records!.rows[0]![1]).toBe('LINUX RESTART');
    const en = parse('f-en_US-P-ALL.txt');
    expect(en.warnings).toEqual([]);
    expect(series(en, 'cpu_user_percent', { cpu: '0' }).values[2]).toBe(100);
  });

  it('Chinese clock', () => {
    const c = parse('zh_CN-q-1-2.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'process_list_size').values).toEqual([122, 119]);
    expect(series(c, 'process_list_size').times).toEqual([T(22, 46, 59), T(22, 47, 0)]);
    expect(c.metrics.find((m) => m.name === 'process_list_size')!.value).toBe(120);
  });

  it('detection: sar, not mpstat/pidstat/iostat', () => {
    for (const n of ['u-1-3.txt', 'u-ALL-1-2.txt', 'n-DEV-1-2.txt', 'q-1-2.txt', 'r-1-2.txt', 'b-1-2.txt', 'd-1-2.txt', 'n-TCP-ETCP-1-2.txt', 'w-W-1-2.txt']) {
      expect(sar.detect(rd(n).split('\n')), n).toBeGreaterThanOrEqual(0.9);
      expect(parse(n).kind, n).toBe('sar');
    }
    expect(sar.detect(read('mpstat', 'P-ALL-1-2.txt').split('\n'))).toBe(0);
    expect(sar.detect(read('pidstat', 'u-1-2.txt').split('\n'))).toBe(0);
    expect(sar.detect(read('iostat', 'x-1-3.txt').split('\n'))).toBe(0);
  });
});
