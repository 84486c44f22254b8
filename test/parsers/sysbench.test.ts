import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'sysbench');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('sysbench parser', () => {
  it('reads cpu: events/s, general statistics, latency, fairness', () => {
    const c = parseText(read('cpu.txt'));
    expect(c.kind).toBe('sysbench');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.toolVersion).toBe('sysbench 1.0.20');
    expect(c.warnings).toEqual([]);
    expect(c.facts.test).toBe('cpu');
    expect(val(c, 'events_per_second')).toBe(5767.67);
    expect(val(c, 'events_total')).toBe(11554);
    expect(val(c, 'duration_seconds')).toBe(2.0003);
    expect(val(c, 'latency_min_seconds')).toBe(0.00019);
    expect(val(c, 'latency_mean_seconds')).toBe(0.00035);
    expect(val(c, 'latency_max_seconds')).toBe(0.00889);
    expect(val(c, 'latency_p95_seconds')).toBe(0.00095);
    expect(val(c, 'latency_sum_seconds')).toBe(3.98908);
    expect(val(c, 'thread_events_stdev')).toBe(91);
    expect(val(c, 'threads')).toBe(2);
    expect(c.settings['Prime numbers limit']).toBe('10000');
  });

  it('reads --report-interval lines as series and the --histogram table', () => {
    const c = parseText(read('cpu-interval.txt'));
    expect(c.warnings).toEqual([]);
    expect(c.series.find((s) => s.name === 'events_per_second')?.values).toEqual([5996.5, 5925.04]);
    expect(c.series.find((s) => s.name === 'latency_p95_seconds')?.values).toEqual([0.00118, 0.00078]);
    expect(c.tables?.latency_histogram?.rows[0]).toEqual([0.189, 22]);
    expect(val(c, 'events_per_second')).toBe(5589.56);
  });

  it('reads memory: operations and MiB/s', () => {
    const c = parseText(read('memory.txt'));
    expect(c.warnings).toEqual([]);
    expect(c.facts.test).toBe('memory');
    expect(val(c, 'operations_per_second')).toBe(7391461.71);
    expect(val(c, 'bandwidth_bytes_per_second')).toBeCloseTo(7218.22 * 1048576, 3);
    expect(val(c, 'transferred_bytes')).toBe(2048 * 1048576);
    expect(c.settings['block size']).toBe('1KiB');
  });

  it('reads fileio: reads/writes/fsyncs per second and throughput by direction', () => {
    const c = parseText(read('fileio.txt'));
    expect(c.warnings).toEqual([]);
    expect(c.facts.test).toBe('fileio');
    expect(val(c, 'reads_per_second')).toBe(58905.97);
    expect(val(c, 'writes_per_second')).toBe(39270.64);
    expect(val(c, 'fsyncs_per_second')).toBe(3931.06);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'read' })).toBeCloseTo(920.41 * 1048576, 3);
    expect(val(c, 'bandwidth_bytes_per_second', { direction: 'write' })).toBeCloseTo(613.6 * 1048576, 3);
    expect(c.settings['test mode']).toBe('random r/w');
  });

  it('reads fileio interval lines and a 99th percentile', () => {
    const c = parseText(read('fileio-seqwr-interval.txt'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'latency_p99_seconds')).toBe(0.00036);
    expect(c.series.find((s) => s.name === 'bandwidth_bytes_per_second' && s.labels?.direction === 'write')?.values.length).toBe(2);
    expect(c.series.find((s) => s.name === 'latency_p99_seconds')?.values).toEqual([0.000395, 0.000296]);
  });

  it('reads oltp_read_write: transactions, queries by type, ignored errors (and flags them)', () => {
    const c = parseText('$ sysbench oltp_read_write --threads=4 --time=3 --report-interval=1 run\n' + read('oltp-read-write.txt'));
    expect(c.warnings).toEqual([]);
    expect(c.command).toBe('sysbench oltp_read_write --threads=4 --time=3 --report-interval=1 run');
    expect(c.facts.test).toBe('oltp_read_write');
    expect(val(c, 'transactions_per_second')).toBe(1234.7);
    expect(val(c, 'transactions_total')).toBe(3787);
    expect(val(c, 'queries_per_second')).toBe(24726.68);
    expect(val(c, 'queries_total')).toBe(75840);
    expect(val(c, 'queries_total', { type: 'read' })).toBe(53102);
    expect(val(c, 'ignored_errors_total')).toBe(6);
    expect(val(c, 'reconnects_total')).toBe(0);
    expect(c.series.find((s) => s.name === 'transactions_per_second')?.values).toEqual([1248.44, 1230.02, 1293.35]);
    expect(c.series.find((s) => s.name === 'queries_per_second' && s.labels?.type === 'write')?.values).toEqual([4997.67, 4926.15, 5173.4]);
    expect(c.series.find((s) => s.name === 'errors_per_second')?.values).toEqual([0.98, 3.03, 1.99]);
    const f = c.findings.find((x) => x.id === 'load.errors');
    expect(f?.message).toMatch(/^sysbench: 6 ignored errors and 0 reconnects/);
    expect(f?.evidence).toBe('lines 25-26');
  });

  it('reads oltp_point_select without findings', () => {
    const c = parseText(read('oltp-point-select.txt'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'transactions_per_second')).toBe(40774.7);
    expect(c.findings).toEqual([]);
  });

  it('reads threads and mutex (general statistics only) and memory interval lines', () => {
    const t = parseText(read('threads.txt'));
    expect(t.warnings).toEqual([]);
    expect(val(t, 'events_total')).toBe(519);
    expect(val(t, 'events_per_second')).toBeCloseTo(519 / 1.003, 4);
    const m = parseText(read('mutex.txt'));
    expect(m.warnings).toEqual([]);
    expect(val(m, 'latency_p95_seconds')).toBe(0.61221);
    const mem = parseText(read('memory-interval.txt'));
    expect(mem.warnings).toEqual([]);
    expect(mem.series.find((s) => s.name === 'bandwidth_bytes_per_second')?.values).toEqual([1942.36 * 1048576, 2542.85 * 1048576].map((x) => Number(x.toPrecision(12))));
    expect(val(mem, 'bandwidth_bytes_per_second')).toBeCloseTo(2240.94 * 1048576, 2);
  });

  it('reads a capture whose head was cut off (no banner, no "Threads started!")', () => {
    const text = read('oltp-read-write.txt').split('\n').slice(13).join('\n');
    const c = parseText(text);
    expect(c.kind).toBe('sysbench');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'transactions_per_second')).toBe(1234.7);
    expect(val(c, 'latency_p95_seconds')).toBe(0.00599);
    expect(c.series.find((s) => s.name === 'transactions_per_second')?.values).toEqual([1230.02, 1293.35]);
  });

  it('survives CRLF/ANSI and a garbage line after the start', () => {
    const text = read('cpu.txt').replace('CPU speed:', 'blah blah\nCPU speed:').replace(/\n/g, '\r\n').replace(/(\d+\.\d+)/g, '\x1b[1m$1\x1b[0m');
    const c = parseText(text);
    expect(c.kind).toBe('sysbench');
    expect(val(c, 'events_per_second')).toBe(5767.67);
    expect(c.warnings).toEqual(['line 14: could not read "blah blah"']);
  });
  it('labels metrics run=N when several sysbench runs are pasted into one capture', () => {
    const c = parseText(read('cpu.txt') + read('oltp-read-write.txt'));
    expect(val(c, 'events_per_second', { run: '1' })).toBe(5767.67);
    expect(val(c, 'transactions_per_second', { run: '2' })).toBe(1234.7);
    expect(val(c, 'events_per_second', { run: '2' })).toBeCloseTo(3787 / 3.0664, 4);
    expect(c.findings.map((f) => f.labels?.run)).toEqual(['2']);
  });
  it('reads a double-spaced paste (blank line after every line)', () => {
    const c = parseText(read('cpu-interval.txt').split('\n').join('\n\n'));
    expect(c.warnings).toEqual([]);
    expect(c.tables?.latency_histogram?.rows.length).toBe(175);
  });
});
