/**
 * hey (rakyll/hey) summary output and its -o csv per-request output.
 * Format per hey requester/print.go (defaultTmpl and csvTmpl).
 * Tabs may have become spaces (terminal copy-paste): every pattern accepts either.
 *
 * How a capture is read (HeySink): the first line tells the -o csv file (one row per request,
 * `csvRow`; `csvMetrics` computes the totals and percentiles at the end) from the summary. The
 * summary's blocks each start with a heading at column 0 ("Summary:", "Latency distribution:"…)
 * and their lines go to the reader of that block (`summaryField`, `histogramRow`, `latencyRow`,
 * `detailsRow`, `statusRow`, `errorRow`); `endRun` adds the request totals of each report.
 */
import type { CaptureParser, LineSink, ParseOutput, Table } from '../../types';
import { commandLine, lookupTable } from '../kit';
import { SeriesSet } from '../../series';
import { Out, dec, headRuns, pName, round, splitCsv } from './common';

const TOOLS = ['hey'];
const CSV_HEADER = /^response-time,DNS\+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\s*$/;
const SECTIONS = lookupTable<Section>({
  'Summary:': 'summary',
  'Response time histogram:': 'histogram',
  'Latency distribution:': 'latency',
  'Details (average, fastest, slowest):': 'details',
  'Status code distribution:': 'status',
  'Error distribution:': 'errors',
});
type Section = 'none' | 'summary' | 'histogram' | 'latency' | 'details' | 'status' | 'errors';
/** The -o csv columns read as series (all but status-code and offset), in order. */
const CSV_SERIES: readonly (readonly [name: string, column: string])[] = [
  ['latency_seconds', 'response-time'], ['dns_dialup_seconds', 'DNS+dialup'], ['dns_lookup_seconds', 'DNS'],
  ['req_write_seconds', 'Request-write'], ['resp_wait_seconds', 'Response-delay'], ['resp_read_seconds', 'Response-read'],
];

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (i < 5 && CSV_HEADER.test(l)) return 0.95;
    if (l === 'Response time histogram:' || l === 'Details (average, fastest, slowest):') return 0.95;
    if (l === 'Status code distribution:') score = Math.max(score, 0.9);
    if (/^\s+Requests\/sec:\s/.test(l)) score = Math.max(score, 0.7);
    if (/^\s+\d+(\.\d+)?% in [\d.]+ secs$/.test(l)) score = Math.max(score, 0.85);
    if (/^\s+DNS\+dialup:\s/.test(l)) score = Math.max(score, 0.9);
  }
  if (headRuns(head, TOOLS, true)) score = Math.max(score, 0.4);
  return score;
}

const PHASES = lookupTable({
  'DNS+dialup': 'dns_dialup', 'DNS-lookup': 'dns_lookup', 'req write': 'req_write', 'resp wait': 'resp_wait', 'resp read': 'resp_read',
});

/** "0.0135 secs" → 0.0135 (hey prints NaN secs when nothing was measured: missing). */
function secs(s: string | undefined): number {
  if (s === undefined) return NaN;
  const m = /^\s*(NaN|[-+]?[\d.]+(?:e[-+]?\d+)?)\s*secs\s*$/i.exec(s);
  if (!m || m[1] === 'NaN') return NaN;
  return Number(m[1]);
}

/** hey's own percentile of sorted values: the value at rank ceil(p% × n). */
function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

/** A line range grown to take in line n. */
function widen(r: [number, number] | undefined, n: number): [number, number] { return r ? [r[0], n] : [n, n]; }

/** A short class for a Go net/http error message. */
function errorType(msg: string): string {
  if (/connection refused/i.test(msg)) return 'connect';
  if (/Client\.Timeout|deadline exceeded|timeout/i.test(msg)) return 'timeout';
  if (/connection reset|EOF|broken pipe/i.test(msg)) return 'read';
  if (/no such host|lookup/i.test(msg)) return 'dns';
  return 'other';
}

/** What one hey report has shown so far; several reports may be pasted into one capture (HeySink.nextRun). */
interface HeyRun {
  section: Section;
  sawSummary: boolean;
  /** responses per the status code distribution, errors per the error distribution, and the non-2xx responses */
  statusSum: number;
  errorSum: number;
  non2xx: number;
  /** the lines of the status code and error distributions */
  statusLines: [number, number] | undefined;
  errorLines: [number, number] | undefined;
  /** index of the report's first metric in the output */
  firstMetric: number;
}

function newRun(firstMetric: number): HeyRun {
  return { section: 'none', sawSummary: false, statusSum: 0, errorSum: 0, non2xx: 0, statusLines: undefined, errorLines: undefined, firstMetric };
}

/** Whether a report has begun (a summary, or a distribution printed without one). */
const begun = (r: HeyRun): boolean => r.sawSummary || r.statusLines !== undefined || r.errorLines !== undefined;

/** The -o csv file read so far: its latencies (sorted at the end for percentiles) and status codes. */
interface CsvRows {
  lat: number[];
  codes: Map<string, number>;
  first: number;
  last: number;
  /** the latest a request ended (offset + response-time), in seconds from the start */
  end: number;
}

class HeySink implements LineSink {
  private readonly out = new Out();
  private readonly o = this.out.o;
  /** which file this is, told by its first non-blank line */
  private mode: 'text' | 'csv' | undefined;
  private run = newRun(0);
  private readonly histogram: Table = { columns: ['bucket_seconds', 'count'], rows: [] };
  private readonly series = new SeriesSet();
  private readonly csv: CsvRows = { lat: [], codes: new Map(), first: 0, last: 0, end: 0 };

  line(text: string, lineNo: number): void {
    if (this.mode === undefined) {
      if (!text.trim()) return;
      if (CSV_HEADER.test(text)) { this.mode = 'csv'; this.o.facts.hey_file = 'csv'; return; }
      this.mode = 'text';
    }
    if (this.mode === 'csv') this.csvRow(text, lineNo); else this.textLine(text, lineNo);
  }

  end(): ParseOutput {
    if (this.mode === 'csv') return this.csvMetrics();
    this.out.table('histogram', this.histogram);
    this.endRun();
    return this.out.finish('hey');
  }

  // ---- summary output --------------------------------------------------------------------------

  /** A line of the summary: a block heading, a command line, or a line of the current block. */
  private textLine(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    if (!line) return;
    if (this.heading(line)) return;
    if (begun(this.run) && commandLine(line, TOOLS) !== undefined) this.nextRun();
    if (this.out.command(line, TOOLS)) return;
    if (this.sectionLine(line, lineNo)) return;
    this.out.warn(lineNo, line);
  }

  /** A block heading at column 0 ("Summary:" … "Error distribution:"); a second "Summary:" starts the next report. */
  private heading(line: string): boolean {
    const sec = SECTIONS[line.trim()];
    if (!sec || !/^\S/.test(line)) return false;
    if (sec === 'summary') {
      if (begun(this.run)) this.nextRun();
      this.run.sawSummary = true;
    }
    this.run.section = sec;
    return true;
  }

  /** A line of the current block, handed to that block's reader. */
  private sectionLine(line: string, lineNo: number): boolean {
    switch (this.run.section) {
      case 'summary': return this.summaryField(line, lineNo);
      case 'histogram': return this.histogramRow(line);
      case 'latency': return this.latencyRow(line, lineNo);
      case 'details': return this.detailsRow(line, lineNo);
      case 'status': return this.statusRow(line, lineNo);
      case 'errors': return this.errorRow(line, lineNo);
      default: return false;
    }
  }

  /** "Summary:" — "  Total:	0.0135 secs", Slowest, Fastest, Average, Requests/sec, Total data, Size/request. */
  private summaryField(line: string, lineNo: number): boolean {
    const out = this.out;
    const m = /^\s+([A-Za-z/][A-Za-z/ ]*?):\s+(.*)$/.exec(line);
    if (!m) return false;
    const key = m[1]!, v = m[2]!;
    const bytes = /^(\d+) bytes$/.exec(v);
    switch (key) {
      case 'Total': out.metric('duration_seconds', secs(v), 's', { column: key, lines: lineNo }); return true;
      case 'Slowest': out.metric('latency_max_seconds', secs(v), 's', { column: key, lines: lineNo }); return true;
      case 'Fastest': out.metric('latency_min_seconds', secs(v), 's', { column: key, lines: lineNo }); return true;
      case 'Average': out.metric('latency_mean_seconds', secs(v), 's', { column: key, lines: lineNo }); return true;
      case 'Requests/sec': out.metric('requests_per_second', dec(v), '1/s', { column: key, lines: lineNo }); return true;
      case 'Total data': if (bytes) { out.metric('transferred_bytes', Number(bytes[1]), 'B', { column: key, lines: lineNo }); return true; } return false;
      case 'Size/request': if (bytes) { out.metric('response_size_bytes', Number(bytes[1]), 'B', { column: key, lines: lineNo }); return true; } return false;
      default: return false;
    }
  }

  /** "Response time histogram:" — "  0.000 [190]	|■■■■" (bucket seconds, count): kept as a table. */
  private histogramRow(line: string): boolean {
    const m = /^\s+([\d.]+) \[(\d+)\]\s+\|/.exec(line);
    if (!m) return false;
    this.histogram.rows.push([Number(m[1]), Number(m[2])]);
    return true;
  }

  /** "Latency distribution:" — "  99% in 0.0004 secs" (100% is the slowest). */
  private latencyRow(line: string, lineNo: number): boolean {
    const m = /^\s+(\d+(?:\.\d+)?)% in ([\d.]+) secs$/.exec(line);
    if (!m) return false;
    const p = Number(m[1]);
    // (hey prints whole percentiles, 10 … 99; a fraction is named as every parser names it: 99.90 → p99_9)
    if (p > 0) this.out.metric(p >= 100 ? 'latency_max_seconds' : `latency_${pName(p)}_seconds`, Number(m[2]), 's', { column: `${m[1]!}%`, lines: lineNo });
    return true;
  }

  /** "Details (average, fastest, slowest):" — "  DNS+dialup:	0.0000 secs, 0.0000 secs, 0.0008 secs", per request phase. */
  private detailsRow(line: string, lineNo: number): boolean {
    const m = /^\s+([A-Za-z+][A-Za-z+ -]*?):\s+(.*)$/.exec(line);
    if (!m || !PHASES[m[1]!]) return false;
    const phase = PHASES[m[1]!]!;
    const parts = m[2]!.split(',');
    if (parts.length !== 3) return false;
    const labels = { phase };
    this.out.metric('phase_time_mean_seconds', secs(parts[0]), 's', { labels, column: `${m[1]!} average`, lines: lineNo });
    this.out.metric('phase_time_min_seconds', secs(parts[1]), 's', { labels, column: `${m[1]!} fastest`, lines: lineNo });
    this.out.metric('phase_time_max_seconds', secs(parts[2]), 's', { labels, column: `${m[1]!} slowest`, lines: lineNo });
    return true;
  }

  /** "Status code distribution:" — "  [200]	195 responses". */
  private statusRow(line: string, lineNo: number): boolean {
    const m = /^\s+\[(\d+)\]\s+(\d+) responses$/.exec(line);
    if (!m) return false;
    const run = this.run;
    const n = Number(m[2]);
    run.statusSum += n;
    if (!/^2/.test(m[1]!)) run.non2xx += n;
    run.statusLines = widen(run.statusLines, lineNo);
    this.out.metric('responses_total', n, 'count', { labels: { code: m[1]! }, column: `[${m[1]!}]`, lines: lineNo });
    return true;
  }

  /** "Error distribution:" — "  [12]	Get "http://…": dial tcp …: connection refused". */
  private errorRow(line: string, lineNo: number): boolean {
    const m = /^\s+\[(\d+)\]\s+(.*)$/.exec(line);
    if (!m) return false;
    const run = this.run;
    const n = Number(m[1]);
    run.errorSum += n;
    run.errorLines = widen(run.errorLines, lineNo);
    this.out.metric('errors_total', n, 'count', { labels: { type: errorType(m[2]!), error: m[2]!.slice(0, 300) }, column: m[2]!, lines: lineNo });
    return true;
  }

  // ---- reports ---------------------------------------------------------------------------------

  /** Totals of one hey report (several reports may be pasted into one capture). */
  private endRun(): void {
    const { out, o, run } = this;
    const { statusSum, errorSum, statusLines, errorLines } = run;
    if (run.sawSummary && statusSum === 0 && errorSum > 0) {
      // no response came back: hey prints 0.0000 for slowest/fastest; those are not latencies
      o.metrics = [...o.metrics.slice(0, run.firstMetric), ...o.metrics.slice(run.firstMetric).filter((m) => !/^(latency_|phase_time_)/.test(m.name))];
      out.note(`no successful responses: all ${errorSum} requests failed`);
    }
    if (begun(run)) {
      const ev: [number, number] | undefined = statusLines && errorLines ? [statusLines[0], errorLines[1]] : statusLines ?? errorLines;
      out.metric('requests_total', statusSum + errorSum, 'count', { column: 'status codes + errors', lines: ev });
      out.metric('requests_failed_total', errorSum, 'count', { column: 'Error distribution', lines: errorLines });
      out.metric('responses_non2xx_total', run.non2xx, 'count', { column: 'Status code distribution', lines: statusLines });
    } else out.note('no hey summary found (truncated capture?)');
  }

  /** Another hey report pasted below: close this one; its metrics get run=N (see Out.finish). */
  private nextRun(): void {
    this.endRun();
    this.out.newRun();
    this.run = newRun(this.o.metrics.length);
  }

  // ---- -o csv ----------------------------------------------------------------------------------

  /** A row of the -o csv file, one per request: six phase times (seconds), status code, offset from the start. */
  private csvRow(line: string, lineNo: number): void {
    const c = splitCsv(line.trim());
    const v = c.map(dec);
    if (c.length !== 8 || v.some((x, i) => i !== 6 && !Number.isFinite(x))) {
      if (line.trim()) this.out.warn(lineNo, line);
      return;
    }
    const t = v[7]! * 1000;
    for (let i = 0; i < CSV_SERIES.length; i++) this.series.push(CSV_SERIES[i]![0], CSV_SERIES[i]![1], 's', undefined, v[i]!, lineNo, t);
    const csv = this.csv;
    csv.lat.push(v[0]!);
    csv.codes.set(c[6]!, (csv.codes.get(c[6]!) ?? 0) + 1);
    if (!csv.first) csv.first = lineNo;
    csv.last = lineNo;
    csv.end = Math.max(csv.end, v[7]! + v[0]!);
  }

  /** At the end of a -o csv file: its series, and requests, status codes, latency statistics and rate over all its rows. */
  private csvMetrics(): ParseOutput {
    const { o, out } = this;
    const { lat, codes } = this.csv;
    o.series = this.series.list;
    if (!lat.length) return o;
    const lines: [number, number] = [this.csv.first, this.csv.last];
    out.metric('requests_total', lat.length, 'count', { column: 'rows', lines });
    let non = 0;
    for (const [code, n] of codes) { out.metric('responses_total', n, 'count', { labels: { code }, column: 'status-code', lines }); if (!/^2/.test(code)) non += n; }
    out.metric('responses_non2xx_total', non, 'count', { column: 'status-code', lines });
    const sorted = [...lat].sort((a, b) => a - b);
    out.metric('latency_mean_seconds', round(lat.reduce((a, b) => a + b, 0) / lat.length, 6), 's', { column: 'response-time (mean)', lines });
    out.metric('latency_min_seconds', sorted[0]!, 's', { column: 'response-time (min)', lines });
    for (const p of [50, 90, 95, 99]) out.metric(`latency_p${p}_seconds`, percentile(sorted, p), 's', { column: `response-time (p${p})`, lines });
    out.metric('latency_max_seconds', sorted[sorted.length - 1]!, 's', { column: 'response-time (max)', lines });
    if (this.csv.end > 0) out.metric('requests_per_second', round(lat.length / this.csv.end, 6), '1/s', { column: 'rows / (last offset + response-time)', lines });
    return o;
  }
}

export const hey: CaptureParser = {
  id: 'hey',
  title: 'hey HTTP load generator',
  commands: [{ program: 'hey' }],
  detect,
  open: () => new HeySink(),
};
