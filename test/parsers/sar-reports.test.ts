/**
 * sar reports beyond the CPU one (issue 11): -d with and without -p (the device name last),
 * -n DEV, -n TCP,ETCP, -r, -q, several reports in one capture. Real runs of sysstat 12.6.1
 * (test/fixtures/captures/sar/*-1-3.txt and their .cmd.txt); jc 1.22.5 has no sar parser.
 */
import { describe, expect, it } from 'vitest';
import { detectAll, parseText } from '../../shared/capture/registry';
import { sar } from '../../shared/capture/parsers/sysstat/sar';
import type { ParsedCapture } from '../../shared/capture/types';
import { read, series, summary } from './sysstat-helpers';

const rd = (n: string): string => read('sar', n);
const parse = (n: string): ParsedCapture => parseText(rd(n));
const T = (h: number, m: number, s: number): number => Date.UTC(2026, 10, 30, h, m, s);
const KB = 1024;
const metric = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('sar reports', () => {
  it('sar -d -p: the device name in the last column is the device label', () => {
    const c = parse('d-p-1-3.txt');
    expect(c.kind).toBe('sar');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    const vda = { device: 'vda' };
    expect(series(c, 'transfers_per_second', vda).values).toEqual([1230, 0, 0]);
    expect(series(c, 'read_bytes_per_second', vda).values).toEqual([4 * KB, 0, 0]);
    expect(series(c, 'write_bytes_per_second', vda).values).toEqual([78272 * KB, 0, 0]);
    expect(series(c, 'discard_bytes_per_second', vda).values).toEqual([128004 * KB, 0, 0]);
    expect(series(c, 'avg_request_size_bytes', vda).values[0]).toBeCloseTo(167.71 * KB, 6);
    expect(series(c, 'avg_queue_size', vda).values).toEqual([0.21, 0, 0]);
    expect(series(c, 'await_seconds', vda).values[0]).toBeCloseTo(0.17 / 1000, 12);
    expect(series(c, 'util_percent', vda)).toMatchObject({ values: [20.8, 0, 0], column: '%util', unit: '%' });
    expect(series(c, 'util_percent', vda).times).toEqual([T(22, 44, 15), T(22, 44, 16), T(22, 44, 17)]);
    // the Average: line is a metric, not a sample
    expect(summary(series(c, 'transfers_per_second', vda)).count).toBe(3);
    expect(metric(c, 'transfers_per_second', vda)).toBe(410);
    expect(metric(c, 'util_percent', vda)).toBe(6.93);
  });

  it('sar -d -p under en_US (12-hour clock) and de_DE (decimal commas, "Durchschn.:")', () => {
    const vda = { device: 'vda' };
    const en = parse('en_US-d-p-1-3.txt');
    expect(en.kind).toBe('sar');
    expect(en.warnings).toEqual([]);
    expect(series(en, 'transfers_per_second', vda).values).toEqual([1055, 221, 138]);
    expect(series(en, 'write_bytes_per_second', vda).values).toEqual([66000 * KB, 5944 * KB, 1500 * KB]);
    // 11:00:06 PM on 11/30/2026
    expect(series(en, 'transfers_per_second', vda).times).toEqual([T(23, 0, 6), T(23, 0, 7), T(23, 0, 8)]);
    expect(metric(en, 'util_percent', vda)).toBe(7.73);
    const de = parse('de_DE-d-p-n-DEV-1-3.txt');
    expect(de.kind).toBe('sar');
    expect(de.warnings).toEqual([]);
    expect(series(de, 'transfers_per_second', vda).values[0]).toBe(1228);
    expect(series(de, 'avg_request_size_bytes', vda).values[0]).toBeCloseTo(166.78 * KB, 6);
    expect(series(de, 'rx_bytes_per_second', { iface: 'lo' }).values[0]).toBe(70.31 * KB);
    expect(series(de, 'rx_bytes_per_second', { iface: 'lo' }).times![0]).toBe(T(23, 0, 11));
    expect(metric(de, 'rx_packets_per_second', { iface: 'lo' })).toBe(424.67);
    expect(metric(de, 'write_bytes_per_second', vda)).toBe(25544 * KB);
  });

  it('sar -d without -p reads the same columns with the name first', () => {
    const c = parse('d-1-3.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'write_bytes_per_second', { device: 'vda' }).values).toEqual([52352 * KB, 0, 0]);
    expect(metric(c, 'transfers_per_second', { device: 'vda' })).toBe(275.33);
  });

  it('sar -n DEV: per interface (label iface), kB/s → B/s', () => {
    const c = parse('n-DEV-1-3.txt');
    expect(c.warnings).toEqual([]);
    expect(new Set(c.series.map((s) => s.labels?.iface))).toEqual(new Set(['lo', 'ifb0', 'ifb1', 'eth0']));
    expect(series(c, 'rx_packets_per_second', { iface: 'lo' }).values).toEqual([439, 575, 657]);
    expect(series(c, 'tx_bytes_per_second', { iface: 'lo' }).values).toEqual([44.24 * KB, 57.99 * KB, 66.37 * KB]);
    expect(series(c, 'ifutil_percent', { iface: 'eth0' }).values).toEqual([0, 0, 0]);
    expect(metric(c, 'rx_packets_per_second', { iface: 'lo' })).toBe(557);
  });

  it('sar -n TCP,ETCP: two blocks per report', () => {
    const c = parse('n-TCP-ETCP-1-3.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'tcp_active_opens_per_second').values).toEqual([76.24, 97, 102]);
    expect(series(c, 'tcp_passive_opens_per_second').values).toEqual([38.61, 48, 51]);
    expect(series(c, 'tcp_segments_in_per_second').values).toEqual([538.61, 674, 714]);
    expect(series(c, 'tcp_segments_out_per_second').values).toEqual([538.61, 674, 714]);
    expect(series(c, 'tcp_attempt_fails_per_second').values).toEqual([37.62, 49, 51]);
    expect(series(c, 'tcp_established_resets_per_second').values).toEqual([0, 0, 0]);
    expect(series(c, 'tcp_retransmits_per_second').values).toEqual([0, 0, 0]);
    expect(series(c, 'tcp_segments_in_errors_per_second').values).toEqual([0, 0, 0]);
    expect(series(c, 'tcp_resets_out_per_second').values).toEqual([37.62, 49, 51]);
    expect(series(c, 'tcp_resets_out_per_second').times).toEqual([T(22, 44, 30), T(22, 44, 31), T(22, 44, 32)]);
    expect(metric(c, 'tcp_active_opens_per_second')).toBe(91.69);
  });

  it('sar -r: kB → bytes', () => {
    const c = parse('r-1-3.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'memory_free_bytes').values).toEqual([21584052 * KB, 21584124 * KB, 21584124 * KB]);
    expect(series(c, 'memory_available_bytes').values[0]).toBe(23728620 * KB);
    expect(series(c, 'memory_used_bytes').values[2]).toBe(562576 * KB);
    expect(series(c, 'memory_used_percent').values).toEqual([2.28, 2.28, 2.28]);
    expect(series(c, 'buffer_bytes').values[2]).toBe(43752 * KB);
    expect(series(c, 'cache_bytes').values[0]).toBe(2155268 * KB);
    expect(series(c, 'memory_commit_percent').values[0]).toBe(1.51);
    expect(series(c, 'memory_inactive_bytes').values[1]).toBe(1416284 * KB);
    expect(series(c, 'memory_dirty_bytes').values).toEqual([184 * KB, 184 * KB, 184 * KB]);
    expect(metric(c, 'memory_free_bytes')).toBe(21584100 * KB);
  });

  it('sar -q', () => {
    const c = parse('q-1-3.txt');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'run_queue_size').values).toEqual([4, 3, 4]);
    expect(series(c, 'process_list_size').values).toEqual([137, 129, 129]);
    expect(series(c, 'load_average_1m').values).toEqual([3.64, 3.64, 3.64]);
    expect(series(c, 'load_average_5m').values).toEqual([3.44, 3.44, 3.44]);
    expect(series(c, 'load_average_15m').values).toEqual([6.09, 6.09, 6.09]);
    expect(series(c, 'procs_blocked').values).toEqual([0, 0, 0]);
    expect(metric(c, 'process_list_size')).toBe(132);
  });

  it('several reports in one capture (-d -p -n DEV,TCP,ETCP -r -q): each block is read', () => {
    const c = parse('multi-d-p-n-DEV-TCP-ETCP-r-q-1-3.txt');
    expect(c.kind).toBe('sar');
    expect(c.warnings).toEqual([]);
    expect(series(c, 'memory_free_bytes').values).toEqual([21335612 * KB, 21332084 * KB, expect.any(Number)]);
    expect(series(c, 'run_queue_size').values).toHaveLength(3);
    expect(series(c, 'transfers_per_second', { device: 'vda' }).values[0]).toBe(985);
    expect(series(c, 'rx_bytes_per_second', { iface: 'lo' }).values[0]).toBe(44.18 * KB);
    expect(series(c, 'tcp_active_opens_per_second').values[0]).toBe(44);
    expect(series(c, 'tcp_attempt_fails_per_second').values[0]).toBe(22);
    expect(series(c, 'tcp_resets_out_per_second').values[2]).toBe(24.75);
    // every series has one value per report
    for (const s of c.series) expect(s.values, `${s.name} ${JSON.stringify(s.labels)}`).toHaveLength(3);
    // the Average: blocks are metrics, one per block and key
    expect(metric(c, 'memory_used_percent')).toBe(3.3);
    expect(metric(c, 'run_queue_size')).toBe(6);
    expect(metric(c, 'util_percent', { device: 'vda' })).toBe(5.71);
    expect(metric(c, 'rx_packets_per_second', { iface: 'lo' })).toBe(332.56);
    expect(metric(c, 'tcp_passive_opens_per_second')).toBe(23.92);
    expect(metric(c, 'tcp_attempt_fails_per_second')).toBe(23.92);
  });

  it('sar -A 1 2: every block is read, -I per interrupt and CPU', () => {
    const c = parse('A-1-2.txt');
    expect(c.kind).toBe('sar');
    expect(c.warnings).toEqual([]);
    const cpus = series(c, 'interrupts_per_second', { irq: 'sum', cpu: 'all' });
    expect(cpus.column).toBe('all');
    expect(cpus.values).toHaveLength(2);
    expect(series(c, 'interrupts_per_second', { irq: 'LOC', cpu: '1' }).column).toBe('CPU1');
    for (const name of ['cpu_user_percent', 'context_switches_per_second', 'memory_free_bytes', 'run_queue_size', 'tcp_active_opens_per_second'])
      expect(c.series.some((s) => s.name === name), name).toBe(true);
    expect(series(c, 'util_percent', { device: 'vda' }).values).toHaveLength(2);
    expect(series(c, 'rx_packets_per_second', { iface: 'lo' }).values).toHaveLength(2);
    for (const s of c.series) expect(s.values, `${s.name} ${JSON.stringify(s.labels)}`).toHaveLength(2);
  });

  it('detection: each form is sar, and nothing else claims it', () => {
    for (const n of ['A-1-2.txt', 'f-A-restart.txt', 'd-p-1-3.txt', 'en_US-d-p-1-3.txt', 'de_DE-d-p-n-DEV-1-3.txt', 'd-1-3.txt', 'n-DEV-1-3.txt', 'n-TCP-ETCP-1-3.txt', 'r-1-3.txt', 'q-1-3.txt', 'multi-d-p-n-DEV-TCP-ETCP-r-q-1-3.txt']) {
      const head = rd(n).split('\n');
      expect(sar.detect(head), n).toBeGreaterThanOrEqual(0.9);
      const all = detectAll(head);
      expect(all[0]!.kind, n).toBe('sar');
      expect(all.slice(1).every((d) => d.confidence < all[0]!.confidence), n).toBe(true);
    }
    // the key-last header alone, without the device column at its end, is not enough
    expect(sar.detect(['22:44:14          tps     rkB/s     wkB/s     dkB/s   areq-sz    aqu-sz     await     %util'])).toBe(0);
  });
});
