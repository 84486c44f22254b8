import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'hey');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('hey parser', () => {
  it('reads a -z run: summary, percentiles, details, status codes', () => {
    const c = parseText(read('duration.txt'));
    expect(c.kind).toBe('hey');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_per_second')).toBe(28510.1599);
    expect(val(c, 'duration_seconds')).toBe(2.0007);
    expect(val(c, 'latency_mean_seconds')).toBe(0.0003);
    expect(val(c, 'latency_max_seconds')).toBe(0.0096);
    expect(val(c, 'latency_min_seconds')).toBe(0);
    expect(val(c, 'latency_p50_seconds')).toBe(0.0003);
    expect(val(c, 'latency_p99_seconds')).toBe(0.0015);
    expect(val(c, 'transferred_bytes')).toBe(157883952);
    expect(val(c, 'response_size_bytes')).toBe(2768);
    expect(val(c, 'responses_total', { code: '200' })).toBe(57039);
    expect(val(c, 'requests_total')).toBe(57039);
    expect(val(c, 'requests_failed_total')).toBe(0);
    expect(val(c, 'phase_time_max_seconds', { phase: 'resp_wait' })).toBe(0.0088);
    expect(c.tables?.histogram?.rows[1]).toEqual([0.001, 55082]);
    expect(c.findings).toEqual([]);
    // hey prints whole percentiles (10 … 99); a fraction, as a patched hey might print, is named as every parser names it
    const frac = parseText(read('duration.txt').replace('  99% in 0.0015 secs', '  99% in 0.0015 secs\n  99.90% in 0.0031 secs'));
    expect(frac.warnings).toEqual([]);
    expect(val(frac, 'latency_p99_9_seconds')).toBe(0.0031);
    expect(frac.metrics.find((m) => m.name === 'latency_p99_9_seconds')?.column).toBe('99.90%');
  });

  it('counts status codes and flags non-2xx', () => {
    const c = parseText(read('mixed.txt'));
    expect(val(c, 'responses_total', { code: '500' })).toBe(205);
    expect(val(c, 'responses_non2xx_total')).toBe(205);
    expect(val(c, 'requests_total')).toBe(400);
    expect(c.findings.map((f) => f.id)).toEqual(['load.non2xx']);
  });

  it('reads the error distribution: requests_total = codes + errors, load.errors', () => {
    const c = parseText(read('errors.txt'));
    expect(val(c, 'requests_total')).toBe(60);
    expect(val(c, 'requests_failed_total')).toBe(26);
    const eof = c.metrics.find((m) => m.name === 'errors_total' && m.labels?.type === 'read');
    expect(eof?.value).toBe(17);
    expect(eof?.labels?.error).toBe('Get "http://127.0.0.1:18081/": EOF');
    // hey printed a bogus "0% in 0.0000 secs" line for a percentile it could not fill: skipped
    expect(val(c, 'latency_p99_seconds')).toBeUndefined();
    expect(val(c, 'latency_p95_seconds')).toBe(0.0045);
    const f = c.findings.find((x) => x.id === 'load.errors');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toBe('hey: 26 requests failed (read 17, timeout 9) (43.3% of 60 requests).');
    expect(f?.evidence).toBe('lines 46-47');
  });

  it('drops the meaningless latencies when every request failed', () => {
    const c = parseText(read('refused.txt'));
    expect(c.kind).toBe('hey');
    expect(val(c, 'requests_failed_total')).toBe(20);
    expect(val(c, 'errors_total', { type: 'connect', error: 'Get "http://127.0.0.1:18099/": dial tcp 127.0.0.1:18099: connect: connection refused' })).toBe(20);
    expect(c.metrics.some((m) => m.name.startsWith('latency_'))).toBe(false);
    expect(c.findings.find((f) => f.id === 'load.errors')?.severity).toBe('critical');
  });

  it('reads -o csv as per-request series with computed figures', () => {
    const c = parseText(read('csv.txt'));
    expect(c.kind).toBe('hey');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_total')).toBe(50);
    expect(val(c, 'responses_total', { code: '200' })).toBe(26);
    expect(val(c, 'responses_total', { code: '500' })).toBe(24);
    expect(val(c, 'latency_max_seconds')).toBe(0.0007);
    const s = c.series.find((x) => x.name === 'latency_seconds');
    expect(s?.values.slice(0, 3)).toEqual([0.0004, 0.0007, 0.0001]);
    expect(s?.times?.[0]).toBeCloseTo(0.5, 9);
  });

  it('takes the command from a prompt and warns on garbage', () => {
    const c = parseText('$ hey -n 400 -c 4 http://127.0.0.1:18080/mixed\n' + read('mixed.txt').replace('Latency distribution:', 'what is this\nLatency distribution:'));
    expect(c.command).toBe('hey -n 400 -c 4 http://127.0.0.1:18080/mixed');
    expect(c.warnings).toEqual(['line 27: could not read "what is this"']);
    expect(val(c, 'requests_total')).toBe(400);
  });
  it('labels metrics run=N when several hey reports are pasted into one capture', () => {
    const c = parseText(read('duration.txt') + read('refused.txt'));
    expect(val(c, 'requests_total', { run: '1' })).toBe(57039);
    expect(val(c, 'requests_failed_total', { run: '2' })).toBe(20);
    // run 1 keeps its latencies; only run 2's meaningless ones are dropped
    expect(val(c, 'latency_max_seconds', { run: '1' })).toBe(0.0096);
    expect(val(c, 'latency_max_seconds', { run: '2' })).toBeUndefined();
    expect(c.findings.map((f) => `${f.id} ${f.severity} ${f.labels?.run}`)).toEqual(['load.errors critical 2']);
  });
  it('reads a report whose tabs became spaces (terminal copy-paste)', () => {
    const c = parseText(read('errors.txt').replace(/\t/g, '    '));
    expect(c.kind).toBe('hey');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_per_second')).toBe(19.8709);
    expect(val(c, 'requests_total')).toBe(60);
    expect(val(c, 'phase_time_max_seconds', { phase: 'dns_dialup' })).toBe(0.0045);
  });
});
