import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseText } from '../../shared/capture/registry';
import type { ParsedCapture } from '../../shared/capture/types';

const DIR = path.join(__dirname, '..', 'fixtures', 'captures', 'ab');
const read = (n: string): string => readFileSync(path.join(DIR, n), 'utf8');
const val = (c: ParsedCapture, name: string, labels?: Record<string, string>): number | undefined =>
  c.metrics.find((m) => m.name === name && JSON.stringify(m.labels ?? {}) === JSON.stringify(labels ?? {}))?.value;

describe('ab parser', () => {
  it('reads a plain run (ab -n 2000 -c 10)', () => {
    const c = parseText(read('plain.txt'));
    expect(c.kind).toBe('ab');
    expect(c.confidence).toBeGreaterThanOrEqual(0.9);
    expect(c.toolVersion).toBe('ApacheBench 2.3');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_per_second')).toBe(14024.95);
    expect(val(c, 'requests_total')).toBe(2000);
    expect(val(c, 'requests_failed_total')).toBe(0);
    expect(val(c, 'latency_mean_seconds')).toBe(0.000713);
    expect(val(c, 'latency_mean_across_seconds')).toBe(0.000071);
    expect(val(c, 'latency_p50_seconds')).toBe(0.001);
    expect(val(c, 'latency_p99_seconds')).toBe(0.001);
    expect(val(c, 'latency_max_seconds')).toBe(0.002);
    expect(val(c, 'transfer_bytes_per_second')).toBeCloseTo(41116.11 * 1024, 6);
    expect(val(c, 'concurrency')).toBe(10);
    expect(val(c, 'duration_seconds')).toBe(0.143);
    expect(val(c, 'connection_time_stdev_seconds', { phase: 'connect' })).toBe(0.0002);
    expect(val(c, 'connection_time_max_seconds', { phase: 'total' })).toBe(0.002);
    expect(c.facts).toMatchObject({ server_software: 'nginx/1.22.1', server_hostname: '127.0.0.1', server_port: 18080, document_path: '/index.html', document_length_bytes: 2768 });
    expect(c.tables?.percentiles?.rows.length).toBe(9);
    expect(c.tables?.connection_times?.rows[3]).toEqual(['total', 0, 1, 0.1, 1, 2]);
    const p99 = c.metrics.find((m) => m.name === 'latency_p99_seconds');
    expect(p99?.lines).toEqual([52, 52]);
    expect(c.findings).toEqual([]);
  });

  it('reads -k keep-alive counts', () => {
    const c = parseText(read('keepalive.txt'));
    expect(val(c, 'requests_keepalive_total')).toBe(2000);
    expect(val(c, 'requests_per_second')).toBe(53640.87);
  });

  it('reads failed requests with their breakdown and non-2xx, and warns', () => {
    const c = parseText(read('mixed.txt'));
    expect(val(c, 'requests_failed_total')).toBe(510);
    expect(val(c, 'requests_failed_reason_total', { reason: 'length' })).toBe(510);
    expect(val(c, 'requests_failed_reason_total', { reason: 'connect' })).toBe(0);
    expect(val(c, 'responses_non2xx_total')).toBe(510);
    const f = c.findings.find((x) => x.id === 'load.ab-failed-requests');
    expect(f?.severity).toBe('warning');
    expect(f?.message).toContain('510 failed requests (51.0% of 1000 requests)');
    expect(f?.message).toContain('510 non-2xx responses');
    expect(f?.evidence).toBe('lines 29-31');
  });

  it('flags non-2xx responses even with no failed requests', () => {
    const c = parseText(read('non2xx.txt'));
    expect(val(c, 'responses_non2xx_total')).toBe(500);
    expect(c.findings.map((f) => f.id)).toEqual(['load.ab-failed-requests']);
  });

  it('notes a run cut short by -t, with the command from the prompt', () => {
    const c = parseText('user@box:~$ ab -t 1 -n 10000000 -c 4 http://127.0.0.1:18080/index.html\n' + read('timelimit.txt'));
    expect(c.kind).toBe('ab');
    expect(c.command).toBe('ab -t 1 -n 10000000 -c 4 http://127.0.0.1:18080/index.html');
    expect(val(c, 'requests_total')).toBe(20047);
    expect(c.facts.cut_short).toBe(true);
    expect(c.facts.requests_requested).toBe(10000000);
    expect(c.facts.time_limit_seconds).toBe(1);
    expect(c.warnings.some((w) => /cut short: 20047 of 10000000/.test(w))).toBe(true);
  });

  it('keeps the error of a run that could not connect', () => {
    const c = parseText(read('refused.txt'));
    expect(c.kind).toBe('ab');
    expect(c.facts.errors).toEqual(['apr_socket_recv: Connection refused (111)']);
    expect(c.metrics).toEqual([]);
    expect(c.warnings[0]).toMatch(/ab printed no results: apr_socket_recv/);
  });

  it('reads the -e percentile CSV side file', () => {
    const c = parseText(read('percentiles.csv'));
    expect(c.kind).toBe('ab');
    expect(val(c, 'latency_min_seconds')).toBe(0.000092);
    expect(val(c, 'latency_p50_seconds')).toBe(0.000128);
    expect(val(c, 'latency_p99_seconds')).toBe(0.000394);
    expect(val(c, 'latency_max_seconds')).toBe(0.000421);
    expect(c.tables?.percentiles?.rows.length).toBe(101);
    expect(c.warnings).toEqual([]);
  });

  it('reads the -g gnuplot TSV side file as series', () => {
    const c = parseText(read('gnuplot.tsv'));
    expect(c.kind).toBe('ab');
    expect(val(c, 'requests_total')).toBe(30);
    const s = c.series.find((x) => x.name === 'latency_seconds');
    expect(s?.values.length).toBe(30);
    expect(s?.times?.[0]).toBe(1795992374000);
    expect(c.warnings).toEqual([]);
  });

  it('survives CRLF, ANSI colours and a stray line', () => {
    const text = read('plain.txt').replace(/(\d+\.\d+)/g, '\x1b[1m$1\x1b[0m').replace(/\n/g, '\r\n').replace('Concurrency Level', 'garbage here\r\nConcurrency Level');
    const c = parseText(text);
    expect(c.kind).toBe('ab');
    expect(val(c, 'requests_per_second')).toBe(14024.95);
    expect(c.warnings).toEqual(['line 26: could not read "garbage here"']);
  });

  it('reads a truncated capture and says results are missing', () => {
    const text = read('plain.txt').split('\n').slice(0, 22).join('\n');
    const c = parseText(text);
    expect(c.kind).toBe('ab');
    expect(c.facts.server_software).toBe('nginx/1.22.1');
    expect(c.warnings.some((w) => /no ab results section/.test(w))).toBe(true);
  });

  it('reads -S (min avg max table) and -d (no percentile table): max falls back on the Total row', () => {
    const c = parseText(read('no-sd-no-perc.txt'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'connection_time_max_seconds', { phase: 'total' })).toBe(0.005);
    expect(val(c, 'connection_time_stdev_seconds', { phase: 'total' })).toBeUndefined();
    expect(val(c, 'latency_max_seconds')).toBe(0.005);
    expect(c.tables?.percentiles).toBeUndefined();
  });

  it('reads a POST run: body sent and the sent/total transfer rates', () => {
    const c = parseText(read('post.txt'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'body_sent_bytes')).toBe(290500);
    expect(val(c, 'transfer_sent_bytes_per_second')).toBeCloseTo(21728.81 * 1024, 6);
    expect(val(c, 'transfer_total_bytes_per_second')).toBeCloseTo(22897.16 * 1024, 6);
    expect(val(c, 'requests_failed_total')).toBe(56);
  });
  it('labels metrics run=N when several ab runs are pasted into one capture', () => {
    const c = parseText('$ ab -n 2000 -c 10 http://127.0.0.1:18080/index.html\n' + read('plain.txt') + '$ ab -n 1000 -c 4 http://127.0.0.1:18080/mixed\n' + read('mixed.txt'));
    expect(c.kind).toBe('ab');
    expect(val(c, 'requests_per_second', { run: '1' })).toBe(14024.95);
    expect(val(c, 'requests_per_second', { run: '2' })).toBe(15077.73);
    expect(val(c, 'requests_failed_reason_total', { reason: 'length', run: '2' })).toBe(510);
    expect(c.warnings).toEqual(['2 ab runs in one capture: every metric is labelled run=1…2']);
    expect(c.findings.map((f) => f.message)).toEqual([expect.stringMatching(/^run 2: ab: 510 failed requests \(51\.0% of 1000 requests\)/)]);
    expect(c.findings[0]?.labels).toEqual({ run: '2' });
  });
  it('skips the header/body dump of -v 2', () => {
    const c = parseText(read('verbose.txt'));
    expect(c.kind).toBe('ab');
    expect(c.warnings).toEqual([]);
    expect(val(c, 'requests_total')).toBe(3);
    expect(val(c, 'responses_non2xx_total')).toBe(3);
    expect(c.facts.errors).toBeUndefined();
  });
  it('reads a double-spaced paste (blank line after every line)', () => {
    const c = parseText(read('plain.txt').split('\n').join('\n\n'));
    expect(c.warnings).toEqual([]);
    expect(val(c, 'latency_p99_seconds')).toBe(0.001);
    expect(val(c, 'connection_time_max_seconds', { phase: 'total' })).toBe(0.002);
  });
});

describe('ab -w (issue 11)', () => {
  it('reads the HTML tables: the same figures as the cells say', () => {
    const html = readFileSync(path.join(__dirname, '../fixtures/captures/ab/w-html.txt'), 'utf8');
    const cell = (label: string) => Number(new RegExp(`${label}</th><td[^>]*>([\\d.]+)`).exec(html)![1]);
    const c = parseText(html);
    expect(c.kind).toBe('ab');
    expect(c.warnings).toEqual([]);
    const m = (name: string, phase?: string) => c.metrics.find((x) => x.name === name && x.labels?.phase === phase)?.value;
    expect(m('requests_per_second')).toBe(cell('Requests per second:'));
    expect(m('requests_total')).toBe(cell('Complete requests:'));
    expect(m('requests_failed_total')).toBe(cell('Failed requests:'));
    expect(m('duration_seconds')).toBe(cell('Time taken for tests:'));
    const total = /Total:<\/th><td[^>]*>\s*(\d+)<\/td><td[^>]*>\s*(\d+)<\/td><td[^>]*>\s*(\d+)/.exec(html)!;
    expect([m('connection_time_min_seconds', 'total'), m('connection_time_mean_seconds', 'total'), m('connection_time_max_seconds', 'total')])
      .toEqual([Number(total[1]) / 1000, Number(total[2]) / 1000, Number(total[3]) / 1000]);
  });
});
