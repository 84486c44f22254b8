/**
 * sysbench 1.0/1.1 (and the common parts of 0.4/0.5) text output: cpu, memory, fileio, threads,
 * mutex and the oltp_* Lua tests; --report-interval lines as series; General statistics, Latency
 * (ms), Threads fairness; --histogram. Format per sysbench src/sysbench.c (report_cumulative,
 * report_intermediate), src/tests/*, src/lua/oltp_common.lua / sysbench.rand and sb_report_*.
 *
 * How a capture is read (SysbenchSink.line): the command line and the version banner; the
 * "[ Ns ]" --report-interval lines, one sample per series; the options preamble ("Running the test
 * with following options:") as settings until the test starts; then the result blocks, each
 * opened by its heading ("CPU speed:", "General statistics:", "Latency (ms):"…) and read by the
 * function for that block, besides the one-line results of the memory/fileio/threads tests and
 * the --histogram rows. `end` adds what the whole capture says (the test, events per second when
 * sysbench did not print it).
 */
import type { CaptureParser, Labels, LineSink, ParseOutput, Table } from '../../types';
import { commandLine, lookupTable } from '../kit';
import { SeriesSet } from '../../series';
import { Out, dec, headRuns, ms, pName, round } from './common';

const TOOLS = ['sysbench'];
const MIB = 1024 * 1024;
/** sysbench 0.4 prints binary units as "Mb" */
const OLD_UNITS = lookupTable({ b: 1, Kb: 1024, Mb: MIB, Gb: MIB * 1024, Tb: MIB * MIB });
const VERSION = /^sysbench (\d+\.\d+(?:\.\d+)?(?:[-+~][\w.]+)?):?(?:\s+\(using ([^)]*)\))?/;
const OPTIONS_TITLE = /^Running the test with following options:$/;
const RESULT_HEADS = new Set(['CPU speed:', 'File operations:', 'Throughput:', 'SQL statistics:', 'OLTP test statistics:', 'General statistics:', 'Test execution summary:', 'Latency (ms):', 'Threads fairness:', 'Latency histogram (values are in milliseconds)']);
const INTERVAL = /^\[ *([\d.]+)s ?\] (.*)$/;
/** The SQL statistics lines "name: total (rate per sec.)": the metric names of the total and of the rate. */
const SQL_COUNTERS = lookupTable<[string, string]>({
  transactions: ['transactions_total', 'transactions_per_second'],
  deadlocks: ['deadlocks_total', 'deadlocks_per_second'],
  'read/write requests': ['read_write_requests_total', 'read_write_requests_per_second'],
  'other operations': ['other_operations_total', 'other_operations_per_second'],
  queries: ['queries_total', 'queries_per_second'],
  'ignored errors': ['ignored_errors_total', 'ignored_errors_per_second'],
  reconnects: ['reconnects_total', 'reconnects_per_second'],
});
const FILE_OPS = lookupTable({ 'reads/s': 'reads_per_second', 'writes/s': 'writes_per_second', 'fsyncs/s': 'fsyncs_per_second' });
// labels of the interval series, made once (a series keeps the labels it was created with)
const READ: Labels = Object.freeze({ type: 'read' });
const WRITE: Labels = Object.freeze({ type: 'write' });
const OTHER: Labels = Object.freeze({ type: 'other' });
const DIR_READ: Labels = Object.freeze({ direction: 'read' });
const DIR_WRITE: Labels = Object.freeze({ direction: 'write' });

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (VERSION.test(l) && /\(using (system |bundled )?LuaJIT|multi-threaded system evaluation benchmark/.test(l)) return 0.99;
    if (/^Threads fairness:$/.test(l)) score = Math.max(score, 0.9);
    if (/^\s+total number of events:\s+\d+/.test(l)) score = Math.max(score, 0.9);
    if (/^\[ *\d+s \] thds: \d+ (eps|tps):/.test(l)) score = Math.max(score, 0.9);
    if (/^\[ *\d+s \] reads: [\d.]+ MiB\/s writes:/.test(l)) score = Math.max(score, 0.9);
    if (OPTIONS_TITLE.test(l)) score = Math.max(score, 0.8);
    if (i < 5 && VERSION.test(l)) score = Math.max(score, 0.6);
  }
  if (headRuns(head, TOOLS)) score = Math.max(score, 0.5);
  return score;
}

/** The result block the lines below belong to, told by its heading. */
type Section = 'none' | 'options' | 'cpu' | 'fileops' | 'throughput' | 'sql' | 'queries' | 'general' | 'latency' | 'fairness' | 'histogram' | 'oldreq';

/** The result block each heading opens ("queries performed:" and the 0.4 ones do not start the results). */
const HEADINGS = new Map<string, Section>([
  ['CPU speed:', 'cpu'], ['File operations:', 'fileops'], ['Throughput:', 'throughput'],
  ['SQL statistics:', 'sql'], ['OLTP test statistics:', 'sql'], ['queries performed:', 'queries'],
  ['General statistics:', 'general'], ['Test execution summary:', 'general'], ['Latency (ms):', 'latency'],
  ['Threads fairness:', 'fairness'], ['per-request statistics:', 'oldreq'], ['response time:', 'oldreq'],
  ['Latency histogram (values are in milliseconds)', 'histogram'],
]);
/** The test a heading shows was run. */
const HEADING_TEST = new Map([['CPU speed:', 'cpu'], ['File operations:', 'fileio'], ['SQL statistics:', 'oltp'], ['OLTP test statistics:', 'oltp']]);

/** What one sysbench run has shown so far; several runs may be pasted into one capture (SysbenchSink.nextRun). */
interface SysbenchRun {
  /** the test has started (its first interval line, "Threads started!" or a result heading): no more preamble */
  started: boolean;
  section: Section;
  /** "total number of events" and its line, and "total time": events per second when sysbench did not print it */
  events: number | undefined;
  eventsLine: number;
  duration: number | undefined;
}

function newRun(): SysbenchRun {
  return { started: false, section: 'none', events: undefined, eventsLine: 0, duration: undefined };
}

/** "name: value" split at the first colon, both trimmed; undefined when there is no name. */
function keyValue(line: string): [string, string] | undefined {
  const i = line.indexOf(':');
  if (i <= 0) return undefined;
  const k = line.slice(0, i).trim();
  return k ? [k, line.slice(i + 1).trim()] : undefined;
}

/** "3787   (1234.70 per sec.)" → [3787, 1234.7]. */
function perSec(v: string): [number, number] {
  const m = /^(\d+)\s+\(([\d.]+) per sec\.?\)$/.exec(v);
  return m ? [Number(m[1]), Number(m[2])] : [NaN, NaN];
}

/** "0.68" or "0.68ms" → seconds. */
function msValue(v: string): number {
  const m = /^([\d.]+)\s*(ms)?$/.exec(v);
  return m ? ms(Number(m[1])) : NaN;
}

class SysbenchSink implements LineSink {
  private readonly out = new Out();
  private readonly o = this.out.o;
  private run = newRun();
  /** the test run (cpu, memory, fileio, oltp_read_write…): the first that the capture tells */
  private test: string | undefined;
  private readonly series = new SeriesSet();
  private readonly histogram: Table = { columns: ['value_ms', 'count'], rows: [] };
  private readonly errors: string[] = [];
  /** samples pushed so far, to tell whether an interval line gave any */
  private samples = 0;

  /** One line, offered to each part of sysbench's output in turn. */
  line(raw: string, lineNo: number): void {
    const line = raw.trimEnd();
    if (!line.trim()) return;
    if (this.run.events !== undefined && (VERSION.test(line) || OPTIONS_TITLE.test(line) || commandLine(line, TOOLS) !== undefined)) this.nextRun();
    if (this.commandLine(line)) return;
    if (this.banner(line)) return;
    if (this.intervalLine(line, lineNo)) return;
    if (OPTIONS_TITLE.test(line)) { this.run.section = 'options'; return; }
    if (/^Threads started!$/.test(line)) { this.run.started = true; this.run.section = 'none'; return; }
    if (/^(FATAL|ERROR|WARNING|Error|error):?/.test(line)) { this.errors.push(line.trim()); return; }
    if (this.heading(line.trim())) return;
    if (!this.run.started) { this.preamble(line, lineNo); return; }
    if (this.run.section === 'histogram' && this.histogramRow(line)) return;
    if (this.testResult(line, lineNo)) return;
    const p = keyValue(line);
    if (p && this.sectionField(p[0], p[1], lineNo)) return;
    this.out.warn(lineNo, line);
  }

  end(): ParseOutput {
    const o = this.o;
    o.series = this.series.list;
    if (this.test) o.facts.test = this.test;
    this.out.table('latency_histogram', this.histogram);
    this.out.toolErrors(this.errors);
    this.derivedEventsPerSecond();
    if (this.run.events === undefined && !o.metrics.length) this.out.noResults('sysbench', this.errors);
    return this.out.finish('sysbench');
  }

  /** The test, from the first thing that tells it (the command line, a heading, an interval line's shape). */
  private setTest(t: string): void { if (this.test === undefined) this.test = t; }

  /** The command line told from outside the text (a capture kit's manifest): read as its prompt line would be. */
  setCommand(cmd: string): void {
    this.commandLine(`$ ${cmd}`);
  }

  /** A shell prompt with a sysbench command: its test (--test=NAME for 0.4/0.5, else the first bare word). */
  private commandLine(line: string): boolean {
    if (!this.out.command(line, TOOLS)) return false;
    const cmd = this.o.command!;
    const t = /--test=(\S+)/.exec(cmd);
    if (t) this.setTest(t[1]!.replace(/\.lua$/, '').split('/').pop()!);
    else {
      const w = cmd.split(/\s+/).slice(1).find((x) => !x.startsWith('-') && !/^(run|prepare|cleanup|help)$/.test(x));
      if (w) this.setTest(w.replace(/\.lua$/, '').split('/').pop()!);
    }
    return true;
  }

  /** "sysbench 1.0.20 (using system LuaJIT 2.1.0-beta3)", before the test starts. */
  private banner(line: string): boolean {
    const m = VERSION.exec(line);
    if (!m || this.run.started) return false;
    this.o.toolVersion = `sysbench ${m[1]!}`;
    if (m[2]) this.o.facts.lua = m[2];
    return true;
  }

  /** A result heading: the block below it, and the test it shows. */
  private heading(head: string): boolean {
    if (RESULT_HEADS.has(head)) this.run.started = true;
    const section = HEADINGS.get(head);
    if (section === undefined) return false;
    this.run.section = section;
    const test = HEADING_TEST.get(head);
    if (test !== undefined) this.setTest(test);
    return true;
  }

  /**
   * The preamble before the test starts: "Number of threads", "Doing … test", the options as
   * key: value settings, and fileio/prepare lines kept as settings of their own.
   */
  private preamble(line: string, lineNo: number): void {
    const o = this.o;
    const p = keyValue(line);
    let m = /^Number of threads: (\d+)$/.exec(line);
    if (m) { this.out.metric('threads', Number(m[1]), 'count', { column: 'Number of threads', lines: lineNo }); return; }
    m = /^Doing (.+) test$/.exec(line);
    if (m) { o.settings['test mode'] = m[1]!; return; }
    if (/^Running memory speed test/.test(line)) { this.setTest('memory'); return; }
    if (p && p[1] !== '') { o.settings[p[0]] = p[1]; return; }
    if (/files?, |total file size|^Block size|^Using |^Calling fsync|^Periodic FSYNC|^Initializing|^Creating|^Inserting|^Dropping|^Removing|^Extra file|^Prime numbers|^Report intermediate|^\d+ bytes written/.test(line)) o.settings[line.trim()] = '';
  }

  // ---- --report-interval lines -----------------------------------------------------------------

  /** "[ 5s ] …": one sample of each figure on the line (a line with none is unreadable). */
  private intervalLine(line: string, lineNo: number): boolean {
    const m = INTERVAL.exec(line);
    if (!m) return false;
    this.run.started = true;
    const before = this.samples;
    const body = m[2]!;
    this.sample('elapsed_seconds', '[ Ns ]', 's', Number(m[1]), lineNo);
    this.interval1x(body, lineNo);
    this.interval05(body, lineNo);
    this.intervalThroughput(body, lineNo);
    if (this.samples === before) this.out.warn(lineNo, line);
    return true;
  }

  /** One interval sample (a value that is not a number is left out). */
  private sample(name: string, col: string, unit: string, v: number, lineNo: number, labels?: Labels): void {
    if (!Number.isFinite(v)) return;
    this.series.push(name, col, unit, labels, v, lineNo);
    this.samples++;
  }

  /** sysbench 1.x: "thds: 4 tps: 1248.44 qps: 25025.68 (r/w/o: …) lat (ms,95%): 6.67 err/s: 0.98 reconn/s: 0.00" (eps: for cpu). */
  private interval1x(body: string, lineNo: number): void {
    let m = /\bthds: (\d+)/.exec(body); if (m) this.sample('threads', 'thds', 'count', Number(m[1]), lineNo);
    m = /\beps: ([\d.]+)/.exec(body); if (m) { this.sample('events_per_second', 'eps', '1/s', Number(m[1]), lineNo); this.setTest('cpu'); }
    m = /\btps: ([\d.]+)/.exec(body); if (m) { this.sample('transactions_per_second', 'tps', '1/s', Number(m[1]), lineNo); this.setTest('oltp'); }
    m = /\bqps: ([\d.]+)/.exec(body); if (m) this.sample('queries_per_second', 'qps', '1/s', Number(m[1]), lineNo);
    m = /\(r\/w\/o: ([\d.]+)\/([\d.]+)\/([\d.]+)\)/.exec(body);
    if (m) {
      this.sample('queries_per_second', 'r/w/o read', '1/s', Number(m[1]), lineNo, READ);
      this.sample('queries_per_second', 'r/w/o write', '1/s', Number(m[2]), lineNo, WRITE);
      this.sample('queries_per_second', 'r/w/o other', '1/s', Number(m[3]), lineNo, OTHER);
    }
    m = /\b(?:lat|latency) \(ms,([\d.]+)%\): ([\d.]+)/.exec(body);
    if (m) this.sample(`latency_${pName(Number(m[1]))}_seconds`, `lat (ms,${m[1]!}%)`, 's', ms(Number(m[2])), lineNo);
    m = /\berr\/s: ([\d.]+)/.exec(body); if (m) this.sample('errors_per_second', 'err/s', '1/s', Number(m[1]), lineNo);
    m = /\breconn\/s: ([\d.]+)/.exec(body); if (m) this.sample('reconnects_per_second', 'reconn/s', '1/s', Number(m[1]), lineNo);
  }

  /** sysbench 0.5: "threads: 8, tps: …, reads: …, writes: …, response time: 12.3ms (95%), errors: …, reconnects: …". */
  private interval05(body: string, lineNo: number): void {
    let m = /^threads: (\d+),/.exec(body); if (m) this.sample('threads', 'threads', 'count', Number(m[1]), lineNo);
    m = /\breads(?:\/s)?: ([\d.]+), writes(?:\/s)?: ([\d.]+)/.exec(body);
    if (m) {
      this.sample('queries_per_second', 'reads', '1/s', Number(m[1]), lineNo, READ);
      this.sample('queries_per_second', 'writes', '1/s', Number(m[2]), lineNo, WRITE);
    }
    m = /\bresponse time: ([\d.]+)ms \(([\d.]+)%\)/.exec(body);
    if (m) this.sample(`latency_${pName(Number(m[2]))}_seconds`, `response time (${m[2]!}%)`, 's', ms(Number(m[1])), lineNo);
    m = /\berrors: ([\d.]+)/.exec(body); if (m) this.sample('errors_per_second', 'errors', '1/s', Number(m[1]), lineNo);
    m = /\breconnects: +([\d.]+)/.exec(body); if (m) this.sample('reconnects_per_second', 'reconnects', '1/s', Number(m[1]), lineNo);
  }

  /** fileio "reads: 0.00 MiB/s writes: … MiB/s fsyncs: …/s", memory "1942.36 MiB/sec", threads/mutex "queue length: N, concurrency: N". */
  private intervalThroughput(body: string, lineNo: number): void {
    let m = /\breads: ([\d.]+) MiB\/s writes: ([\d.]+) MiB\/s fsyncs: ([\d.]+)\/s/.exec(body);
    if (m) {
      this.setTest('fileio');
      this.sample('bandwidth_bytes_per_second', 'reads MiB/s', 'B/s', round(Number(m[1]) * MIB), lineNo, DIR_READ);
      this.sample('bandwidth_bytes_per_second', 'writes MiB/s', 'B/s', round(Number(m[2]) * MIB), lineNo, DIR_WRITE);
      this.sample('fsyncs_per_second', 'fsyncs/s', '1/s', Number(m[3]), lineNo);
    }
    m = /^([\d.]+) MiB\/sec$/.exec(body.trim());
    if (m) { this.setTest('memory'); this.sample('bandwidth_bytes_per_second', 'MiB/sec', 'B/s', round(Number(m[1]) * MIB), lineNo); }
    m = /\bqueue length: (\d+), concurrency: (\d+)/.exec(body);
    if (m) { this.sample('queue_length', 'queue length', 'count', Number(m[1]), lineNo); this.sample('concurrency', 'concurrency', 'count', Number(m[2]), lineNo); }
  }

  // ---- results ---------------------------------------------------------------------------------

  /** A row of the --histogram table: "     0.723 |****                                     12" (its head line is skipped). */
  private histogramRow(line: string): boolean {
    if (/^\s+value\s+-+ distribution -+ count$/.test(line)) return true;
    const m = /^\s*([\d.]+) \|\**\s+(\d+)$/.exec(line);
    if (!m) return false;
    this.histogram.rows.push([Number(m[1]), Number(m[2])]);
    return true;
  }

  /**
   * The one-line results of the memory, fileio and threads tests (1.x "Total operations",
   * "MiB transferred", "Operations performed"; 0.4 "MB transferred", "Read … Written …",
   * "Requests/sec executed"), and the lines that end a run without a figure.
   */
  private testResult(line: string, lineNo: number): boolean {
    const out = this.out;
    let m = /^Total operations: (\d+) \(([\d.]+) per second\)$/.exec(line);
    if (m) {
      this.setTest('memory');
      out.metric('operations_total', Number(m[1]), 'count', { column: 'Total operations', lines: lineNo });
      out.metric('operations_per_second', Number(m[2]), '1/s', { column: 'per second', lines: lineNo });
      return true;
    }
    m = /^([\d.]+) MiB transferred \(([\d.]+) MiB\/sec\)$/.exec(line);
    if (m) {
      out.metric('transferred_bytes', round(Number(m[1]) * MIB), 'B', { column: 'MiB transferred', lines: lineNo });
      out.metric('bandwidth_bytes_per_second', round(Number(m[2]) * MIB), 'B/s', { column: 'MiB/sec', lines: lineNo });
      return true;
    }
    m = /^Operations performed:\s+(\d+) Read, (\d+) Write, (\d+) Other = (\d+) Total$/.exec(line);
    if (m) {
      this.setTest('fileio');
      out.metric('operations_total', Number(m[1]), 'count', { labels: { type: 'read' }, column: 'Operations performed: read', lines: lineNo });
      out.metric('operations_total', Number(m[2]), 'count', { labels: { type: 'write' }, column: 'Operations performed: write', lines: lineNo });
      out.metric('operations_total', Number(m[3]), 'count', { labels: { type: 'other' }, column: 'Operations performed: other', lines: lineNo });
      return true;
    }
    m = /^Operations performed: (\d+) \(([\d.]+) ops\/sec\)$/.exec(line);
    if (m) {
      this.setTest('memory');
      out.metric('operations_total', Number(m[1]), 'count', { column: 'Operations performed', lines: lineNo });
      out.metric('operations_per_second', Number(m[2]), '1/s', { column: 'ops/sec', lines: lineNo });
      return true;
    }
    m = /^([\d.]+) MB transferred \(([\d.]+) MB\/sec\)$/.exec(line);
    if (m) {
      out.metric('transferred_bytes', round(Number(m[1]) * MIB), 'B', { column: 'MB transferred', lines: lineNo });
      out.metric('bandwidth_bytes_per_second', round(Number(m[2]) * MIB), 'B/s', { column: 'MB/sec', lines: lineNo });
      return true;
    }
    m = /^Read ([\d.]+)([KMGT]?b)\s+Written ([\d.]+)([KMGT]?b)\s+Total transferred ([\d.]+)([KMGT]?b)\s+\(([\d.]+)([KMGT]?b)\/sec\)$/.exec(line);
    if (m) {
      const bytes = (v: string, u: string): number => round(Number(v) * OLD_UNITS[u]!);
      out.metric('read_bytes', bytes(m[1]!, m[2]!), 'B', { column: 'Read', lines: lineNo });
      out.metric('written_bytes', bytes(m[3]!, m[4]!), 'B', { column: 'Written', lines: lineNo });
      out.metric('transferred_bytes', bytes(m[5]!, m[6]!), 'B', { column: 'Total transferred', lines: lineNo });
      out.metric('bandwidth_bytes_per_second', bytes(m[7]!, m[8]!), 'B/s', { column: `${m[8]!}/sec`, lines: lineNo });
      return true;
    }
    if (/^(Time limit exceeded, exiting\.\.\.|\(last message repeated \d+ times\)|Done\.)$/.test(line)) return true;
    m = /^\s*([\d.]+) Requests\/sec executed$/.exec(line);
    if (m) { out.metric('requests_per_second', Number(m[1]), '1/s', { column: 'Requests/sec executed', lines: lineNo }); return true; }
    return false;
  }

  /** A "name: value" line of the current result block, handed to that block's reader. */
  private sectionField(k: string, v: string, lineNo: number): boolean {
    const num = dec(v.split(/\s+/)[0]);
    switch (this.run.section) {
      case 'cpu': return this.cpuField(k, num, lineNo);
      case 'fileops': return this.fileOpsField(k, num, lineNo);
      case 'throughput': return this.throughputField(k, num, lineNo);
      case 'queries': return this.queriesField(k, num, lineNo) || this.sqlField(k, v, lineNo);
      case 'sql': return this.sqlField(k, v, lineNo);
      case 'general': return this.generalField(k, v, num, lineNo);
      case 'latency': case 'oldreq': return this.latencyField(k, v, lineNo);
      case 'fairness': return this.fairnessField(k, v, lineNo);
      default: return false;
    }
  }

  /** "CPU speed:" — "events per second: 5996.50". */
  private cpuField(k: string, num: number, lineNo: number): boolean {
    if (k !== 'events per second') return false;
    this.out.metric('events_per_second', num, '1/s', { column: k, lines: lineNo });
    return true;
  }

  /** fileio's "File operations:" — reads/s, writes/s, fsyncs/s. */
  private fileOpsField(k: string, num: number, lineNo: number): boolean {
    const name = FILE_OPS[k];
    if (!name) return false;
    this.out.metric(name, num, '1/s', { column: k, lines: lineNo });
    return true;
  }

  /** fileio's "Throughput:" — "read, MiB/s", "written, MiB/s". */
  private throughputField(k: string, num: number, lineNo: number): boolean {
    const dir = k === 'read, MiB/s' ? 'read' : k === 'written, MiB/s' ? 'write' : undefined;
    if (!dir) return false;
    this.out.metric('bandwidth_bytes_per_second', round(num * MIB), 'B/s', { labels: { direction: dir }, column: k, lines: lineNo });
    return true;
  }

  /** "queries performed:" under SQL statistics — read, write, other, total. */
  private queriesField(k: string, num: number, lineNo: number): boolean {
    if (!/^(read|write|other|total)$/.test(k)) return false;
    if (k === 'total') this.out.metric('queries_total', num, 'count', { column: 'queries performed: total', lines: lineNo });
    else this.out.metric('queries_total', num, 'count', { labels: { type: k }, column: `queries performed: ${k}`, lines: lineNo });
    return true;
  }

  /** "SQL statistics:" (0.5: "OLTP test statistics:") — "transactions: 3787 (1234.70 per sec.)" and the like. */
  private sqlField(k: string, v: string, lineNo: number): boolean {
    const pair = SQL_COUNTERS[k];
    if (!pair) return false;
    const [tot, ps] = perSec(v);
    this.run.section = 'sql';
    // "queries performed: total" already gave queries_total
    if (k !== 'queries' || !this.out.has('queries_total')) this.out.metric(pair[0], tot, 'count', { column: k, lines: lineNo });
    this.out.metric(pair[1], ps, '1/s', { column: `${k} per sec.`, lines: lineNo });
    return true;
  }

  /** "General statistics:" (0.4: "Test execution summary:") — total time, total number of events, event execution time. */
  private generalField(k: string, v: string, num: number, lineNo: number): boolean {
    const run = this.run;
    if (k === 'total time') { run.duration = dec(v.replace(/s$/, '')); this.out.metric('duration_seconds', run.duration, 's', { column: k, lines: lineNo }); return true; }
    if (k === 'total number of events') { run.events = num; run.eventsLine = lineNo; this.out.metric('events_total', num, 'count', { column: k, lines: lineNo }); return true; }
    if (k === 'total time taken by event execution') { this.out.metric('event_execution_time_seconds', dec(v.replace(/s$/, '')), 's', { column: k, lines: lineNo }); return true; }
    return false;
  }

  /** "Latency (ms):" (0.4: "per-request statistics:") — min, avg, max, sum and the Nth percentile. */
  private latencyField(k: string, v: string, lineNo: number): boolean {
    const out = this.out;
    const val = msValue(v);
    if (k === 'min') { out.metric('latency_min_seconds', val, 's', { column: k, lines: lineNo }); return true; }
    if (k === 'avg') { out.metric('latency_mean_seconds', val, 's', { column: k, lines: lineNo }); return true; }
    if (k === 'max') { out.metric('latency_max_seconds', val, 's', { column: k, lines: lineNo }); return true; }
    if (k === 'sum') { out.metric('latency_sum_seconds', val, 's', { column: k, lines: lineNo }); return true; }
    const pm = /^(?:approx\.\s+)?([\d.]+)(?:th|st|nd|rd)? percentile$/.exec(k);
    if (!pm) return false;
    out.metric(`latency_${pName(Number(pm[1]))}_seconds`, val, 's', { column: k, lines: lineNo });
    return true;
  }

  /** "Threads fairness:" — "events (avg/stddev): 946.7500/92.35", "execution time (avg/stddev): 3.0138/0.03". */
  private fairnessField(k: string, v: string, lineNo: number): boolean {
    const f = /^([\d.]+)\/([\d.]+)$/.exec(v);
    if (!f) return false;
    if (k === 'events (avg/stddev)') {
      this.out.metric('thread_events_mean', Number(f[1]), 'count', { column: k, lines: lineNo });
      this.out.metric('thread_events_stdev', Number(f[2]), 'count', { column: k, lines: lineNo });
      return true;
    }
    if (k === 'execution time (avg/stddev)') {
      this.out.metric('thread_execution_time_mean_seconds', Number(f[1]), 's', { column: k, lines: lineNo });
      this.out.metric('thread_execution_time_stdev_seconds', Number(f[2]), 's', { column: k, lines: lineNo });
      return true;
    }
    return false;
  }

  // ---- runs ------------------------------------------------------------------------------------

  /** Events per second from events / total time, for the tests that do not print it. */
  private derivedEventsPerSecond(): void {
    const { events, duration, eventsLine } = this.run;
    if (!this.out.has('events_per_second') && events !== undefined && duration) {
      this.out.metric('events_per_second', round(events / duration, 8), '1/s', { column: 'total number of events / total time', lines: eventsLine });
    }
  }

  /** Another sysbench run pasted below: close this one; its metrics get run=N (see Out.finish). */
  private nextRun(): void {
    this.derivedEventsPerSecond();
    this.out.newRun();
    this.run = newRun();
  }
}

export const sysbench: CaptureParser = {
  id: 'sysbench',
  title: 'sysbench',
  commands: [{ program: 'sysbench' }],
  detect,
  open: () => new SysbenchSink(),
};
