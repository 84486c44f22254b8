/**
 * wrk (and wrk2) text output: the thread stats table, --latency's Latency Distribution (wrk2's
 * HdrHistogram percentiles and detailed spectrum too), totals, socket errors, non-2xx counts.
 * Format per wrk src/wrk.c (print_stats_header, print_stats, print_stats_latency) and units.c.
 */
import type { CaptureParser, LineSink, ParseOutput, Table } from '../../types';
import { commandWord, fields, promptCommand } from '../../text';
import { Out, dec, pName, round, timeUnit } from './common';

const TOOLS = ['wrk', 'wrk2'];
const THREAD_STATS = /^\s*Thread Stats\s+Avg\s+Stdev\s+Max\s+\+\/- Stdev/;
const RUNNING = /^Running (\S+) test @ (\S+)/;

function detect(head: readonly string[]): number {
  let score = 0;
  let rps = false, tps = false;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (RUNNING.test(l)) return 0.95;
    if (THREAD_STATS.test(l)) return 0.95;
    if (/^\s+\d+ requests in [\d.]+[a-z]+, [\d.]+[KMGTPk]?B read$/.test(l)) score = Math.max(score, 0.9);
    if (/^Requests\/sec:\s+[\d.]+$/.test(l)) rps = true;
    if (/^Transfer\/sec:\s+[\d.]+[KMGTPk]?B$/.test(l)) tps = true;
    if (/^unable to connect to \S+ /.test(l)) score = Math.max(score, 0.6);
    if (i < 5) {
      const w = /^\s*(?:\S*[#$%>]\s+)?(\S.*)$/.exec(l);
      if (w && TOOLS.includes(commandWord(w[1]!)) && /\bhttps?:\/\//.test(l)) score = Math.max(score, 0.4);
    }
  }
  if (rps && tps) score = Math.max(score, 0.85);
  return score;
}

const METRIC_SUFFIX: Record<string, number> = { '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12 };
const BINARY_SUFFIX: Record<string, number> = { '': 1, K: 1024, k: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4, P: 1024 ** 5 };

/** wrk's format_metric: "28.88k" → 28880 (SI, 1000). */
function metricNum(s: string): number {
  const m = /^([-+]?[\d.]+)([kKMGT]?)$/.exec(s);
  if (!m) return NaN;
  return round(Number(m[1]) * METRIC_SUFFIX[m[2]!]!);
}

/** wrk's format_binary: "338.91MB" → bytes (1024-based). */
function binaryBytes(s: string): number {
  const m = /^([-+]?[\d.]+)([KMGTPk]?)B$/.exec(s);
  if (!m) return NaN;
  return round(Number(m[1]) * BINARY_SUFFIX[m[2]!]!);
}

function time(s: string): number {
  return timeUnit(s, 's');
}

function open(): LineSink {
  const out = new Out();
  const o = out.o;
  let inDist = false;
  let inSpectrum = false;
  let distLabels: Record<string, string> | undefined;
  const stats: Table = { columns: ['Thread Stats', 'Avg', 'Stdev', 'Max', '+/- Stdev'], rows: [] };
  const spectrum: Table = { columns: ['Value', 'Percentile', 'TotalCount', '1/(1-Percentile)'], rows: [] };
  const errors: string[] = [];
  let sawResult = false;

  function line(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    if (!line) return;
    if (sawResult && promptCommand(line, TOOLS) !== undefined) { out.newRun(); sawResult = false; }
    if (out.command(line, TOOLS)) return;
    let m = RUNNING.exec(line);
    if (m) {
      if (sawResult) { out.newRun(); sawResult = false; }
      o.facts.url = m[2]!;
      const d = time(m[1]!);
      if (Number.isFinite(d)) o.facts.duration_requested_seconds = d;
      inDist = inSpectrum = false;
      return;
    }
    m = /^\s+(\d+) threads and (\d+) connections$/.exec(line);
    if (m) {
      out.metric('threads', Number(m[1]), 'count', lineNo, 'threads');
      out.metric('connections', Number(m[2]), 'count', lineNo, 'connections');
      out.metric('concurrency', Number(m[2]), 'count', lineNo, 'connections');
      return;
    }
    if (THREAD_STATS.test(line)) return;
    m = /^\s+(Latency|Req\/Sec)\s+(\S+)\s+(\S+)\s+(\S+)\s+([\d.]+)%$/.exec(line);
    if (m) {
      const lat = m[1] === 'Latency';
      const conv = lat ? time : metricNum;
      const [avg, sd, max] = [conv(m[2]!), conv(m[3]!), conv(m[4]!)];
      const within = Number(m[5]);
      stats.rows.push([m[1]!, m[2]!, m[3]!, m[4]!, `${m[5]!}%`]);
      if (lat) {
        out.metric('latency_mean_seconds', avg, 's', lineNo, 'Latency Avg');
        out.metric('latency_stdev_seconds', sd, 's', lineNo, 'Latency Stdev');
        out.metric('latency_max_seconds', max, 's', lineNo, 'Latency Max');
        out.metric('latency_within_stdev_percent', within, '%', lineNo, 'Latency +/- Stdev');
      } else {
        out.metric('thread_requests_per_second_mean', avg, '1/s', lineNo, 'Req/Sec Avg');
        out.metric('thread_requests_per_second_stdev', sd, '1/s', lineNo, 'Req/Sec Stdev');
        out.metric('thread_requests_per_second_max', max, '1/s', lineNo, 'Req/Sec Max');
        out.metric('thread_requests_per_second_within_stdev_percent', within, '%', lineNo, 'Req/Sec +/- Stdev');
      }
      // wrk2 prints -nan/nan when a thread recorded nothing: missing, not unreadable
      if ([m[2]!, m[3]!, m[4]!].some((t, i) => !Number.isFinite([avg, sd, max][i]!) && !/^-?nan/i.test(t))) out.warn(lineNo, line);
      return;
    }
    if (/^\s+Latency Distribution/.test(line)) {
      inDist = true;
      inSpectrum = false;
      // wrk2 -U prints a second, uncorrected distribution: keep it apart
      distLabels = /Uncorrected/i.test(line) ? { latency: 'uncorrected' } : undefined;
      return;
    }
    if (inDist) {
      m = /^\s*([\d.]+)%\s+(\S+)$/.exec(line);
      if (m) {
        const p = Number(m[1]);
        const v = time(m[2]!);
        if (!Number.isFinite(v)) { out.warn(lineNo, line); return; }
        if (p >= 100) { if (!out.has('latency_max_seconds', distLabels)) out.metric('latency_max_seconds', v, 's', lineNo, `${m[1]}%`, distLabels); }
        else out.metric(`latency_${pName(p)}_seconds`, v, 's', lineNo, `${m[1]}%`, distLabels);
        return;
      }
    }
    if (/^\s+Detailed Percentile spectrum:/.test(line)) { inSpectrum = true; inDist = false; return; }
    if (inSpectrum) {
      if (/^\s+Value\s+Percentile/.test(line) || /^-{10,}$/.test(line)) return;
      if (/^#\[/.test(line)) {
        m = /^#\[Mean\s*=\s*([\d.]+), StdDeviation\s*=\s*([\d.]+)\]/.exec(line);
        if (m && !distLabels) {
          out.setMetric('latency_mean_seconds', round(Number(m[1]) / 1000), 's', lineNo, 'Mean');
          out.setMetric('latency_stdev_seconds', round(Number(m[2]) / 1000), 's', lineNo, 'StdDeviation');
        }
        return;
      }
      const f = fields(line);
      if (f.length >= 3 && f.length <= 4 && f.slice(0, 3).every((x) => Number.isFinite(dec(x)))) {
        spectrum.rows.push(f.map((x) => (x === 'inf' ? null : dec(x))));
        return;
      }
      inSpectrum = false;
    }
    if (/^\s+Thread calibration:/.test(line)) return;
    m = /^\s+(\d+) requests in (\S+), (\S+) read$/.exec(line);
    if (m) {
      sawResult = true;
      out.metric('requests_total', Number(m[1]), 'count', lineNo, 'requests');
      out.metric('duration_seconds', time(m[2]!), 's', lineNo, 'requests in');
      out.metric('read_bytes', binaryBytes(m[3]!), 'B', lineNo, 'read');
      return;
    }
    m = /^\s+Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$/.exec(line);
    if (m) {
      const t = ['connect', 'read', 'write', 'timeout'];
      let sum = 0;
      t.forEach((type, i) => {
        const v = Number(m![i + 1]);
        sum += v;
        out.metric('errors_total', v, 'count', lineNo, `Socket errors: ${type}`, { type });
      });
      out.metric('socket_errors_total', sum, 'count', lineNo, 'Socket errors');
      return;
    }
    m = /^\s+Non-2xx or 3xx responses: (\d+)$/.exec(line);
    if (m) { out.metric('responses_non2xx_total', Number(m[1]), 'count', lineNo, 'Non-2xx or 3xx responses'); return; }
    m = /^Requests\/sec:\s+([\d.]+)$/.exec(line);
    if (m) { sawResult = true; out.metric('requests_per_second', Number(m[1]), '1/s', lineNo, 'Requests/sec'); return; }
    m = /^Transfer\/sec:\s+(\S+)$/.exec(line);
    if (m) { out.metric('transfer_bytes_per_second', binaryBytes(m[1]!), 'B/s', lineNo, 'Transfer/sec'); return; }
    if (/^(unable to connect to|unable to create thread|unable to resolve|PANIC|error:)/i.test(line)) { errors.push(line.trim()); return; }
    m = /^wrk (\S+) \[(\w+)\]/.exec(line);
    if (m) { o.toolVersion = `wrk ${m[1]!}`; return; }
    out.warn(lineNo, line);
  }

  return {
    line,
    end(): ParseOutput {
      if (stats.rows.length) (o.tables ??= {}).thread_stats = stats;
      if (spectrum.rows.length) (o.tables ??= {}).percentile_spectrum = spectrum;
      if (errors.length) o.facts.errors = errors.slice(0, 50);
      if (!sawResult) out.note(errors.length ? `wrk printed no results: ${errors[0]!}` : 'no wrk results found (truncated capture?)');
      return out.finish('wrk');
    },
  };
}

export const wrk: CaptureParser = { id: 'wrk', title: 'wrk HTTP benchmark', detect, open };
