/**
 * ApacheBench (ab) text output (plain, -k, -t, -S, -d, -w, POST/PUT, TLS, interrupted runs, connect
 * failures) and its side files: the -e percentile CSV ("Percentage served,Time in ms") and the
 * -g gnuplot TSV ("starttime\tseconds\tctime\tdtime\tttime\twait").
 * Format per httpd support/ab.c output_results().
 *
 * How a capture is read (AbSink): its first line tells which of the three files it is; a text
 * capture then goes line by line through the steps of `textLine`, one per part of ab's output —
 * banner, progress, tool errors, the command line, the summary block (key: value lines), the
 * "Connection Times (ms)" table, the percentile table, the failed-requests breakdown and the -k/-p
 * transfer-rate continuation lines. `-w` lines are turned into that same text first. `end` builds
 * what is computed from the whole capture (gnuplot statistics, the -d latency fallback, cut-short
 * runs, errors).
 */
import type { CaptureParser, FactValue, LineRange, LineSink, ParseOutput, Table } from '../../types';
import { commandLine, fields } from '../kit';
import { SeriesSet } from '../../series';
import { Out, dec, headRuns, ms, round } from './common';

const TOOLS = ['ab', 'ab2'];
const CSV_HEADER = /^Percentage served,Time in ms\s*$/;
const GNUPLOT_HEADER = /^starttime\tseconds\tctime\tdtime\tttime\twait\s*$/;
const PERC_TITLE = /^Percentage of the requests served within a certain time/;
const STD_PERCS = new Set([50, 66, 75, 80, 90, 95, 98, 99]);
/** the columns of a "Connection Times (ms)" row, as metric-name fragments */
const CONN_STATS = ['min', 'mean', 'stdev', 'median', 'max'];

/** A line of `ab -w` (its results as HTML tables): the tags become spaces, entities their characters. */
const HTML_LINE = /<\/?(?:p|br|table|tr|th|td|i)\b[^>]*>/i;
function htmlLineText(line: string): string {
  return line.replace(/<[^>]*>/g, ' ').replace(/&nbsp;/g, ' ').replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&amp;/g, '&')
    .replace(/\s+/g, ' ').trim().replace(/^(\S[^:]*:) /, '$1    ');
}

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (l.startsWith('This is ApacheBench, Version')) return 0.99;
    if (/^\s*This is ApacheBench, Version \S+ <i>/.test(l)) return 0.99; // ab -w
    if (PERC_TITLE.test(l)) score = Math.max(score, 0.95);
    if (i < 5 && CSV_HEADER.test(l)) return 0.95;
    if (i < 5 && GNUPLOT_HEADER.test(l)) return 0.95;
    if (/^Complete requests:\s+\d+/.test(l)) score = Math.max(score, 0.6);
    if (/^Time per request:\s+[\d.]+ \[ms\] \(mean/.test(l)) score = Math.max(score, 0.9);
    if (/^Benchmarking \S+ \(be patient\)/.test(l)) score = Math.max(score, 0.9);
  }
  if (headRuns(head, TOOLS, true)) score = Math.max(score, 0.4);
  return score;
}

/** Which table of the text output the lines below belong to ('results': the summary block). */
type Section = 'none' | 'results' | 'conn' | 'perc';

/** What one ab run has shown so far; several runs may be pasted into one capture (AbSink.nextRun). */
interface AbRun {
  /** its "Server Software" (or banner) line was seen: another one starts the next run */
  started: boolean;
  /** -v 2+ printed request/response dumps before the results */
  verbose: boolean;
  section: Section;
  /** "Time per request" comes twice (per request, then across all concurrent requests) */
  sawTimePerRequest: boolean;
  sawPercentiles: boolean;
  /** line of "Transfer rate", which -k/-p follow with "kb/s sent" / "kb/s total" lines; 0 before */
  transferLine: number;
  /** -n of its command line, or "Number of requests" (ab -t) */
  requested: number | undefined;
  /** "Complete requests" */
  complete: number | undefined;
  /** "Finished N requests" / "Total of N requests completed" */
  finished: number | undefined;
  /** the Total row of the connection-times table (NaN where -w leaves a column out), and its line */
  totalRow: number[] | undefined;
  totalRowLine: number;
}

function newRun(): AbRun {
  return {
    started: false, verbose: false, section: 'none', sawTimePerRequest: false, sawPercentiles: false, transferLine: 0,
    requested: undefined, complete: undefined, finished: undefined, totalRow: undefined, totalRowLine: 0,
  };
}

/** Running statistics of the gnuplot file's ttime column (its rows are not kept). */
interface GnuplotStats { n: number; sum: number; max: number; first: number; last: number }

class AbSink implements LineSink {
  private readonly out = new Out();
  private readonly o = this.out.o;
  /** which file this is, told by its first non-blank line */
  private mode: 'text' | 'csv' | 'gnuplot' | undefined;
  private run = newRun();
  /** -t of the last command line (kept for the runs pasted below it) */
  private timeLimit: number | undefined;
  /** the connection-times column heads: "min mean[+/-sd] median max" (or -d's "min avg max") */
  private connCols: string[] = [];
  private readonly connTable: Table = { columns: ['phase', 'min_ms', 'mean_ms', 'sd_ms', 'median_ms', 'max_ms'], rows: [] };
  private readonly percTable: Table = { columns: ['percent', 'time_ms'], rows: [] };
  private readonly errors: string[] = [];
  private readonly reliability: string[] = [];
  private readonly series = new SeriesSet();
  private readonly gp: GnuplotStats = { n: 0, sum: 0, max: -Infinity, first: 0, last: 0 };

  line(text: string, lineNo: number): void {
    if (this.mode === undefined) {
      if (!text.trim()) return;
      this.mode = this.fileMode(text);
      if (this.mode !== 'text') return;
    }
    if (this.mode === 'csv') this.percentileCsvRow(text, lineNo);
    else if (this.mode === 'gnuplot') this.gnuplotRow(text, lineNo);
    else if (HTML_LINE.test(text)) this.htmlLine(text, lineNo);
    else this.textLine(text, lineNo);
  }

  end(): ParseOutput {
    if (this.mode === 'gnuplot') this.gnuplotMetrics();
    this.out.table('percentiles', this.percTable);
    this.out.table('connection_times', this.connTable);
    this.endRun();
    this.out.toolErrors(this.errors);
    if (this.reliability.length) this.fact('reliability_warnings', this.reliability);
    if (this.mode === 'text' && this.run.complete === undefined) this.out.noResults('ab', this.errors, 'results section');
    return this.out.finish('ab');
  }

  private fact(k: string, v: FactValue): void { this.o.facts[k] = v; }

  /** The first non-blank line: the -e CSV header, the -g TSV header, or else ab's text output. */
  private fileMode(first: string): 'text' | 'csv' | 'gnuplot' {
    if (CSV_HEADER.test(first)) { this.fact('ab_file', 'percentiles-csv'); return 'csv'; }
    if (GNUPLOT_HEADER.test(first)) { this.fact('ab_file', 'gnuplot-tsv'); return 'gnuplot'; }
    return 'text';
  }

  // ---- side files ------------------------------------------------------------------------------

  /** A row of the -e file: "percent,ms" (0 and 100 are the fastest and slowest request). */
  private percentileCsvRow(line: string, lineNo: number): void {
    const m = /^(\d+),([\d.]+)\s*$/.exec(line);
    if (!m) { if (line.trim()) this.out.warn(lineNo, line); return; }
    const p = Number(m[1]);
    const v = Number(m[2]);
    this.percTable.rows.push([p, v]);
    if (p === 0) this.out.metric('latency_min_seconds', ms(v), 's', { column: '0', lines: lineNo });
    else if (p === 100) this.out.metric('latency_max_seconds', ms(v), 's', { column: '100', lines: lineNo });
    else if (STD_PERCS.has(p)) this.out.metric(`latency_p${p}_seconds`, ms(v), 's', { column: String(p), lines: lineNo });
  }

  /** A row of the -g file, one per request: start time, epoch seconds, then ctime/dtime/ttime/wait in ms. */
  private gnuplotRow(line: string, lineNo: number): void {
    const c = line.split('\t');
    const secs = dec(c[1]);
    const ctime = dec(c[2]), dtime = dec(c[3]), ttime = dec(c[4]), wait = dec(c[5]);
    if (c.length < 6 || !Number.isFinite(secs) || !Number.isFinite(ctime) || !Number.isFinite(dtime) || !Number.isFinite(ttime) || !Number.isFinite(wait)) {
      if (line.trim()) this.out.warn(lineNo, line);
      return;
    }
    const t = secs * 1000;
    this.series.push('connect_time_seconds', 'ctime', 's', undefined, ms(ctime), lineNo, t);
    this.series.push('processing_time_seconds', 'dtime', 's', undefined, ms(dtime), lineNo, t);
    this.series.push('latency_seconds', 'ttime', 's', undefined, ms(ttime), lineNo, t);
    this.series.push('wait_time_seconds', 'wait', 's', undefined, ms(wait), lineNo, t);
    const gp = this.gp;
    if (gp.n === 0) gp.first = lineNo;
    gp.last = lineNo;
    gp.n++;
    gp.sum += ttime;
    if (ttime > gp.max) gp.max = ttime;
  }

  /** At the end of a -g file: its series, and request count, mean and max latency over all its rows. */
  private gnuplotMetrics(): void {
    const { o, out, gp } = this;
    o.series = this.series.list;
    if (!gp.n) return;
    const lines: LineRange = [gp.first, gp.last];
    out.metric('requests_total', gp.n, 'count', { column: 'rows', lines });
    out.metric('latency_mean_seconds', ms(round(gp.sum / gp.n, 6)), 's', { column: 'ttime (mean)', lines });
    out.metric('latency_max_seconds', ms(gp.max), 's', { column: 'ttime (max)', lines });
  }

  // ---- text output -----------------------------------------------------------------------------

  /** A line of `ab -w`: read as the text line it stands for. */
  private htmlLine(text: string, lineNo: number): void {
    const t = htmlLineText(text);
    // the column heads of -w's connection table ("min avg max") say nothing the rows do not
    if (t && !/^min avg max$/.test(t)) this.textLine(t, lineNo);
  }

  /** One line of ab's text output, offered to each part of it in the order ab prints them. */
  private textLine(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    // blank lines end nothing: pasted captures are often double-spaced; rows are recognised by shape
    if (!line) return;
    if (this.banner(line)) return;
    if (this.progress(line, lineNo)) return;
    if (this.toolError(line)) return;
    if (this.commandLine(line)) return;
    if (this.tableTitle(line)) return;
    const section = this.run.section;
    if ((section === 'conn' || section === 'perc') && this.connectionTimes(line, lineNo)) return;
    if ((section === 'perc' || section === 'conn') && this.percentileRow(line, lineNo)) return;
    if (this.failedReasons(line, lineNo)) return;
    if (this.transferExtra(line, lineNo)) return;
    if (this.summaryLine(line, lineNo)) return;
    // other "what: message (errno)" lines ab prints through apr_err()/graceful_strerror()
    if (/^\w[\w ()]*: .*\(\d+\)$/.test(line)) { this.errors.push(line.trim()); return; }
    if (/^\*\*|^\.+$|^(Server timed out|\.\.done)/.test(line)) return;
    if (this.run.verbose && !this.run.started) return;
    this.out.warn(lineNo, line);
  }

  /** "This is ApacheBench, Version 2.3 <$Revision: … $>" (a second one starts a new run) and its copyright lines. */
  private banner(line: string): boolean {
    const ver = /^This is ApacheBench, Version (\S+)(?:\s+<\$Revision:?\s*([^$]*?)\s*\$>)?/.exec(line);
    if (ver) {
      if (this.run.started) this.nextRun();
      this.o.toolVersion = `ApacheBench ${ver[1]}${ver[2] ? ` (r${ver[2]})` : ''}`;
      return true;
    }
    return /^(Copyright \d{4} Adam Twiss|Licensed to The Apache Software Foundation)/.test(line);
  }

  /**
   * What ab prints while it runs: "Benchmarking host (be patient)…done", "Completed N requests",
   * "Finished N requests", "Total of N requests completed" (interrupted), and -v's dumps.
   */
  private progress(line: string, lineNo: number): boolean {
    const bench = /^Benchmarking (\S+) \(be patient\)(.*)$/.exec(line);
    if (bench) {
      this.fact('target_host', bench[1]!);
      const rest = bench[2]!.replace(/^\.+/, '').trim();
      if (/^(INFO|LOG):/.test(rest)) this.run.verbose = true;
      else if (rest && rest !== 'done') this.errors.push(rest);
      return true;
    }
    if (/^Completed \d+ requests$/.test(line)) return true;
    // -v 2+ dumps request/response headers and bodies before the results
    if (/^(LOG|INFO): /.test(line) || /^WARNING: Response code not 2xx/.test(line)) { this.run.verbose = true; return true; }
    let m = /^Finished (\d+) requests$/.exec(line);
    if (m) { this.run.finished = Number(m[1]); return true; }
    m = /^Total of (\d+) requests completed$/.exec(line);
    if (m) {
      this.run.finished = Number(m[1]);
      this.fact('aborted', true);
      this.out.metric('requests_completed_before_abort', Number(m[1]), 'count', { column: 'Total of … requests completed', lines: lineNo });
      return true;
    }
    return false;
  }

  /** An error ab printed instead of (or before) its results: apr_socket_connect(), "Test aborted after …", SSL errors… */
  private toolError(line: string): boolean {
    if (!/^(apr_\w+|Test aborted|SSL |Send request|socket|bind|connect|Cannot|Invalid|ab: )/.test(line)) return false;
    this.errors.push(line.trim());
    return true;
  }

  /** The command line told from outside the text (a capture kit's manifest): read as its prompt line would be. */
  setCommand(cmd: string): void {
    this.commandLine(`$ ${cmd}`);
  }

  /** A shell prompt with an ab command: -n, -t and -c say what was asked for; below a run, it starts the next. */
  private commandLine(line: string): boolean {
    const cmd = commandLine(line, TOOLS);
    if (cmd === undefined) return false;
    if (this.run.started) this.nextRun();
    this.out.command(line, TOOLS);
    this.timeLimit = undefined;
    const n = /(?:^|\s)-n\s*(\d+)/.exec(cmd);
    if (n) this.run.requested = Number(n[1]);
    const t = /(?:^|\s)-t\s*(\d+)/.exec(cmd);
    if (t) { this.timeLimit = Number(t[1]); this.fact('time_limit_seconds', this.timeLimit); }
    const c = /(?:^|\s)-c\s*(\d+)/.exec(cmd);
    if (c && !this.out.has('concurrency')) this.fact('concurrency_requested', Number(c[1]));
    return true;
  }

  /** "Connection Times (ms)" and "Percentage of the requests served within a certain time (ms)": the tables below. */
  private tableTitle(line: string): boolean {
    if (line.startsWith('Connection Times (ms)')) { this.run.section = 'conn'; return true; }
    if (PERC_TITLE.test(line)) { this.run.section = 'perc'; return true; }
    return false;
  }

  /**
   * The "Connection Times (ms)" table: its column heads, its Connect/Processing/Waiting/Total rows
   * ("min mean[+/-sd] median max", or min avg max), and the reliability warnings ab prints under it.
   */
  private connectionTimes(line: string, lineNo: number): boolean {
    if (/^\s+min\s+/.test(line)) { this.connCols = /mean\[/.test(line) ? ['min', 'mean', '[+/-sd]', 'median', 'max'] : ['min', 'avg', '', '', 'max']; return true; }
    if (this.connectionRow(line, lineNo)) return true;
    if (/^(WARNING|ERROR): The median and mean/.test(line)) { this.reliability.push(line.trim()); return true; }
    return /^\s+(These results|deviation apart)/.test(line);
  }

  /** One row of the connection-times table: a metric per figure, labelled by phase. */
  private connectionRow(line: string, lineNo: number): boolean {
    const m = /^(Connect|Processing|Waiting|Total):\s+(.*)$/.exec(line);
    if (!m) return false;
    const phase = m[1]!.toLowerCase();
    const nums = fields(m[2]!).map(dec);
    if (nums.some((x) => !Number.isFinite(x))) return false;
    let row: (number | null)[];
    if (nums.length === 5) row = nums;
    else if (nums.length === 3) row = [nums[0]!, nums[1]!, null, null, nums[2]!];
    else return false;
    this.connTable.rows.push([phase, ...row]);
    const labels = { phase };
    row.forEach((x, i) => {
      if (x !== null) this.out.metric(`connection_time_${CONN_STATS[i]}_seconds`, ms(x), 's', { labels, column: `${m[1]} ${this.connCols[i] || CONN_STATS[i]}`, lines: lineNo });
    });
    if (phase === 'total') { this.run.totalRow = row.map((x) => (x === null ? NaN : x)); this.run.totalRowLine = lineNo; }
    return true;
  }

  /** A row of the percentile table: "  50%      1", " 100%      2 (longest request)". */
  private percentileRow(line: string, lineNo: number): boolean {
    const m = /^\s*(\d+)%\s+(\S+)(?:\s+\((longest request|never)\))?\s*$/.exec(line);
    if (!m) return false;
    const p = Number(m[1]);
    const v = dec(m[2]);
    if (!Number.isFinite(v)) return m[3] === 'never' || m[2] === '<0>';
    this.percTable.rows.push([p, v]);
    this.run.sawPercentiles = true;
    if (p >= 100) this.out.metric('latency_max_seconds', ms(v), 's', { column: '100%', lines: lineNo });
    else this.out.metric(`latency_p${p}_seconds`, ms(v), 's', { column: `${p}%`, lines: lineNo });
    return true;
  }

  /** The breakdown under "Failed requests": "   (Connect: 0, Receive: 0, Length: 510, Exceptions: 0)". */
  private failedReasons(line: string, lineNo: number): boolean {
    const failed = /^\s+\((Connect: .*)\)\s*$/.exec(line);
    if (!failed) return false;
    for (const part of failed[1]!.split(',')) {
      const kv = /^\s*(\w+):\s*(\d+)\s*$/.exec(part);
      if (kv) this.out.metric('requests_failed_reason_total', Number(kv[2]), 'count', { labels: { reason: kv[1]!.toLowerCase() }, column: kv[1], lines: lineNo });
    }
    return true;
  }

  /** The lines under "Transfer rate" when a body was sent (-p/-u): "   12.34 kb/s sent", "   56.78 kb/s total". */
  private transferExtra(line: string, lineNo: number): boolean {
    const extra = /^\s+([\d.]+) kb\/s (sent|total)\s*$/.exec(line);
    if (!extra || !this.run.transferLine) return false;
    this.out.metric(extra[2] === 'sent' ? 'transfer_sent_bytes_per_second' : 'transfer_total_bytes_per_second', round(Number(extra[1]) * 1024), 'B/s', { column: `kb/s ${extra[2]}`, lines: lineNo });
    return true;
  }

  /** A "Key:   value" line of the summary block (or any such line: false when it is not one ab prints). */
  private summaryLine(line: string, lineNo: number): boolean {
    const kv = /^([A-Z][A-Za-z0-9/ +-]*?):\s+(.*)$/.exec(line);
    if (!kv) return false;
    if (this.run.section === 'none') this.run.section = 'results';
    return this.summaryField(kv[1]!, kv[2]!, lineNo);
  }

  /**
   * One field of the summary block: the server and document header (Server Software … Document
   * Length), then the run's figures (Concurrency Level … Transfer rate).
   */
  private summaryField(key: string, val: string, lineNo: number): boolean {
    const out = this.out;
    const v = val.trim();
    const first = v.split(/\s+/)[0] ?? '';
    switch (key) {
      case 'Server Software':
        if (this.run.started) this.nextRun();
        this.run.started = true;
        this.fact('server_software', v);
        return true;
      case 'Server Hostname': this.fact('server_hostname', v); return true;
      case 'Server Port': this.fact('server_port', dec(first)); return true;
      case 'SSL/TLS Protocol': this.fact('tls_protocol', v); return true;
      case 'Server Temp Key': this.fact('tls_server_temp_key', v); return true;
      case 'TLS Server Name': this.fact('tls_server_name', v); return true;
      case 'Document Path': this.fact('document_path', v); return true;
      case 'Document Length':
        if (v === 'Variable') { this.fact('document_length', 'Variable'); return true; }
        this.fact('document_length_bytes', dec(first));
        out.metric('document_length_bytes', dec(first), 'B', { column: key, lines: lineNo });
        return true;
      case 'Number of workers': out.metric('workers', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Concurrency Level': out.metric('concurrency', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Concurrency achieved': out.metric('concurrency_achieved', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Rampup delay': out.metric('rampup_delay_seconds', ms(dec(first)), 's', { column: key, lines: lineNo }); return true;
      case 'Time taken for tests': out.metric('duration_seconds', dec(first), 's', { column: key, lines: lineNo }); return true;
      case 'Number of requests': this.run.requested = dec(first); out.metric('requests_planned', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Complete requests': this.run.complete = dec(first); out.metric('requests_total', this.run.complete, 'count', { column: key, lines: lineNo }); return true;
      case 'Failed requests': out.metric('requests_failed_total', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Write errors': out.metric('write_errors_total', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Non-2xx responses': out.metric('responses_non2xx_total', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Keep-Alive requests': out.metric('requests_keepalive_total', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Keep-Alive aborts': out.metric('keepalive_aborts_total', dec(first), 'count', { column: key, lines: lineNo }); return true;
      case 'Total transferred': out.metric('transferred_bytes', dec(first), 'B', { column: key, lines: lineNo }); return true;
      case 'Total body sent': out.metric('body_sent_bytes', dec(first), 'B', { column: key, lines: lineNo }); return true;
      case 'HTML transferred': out.metric('html_transferred_bytes', dec(first), 'B', { column: key, lines: lineNo }); return true;
      case 'Requests per second': out.metric('requests_per_second', dec(first), '1/s', { column: key, lines: lineNo }); return true;
      case 'Time per request':
        if (/across all concurrent/.test(v)) out.metric('latency_mean_across_seconds', ms(dec(first)), 's', { column: key + ' (mean, across all concurrent requests)', lines: lineNo });
        else if (!this.run.sawTimePerRequest) out.metric('latency_mean_seconds', ms(dec(first)), 's', { column: key, lines: lineNo });
        this.run.sawTimePerRequest = true;
        return true;
      case 'Transfer rate': {
        const kb = /^([\d.]+)\s*(?:\[Kbytes\/sec\]|kb\/s)/.exec(v);
        if (!kb) return false;
        out.metric('transfer_bytes_per_second', round(Number(kb[1]) * 1024), 'B/s', { column: key, lines: lineNo });
        this.run.transferLine = lineNo;
        return true;
      }
      default:
        return false;
    }
  }

  // ---- runs ------------------------------------------------------------------------------------

  /** Another ab run pasted below the first: close this one; its metrics get run=N (see Out.finish). */
  private nextRun(): void {
    this.endRun();
    this.out.newRun();
    this.run = newRun();
  }

  /** What is known once a run's output is over: the -d latency fallback, requested vs finished. */
  private endRun(): void {
    this.fallbackLatency();
    this.runChecks();
  }

  /** -d (no percentile table): fall back on the Total row's median and max. */
  private fallbackLatency(): void {
    const { totalRow, totalRowLine } = this.run;
    if (this.mode !== 'text' || this.run.sawPercentiles || !totalRow) return;
    if (Number.isFinite(totalRow[3])) this.out.metric('latency_p50_seconds', ms(totalRow[3]!), 's', { column: 'Total median', lines: totalRowLine });
    if (Number.isFinite(totalRow[4])) this.out.metric('latency_max_seconds', ms(totalRow[4]!), 's', { column: 'Total max', lines: totalRowLine });
  }

  /** Requested vs finished (ab -t, or an interrupted run): a run that did less than asked is cut short. */
  private runChecks(): void {
    const { requested, complete, finished } = this.run;
    if (finished !== undefined) this.fact('requests_finished', finished);
    if (requested === undefined) return;
    this.fact('requests_requested', requested);
    const done = complete ?? finished;
    if (done !== undefined && done < requested) {
      this.fact('cut_short', true);
      const run = this.out.run;
      this.out.note(`run${run > 1 ? ` ${run}` : ''} cut short: ${done} of ${requested} requested requests completed${this.timeLimit !== undefined ? ` (time limit -t ${this.timeLimit} s)` : ''}`);
    }
  }
}

export const ab: CaptureParser = {
  id: 'ab',
  title: 'ApacheBench (ab)',
  commands: [{ program: 'ab' }, { program: 'ab2' }],
  detect,
  open: () => new AbSink(),
};
