/**
 * wrk (and wrk2) text output: the thread stats table, --latency's Latency Distribution (wrk2's
 * HdrHistogram percentiles and detailed spectrum too), totals, socket errors, non-2xx counts.
 * Format per wrk src/wrk.c (print_stats_header, print_stats, print_stats_latency) and units.c.
 *
 * How a capture is read (WrkSink.line): each line is offered, in the order wrk prints them, to
 * the command line, the run header ("Running 10s test @ URL", threads and connections), the
 * thread stats table, the latency distribution, wrk2's percentile spectrum, the totals at the
 * bottom, and the errors wrk prints instead of results.
 */
import type { CaptureParser, LineSink, ParseOutput, Table } from '../../types';
import { commandLine, fields, lookupTable } from '../kit';
import { Out, dec, headRuns, pName, round, timeUnit } from './common';

const TOOLS = ['wrk', 'wrk2'];
const THREAD_STATS = /^\s*Thread Stats\s+Avg\s+Stdev\s+Max\s+\+\/- Stdev/;
const RUNNING = /^Running (\S+) test @ (\S+)/;
const SOCKET_ERRORS = ['connect', 'read', 'write', 'timeout'];

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
  }
  if (rps && tps) score = Math.max(score, 0.85);
  if (headRuns(head, TOOLS, true)) score = Math.max(score, 0.4);
  return score;
}

const METRIC_SUFFIX = lookupTable({ '': 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9, T: 1e12 });
const BINARY_SUFFIX = lookupTable({ '': 1, K: 1024, k: 1024, M: 1024 ** 2, G: 1024 ** 3, T: 1024 ** 4, P: 1024 ** 5 });

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

/** A figure that did not read as a number, and is not the -nan/nan wrk2 prints when a thread recorded nothing (missing, not unreadable). */
const unreadable = (text: string, value: number): boolean => !Number.isFinite(value) && !/^-?nan/i.test(text);

class WrkSink implements LineSink {
  private readonly out = new Out();
  private readonly o = this.out.o;
  /** the block of percentile lines being read: --latency's distribution, or wrk2's detailed spectrum */
  private block: 'none' | 'distribution' | 'spectrum' = 'none';
  /** the distribution's labels: wrk2 -U prints a second, uncorrected one */
  private distLabels: Record<string, string> | undefined;
  private readonly stats: Table = { columns: ['Thread Stats', 'Avg', 'Stdev', 'Max', '+/- Stdev'], rows: [] };
  private readonly spectrum: Table = { columns: ['Value', 'Percentile', 'TotalCount', '1/(1-Percentile)'], rows: [] };
  private readonly errors: string[] = [];
  /** the run's totals were seen: the next command line or "Running" header starts another run */
  private sawResult = false;

  /** One line, offered to each part of wrk's output in the order wrk prints them. */
  line(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    if (!line) return;
    if (this.commandLine(line)) return;
    if (this.runHeader(line, lineNo)) return;
    if (this.threadStats(line, lineNo)) return;
    if (this.distribution(line, lineNo)) return;
    if (this.percentileSpectrum(line, lineNo)) return;
    if (/^\s+Thread calibration:/.test(line)) return;
    if (this.totals(line, lineNo)) return;
    if (/^(unable to connect to|unable to create thread|unable to resolve|PANIC|error:)/i.test(line)) { this.errors.push(line.trim()); return; }
    const m = /^wrk (\S+) \[(\w+)\]/.exec(line);
    if (m) { this.o.toolVersion = `wrk ${m[1]!}`; return; }
    this.out.warn(lineNo, line);
  }

  end(): ParseOutput {
    this.out.table('thread_stats', this.stats);
    this.out.table('percentile_spectrum', this.spectrum);
    this.out.toolErrors(this.errors);
    if (!this.sawResult) this.out.noResults('wrk', this.errors);
    return this.out.finish('wrk');
  }

  /** Another run pasted below the last one's totals: its metrics get run=N (see Out.finish). */
  private nextRun(): void {
    this.out.newRun();
    this.sawResult = false;
  }

  /** A shell prompt with a wrk command (below a run's totals, it starts the next run). */
  private commandLine(line: string): boolean {
    if (this.sawResult && commandLine(line, TOOLS) !== undefined) this.nextRun();
    return this.out.command(line, TOOLS);
  }

  /** "Running 10s test @ http://…" (URL and duration asked for) and "  2 threads and 20 connections". */
  private runHeader(line: string, lineNo: number): boolean {
    const o = this.o;
    let m = RUNNING.exec(line);
    if (m) {
      if (this.sawResult) this.nextRun();
      o.facts.url = m[2]!;
      const d = timeUnit(m[1]!);
      if (Number.isFinite(d)) o.facts.duration_requested_seconds = d;
      this.block = 'none';
      return true;
    }
    m = /^\s+(\d+) threads and (\d+) connections$/.exec(line);
    if (!m) return false;
    this.out.metric('threads', Number(m[1]), 'count', { column: 'threads', lines: lineNo });
    this.out.metric('connections', Number(m[2]), 'count', { column: 'connections', lines: lineNo });
    this.out.metric('concurrency', Number(m[2]), 'count', { column: 'connections', lines: lineNo });
    return true;
  }

  /** The "Thread Stats  Avg  Stdev  Max  +/- Stdev" table: its Latency and Req/Sec rows. */
  private threadStats(line: string, lineNo: number): boolean {
    if (THREAD_STATS.test(line)) return true;
    const m = /^\s+(Latency|Req\/Sec)\s+(\S+)\s+(\S+)\s+(\S+)\s+([\d.]+)%$/.exec(line);
    if (!m) return false;
    const out = this.out;
    const lat = m[1] === 'Latency';
    const conv = lat ? timeUnit : metricNum;
    const avg = conv(m[2]!), sd = conv(m[3]!), max = conv(m[4]!);
    const within = Number(m[5]);
    this.stats.rows.push([m[1]!, m[2]!, m[3]!, m[4]!, `${m[5]!}%`]);
    if (lat) {
      out.metric('latency_mean_seconds', avg, 's', { column: 'Latency Avg', lines: lineNo });
      out.metric('latency_stdev_seconds', sd, 's', { column: 'Latency Stdev', lines: lineNo });
      out.metric('latency_max_seconds', max, 's', { column: 'Latency Max', lines: lineNo });
      out.metric('latency_within_stdev_percent', within, '%', { column: 'Latency +/- Stdev', lines: lineNo });
    } else {
      out.metric('thread_requests_per_second_mean', avg, '1/s', { column: 'Req/Sec Avg', lines: lineNo });
      out.metric('thread_requests_per_second_stdev', sd, '1/s', { column: 'Req/Sec Stdev', lines: lineNo });
      out.metric('thread_requests_per_second_max', max, '1/s', { column: 'Req/Sec Max', lines: lineNo });
      out.metric('thread_requests_per_second_within_stdev_percent', within, '%', { column: 'Req/Sec +/- Stdev', lines: lineNo });
    }
    if (unreadable(m[2]!, avg) || unreadable(m[3]!, sd) || unreadable(m[4]!, max)) out.warn(lineNo, line);
    return true;
  }

  /** --latency's "Latency Distribution" (wrk2: "Latency Distribution (HdrHistogram - Recorded Latency)") and its "  99%  2.98ms" rows. */
  private distribution(line: string, lineNo: number): boolean {
    if (/^\s+Latency Distribution/.test(line)) {
      this.block = 'distribution';
      // wrk2 -U prints a second, uncorrected distribution: keep it apart
      this.distLabels = /Uncorrected/i.test(line) ? { latency: 'uncorrected' } : undefined;
      return true;
    }
    if (this.block !== 'distribution') return false;
    const m = /^\s*([\d.]+)%\s+(\S+)$/.exec(line);
    if (!m) return false;
    const p = Number(m[1]);
    const v = timeUnit(m[2]!);
    if (!Number.isFinite(v)) { this.out.warn(lineNo, line); return true; }
    const labels = this.distLabels;
    if (p >= 100) { if (!this.out.has('latency_max_seconds', labels)) this.out.metric('latency_max_seconds', v, 's', { labels, column: `${m[1]}%`, lines: lineNo }); }
    else this.out.metric(`latency_${pName(p)}_seconds`, v, 's', { labels, column: `${m[1]}%`, lines: lineNo });
    return true;
  }

  /**
   * wrk2's "Detailed Percentile spectrum:": its "Value Percentile TotalCount 1/(1-Percentile)" rows
   * (a table), and the "#[Mean = …, StdDeviation = …]" summary that is more precise than Thread Stats.
   * The first line of another shape ends it.
   */
  private percentileSpectrum(line: string, lineNo: number): boolean {
    if (/^\s+Detailed Percentile spectrum:/.test(line)) { this.block = 'spectrum'; return true; }
    if (this.block !== 'spectrum') return false;
    if (/^\s+Value\s+Percentile/.test(line) || /^-{10,}$/.test(line)) return true;
    if (/^#\[/.test(line)) {
      const m = /^#\[Mean\s*=\s*([\d.]+), StdDeviation\s*=\s*([\d.]+)\]/.exec(line);
      if (m && !this.distLabels) {
        this.out.setMetric('latency_mean_seconds', round(Number(m[1]) / 1000), 's', { column: 'Mean', lines: lineNo });
        this.out.setMetric('latency_stdev_seconds', round(Number(m[2]) / 1000), 's', { column: 'StdDeviation', lines: lineNo });
      }
      return true;
    }
    const f = fields(line);
    if (f.length >= 3 && f.length <= 4 && f.slice(0, 3).every((x) => Number.isFinite(dec(x)))) {
      this.spectrum.rows.push(f.map((x) => (x === 'inf' ? null : dec(x))));
      return true;
    }
    this.block = 'none';
    return false;
  }

  /**
   * The totals at the bottom: "  118182 requests in 2.10s, 338.91MB read", "  Socket errors: …",
   * "  Non-2xx or 3xx responses: N", "Requests/sec: …", "Transfer/sec: …".
   */
  private totals(line: string, lineNo: number): boolean {
    const out = this.out;
    let m = /^\s+(\d+) requests in (\S+), (\S+) read$/.exec(line);
    if (m) {
      this.sawResult = true;
      out.metric('requests_total', Number(m[1]), 'count', { column: 'requests', lines: lineNo });
      out.metric('duration_seconds', timeUnit(m[2]!), 's', { column: 'requests in', lines: lineNo });
      out.metric('read_bytes', binaryBytes(m[3]!), 'B', { column: 'read', lines: lineNo });
      return true;
    }
    m = /^\s+Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)$/.exec(line);
    if (m) {
      let sum = 0;
      for (let i = 0; i < SOCKET_ERRORS.length; i++) {
        const type = SOCKET_ERRORS[i]!;
        const v = Number(m[i + 1]);
        sum += v;
        out.metric('errors_total', v, 'count', { labels: { type }, column: `Socket errors: ${type}`, lines: lineNo });
      }
      out.metric('socket_errors_total', sum, 'count', { column: 'Socket errors', lines: lineNo });
      return true;
    }
    m = /^\s+Non-2xx or 3xx responses: (\d+)$/.exec(line);
    if (m) { out.metric('responses_non2xx_total', Number(m[1]), 'count', { column: 'Non-2xx or 3xx responses', lines: lineNo }); return true; }
    m = /^Requests\/sec:\s+([\d.]+)$/.exec(line);
    if (m) { this.sawResult = true; out.metric('requests_per_second', Number(m[1]), '1/s', { column: 'Requests/sec', lines: lineNo }); return true; }
    m = /^Transfer\/sec:\s+(\S+)$/.exec(line);
    if (m) { out.metric('transfer_bytes_per_second', binaryBytes(m[1]!), 'B/s', { column: 'Transfer/sec', lines: lineNo }); return true; }
    return false;
  }
}

export const wrk: CaptureParser = {
  id: 'wrk',
  title: 'wrk HTTP benchmark',
  commands: [{ program: 'wrk' }, { program: 'wrk2' }],
  detect,
  open: () => new WrkSink(),
};
