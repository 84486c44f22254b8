/**
 * redis-benchmark: -q lines ("SET: 12345.68 requests per second, p50=0.135 msec", older without
 * p50), the full per-test report (6.2+/7.x "Latency by percentile distribution", "Cumulative
 * distribution of latencies", "Summary" with the latency summary table; older "99.76% <= 1
 * milliseconds" lines and a bare "N requests per second"), and --csv (7.x with a header row, older
 * "TEST","rps" pairs). Progress lines ("SET: rps=… (overall: …) avg_msec=…") are skipped.
 * Format per redis src/redis-benchmark.c (showLatencyReport, showThroughput).
 */
import type { CaptureParser, LineSink, ParseOutput, Table } from '../../types';
import { fields, lookupTable } from '../kit';
import { Out, dec, headRuns, ms, pName, splitCsv } from './common';

const TOOLS = ['redis-benchmark'];
const CSV_HEADER = /^"test","rps"(,"[\w]+")*\s*$/;
const QUIET = /^\s*(\S.*?): ([\d.]+) requests per second(?:, p50=([\d.]+) msec)?\s*$/;
const PROGRESS = /^\s*\S.*?: rps=[-\w.]+ \(overall: [-\w.]+\) avg_msec=[-\w.]+ \(overall: [-\w.]+\)\s*$/;

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (i < 5 && CSV_HEADER.test(l)) return 0.95;
    if (/^={6} .+ ={6}$/.test(l)) score = Math.max(score, 0.8);
    if (/^\s+\d+ requests completed in [\d.]+ seconds$/.test(l)) return 0.95;
    if (/^Latency by percentile distribution:$/.test(l)) return 0.95;
    if (/^\s+throughput summary: [\d.]+ requests per second$/.test(l)) return 0.95;
    if (PROGRESS.test(l)) return 0.9;
    if (/^WARNING: Could not fetch server CONFIG$/.test(l)) score = Math.max(score, 0.8);
    if (QUIET.test(l)) score = Math.max(score, /p50=/.test(l) ? 0.9 : 0.7);
    if (i < 5 && /^"(PING_INLINE|PING_MBULK|SET|GET|INCR|LPUSH|RPUSH|LPOP|RPOP|SADD|HSET|SPOP|ZADD|ZPOPMIN|LRANGE_\d+|MSET)[^"]*","[\d.]+"/.test(l)) score = Math.max(score, 0.85);
  }
  if (headRuns(head, TOOLS)) score = Math.max(score, 0.5);
  return score;
}

const CSV_COLS = lookupTable<{ name: string; ms: boolean }>({
  rps: { name: 'requests_per_second', ms: false },
  avg_latency_ms: { name: 'latency_mean_seconds', ms: true },
  min_latency_ms: { name: 'latency_min_seconds', ms: true },
  p50_latency_ms: { name: 'latency_p50_seconds', ms: true },
  p95_latency_ms: { name: 'latency_p95_seconds', ms: true },
  p99_latency_ms: { name: 'latency_p99_seconds', ms: true },
  max_latency_ms: { name: 'latency_max_seconds', ms: true },
});
const SUMMARY_COLS = lookupTable({
  avg: 'latency_mean_seconds', min: 'latency_min_seconds', p50: 'latency_p50_seconds',
  p95: 'latency_p95_seconds', p99: 'latency_p99_seconds', max: 'latency_max_seconds',
});

function open(): LineSink {
  const out = new Out();
  const o = out.o;
  let mode: 'text' | 'csv' | undefined;
  let csvHeader: string[] | undefined;
  let test: string | undefined;
  let block: 'none' | 'percentile' | 'cumulative' | 'summary' | 'oldcdf' = 'none';
  let summaryCols: string[] | undefined;
  const pctTable: Table = { columns: ['test', 'percent', 'latency_ms', 'cumulative_count'], rows: [] };
  const cdfTable: Table = { columns: ['test', 'percent', 'latency_ms', 'cumulative_count'], rows: [] };
  const tests = new Set<string>();

  function lab(t: string | undefined): Record<string, string> { return { test: t ?? 'unknown' }; }

  function csvLine(line: string, lineNo: number): void {
    const c = splitCsv(line.trim());
    if (!csvHeader) {
      if (c.length === 2 && Number.isFinite(dec(c[1]))) {
        tests.add(c[0]!);
        out.metric('requests_per_second', dec(c[1]), '1/s', { labels: lab(c[0]), column: 'rps', lines: lineNo });
        return;
      }
      out.warn(lineNo, line);
      return;
    }
    if (c.length < 2) { out.warn(lineNo, line); return; }
    const t = c[0]!;
    tests.add(t);
    csvHeader.forEach((h, i) => {
      const d = CSV_COLS[h];
      const v = dec(c[i]);
      if (d && Number.isFinite(v)) out.metric(d.name, d.ms ? ms(v) : v, d.ms ? 's' : '1/s', { labels: lab(t), column: h, lines: lineNo });
    });
  }

  function textLine(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    if (!line.trim()) return;
    if (PROGRESS.test(line)) return;
    if (out.command(line, TOOLS)) return;
    let m = /^\s*={6} (.+?) ={6}$/.exec(line);
    if (m) { test = m[1]!; tests.add(test); block = 'none'; return; }
    m = QUIET.exec(line);
    if (m && !/^\s*(throughput summary)$/.test(m[1]!)) {
      const t = m[1]!.trim();
      tests.add(t);
      out.metric('requests_per_second', Number(m[2]), '1/s', { labels: lab(t), column: 'requests per second', lines: lineNo });
      if (m[3] !== undefined) out.metric('latency_p50_seconds', ms(Number(m[3])), 's', { labels: lab(t), column: 'p50', lines: lineNo });
      return;
    }
    m = /^\s+throughput summary: ([\d.]+) requests per second$/.exec(line);
    if (m) { out.metric('requests_per_second', Number(m[1]), '1/s', { labels: lab(test), column: 'throughput summary', lines: lineNo }); return; }
    m = /^([\d.]+) requests per second$/.exec(line);
    if (m) { out.metric('requests_per_second', Number(m[1]), '1/s', { labels: lab(test), column: 'requests per second', lines: lineNo }); block = 'none'; return; }
    m = /^\s+(\d+) requests completed in ([\d.]+) seconds$/.exec(line);
    if (m) {
      out.metric('requests_total', Number(m[1]), 'count', { labels: lab(test), column: 'requests completed', lines: lineNo });
      out.metric('duration_seconds', Number(m[2]), 's', { labels: lab(test), column: 'completed in', lines: lineNo });
      return;
    }
    m = /^\s+(\d+) parallel clients$/.exec(line);
    if (m) { out.metric('clients', Number(m[1]), 'count', { labels: lab(test), column: 'parallel clients', lines: lineNo }); return; }
    m = /^\s+(\d+) bytes payload$/.exec(line);
    if (m) { out.metric('payload_bytes', Number(m[1]), 'B', { labels: lab(test), column: 'bytes payload', lines: lineNo }); return; }
    m = /^\s+(keep alive|multi-thread|threads|cluster mode|host configuration "[^"]*"|node \[[^\]]*\] configuration "[^"]*"): ?(.*)$/.exec(line);
    if (m) { o.settings[m[1]!] = m[2]!; return; }
    if (line === 'Latency by percentile distribution:') { block = 'percentile'; return; }
    if (line === 'Cumulative distribution of latencies:') { block = 'cumulative'; return; }
    if (line === 'Summary:') { block = 'summary'; return; }
    m = /^([\d.]+)% <= ([\d.]+) milli(?:seconds|sec)(?: \(cumulative count (\d+)\))?$/.exec(line);
    if (m) {
      const p = Number(m[1]), v = Number(m[2]);
      const cnt = m[3] !== undefined ? Number(m[3]) : null;
      if (block === 'percentile') {
        pctTable.rows.push([test ?? null, p, v, cnt]);
        if (p === 0 && !out.has('latency_min_seconds', lab(test))) out.metric('latency_min_seconds', ms(v), 's', { labels: lab(test), column: '0.000%', lines: lineNo });
        else if ([50, 75, 90, 99, 99.9].includes(p)) out.metric(`latency_${pName(p)}_seconds`, ms(v), 's', { labels: lab(test), column: `${m[1]!}%`, lines: lineNo });
      } else {
        if (block !== 'cumulative') block = 'oldcdf';
        cdfTable.rows.push([test ?? null, p, v, cnt]);
      }
      return;
    }
    if (block === 'summary') {
      if (/^\s+latency summary \(msec\):$/.test(line)) return;
      const f = fields(line);
      if (f.length && f.every((x) => /^[a-z]+\d*$/.test(x))) { summaryCols = f; return; }
      if (summaryCols && f.length === summaryCols.length && f.every((x) => Number.isFinite(dec(x)))) {
        summaryCols.forEach((col, i) => {
          const name = SUMMARY_COLS[col];
          if (!name) return;
          const v = ms(dec(f[i]));
          if (out.has(name, lab(test))) out.setMetric(name, v, 's', { labels: lab(test), column: col, lines: lineNo });
          else out.metric(name, v, 's', { labels: lab(test), column: col, lines: lineNo });
        });
        return;
      }
    }
    if (/^(WARNING|Could not connect|Error|ERROR|Writing to socket|Reading from socket)/i.test(line)) {
      ((o.facts.errors ??= []) as string[]).push(line.trim());
      return;
    }
    out.warn(lineNo, line);
  }

  return {
    line(text: string, lineNo: number): void {
      if (mode === undefined) {
        if (!text.trim()) return;
        if (CSV_HEADER.test(text)) { mode = 'csv'; csvHeader = splitCsv(text.trim()); return; }
        mode = /^"[^"]+","[\d.]+"/.test(text) ? 'csv' : 'text';
      }
      if (mode === 'csv') { if (text.trim()) csvLine(text, lineNo); } else textLine(text, lineNo);
    },
    end(): ParseOutput {
      out.table('latency_percentiles', pctTable);
      out.table('latency_cumulative', cdfTable);
      if (tests.size) o.facts.tests = [...tests];
      if (!o.metrics.some((m) => m.name === 'requests_per_second')) {
        out.noResults('redis-benchmark', (o.facts.errors as string[] | undefined) ?? []);
      }
      return out.finish('redis-benchmark');
    },
  };
}

export const redisBenchmark: CaptureParser = {
  id: 'redis-benchmark',
  title: 'redis-benchmark',
  commands: [{ program: 'redis-benchmark' }],
  detect,
  open,
};
