import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'redis-benchmark');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('redis-benchmark parser', () => {
  it('reads -q lines (with p50), skipping the CR progress lines', () => {
    const c = parseText(read('quiet.txt'));
    expect(c.kind).toBe('redis-benchmark');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_per_second', { test: 'SET' })).toBe(27397.26);
    expect(val(c, 'latency_p50_seconds', { test: 'SET' })).toBe(0.000119);
    expect(val(c, 'requests_per_second', { test: 'LRANGE_600 (first 600 elements)' })).toBe(13698.63);
    expect(val(c, 'requests_per_second', { test: 'LPUSH (needed to benchmark LRANGE)' })).toBe(31746.03);
    expect(c.metrics.filter((m) => m.name === 'requests_per_second').length).toBe(9);
  });

  it('reads the full report: header, percentile distribution, summary', () => {
    const c = parseText(read('full.txt'));
    expect(c.kind).toBe('redis-benchmark');
    expect(c.warnings).toEqual([]);
    const SET = { test: 'SET' };
    expect(val(c, 'requests_per_second', SET)).toBe(51282.05);
    expect(val(c, 'requests_total', SET)).toBe(2000);
    expect(val(c, 'duration_seconds', SET)).toBe(0.04);
    expect(val(c, 'clients', SET)).toBe(10);
    expect(val(c, 'payload_bytes', SET)).toBe(3);
    expect(val(c, 'latency_mean_seconds', SET)).toBe(0.00013);
    expect(val(c, 'latency_min_seconds', SET)).toBe(0.000032);
    expect(val(c, 'latency_p50_seconds', SET)).toBe(0.000103);
    expect(val(c, 'latency_p95_seconds', SET)).toBe(0.000183);
    expect(val(c, 'latency_p99_seconds', SET)).toBe(0.001055);
    expect(val(c, 'latency_max_seconds', SET)).toBe(0.002663);
    expect(val(c, 'latency_p99_seconds', { test: 'GET' })).toBe(0.000215);
    expect(c.settings['keep alive']).toBe('1');
    expect(c.settings['host configuration "appendonly"']).toBe('no');
    expect(c.tables?.latency_percentiles?.rows[1]).toEqual(['SET', 50, 0.103, 1044]);
    expect(c.tables?.latency_cumulative?.rows.length).toBe(20);
  });

  it('reads --csv with its header row', () => {
    const c = parseText(read('csv.txt'));
    expect(c.kind).toBe('redis-benchmark');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_per_second', { test: 'LPUSH' })).toBe(41666.67);
    expect(val(c, 'latency_p99_seconds', { test: 'GET' })).toBe(0.000479);
    expect(val(c, 'latency_max_seconds', { test: 'LPUSH' })).toBe(0.004503);
  });

  it('reads the older header-less --csv and -q forms (derived from the real ones)', () => {
    const oldCsv = read('csv.txt').split('\n').slice(1).filter(Boolean).map((l) => l.split(',').slice(0, 2).join(',')).join('\n');
    const c = parseText(oldCsv);
    expect(c.kind).toBe('redis-benchmark');
    expect(val(c, 'requests_per_second', { test: 'SET' })).toBe(54054.05);
    const oldQ = read('pipeline.txt').replace(/, p50=[\d.]+ msec/g, '');
    const q = parseText(oldQ);
    expect(q.kind).toBe('redis-benchmark');
    expect(val(q, 'requests_per_second', { test: 'GET' })).toBe(1252000);
    expect(val(q, 'latency_p50_seconds', { test: 'GET' })).toBeUndefined();
  });

  it('takes the command from a prompt and warns on garbage', () => {
    const c = parseText('$ redis-benchmark -h 127.0.0.1 -p 18379 -n 2000 -c 10 -t set,get\n' + read('full.txt').replace('Summary:', 'oops\nSummary:'));
    expect(c.command).toBe('redis-benchmark -h 127.0.0.1 -p 18379 -n 2000 -c 10 -t set,get');
    expect(c.warnings.length).toBe(1);
    expect(c.warnings[0]).toMatch(/^line \d+: could not read "oops"$/);
  });
  it('reads a pipelined multi-thread run (-P 4 --threads 2) with MSET', () => {
    const c = parseText(read('threads-pipeline.txt'));
    expect(c.warnings).toEqual([]);
    expect(c.facts.tests).toEqual(['PING_INLINE', 'PING_MBULK', 'MSET (10 keys)']);
    expect(c.settings['multi-thread']).toBe('yes');
    expect(c.settings.threads).toBe('2');
    expect(val(c, 'requests_total', { test: 'MSET (10 keys)' })).toBe(3000);
  });

  it('keeps the connection error of a run against a closed port', () => {
    const c = parseText(read('refused.txt'));
    expect(c.kind).toBe('redis-benchmark');
    expect(c.facts.errors).toEqual(['Could not connect to Redis at 127.0.0.1:18398: Connection refused', 'WARNING: Could not fetch server CONFIG']);
    expect(c.warnings).toEqual(['redis-benchmark printed no results: Could not connect to Redis at 127.0.0.1:18398: Connection refused']);
  });
  it('reads a double-spaced paste (blank line after every line)', () => {
    const c = parseText(read('full.txt').split('\n').join('\n\n'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'latency_p99_seconds', { test: 'SET' })).toBe(0.001055);
  });
});
