/**
 * Locust: the --csv files (PREFIX_stats.csv, PREFIX_stats_history.csv with or without
 * --csv-full-history, PREFIX_failures.csv, PREFIX_exceptions.csv) and the console tables a
 * --headless run prints (request stats, "Response time percentiles", "Error report").
 * Columns are found by name, so the 0.x/1.x/2.x column sets all read. Locust times are in ms.
 * Format per locust/stats.py (StatsCSV, print_stats, print_percentile_stats, print_error_report).
 *
 * How a capture is read (LocustSink): the first line tells which file it is. A CSV file's header
 * is read once into a plan of its columns (CsvColumns); its records (a quoted field may span lines)
 * go to the reader of that file: `statsRow`, `historyRow`, `failureRow`, `exceptionRow`. The
 * console's tables are reprinted every few seconds, so `consoleLine` only keeps the rows of the
 * last one of each kind; `end` reads them (`consoleStats`, `consolePercentiles`, `consoleErrors`)
 * and builds the metrics of a whole file (`historyMetrics`, `fileSums`).
 */
import type { CaptureParser, Labels, LineSink, ParseOutput, Table } from '../../types';
import { fields, lookupTable } from '../kit';
import { SeriesSet } from '../../series';
import { Out, dec, headRuns, ms, pName, round, splitCsv } from './common';

const TOOLS = ['locust'];
type Mode = 'stats' | 'history' | 'failures' | 'exceptions' | 'console';

function headerMode(line: string): Mode | undefined {
  if (/^"?Timestamp"?,"?User Count"?,/.test(line)) return 'history';
  if (/^"?Method"?,"?Name"?,"?Error"?,"?Occurrences"?\s*$/.test(line)) return 'failures';
  if (/^"?Count"?,"?Message"?,"?Traceback"?,"?Nodes"?\s*$/.test(line)) return 'exceptions';
  if (/^"?(Type|Method)"?,"?Name"?,/.test(line) && /(Request Count|# requests)/i.test(line)) return 'stats';
  return undefined;
}

function detect(head: readonly string[]): number {
  let score = 0;
  const n = Math.min(head.length, 400);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (i < 5) {
      const m = headerMode(l);
      if (m === 'exceptions') return 0.9;
      if (m) return 0.95;
    }
    if (/^Response time percentiles \(approximated\)/.test(l)) return 0.95;
    if (/\/(INFO|WARNING|ERROR)\/locust\.\w+: /.test(l)) score = Math.max(score, 0.9);
    if (/# reqs\s+# fails/.test(l)) score = Math.max(score, 0.9);
    if (/^Percentage of the requests completed within given times/.test(l)) score = Math.max(score, 0.8);
  }
  if (headRuns(head, TOOLS)) score = Math.max(score, 0.4);
  return score;
}

/** A stats/history CSV column's metric: its canonical name and unit, and how to convert (and round) its value. */
interface Column { name: string; unit: string; conv: (v: number) => number }

/**
 * Canonical name for a stats/history CSV column, with how to convert its value. The conversion
 * rounds (`ms` rounds itself: rounding twice gives the same number).
 */
function column(col: string, history: boolean): Column | undefined {
  const c = col.trim().toLowerCase();
  const msv = (name: string): Column => ({ name, unit: 's', conv: ms });
  const id = (name: string, unit: string): Column => ({ name, unit, conv: round });
  const pct = /^(\d+(?:\.\d+)?)%$/.exec(c);
  if (pct) {
    const p = Number(pct[1]);
    return msv(p >= 100 ? (history ? 'latency_max_current_seconds' : 'latency_p100_seconds') : `latency_${pName(p)}_seconds`);
  }
  const pre = history ? 'total ' : '';
  switch (c) {
    case 'user count': return id('users', 'count');
    case 'requests/s': return id('requests_per_second', '1/s');
    case 'failures/s': case 'requests failed/s': return id('failures_per_second', '1/s');
    case `${pre}request count`: case '# requests': return id('requests_total', 'count');
    case `${pre}failure count`: case '# failures': return id('requests_failed_total', 'count');
    case `${pre}median response time`: return msv(history ? 'latency_cumulative_median_seconds' : 'latency_median_seconds');
    case `${pre}average response time`: return msv('latency_mean_seconds');
    case `${pre}min response time`: return msv('latency_min_seconds');
    case `${pre}max response time`: return msv('latency_max_seconds');
    case `${pre}average content size`: return id('response_size_mean_bytes', 'B');
    default: return undefined;
  }
}

function rowLabels(method: string, name: string): Labels {
  const agg = name === 'Aggregated' || (name === 'Total' && (method === '' || method === 'None'));
  if (agg) return { endpoint: 'Aggregated' };
  return method && method !== 'None' ? { endpoint: name, method } : { endpoint: name };
}

/** The figures of the history file's last row per endpoint that become metrics. */
const HISTORY_TOTALS = /^(requests_total|requests_failed_total|latency_mean_seconds|latency_min_seconds|latency_max_seconds|latency_cumulative_median_seconds)$/;

/** A column that becomes a metric or a series: where it is, its head as printed, and its metric. */
interface Planned extends Column { i: number; head: string }

/**
 * A CSV file's header, read once: where the name columns are (-1: absent) and which columns become
 * metrics (stats), series and last-row metrics (history).
 */
interface CsvColumns {
  header: string[];
  type: number;
  name: number;
  timestamp: number;
  userCount: number;
  rps: number;
  /** stats file: the columns read from each row */
  stats: Planned[];
  /** history file: the columns pushed as series from each row, and those of the last row kept as metrics */
  series: Planned[];
  totals: Planned[];
}

function csvColumns(header: string[]): CsvColumns {
  const idx = (name: string): number => {
    const n = name.toLowerCase();
    return header.findIndex((h) => h.trim().toLowerCase() === n);
  };
  const cols: CsvColumns = {
    header, type: Math.max(idx('Type'), idx('Method')), name: idx('Name'), timestamp: idx('Timestamp'),
    userCount: idx('User Count'), rps: idx('Requests/s'), stats: [], series: [], totals: [],
  };
  const hasP50 = header.some((h) => h.trim() === '50%');
  header.forEach((head, i) => {
    const named = i === cols.type || i === cols.name;
    const s = column(head, false);
    // the stats file's Median is its 50% when there is no 50% column; its 100% is its Max
    if (s && !named && !(s.name === 'latency_median_seconds' && hasP50) && s.name !== 'latency_p100_seconds') {
      cols.stats.push({ ...s, name: s.name === 'latency_median_seconds' ? 'latency_p50_seconds' : s.name, i, head });
    }
    const h = column(head, true);
    if (!h) return;
    if (!named && i !== cols.timestamp) cols.series.push({ ...h, i, head });
    if (HISTORY_TOTALS.test(h.name)) cols.totals.push({ ...h, name: h.name === 'latency_cumulative_median_seconds' ? 'latency_p50_seconds' : h.name, i, head });
  });
  return cols;
}

/** The last history row of one endpoint. */
interface LastRow { cells: string[]; lineNo: number; labels: Labels }

const CONSOLE_COLS = lookupTable<{ name: string; unit: string; ms: boolean }>({
  avg: { name: 'latency_mean_seconds', unit: 's', ms: true },
  min: { name: 'latency_min_seconds', unit: 's', ms: true },
  max: { name: 'latency_max_seconds', unit: 's', ms: true },
  med: { name: 'latency_p50_seconds', unit: 's', ms: true },
  median: { name: 'latency_p50_seconds', unit: 's', ms: true },
  'req/s': { name: 'requests_per_second', unit: '1/s', ms: false },
  'failures/s': { name: 'failures_per_second', unit: '1/s', ms: false },
});
const METHOD = /^(GET|POST|PUT|DELETE|PATCH|HEAD|OPTIONS|CONNECT|TRACE|[A-Z][A-Z_]{1,15})$/;

/** A line of a console table, kept until the end (only the last table of each kind is read). */
interface Kept { lineNo: number; line: string }

/** The console tables: the one being printed, and the last complete one of each kind. */
interface ConsoleTables {
  current: 'stats' | 'perc' | 'errors' | undefined;
  rows: Kept[];
  /** the stats table's columns after "# fails", lower-case */
  statCols: string[];
  /** the percentile table's percentages, and whether its "# reqs" column comes first (locust 0.x/1.x) */
  percCols: number[];
  reqsFirst: boolean;
  stats: Kept[];
  perc: Kept[];
  errors: Kept[];
}

/** Whether a CSV text holds an odd number of double quotes (a quoted field is still open). */
function quotesOpen(s: string): boolean {
  let n = 0;
  for (let i = 0; i < s.length; i++) if (s.charCodeAt(i) === 34) n++;
  return n % 2 === 1;
}

/** The labels of a console row from its name tokens ("GET /index.html", "Aggregated"). */
function splitName(tokens: string[]): Labels {
  if (tokens.length >= 2 && METHOD.test(tokens[0]!)) return rowLabels(tokens[0]!, tokens.slice(1).join(' '));
  return rowLabels('', tokens.join(' ') || 'Aggregated');
}

/** A record's endpoint labels and their key, made once per Type/Name pair of the history file. */
interface RowKey { labels: Labels; key: string }

class LocustSink implements LineSink {
  private readonly out = new Out();
  private readonly o = this.out.o;
  /** which file this is, told by its first non-blank line */
  private mode: Mode | undefined;
  private csv: CsvColumns | undefined;
  /** a CSV record whose quoted field spans lines: its text so far, first line, and whether a quote is still open */
  private pending = '';
  private pendingLine = 0;
  private pendingOpen = false;
  private readonly series = new SeriesSet();
  private readonly failures: Table = { columns: ['Method', 'Name', 'Error', 'Occurrences'], rows: [] };
  private readonly exceptions: Table = { columns: ['Count', 'Message', 'Traceback', 'Nodes'], rows: [] };
  // history: last row per label set, and rps samples of the aggregated row while users > 0
  private readonly lastRow = new Map<string, LastRow>();
  private readonly rowKeys = new Map<string, RowKey>();
  private readonly aggRps: number[] = [];
  private histFirst = 0;
  private histLast = 0;
  private readonly console: ConsoleTables = { current: undefined, rows: [], statCols: [], percCols: [], reqsFirst: false, stats: [], perc: [], errors: [] };

  line(text: string, lineNo: number): void {
    if (this.mode === undefined) {
      if (!text.trim()) return;
      if (this.fileHeader(text)) return;
      this.mode = 'console';
    }
    if (this.mode === 'console') this.consoleLine(text, lineNo);
    else this.csvLine(text, lineNo);
  }

  end(): ParseOutput {
    const { out, mode } = this;
    if (this.pending) { this.csvRecord(this.pending, this.pendingLine); this.pending = ''; }
    if (mode === 'console') this.consoleEnd();
    if (mode === 'history') this.historyMetrics();
    out.table('failures', this.failures);
    out.table('exceptions', this.exceptions);
    if (mode === 'failures' || mode === 'exceptions') this.fileSums(mode);
    if (mode === undefined) out.note('empty locust file');
    return out.finish('locust');
  }

  // ---- CSV files -------------------------------------------------------------------------------

  /** The first line of a --csv file: its header says which one, and where its columns are. */
  private fileHeader(text: string): boolean {
    const m = headerMode(text);
    if (!m) return false;
    this.mode = m;
    this.csv = csvColumns(splitCsv(text.trim()));
    this.o.facts.locust_file = m;
    return true;
  }

  /** A line of a CSV file: a record, or part of one whose quoted field (a traceback) spans lines. */
  private csvLine(text: string, lineNo: number): void {
    if (this.pending) {
      this.pending += '\n' + text;
      if (quotesOpen(text)) this.pendingOpen = !this.pendingOpen;
      if (this.pendingOpen && this.pending.length < 1 << 20) return;
      this.csvRecord(this.pending, this.pendingLine);
      this.pending = '';
      return;
    }
    if (!text.trim()) return;
    if (quotesOpen(text)) { this.pending = text; this.pendingLine = lineNo; this.pendingOpen = true; return; }
    this.csvRecord(text, lineNo);
  }

  private csvRecord(rec: string, lineNo: number): void {
    const c = splitCsv(rec);
    switch (this.mode) {
      case 'stats': this.statsRow(c, lineNo); break;
      case 'history': this.historyRow(c, lineNo); break;
      case 'failures': this.failureRow(c, lineNo); break;
      case 'exceptions': this.exceptionRow(c, lineNo); break;
      default: break;
    }
  }

  /** A row of PREFIX_stats.csv: one endpoint's (or the Aggregated) totals, latencies and percentiles. */
  private statsRow(c: string[], lineNo: number): void {
    const cols = this.csv!;
    if (cols.name < 0 || c.length < cols.header.length) { this.out.warn(lineNo, c.join(',')); return; }
    const labels = rowLabels(cols.type >= 0 ? c[cols.type]! : '', c[cols.name]!);
    for (const col of cols.stats) {
      const v = dec(c[col.i]);
      if (Number.isFinite(v)) this.out.metric(col.name, col.conv(v), col.unit, { labels, column: col.head, lines: lineNo });
    }
  }

  /**
   * A row of PREFIX_stats_history.csv: one sample of each column for its endpoint; the row is kept
   * as the endpoint's last (its totals), and the Aggregated row's Requests/s while users run.
   */
  private historyRow(c: string[], lineNo: number): void {
    const cols = this.csv!;
    const ts = dec(c[cols.timestamp]);
    if (cols.timestamp < 0 || cols.name < 0 || !Number.isFinite(ts) || c.length < cols.header.length) { this.out.warn(lineNo, c.join(',')); return; }
    const { labels, key } = this.rowKey(cols.type >= 0 ? c[cols.type]! : '', c[cols.name]!);
    if (!this.histFirst) this.histFirst = lineNo;
    this.histLast = lineNo;
    const t = ts * 1000;
    for (const col of cols.series) {
      const v = dec(c[col.i]);
      this.series.push(col.name, col.head, col.unit, labels, Number.isFinite(v) ? col.conv(v) : NaN, lineNo, t);
    }
    const last = this.lastRow.get(key);
    if (last) { last.cells = c; last.lineNo = lineNo; last.labels = labels; } else this.lastRow.set(key, { cells: c, lineNo, labels });
    if (labels.endpoint === 'Aggregated') {
      const users = dec(c[cols.userCount]);
      const rps = dec(c[cols.rps]);
      if (Number.isFinite(rps) && (!Number.isFinite(users) || users > 0)) this.aggRps.push(rps);
    }
  }

  /** The labels of a history row's Type and Name, and their key (several pairs can share labels: "Aggregated"). */
  private rowKey(type: string, name: string): RowKey {
    const pair = type + '\u0000' + name;
    let k = this.rowKeys.get(pair);
    if (!k) {
      const labels = rowLabels(type, name);
      k = { labels, key: JSON.stringify(labels) };
      this.rowKeys.set(pair, k);
    }
    return k;
  }

  /** At the end of a history file: its series, each endpoint's totals from its last row, and the mean Requests/s. */
  private historyMetrics(): void {
    const { o, out, aggRps } = this;
    o.series = this.series.list;
    const totals = this.csv!.totals;
    for (const { cells, lineNo, labels } of this.lastRow.values()) {
      for (const col of totals) {
        const v = dec(cells[col.i]);
        if (Number.isFinite(v)) out.metric(col.name, col.conv(v), col.unit, { labels, column: col.head, lines: lineNo });
      }
    }
    if (aggRps.length) {
      out.metric('requests_per_second', round(aggRps.reduce((a, b) => a + b, 0) / aggRps.length, 6), '1/s', { labels: { endpoint: 'Aggregated' }, column: 'Requests/s (mean of samples with users > 0)', lines: [this.histFirst, this.histLast] });
    }
  }

  /** A row of PREFIX_failures.csv: Method, Name, Error, Occurrences. */
  private failureRow(c: string[], lineNo: number): void {
    if (c.length < 4) { this.out.warn(lineNo, c.join(',')); return; }
    const n = dec(c[3]);
    this.failures.rows.push([c[0]!, c[1]!, c[2]!, Number.isFinite(n) ? n : c[3]!]);
    const labels: Record<string, string> = { ...rowLabels(c[0]!, c[1]!), error: c[2]!.slice(0, 300) };
    this.out.metric('errors_total', n, 'count', { labels, column: 'Occurrences', lines: lineNo });
  }

  /** A row of PREFIX_exceptions.csv: Count, Message, Traceback, Nodes. */
  private exceptionRow(c: string[], lineNo: number): void {
    if (c.length < 3) { this.out.warn(lineNo, c.join(',')); return; }
    const n = dec(c[0]);
    this.exceptions.rows.push([Number.isFinite(n) ? n : c[0]!, c[1]!, c[2]!, c[3] ?? '']);
    this.out.metric('exceptions_total', n, 'count', { labels: { error: c[1]!.slice(0, 300) }, column: 'Count', lines: lineNo });
  }

  /** At the end of a failures or exceptions file: the sum of its counts. */
  private fileSums(mode: 'failures' | 'exceptions'): void {
    const name = mode === 'failures' ? 'errors_total' : 'exceptions_total';
    const sum = this.o.metrics.filter((m) => m.name === name).reduce((a, m) => a + m.value, 0);
    this.out.metric(mode === 'failures' ? 'requests_failed_total' : 'exceptions_sum_total', sum, 'count', { column: mode === 'failures' ? 'sum of Occurrences' : 'sum of Count' });
  }

  // ---- console tables --------------------------------------------------------------------------

  /** The table being printed is complete: keep it as the last of its kind. */
  private closeTable(): void {
    const t = this.console;
    if (t.current === 'stats' && t.rows.length) t.stats = t.rows;
    else if (t.current === 'perc' && t.rows.length) t.perc = t.rows;
    else if (t.current === 'errors' && t.rows.length) t.errors = t.rows;
    t.current = undefined;
    t.rows = [];
  }

  /**
   * A line of a --headless console: log lines ("Starting Locust 2.x" gives the version), the
   * headers that open the stats, percentile and error tables, and their rows (kept for `end`).
   */
  private consoleLine(raw: string, lineNo: number): void {
    const t = this.console;
    const line = raw.trimEnd();
    const log = /^\[[\d-]+ [\d:,.]+\] [^/\s]+\/(\w+)\/([\w.]+): (.*)$/.exec(line);
    if (log) {
      const v = /^Starting Locust\s*(\S*)/.exec(log[3]!);
      if (v) this.o.toolVersion = v[1] ? `locust ${v[1]}` : 'locust';
      return;
    }
    // blank lines do not end a table: pasted consoles are often double-spaced; the next header does
    if (!line.trim()) return;
    if (this.out.command(line, TOOLS)) return;
    if (/# reqs\s+# fails/.test(line)) {
      this.closeTable();
      t.current = 'stats';
      const f = fields(line.replace(/\|/g, ' '));
      const i = f.lastIndexOf('fails');
      t.statCols = f.slice(i + 1).map((x) => x.toLowerCase());
      return;
    }
    if (/^\s*(Response time percentiles|Percentage of the requests completed within given times)/.test(line)) { this.closeTable(); t.current = 'perc'; t.percCols = []; return; }
    if (t.current === 'perc' && line.includes('# reqs') && /(?:^|\s)50%(?:\s|$)/.test(line)) {
      const f = fields(line);
      t.percCols = f.filter((x) => /^[\d.]+%$/.test(x)).map((x) => Number(x.slice(0, -1)));
      // locust 2.x prints "# reqs" last; 0.x/1.x printed it before the percentiles
      t.reqsFirst = f.indexOf('#') < f.findIndex((x) => /^[\d.]+%$/.test(x));
      return;
    }
    if (/^\s*Error report/.test(line)) { this.closeTable(); t.current = 'errors'; return; }
    if (t.current === 'errors' && /^\s*# occurr?ences\s+Error/.test(line)) return;
    if (/^[-|\s]+$/.test(line)) return;
    if (t.current) { t.rows.push({ lineNo, line }); return; }
    if (/^(Traceback|\s+File |KeyboardInterrupt|\w+Error:)/.test(line)) return;
    this.out.warn(lineNo, line);
  }

  /** At the end of a console capture: the last stats, percentile and error tables. */
  private consoleEnd(): void {
    this.closeTable();
    this.consoleStats();
    this.consolePercentiles();
    this.consoleErrors();
  }

  /** The request stats table: "GET /index.html   386   0(0.00%) |  2  0  15  2 |  33.10  0.00". */
  private consoleStats(): void {
    const { out } = this;
    const statCols = this.console.statCols;
    for (const { line, lineNo } of this.console.stats) {
      const f = fields(line.replace(/\|/g, ' '));
      const fi = f.findIndex((x) => /^\d+\([\d.]+%\)$/.test(x));
      if (fi < 1) { out.warn(lineNo, line); continue; }
      const labels = splitName(f.slice(0, fi - 1));
      out.metric('requests_total', dec(f[fi - 1]), 'count', { labels, column: '# reqs', lines: lineNo });
      out.metric('requests_failed_total', dec(f[fi]!.replace(/\(.*$/, '')), 'count', { labels, column: '# fails', lines: lineNo });
      // the 0.x "Total" row prints only req/s: values short of the header align to the right
      const vals = f.slice(fi + 1);
      const shift = Math.max(0, statCols.length - vals.length);
      statCols.forEach((col, k) => {
        const d = CONSOLE_COLS[col];
        const v = dec(vals[k - shift]);
        if (d && Number.isFinite(v)) out.metric(d.name, d.ms ? ms(v) : v, d.unit, { labels, column: col, lines: lineNo });
      });
    }
  }

  /** The "Response time percentiles (approximated)" table: one latency metric per percentage below 100%. */
  private consolePercentiles(): void {
    const { out } = this;
    const { percCols, reqsFirst } = this.console;
    for (const { line, lineNo } of this.console.perc) {
      const f = fields(line);
      const n = percCols.length;
      if (!n || f.length < n + 2) { out.warn(lineNo, line); continue; }
      const vals = reqsFirst ? f.slice(f.length - n) : f.slice(f.length - 1 - n, f.length - 1);
      const labels = splitName(f.slice(0, f.length - 1 - n));
      percCols.forEach((p, k) => {
        const v = dec(vals[k]);
        if (!Number.isFinite(v) || p >= 100) return;
        if (p === 50 && out.has('latency_p50_seconds', labels)) out.setMetric('latency_p50_seconds', ms(v), 's', { labels, column: '50%', lines: lineNo });
        else out.metric(`latency_${pName(p)}_seconds`, ms(v), 's', { labels, column: `${p}%`, lines: lineNo });
      });
    }
  }

  /** The "Error report" table: "148   GET /err500: HTTPError(…)". */
  private consoleErrors(): void {
    for (const { line, lineNo } of this.console.errors) {
      const m = /^\s*(\d+)\s+(\S.*)$/.exec(line);
      if (!m) { this.out.warn(lineNo, line); continue; }
      const em = /^([A-Z]+) (\S+): (.*)$/.exec(m[2]!);
      const labels: Record<string, string> = em ? { ...rowLabels(em[1]!, em[2]!), error: em[3]!.slice(0, 300) } : { error: m[2]!.slice(0, 300) };
      this.out.metric('errors_total', Number(m[1]), 'count', { labels, column: '# occurrences', lines: lineNo });
    }
  }
}

/** `python -m locust …` runs locust too: its options before the module, then `-m locust` */
const PYTHON_M_LOCUST = /^(?:-\S+\s+)*?-m\s?locust(?:\s|$)/;

export const locust: CaptureParser = {
  id: 'locust',
  title: 'Locust (CSV files, console summary)',
  commands: [{ program: 'locust' }, { program: 'python3', args: PYTHON_M_LOCUST }, { program: 'python', args: PYTHON_M_LOCUST }],
  detect,
  open: () => new LocustSink(),
};
