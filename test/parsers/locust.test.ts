import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'locust');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;
const AGG = { endpoint: 'Aggregated' };
const INDEX = { endpoint: '/index.html', method: 'GET' };

describe('locust parser', () => {
  it('reads _stats.csv per endpoint and the Aggregated row (ms → s)', () => {
    const c = parseText(read('stats.csv'));
    expect(c.kind).toBe('locust');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_total', AGG)).toBe(619);
    expect(val(c, 'requests_failed_total', AGG)).toBe(197);
    expect(val(c, 'requests_per_second', AGG)).toBe(56.2399674952);
    expect(val(c, 'latency_mean_seconds', AGG)).toBeCloseTo(0.0025480392197, 12);
    expect(val(c, 'latency_p50_seconds', AGG)).toBe(0.002);
    expect(val(c, 'latency_p95_seconds', AGG)).toBe(0.007);
    expect(val(c, 'latency_p99_seconds', AGG)).toBe(0.01);
    expect(val(c, 'latency_max_seconds', AGG)).toBeCloseTo(0.019663779, 12);
    expect(val(c, 'requests_total', INDEX)).toBe(369);
    expect(val(c, 'requests_failed_total', { endpoint: '/mixed', method: 'POST' })).toBe(60);
    expect(val(c, 'latency_p99_9_seconds', INDEX)).toBe(0.015);
    const f = c.findings.find((x) => x.id === 'load.errors');
    expect(f?.message).toBe('locust: 197 failed requests (31.8% of 619 requests) — GET /err500: 137, POST /mixed: 60.');
    expect(f?.evidence).toBe('line 5');
  });

  it('reads _stats_history.csv (--csv-full-history) as series per endpoint', () => {
    const c = parseText(read('stats_history.csv'));
    expect(c.kind).toBe('locust');
    expect(c.warnings).toEqual([]);
    const rps = c.series.find((s) => s.name === 'requests_per_second' && s.labels?.endpoint === 'Aggregated');
    expect(rps?.values.length).toBe(11);
    expect(rps?.times?.[0]).toBe(1795992446000);
    expect(rps?.values.at(-1)).toBe(54.375);
    const users = c.series.find((s) => s.name === 'users' && s.labels?.endpoint === 'Aggregated');
    expect(users?.values.slice(0, 3)).toEqual([0, 3, 3]);
    // the first row has N/A percentiles: kept as NaN so samples line up
    const p50 = c.series.find((s) => s.name === 'latency_p50_seconds' && s.labels?.endpoint === 'Aggregated');
    expect(Number.isNaN(p50?.values[0])).toBe(true);
    expect(val(c, 'requests_total', AGG)).toBe(562);
    expect(val(c, 'requests_failed_total', AGG)).toBe(175);
    expect(val(c, 'requests_total', INDEX)).toBe(335);
  });

  it('reads _failures.csv', () => {
    const c = parseText(read('failures.csv'));
    expect(c.kind).toBe('locust');
    expect(val(c, 'requests_failed_total')).toBe(197);
    const e = c.metrics.find((m) => m.name === 'errors_total' && m.labels?.endpoint === '/err500');
    expect(e?.value).toBe(137);
    expect(e?.labels?.method).toBe('GET');
    expect(c.tables?.failures?.rows.length).toBe(2);
    expect(c.findings.map((f) => f.id)).toEqual(['load.errors']);
  });

  it('reads an empty _exceptions.csv', () => {
    const c = parseText(read('exceptions.csv'));
    expect(c.kind).toBe('locust');
    expect(val(c, 'exceptions_sum_total')).toBe(0);
    expect(c.findings).toEqual([]);
  });

  it('reads exceptions with multi-line quoted tracebacks', () => {
    const text = read('exceptions.csv') + '3,ZeroDivisionError(\'division by zero\'),"Traceback (most recent call last):\n  File ""x.py"", line 1\nZeroDivisionError",host-a\n';
    const c = parseText(text);
    expect(c.warnings).toEqual([]);
    expect(val(c, 'exceptions_total', { error: "ZeroDivisionError('division by zero')" })).toBe(3);
    expect(c.tables?.exceptions?.rows[0]?.[2]).toBe('Traceback (most recent call last):\n  File "x.py", line 1\nZeroDivisionError');
  });

  it('reads the --headless console: the last stats table, percentiles and error report', () => {
    const c = parseText(read('console.txt'));
    expect(c.kind).toBe('locust');
    expect(c.toolVersion).toBe('locust');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_total', AGG)).toBe(656);
    expect(val(c, 'requests_failed_total', AGG)).toBe(213);
    expect(val(c, 'requests_per_second', AGG)).toBe(56.26);
    expect(val(c, 'failures_per_second', AGG)).toBe(18.27);
    expect(val(c, 'latency_mean_seconds', AGG)).toBe(0.002);
    expect(val(c, 'latency_max_seconds', AGG)).toBe(0.019);
    expect(val(c, 'latency_p95_seconds', AGG)).toBe(0.007);
    expect(val(c, 'latency_p99_seconds', AGG)).toBe(0.01);
    expect(val(c, 'requests_total', INDEX)).toBe(386);
    expect(val(c, 'errors_total', { endpoint: '/err500', method: 'GET', error: "HTTPError('500 Server Error: Internal Server Error for url: http://127.0.0.1:18080/err500')" })).toBe(148);
    expect(c.findings.find((f) => f.id === 'load.errors')?.message).toMatch(/^locust: 213 failed requests \(32\.5% of 656 requests\)/);
  });

  it('reads the 0.x/1.x percentile table layout with "# reqs" before the percentiles (derived from the real one)', () => {
    const lines = read('console.txt').split('\n');
    const start = lines.findIndex((l) => l.startsWith('Response time percentiles'));
    const moved = lines.map((l, i) => {
      if (i <= start || /^-/.test(l)) return l;
      if (l.endsWith('# reqs')) return l.replace(/(50%.*?)\s+# reqs$/, '# reqs   $1');
      if (!/\d\s*$/.test(l)) return l;
      const f = l.trim().split(/\s+/);
      const reqs = f.pop()!;
      f.splice(f.length - 11, 0, reqs);
      return ' ' + f.join('   ');
    });
    const c = parseText(moved.join('\n'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'latency_p95_seconds', AGG)).toBe(0.007);
    expect(val(c, 'latency_p99_seconds', INDEX)).toBe(0.011);
  });

  it('reads LF line ends (locust writes CRLF) and warns on a truncated history row', () => {
    const lines = read('stats_history.csv').split('\r\n');
    const text = lines.slice(0, 10).join('\n') + '\n1795992456,3,GET,/ind';
    const c = parseText(text);
    expect(c.kind).toBe('locust');
    expect(c.warnings).toEqual(['line 11: could not read "1795992456,3,GET,/ind"']);
  });
  it('reads the 0.x quoted _stats.csv layout (Method, # requests, Total row), derived from the real file', () => {
    const rename: Record<string, string> = { Type: 'Method', 'Request Count': '# requests', 'Failure Count': '# failures', 'Median Response Time': 'Median response time', 'Average Response Time': 'Average response time', 'Min Response Time': 'Min response time', 'Max Response Time': 'Max response time' };
    const lines = read('stats.csv').split('\r\n').filter(Boolean);
    const head = lines[0]!.split(',').map((h) => `"${rename[h] ?? h}"`).join(',');
    const rows = lines.slice(1).map((l) => l.split(',').map((x, i) => (i < 2 ? `"${x === '' ? 'None' : x === 'Aggregated' ? 'Total' : x}"` : `"${x}"`)).join(','));
    const c = parseText([head, ...rows].join('\n'));
    expect(c.kind).toBe('locust');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_total', AGG)).toBe(619);
    expect(val(c, 'requests_total', INDEX)).toBe(369);
    expect(val(c, 'latency_p50_seconds', AGG)).toBe(0.002);
  });
  it('reads a double-spaced paste of the console (blank line after every line)', () => {
    const c = parseText(read('console.txt').split('\n').join('\n\n'));
    expect(c.kind).toBe('locust');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_total', AGG)).toBe(656);
    expect(val(c, 'latency_p95_seconds', AGG)).toBe(0.007);
  });
});
