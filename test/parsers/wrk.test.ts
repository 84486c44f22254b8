import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'wrk');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('wrk parser', () => {
  it('reads a run without --latency', () => {
    const c = parseText(read('plain.txt'));
    expect(c.kind).toBe('wrk');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_per_second')).toBe(62907.5);
    expect(val(c, 'requests_total')).toBe(132107);
    expect(val(c, 'duration_seconds')).toBe(2.1);
    expect(val(c, 'latency_mean_seconds')).toBe(0.00016947);
    expect(val(c, 'latency_stdev_seconds')).toBe(0.00021375);
    expect(val(c, 'latency_max_seconds')).toBe(0.00474);
    expect(val(c, 'thread_requests_per_second_mean')).toBe(31650);
    expect(val(c, 'thread_requests_per_second_max')).toBe(42680);
    expect(val(c, 'read_bytes')).toBeCloseTo(378.84 * 1024 * 1024, 3);
    expect(val(c, 'transfer_bytes_per_second')).toBeCloseTo(180.4 * 1024 * 1024, 3);
    expect(val(c, 'threads')).toBe(2);
    expect(val(c, 'connections')).toBe(10);
    expect(val(c, 'latency_p99_seconds')).toBeUndefined();
    expect(c.facts.url).toBe('http://127.0.0.1:18080/index.html');
    expect(c.tables?.thread_stats?.rows).toEqual([
      ['Latency', '169.47us', '213.75us', '4.74ms', '95.76%'],
      ['Req/Sec', '31.65k', '6.02k', '42.68k', '73.81%'],
    ]);
    expect(c.findings).toEqual([]);
  });

  it('reads the --latency distribution', () => {
    const c = parseText(read('latency.txt'));
    expect(val(c, 'latency_p50_seconds')).toBe(0.000331);
    expect(val(c, 'latency_p75_seconds')).toBe(0.000412);
    expect(val(c, 'latency_p90_seconds')).toBe(0.000499);
    expect(val(c, 'latency_p99_seconds')).toBe(0.00298);
    expect(c.metrics.find((m) => m.name === 'latency_p99_seconds')?.lines).toEqual([10, 10]);
  });

  it('reads socket errors by type and raises load.errors', () => {
    const c = parseText(read('errors.txt'));
    expect(val(c, 'errors_total', { type: 'read' })).toBe(9);
    expect(val(c, 'errors_total', { type: 'connect' })).toBe(0);
    expect(val(c, 'errors_total', { type: 'timeout' })).toBe(0);
    expect(val(c, 'transfer_bytes_per_second')).toBe(647.64);
    const f = c.findings.find((x) => x.id === 'load.errors');
    expect(f?.message).toBe('wrk: 9 socket errors (read 9) (40.9% of 22 requests); requests/s counts only completed requests.');
    expect(f?.evidence).toBe('line 12');
  });

  it('reads non-2xx responses', () => {
    const c = parseText(read('non2xx.txt'));
    expect(val(c, 'responses_non2xx_total')).toBe(32342);
    expect(c.findings.map((f) => f.id)).toEqual(['load.non2xx']);
  });

  it('keeps the error of a run that could not connect', () => {
    const c = parseText(read('refused.txt'));
    expect(c.kind).toBe('wrk');
    expect(c.facts.errors).toEqual(['unable to connect to 127.0.0.1:18099 Connection refused']);
    expect(c.warnings[0]).toMatch(/wrk printed no results/);
  });

  it('takes the command from a prompt line and survives CRLF/ANSI/garbage', () => {
    const text = '[root@lab ~]# wrk -t2 -c20 -d2s --latency http://127.0.0.1:18080/index.html\n' + read('latency.txt');
    const c = parseText(text.replace(/\n/g, '\r\n').replace(/(\d+\.\d+)/g, '\x1b[32m$1\x1b[0m').replace('Requests/sec', 'zzz\r\nRequests/sec'));
    expect(c.kind).toBe('wrk');
    expect(c.command).toBe('wrk -t2 -c20 -d2s --latency http://127.0.0.1:18080/index.html');
    expect(val(c, 'requests_per_second')).toBe(56297.06);
    expect(c.warnings).toEqual(['line 13: could not read "zzz"']);
  });

  it('reads a truncated capture (no totals) with a warning', () => {
    const c = parseText(read('latency.txt').split('\n').slice(0, 8).join('\n'));
    expect(c.kind).toBe('wrk');
    expect(val(c, 'latency_p50_seconds')).toBe(0.000331);
    expect(c.warnings.some((w) => /no wrk results/.test(w))).toBe(true);
  });
  it('labels metrics run=N when several wrk runs are pasted into one capture', () => {
    const c = parseText(read('plain.txt') + read('errors.txt'));
    expect(val(c, 'requests_per_second', { run: '1' })).toBe(62907.5);
    expect(val(c, 'errors_total', { type: 'read', run: '2' })).toBe(9);
    expect(c.findings.map((f) => f.id)).toEqual(['load.errors']);
    expect(c.findings[0]?.message).toMatch(/^run 2: wrk: 9 socket errors/);
  });
  it('treats -nan/nan thread stats (wrk2, idle threads) as missing, not unreadable', () => {
    const c = parseText(read('plain.txt').replace(/Req\/Sec .*$/m, 'Req/Sec        nan       nan   0.00      0.00%').replace('Latency   169.47us', 'Latency     -nanus'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'thread_requests_per_second_mean')).toBeUndefined();
    expect(val(c, 'latency_mean_seconds')).toBeUndefined();
    expect(val(c, 'requests_per_second')).toBe(62907.5);
  });
  it('reads a double-spaced paste (blank line after every line)', () => {
    const c = parseText(read('latency.txt').split('\n').join('\n\n'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'latency_p99_seconds')).toBe(0.00298);
  });
});
