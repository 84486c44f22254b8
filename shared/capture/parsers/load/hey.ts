/**
 * Tabs may have become spaces (terminal copy-paste): every pattern accepts either.
 * hey (rakyll/hey) summary output and its -o csv per-request output.
 * Format per hey requester/print.go (defaultTmpl and csvTmpl).
 */
import type { CaptureParser, LineSink, ParseOutput, Table } from '../../types';
import { commandWord, promptCommand } from '../../text';
import { SeriesSet } from '../../series';
import { Out, dec, round, splitCsv } from './common';

const TOOLS = ['hey'];
const CSV_HEADER = /^response-time,DNS\+dialup,DNS,Request-write,Response-delay,Response-read,status-code,offset\s*$/;
const SECTIONS: Record<string, Section> = {
  'Summary:': 'summary',
  'Response time histogram:': 'histogram',
  'Latency distribution:': 'latency',
  'Details (average, fastest, slowest):': 'details',
  'Status code distribution:': 'status',
  'Error distribution:': 'errors',
};
type Section = 'none' | 'summary' | 'histogram' | 'latency' | 'details' | 'status' | 'errors';

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
    if (i < 5) {
      const w = /^\s*(?:\S*[#$%>]\s+)?(\S.*)$/.exec(l);
      if (w && TOOLS.includes(commandWord(w[1]!)) && /\bhttps?:\/\//.test(l)) score = Math.max(score, 0.4);
    }
  }
  return score;
}

const PHASES: Record<string, string> = {
  'DNS+dialup': 'dns_dialup', 'DNS-lookup': 'dns_lookup', 'req write': 'req_write', 'resp wait': 'resp_wait', 'resp read': 'resp_read',
};

function secs(s: string | undefined): number {
  if (s === undefined) return NaN;
  const m = /^\s*(NaN|[-+]?[\d.]+(?:e[-+]?\d+)?)\s*secs\s*$/i.exec(s);
  if (!m || m[1] === 'NaN') return NaN;
  return Number(m[1]);
}

function percentile(sorted: number[], p: number): number {
  if (!sorted.length) return NaN;
  const i = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[i]!;
}

function open(): LineSink {
  const out = new Out();
  const o = out.o;
  let mode: 'text' | 'csv' | undefined;
  let section: Section = 'none';
  const histogram: Table = { columns: ['bucket_seconds', 'count'], rows: [] };
  let statusSum = 0, errorSum = 0, non2xx = 0;
  let statusLines: [number, number] | undefined;
  let errorLines: [number, number] | undefined;
  let sawSummary = false;
  // csv mode
  const series = new SeriesSet();
  const lat: number[] = [];
  const codes = new Map<string, number>();
  let csvFirst = 0, csvLast = 0, csvEnd = 0;

  let runStart = 0;

  /** Totals of one hey report (several reports may be pasted into one capture). */
  function flushRun(): void {
    if (sawSummary && statusSum === 0 && errorSum > 0) {
      // no response came back: hey prints 0.0000 for slowest/fastest; those are not latencies
      o.metrics = [...o.metrics.slice(0, runStart), ...o.metrics.slice(runStart).filter((m) => !/^(latency_|phase_time_)/.test(m.name))];
      out.note(`no successful responses: all ${errorSum} requests failed`);
    }
    if (sawSummary || statusLines || errorLines) {
      const ev: [number, number] | undefined = statusLines && errorLines ? [statusLines[0], errorLines[1]] : statusLines ?? errorLines;
      const total = out.metric('requests_total', statusSum + errorSum, 'count', undefined, 'status codes + errors');
      if (total && ev) total.lines = ev;
      const failed = out.metric('requests_failed_total', errorSum, 'count', undefined, 'Error distribution');
      if (failed && errorLines) failed.lines = errorLines;
      const nx = out.metric('responses_non2xx_total', non2xx, 'count', undefined, 'Status code distribution');
      if (nx && statusLines) nx.lines = statusLines;
    } else out.note('no hey summary found (truncated capture?)');
  }

  function nextRun(): void {
    flushRun();
    out.newRun();
    runStart = o.metrics.length;
    statusSum = errorSum = non2xx = 0;
    statusLines = errorLines = undefined;
    sawSummary = false;
    section = 'none';
  }

  function widen(r: [number, number] | undefined, n: number): [number, number] { return r ? [r[0], n] : [n, n]; }

  function textLine(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    if (!line) return;
    const sec = SECTIONS[line.trim()];
    if (sec && /^\S/.test(line)) {
      if (sec === 'summary') { if (sawSummary || statusLines || errorLines) nextRun(); sawSummary = true; }
      section = sec;
      return;
    }
    if ((sawSummary || statusLines || errorLines) && promptCommand(line, TOOLS) !== undefined) nextRun();
    if (out.command(line, TOOLS)) return;
    let m: RegExpExecArray | null;
    switch (section) {
      case 'summary': {
        m = /^\s+([A-Za-z/][A-Za-z/ ]*?):\s+(.*)$/.exec(line);
        if (!m) break;
        const key = m[1]!, v = m[2]!;
        const bytes = /^(\d+) bytes$/.exec(v);
        switch (key) {
          case 'Total': out.metric('duration_seconds', secs(v), 's', lineNo, key); return;
          case 'Slowest': out.metric('latency_max_seconds', secs(v), 's', lineNo, key); return;
          case 'Fastest': out.metric('latency_min_seconds', secs(v), 's', lineNo, key); return;
          case 'Average': out.metric('latency_mean_seconds', secs(v), 's', lineNo, key); return;
          case 'Requests/sec': out.metric('requests_per_second', dec(v), '1/s', lineNo, key); return;
          case 'Total data': if (bytes) { out.metric('transferred_bytes', Number(bytes[1]), 'B', lineNo, key); return; } break;
          case 'Size/request': if (bytes) { out.metric('response_size_bytes', Number(bytes[1]), 'B', lineNo, key); return; } break;
        }
        break;
      }
      case 'histogram':
        m = /^\s+([\d.]+) \[(\d+)\]\s+\|/.exec(line);
        if (m) { histogram.rows.push([Number(m[1]), Number(m[2])]); return; }
        break;
      case 'latency':
        m = /^\s+(\d+(?:\.\d+)?)% in ([\d.]+) secs$/.exec(line);
        if (m) {
          const p = Number(m[1]);
          if (p > 0) out.metric(p >= 100 ? 'latency_max_seconds' : `latency_p${m[1]!.replace('.', '_')}_seconds`, Number(m[2]), 's', lineNo, `${m[1]!}%`);
          return;
        }
        break;
      case 'details':
        m = /^\s+([A-Za-z+][A-Za-z+ -]*?):\s+(.*)$/.exec(line);
        if (m && PHASES[m[1]!]) {
          const phase = PHASES[m[1]!]!;
          const parts = m[2]!.split(',');
          if (parts.length !== 3) break;
          const [avg, fast, slow] = parts.map(secs);
          const labels = { phase };
          out.metric('phase_time_mean_seconds', avg!, 's', lineNo, `${m[1]!} average`, labels);
          out.metric('phase_time_min_seconds', fast!, 's', lineNo, `${m[1]!} fastest`, labels);
          out.metric('phase_time_max_seconds', slow!, 's', lineNo, `${m[1]!} slowest`, labels);
          return;
        }
        break;
      case 'status':
        m = /^\s+\[(\d+)\]\s+(\d+) responses$/.exec(line);
        if (m) {
          const n = Number(m[2]);
          statusSum += n;
          if (!/^2/.test(m[1]!)) non2xx += n;
          statusLines = widen(statusLines, lineNo);
          out.metric('responses_total', n, 'count', lineNo, `[${m[1]!}]`, { code: m[1]! });
          return;
        }
        break;
      case 'errors':
        m = /^\s+\[(\d+)\]\s+(.*)$/.exec(line);
        if (m) {
          const n = Number(m[1]);
          errorSum += n;
          errorLines = widen(errorLines, lineNo);
          out.metric('errors_total', n, 'count', lineNo, m[2]!, { type: errorType(m[2]!), error: m[2]!.slice(0, 300) });
          return;
        }
        break;
      default:
        break;
    }
    out.warn(lineNo, line);
  }

  function csvLine(line: string, lineNo: number): void {
    const c = splitCsv(line.trim());
    const v = c.map(dec);
    if (c.length !== 8 || v.some((x, i) => i !== 6 && !Number.isFinite(x))) {
      if (line.trim()) out.warn(lineNo, line);
      return;
    }
    const t = v[7]! * 1000;
    const names: [string, string][] = [
      ['latency_seconds', 'response-time'], ['dns_dialup_seconds', 'DNS+dialup'], ['dns_lookup_seconds', 'DNS'],
      ['req_write_seconds', 'Request-write'], ['resp_wait_seconds', 'Response-delay'], ['resp_read_seconds', 'Response-read'],
    ];
    names.forEach(([name, col], i) => series.push(name, col, 's', undefined, v[i]!, lineNo, t));
    lat.push(v[0]!);
    codes.set(c[6]!, (codes.get(c[6]!) ?? 0) + 1);
    if (!csvFirst) csvFirst = lineNo;
    csvLast = lineNo;
    csvEnd = Math.max(csvEnd, v[7]! + v[0]!);
  }

  return {
    line(text: string, lineNo: number): void {
      if (mode === undefined) {
        if (!text.trim()) return;
        if (CSV_HEADER.test(text)) { mode = 'csv'; o.facts.hey_file = 'csv'; return; }
        mode = 'text';
      }
      if (mode === 'csv') csvLine(text, lineNo); else textLine(text, lineNo);
    },
    end(): ParseOutput {
      if (mode === 'csv') {
        o.series = series.list;
        if (lat.length) {
          const lines: [number, number] = [csvFirst, csvLast];
          const put = (name: string, value: number, unit: string, column: string, labels?: Record<string, string>): void => {
            const m = out.metric(name, value, unit, undefined, column, labels);
            if (m) m.lines = lines;
          };
          put('requests_total', lat.length, 'count', 'rows');
          let non = 0;
          for (const [code, n] of codes) { put('responses_total', n, 'count', 'status-code', { code }); if (!/^2/.test(code)) non += n; }
          put('responses_non2xx_total', non, 'count', 'status-code');
          const sorted = [...lat].sort((a, b) => a - b);
          put('latency_mean_seconds', round(lat.reduce((a, b) => a + b, 0) / lat.length, 6), 's', 'response-time (mean)');
          put('latency_min_seconds', sorted[0]!, 's', 'response-time (min)');
          for (const p of [50, 90, 95, 99]) put(`latency_p${p}_seconds`, percentile(sorted, p), 's', `response-time (p${p})`);
          put('latency_max_seconds', sorted[sorted.length - 1]!, 's', 'response-time (max)');
          if (csvEnd > 0) put('requests_per_second', round(lat.length / csvEnd, 6), '1/s', 'rows / (last offset + response-time)');
        }
        return o;
      }
      if (histogram.rows.length) (o.tables ??= {}).histogram = histogram;
      flushRun();
      return out.finish('hey');
    },
  };
}

/** A short class for a Go net/http error message. */
function errorType(msg: string): string {
  if (/connection refused/i.test(msg)) return 'connect';
  if (/Client\.Timeout|deadline exceeded|timeout/i.test(msg)) return 'timeout';
  if (/connection reset|EOF|broken pipe/i.test(msg)) return 'read';
  if (/no such host|lookup/i.test(msg)) return 'dns';
  return 'other';
}

export const hey: CaptureParser = { id: 'hey', title: 'hey HTTP load generator', detect, open };
