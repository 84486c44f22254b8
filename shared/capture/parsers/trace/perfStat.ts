/**
 * perf stat: the normal report (with -a, -A, -e, -r, -B, -I interval mode, per-core/socket prefixes, any
 * locale), -x CSV output and -j JSON lines. See docs/parsers/trace.md.
 */
import type { CaptureParser, LineSink, Metric, Series, Unit } from '../../types';
import { commandLine, emptyOutput, metric } from '../kit';
import { snippet, table, Warnings } from './helpers';
import { padTo, setSample } from '../../series';

/** the program whose prompt line ("$ perf …") names the capture's command */
const PERF = ['perf'];

/** perf stat prints lines of at most a few hundred characters (JSON ones included); longer ones are not read */
const MAX_PERF_LINE = 4096;
const TITLE = /Performance counter stats for (?:'(.*)'|(system wide)|(process id|thread id|CPU\(s\)) '?([^']*)'?)\s*(?:\((\d+) runs\))?:?\s*$/;
const NOT = /^<(not supported|not counted)>$/;
const VALUE = /^[\d.,]+$/;
/** rows kept in the counters table; later readings still count in metrics and series (a warning says how many) */
const MAX_ROWS = 200_000;
/** readings held as printed while the decimal separator is not known yet (perf prints one locale per capture) */
const MAX_UNDECIDED = 4096;
/** metric-only lines and "seconds …" lines kept (each becomes a metric) */
const MAX_LINES_KEPT = 10_000;

function detect(head: readonly string[]): number {
  let csv = 0;
  let counters = 0;
  const n = Math.min(head.length, 300);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (/Performance counter stats for /.test(l)) return 0.97;
    if (/^#\s+time\s+(CPU\s+|core\s+|socket\s+|die\s+|node\s+|comm\s+)?.*counts\s+unit\s+events/.test(l.trim())) return 0.95;
    if (/^\{.*"counter-value"\s*:/.test(l) && /"event"\s*:/.test(l)) return 0.95;
    if (csvLike(l)) csv++;
    if (/^\s*(?:[\d.,]+|<not supported>|<not counted>)\s+(msec\s+)?(task-clock|cpu-clock|context-switches|cycles|instructions|page-faults|cpu-migrations|branches|branch-misses)\b/.test(l)) counters++;
  }
  if (csv >= 2) return 0.75;
  if (counters >= 2) return 0.6;
  return 0;
}

interface Reading {
  event: string; raw: string; unit: string; status?: string; labels: Record<string, string>;
  metricValue?: string; metricUnit?: string; variance?: number; runPct?: number; interval?: number; line: number;
}

interface Total { event: string; labels: Record<string, string>; value: number; unit: Unit; column: string; first: number; last: number }

/**
 * Readings are aggregated as they arrive (totals, interval series under the point budget, a bounded
 * counters table), so memory stays bounded however long a `perf stat -I` capture runs. Values can only
 * be read once the decimal separator is known: until a line shows it, readings wait in a small buffer.
 */
class PerfStatSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private times: { what: string; raw: string; sd?: string; varPct?: number; line: number }[] = [];
  private runs = 1;
  private target: string | undefined;
  /** decimal comma (true), decimal point (false), or not shown yet (null) */
  private commaDecimal: boolean | null = null;
  /** the decimal point was assumed (the buffer filled before any line showed the separator) */
  private decimalAssumed = false;
  /** readings waiting for the decimal separator (at most MAX_UNDECIDED) */
  private pending: Reading[] = [];
  private csvSep: string | null = null;
  private metricLines: { value: string; unit: string; name: string; line: number }[] = [];
  private droppedLines = 0;
  private readingCount = 0;
  private rows: (string | number | null)[][] = [];
  private droppedRows = 0;
  private totals = new Map<string, Total>();
  private seriesMap = new Map<string, Series>();
  private intervalMode = false;
  /** intervals seen (a series' sample index is its interval's number) and the last one's timestamp */
  private intervals = 0;
  private lastInterval = NaN;
  /** derived (after "#") and +- metrics of readings, in order; only without -I */
  private readingMetrics: Metric[] = [];
  private notCounted = new Set<string>();

  line(text: string, lineNo: number): void {
    // the comment and title regexes backtrack in time quadratic in a line's length (seconds on 64 KiB)
    if (text.length > MAX_PERF_LINE) { this.w.add(`line ${lineNo}: ${text.length} characters, too long for a perf stat line; not read`); return; }
    const t = text.trim();
    if (t === '') return;
    const tm = TITLE.exec(t);
    if (tm) {
      this.target = tm[1] ?? tm[2] ?? (tm[3] ? `${tm[3]} ${tm[4] ?? ''}`.trim() : undefined);
      if (tm[5]) this.runs = Number(tm[5]);
      if (tm[1] && !/^(system wide|CPU\(s\))/.test(tm[1]) && !this.out.command) this.out.command = `perf stat ${tm[1]}`;
      return;
    }
    if (t.startsWith('{')) { this.json(t, lineNo); return; }
    if (t.startsWith('#')) {
      // interval header and comments; "#  36.1 %  tma_bad_speculation" continues a metric group
      const mm = /^#\s*([-\d.,]+)\s*(%?)\s+([A-Za-z_][\w.\-/ ]*?)\s*(\(.*\))?\s*$/.exec(t);
      if (mm && this.readingCount + this.metricLines.length > 0) this.keepMetricLine({ value: mm[1]!, unit: mm[2]!, name: mm[3]!, line: lineNo });
      return;
    }
    const sm = /^([\d.,]+)(?:\s+\+-\s+([\d.,]+))?\s+seconds\s+(time elapsed|user|sys)(?:\s+\(\s*\+-\s*([\d.,]+)%\s*\))?/.exec(t);
    if (sm) {
      this.noteDecimal(sm[1]!);
      if (this.times.length >= MAX_LINES_KEPT) { this.droppedLines++; return; }
      this.times.push({ what: sm[3]!, raw: sm[1]!, sd: sm[2], varPct: sm[4] ? Number(sm[4].replace(',', '.')) : undefined, line: lineNo });
      return;
    }
    if (this.csvSep !== null || this.looksCsv(t)) { if (this.csv(t, lineNo)) return; }
    if (this.normal(text, lineNo)) return;
    if (!this.readingCount && !this.out.command) {
      const c = commandLine(text, PERF);
      if (c) { this.out.command = c; return; }
    }
    if (/^perf version /.test(t)) { this.out.toolVersion = t; return; }
    if (/^(Some events weren't counted|Try disabling the NMI watchdog|echo 0 > \/proc|perf stat -a|Error:|Warning:|\s*$)/.test(t)) return;
    this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`);
  }

  private noteDecimal(raw: string): void {
    if (this.commaDecimal === true) return;
    // "603,60" or "0,301784608": a comma not followed by exactly three digits is a decimal comma
    if (/,(\d{1,2}|\d{4,})$/.test(raw) || /,\d{3}\d/.test(raw)) {
      if (this.commaDecimal === false) {
        if (!this.decimalAssumed) return; // a line already showed a decimal point
        this.w.add(`decimal comma first seen in "${snippet(raw)}": earlier values were read with a decimal point`);
      }
      this.decide(true);
    } else if (this.commaDecimal === null && (/\.(\d{1,2}|\d{4,})$/.test(raw) || /\.\d{3}\d/.test(raw))) {
      // "601.20" or "0.300418741": a dot not followed by exactly three digits is a decimal point
      this.decide(false);
    }
  }

  private decide(comma: boolean): void {
    this.commaDecimal = comma;
    const p = this.pending;
    this.pending = [];
    for (const r of p) this.consume(r);
  }

  /** a reading as printed: aggregated now, or held until the decimal separator is known */
  private add(r: Reading, evidence = true): void {
    this.readingCount++;
    if (evidence && !r.status) this.noteDecimal(r.raw);
    if (this.commaDecimal !== null) { this.consume(r); return; }
    this.pending.push(r);
    if (this.pending.length >= MAX_UNDECIDED) { this.decimalAssumed = true; this.decide(false); }
  }

  private keepMetricLine(m: { value: string; unit: string; name: string; line: number }): void {
    if (this.metricLines.length < MAX_LINES_KEPT) this.metricLines.push(m); else this.droppedLines++;
  }

  private looksCsv(t: string): boolean {
    const m = /^\s*[^\s,;]*([,;])/.exec(t);
    if (!m) return false;
    const f = t.split(m[1]!);
    if (f.length < 3) return false;
    for (let i = 0; i + 2 < f.length; i++) {
      const v = f[i]!.trim();
      if ((VALUE.test(v) || NOT.test(v)) && /^[A-Za-z%/]*$/.test(f[i + 1]!) && /^[a-zA-Z][\w:./=,-]*/.test(f[i + 2]!)) { this.csvSep = m[1]!; return true; }
    }
    return false;
  }

  private csv(t: string, lineNo: number): boolean {
    const f = t.split(this.csvSep!);
    for (let i = 0; i + 2 < f.length; i++) {
      const v = f[i]!.trim();
      if (!(VALUE.test(v) || NOT.test(v))) continue;
      if (!/^[A-Za-z%/]*$/.test(f[i + 1]!)) continue; // the unit field: "msec", "" …
      const event = f[i + 2]!;
      if (!/^[a-zA-Z][\w:./=,-]*/.test(event)) continue;
      const labels: Record<string, string> = {};
      let interval: number | undefined;
      // prefixes: [interval][aggregation id [,count]]
      const pre = f.slice(0, i);
      if (pre.length && /^\d+\.\d+$/.test(pre[0]!.trim())) interval = Number(pre.shift()!.trim());
      if (pre.length) {
        const id = pre[0]!.trim();
        const cm = /^CPU(\d+)$/.exec(id);
        if (cm) labels.cpu = cm[1]!; else if (/-\d+$/.test(id) && !/^S\d/.test(id)) labels.thread = id; else if (id) labels.aggregate = id;
      }
      const r: Reading = { event, raw: v, unit: f[i + 1] ?? '', labels, line: lineNo };
      const nm = NOT.exec(v);
      if (nm) r.status = nm[1]!;
      const run = Number(f[i + 4]);
      if (f[i + 4] !== undefined && f[i + 4] !== '' && Number.isFinite(run)) r.runPct = run;
      if (f[i + 5] !== undefined && f[i + 5] !== '') { r.metricValue = f[i + 5]!; r.metricUnit = f[i + 6] ?? ''; }
      if (interval !== undefined) r.interval = interval;
      this.add(r);
      return true;
    }
    return false;
  }

  private json(t: string, lineNo: number): void {
    let o: Record<string, unknown>;
    try { o = JSON.parse(t) as Record<string, unknown>; } catch { this.w.add(`line ${lineNo}: could not read JSON "${snippet(t)}"`); return; }
    const event = typeof o.event === 'string' ? o.event : undefined;
    const cv = o['counter-value'];
    if (!event || cv === undefined) return;
    const labels: Record<string, string> = {};
    if (typeof o.cpu === 'string' || typeof o.cpu === 'number') labels.cpu = String(o.cpu).replace(/^CPU/, '');
    for (const k of ['core', 'socket', 'die', 'node', 'thread', 'cgroup']) if (o[k] !== undefined) labels[k] = String(o[k]);
    const raw = String(cv);
    const r: Reading = { event, raw, unit: typeof o.unit === 'string' ? o.unit : '', labels, line: lineNo };
    const nm = NOT.exec(raw);
    if (nm) r.status = nm[1]!;
    if (typeof o['pcnt-running'] === 'number') r.runPct = o['pcnt-running'];
    if (o['metric-value'] !== undefined && typeof o['metric-unit'] === 'string' && o['metric-unit'] !== '') { r.metricValue = String(o['metric-value']); r.metricUnit = o['metric-unit']; }
    if (typeof o.variance === 'number') r.variance = o.variance;
    if (o.interval !== undefined && Number.isFinite(Number(o.interval))) r.interval = Number(o.interval);
    this.add(r, false); // JSON values are not evidence of the locale
  }

  /** "  18.52 msec task-clock   #    0.541 CPUs utilized   ( +-  1.59% )", with optional interval and CPU prefixes. */
  private normal(text: string, lineNo: number): boolean {
    let s = text;
    let comment = '';
    const hash = s.indexOf('#');
    if (hash >= 0) { comment = s.slice(hash + 1); s = s.slice(0, hash); }
    let variance: number | undefined;
    let runPct: number | undefined;
    const vm = /\(\s*\+-\s*([\d.,]+)%\s*\)/.exec(text);
    if (vm) variance = Number(vm[1]!.replace(',', '.'));
    const rm = /\(([\d.,]+)%\)\s*$/.exec(text);
    if (rm) runPct = Number(rm[1]!.replace(',', '.'));
    if (hash < 0) s = s.replace(/\(\s*\+-\s*[\d.,]+%\s*\)/, '').replace(/\([\d.,]+%\)\s*$/, '');
    const f = s.trim().split(/\s+/);
    let i = 0;
    let interval: number | undefined;
    const labels: Record<string, string> = {};
    // -I: the interval timestamp comes first, then a value (or a CPU / aggregation prefix)
    const next = f[i + 1];
    if (f[i] && /^\d+\.\d{6,}$/.test(f[i]!) && next !== undefined && (VALUE.test(next) || next.startsWith('<') || /^(CPU\d+|S\d+|N\d+)/.test(next))) { interval = Number(f[i]); i++; }
    if (f[i] && /^(CPU\d+|S\d+(-D\d+)?(-C\d+)?|N\d+)$/.test(f[i]!)) {
      const cm = /^CPU(\d+)$/.exec(f[i]!);
      if (cm) labels.cpu = cm[1]!; else labels.aggregate = f[i]!;
      i++;
      // --per-core / --per-socket print the number of CPUs aggregated next
      if (!cm && f[i] && /^\d+$/.test(f[i]!) && f[i + 1] && (VALUE.test(f[i + 1]!) || f[i + 1]!.startsWith('<'))) i++;
    } else if (f[i] && !isValueToken(f[i]!)) {
      // --per-thread: "comm-tid" (the comm may contain spaces) before the value
      let j = i;
      while (j < f.length && j < i + 8 && !isValueToken(f[j]!)) j++;
      if (j > i && j < f.length && /-\d+$/.test(f[j - 1]!)) { labels.thread = f.slice(i, j).join(' '); i = j; }
    }
    let raw = f[i];
    if (raw === undefined || (!isValueToken(raw) && hash >= 0)) {
      // a metric-only line (perf 5.x/6.x metric groups, TopDown): "TopdownL1 (cpu_core)   #  15.3 %  tma_backend_bound"
      const mm = /^\s*([-\d.,]+)\s*(%?)\s+([A-Za-z_][\w.\-/ ]*?)\s*(\(.*\))?\s*$/.exec(comment);
      if (mm) { this.keepMetricLine({ value: mm[1]!, unit: mm[2]!, name: mm[3]!, line: lineNo }); return true; }
      return false;
    }
    let status: string | undefined;
    if (raw === '<not' && f[i + 1]) { raw = `${raw} ${f[i + 1]}`; i++; }
    const nm = NOT.exec(raw);
    if (nm) status = nm[1]!;
    else if (!VALUE.test(raw) || !/\d/.test(raw)) return false;
    i++;
    let unit = '';
    if (f[i] && /^(msec|ns|usec|sec|Joules|MiB|kB|B)$/.test(f[i]!) && f[i + 1]) { unit = f[i]!; i++; }
    let event = f.slice(i).join(' ');
    // perf before 4.x: "83723.452481      task-clock:u (msec)"
    const um = /^(\S+)\s+\((msec|ns|usec)\)$/.exec(event);
    if (um && !unit) { event = um[1]!; unit = um[2]!; }
    // an event name is one token ("cycles", "sched:sched_switch", "cpu_core/cycles/"): program output such as
    // "42 files found" printed between perf's lines is not a counter
    if (!event || !/^[A-Za-z_][^\s]*$/.test(event)) return false;
    const r: Reading = { event, raw, unit, labels, line: lineNo };
    if (status) r.status = status;
    if (interval !== undefined) r.interval = interval;
    if (variance !== undefined) r.variance = variance;
    if (runPct !== undefined) r.runPct = runPct;
    const cm = /^\s*([-\d.,]+)\s*(.*?)\s*(\(.*\))?\s*$/.exec(comment);
    if (cm) { r.metricValue = cm[1]!; r.metricUnit = cm[2]!.trim(); }
    this.add(r);
    return true;
  }

  private value(raw: string): number {
    if (this.commaDecimal) return Number(raw.replace(/\./g, '').replace(',', '.'));
    return Number(raw.replace(/,/g, ''));
  }

  /** Aggregate one reading (the decimal separator is known): counters row, totals, interval series, derived metrics. */
  private consume(r: Reading): void {
    let v = r.status ? NaN : this.value(r.raw);
    let unit: Unit = 'count';
    if (!r.status) {
      if (r.unit === 'msec') { v = v / 1000; unit = 's'; }
      else if (r.unit === 'ns') { v = v / 1e9; unit = 's'; }
      else if (r.unit === 'usec') { v = v / 1e6; unit = 's'; }
      else if (r.unit === 'sec') unit = 's';
      else if (r.unit === 'MiB') { v = v * 1024 * 1024; unit = 'B'; }
      else if (r.unit && r.unit !== '') unit = r.unit;
    }
    v = tidy(v);
    const mv = r.metricValue !== undefined ? this.value(r.metricValue) : NaN;
    if (this.rows.length < MAX_ROWS) {
      this.rows.push([r.interval ?? null, r.labels.cpu ?? r.labels.aggregate ?? null, r.event, r.status ? r.status : Number.isFinite(v) ? v : null, r.unit || null,
        Number.isFinite(mv) ? mv : null, r.metricUnit ?? null, r.variance ?? null, r.runPct ?? null, r.line]);
    } else this.droppedRows++;
    if (r.interval !== undefined && !this.intervalMode) {
      // -I: per-reading derived metrics are not reported (the series are); drop those of earlier readings
      this.intervalMode = true;
      this.readingMetrics = [];
    }
    if (r.status) { this.notCounted.add(`${r.event} <${r.status}>`); return; }
    const key = r.event + '\u0000' + JSON.stringify(r.labels);
    const tot = this.totals.get(key);
    if (tot) { tot.value = tidy(tot.value + v); tot.last = r.line; } else this.totals.set(key, { event: r.event, labels: r.labels, value: v, unit, column: r.event, first: r.line, last: r.line });
    if (r.interval !== undefined) {
      if (!this.intervals || this.lastInterval !== r.interval) { this.intervals++; this.lastInterval = r.interval; }
      let sr = this.seriesMap.get(key);
      if (!sr) { sr = { name: 'counter_value', column: r.event, unit, labels: { event: r.event, ...r.labels }, values: [] }; this.seriesMap.set(key, sr); }
      // sample index = interval number: a series that starts late is padded, the point budget thins long ones
      setSample(sr, this.intervals - 1, v);
      sr.lines = sr.lines ? [sr.lines[0], r.line] : [r.line, r.line];
    }
    if (this.intervalMode) return;
    if (Object.keys(r.labels).length === 0 && r.metricUnit && Number.isFinite(mv)) {
      const d = derivedMetric(r.metricUnit, mv);
      if (d) this.readingMetrics.push(metric(d.name, d.value, d.unit, { labels: { event: r.event }, column: r.metricUnit, lines: r.line }));
    }
    if (r.variance !== undefined) this.readingMetrics.push(metric('counter_stddev_percent', r.variance, '%', { labels: { event: r.event, ...r.labels }, column: '+-', lines: r.line }));
  }

  end() {
    if (this.commaDecimal === null) this.decide(false);
    const out = this.out;
    const metrics: Metric[] = this.readingMetrics;
    const totals = this.totals;
    const printedIpc = metrics.some((m) => m.name === 'instructions_per_cycle');
    for (const t of totals.values()) {
      metrics.push(metric('counter_value', t.value, t.unit, { labels: { event: t.event, ...t.labels }, column: t.column, lines: [t.first, t.last] }));
      if ((t.event === 'task-clock' || t.event.startsWith('task-clock')) && Object.keys(t.labels).length === 0) metrics.push(metric('task_clock_seconds', t.value, 's', { column: 'task-clock', lines: [t.first, t.last] }));
      if ((t.event === 'cpu-clock') && Object.keys(t.labels).length === 0) metrics.push(metric('cpu_clock_seconds', t.value, 's', { column: 'cpu-clock', lines: [t.first, t.last] }));
    }
    // IPC from the counters when perf did not print it
    const get = (e: string): number | undefined => { for (const t of totals.values()) if ((t.event === e || t.event.startsWith(e + ':') || t.event === `cpu_core/${e}/` || t.event === `cpu/${e}/`) && !Object.keys(t.labels).length) return t.value; return undefined; };
    const ins = get('instructions');
    const cyc = get('cycles');
    if (!printedIpc && ins !== undefined && cyc) metrics.push(metric('instructions_per_cycle', Math.round((ins / cyc) * 1000) / 1000, 'ratio', { column: 'instructions / cycles' }));
    for (const t of this.times) {
      const v = this.value(t.raw);
      const name = t.what === 'time elapsed' ? 'elapsed_seconds' : t.what === 'user' ? 'user_seconds' : 'system_seconds';
      metrics.push(metric(name, v, 's', { column: `seconds ${t.what}`, lines: t.line }));
      if (t.sd) metrics.push(metric(name.replace('_seconds', '_stddev_seconds'), this.value(t.sd), 's', { column: '+-', lines: t.line }));
      if (t.varPct !== undefined) metrics.push(metric(name.replace('_seconds', '_stddev_percent'), t.varPct, '%', { column: '+-', lines: t.line }));
    }
    if (this.runs > 1) metrics.push(metric('runs_total', this.runs, 'count', { column: 'runs' }));
    for (const m of this.metricLines) {
      const v = this.value(m.value);
      if (Number.isFinite(v)) metrics.push(metric('perf_metric', v, m.unit === '%' ? '%' : 'ratio', { labels: { metric: m.name }, column: m.name, lines: m.line }));
    }
    if (this.seriesMap.size) {
      out.series = [...this.seriesMap.values()];
      for (const s of out.series) padTo(s, this.intervals);
    }
    if (this.target) out.facts.perf_target = this.target;
    if (this.notCounted.size) out.facts.perf_events_not_counted = [...this.notCounted];
    out.metrics = metrics;
    out.tables = { counters: table(['interval', 'cpu', 'event', 'value', 'unit', 'metric_value', 'metric_unit', 'stddev_percent', 'running_percent', 'line'], this.rows, 'counters as printed (value in base units; <not supported>/<not counted> kept as text)') };
    if (!this.readingCount) this.w.add('no perf stat counters found');
    if (this.droppedRows) this.w.add(`${this.droppedRows} counter readings beyond ${MAX_ROWS} were not kept in the counters table (metrics and series include them)`);
    if (this.droppedLines) this.w.add(`${this.droppedLines} metric and "seconds" lines beyond ${MAX_LINES_KEPT} were not read`);
    out.warnings = this.w.done();
    return out;
  }
}

const KNOWN_EVENT = /^(task-clock|cpu-clock|context-switches|cs|cycles|instructions|page-faults|faults|cpu-migrations|migrations|branches|branch-misses|branch-instructions|cache-references|cache-misses|stalled-cycles-frontend|stalled-cycles-backend|bus-cycles|ref-cycles|minor-faults|major-faults|L1-[\w-]+|LLC-[\w-]+|dTLB-[\w-]+|iTLB-[\w-]+|[\w-]+:[\w:]+|cpu\w*\/[^/]+\/\w*)(:[ukhGHpP]+)?$/;

/** A perf stat -x line: [interval,][aggregation,[count,]]value,unit,event,… with a known event name. */
function csvLike(l: string): boolean {
  for (const sep of [',', ';']) {
    if (!l.includes(sep)) continue;
    const f = l.split(sep);
    for (let i = 0; i + 2 < f.length && i < 4; i++) {
      const v = f[i]!.trim();
      if ((VALUE.test(v) || NOT.test(v)) && /^[A-Za-z%/]*$/.test(f[i + 1]!) && KNOWN_EVENT.test(f[i + 2]!)) return true;
    }
  }
  return false;
}

function isValueToken(t: string): boolean {
  return t === '<not' || (VALUE.test(t) && /\d/.test(t));
}

/** Drop binary floating-point noise from unit conversions (0.6012000000000001 → 0.6012). */
function tidy(x: number): number {
  return Number.isFinite(x) ? Number(x.toPrecision(12)) : x;
}

/** Derived figures perf prints after "#": "0.541 CPUs utilized", "23.000 K/sec", "1.23 insn per cycle", "2.9 GHz", "5.1% of all branches". */
function derivedMetric(unitText: string, v: number): { name: string; value: number; unit: Unit } | null {
  const u = unitText.trim();
  if (/^CPUs utilized/.test(u)) return { name: 'cpus_utilized', value: v, unit: 'ratio' };
  if (/^insn per cycle/.test(u) || u === 'IPC') return { name: 'instructions_per_cycle', value: v, unit: 'ratio' };
  if (/^stalled cycles per insn/.test(u)) return { name: 'stalled_cycles_per_instruction', value: v, unit: 'ratio' };
  if (/^(G|M|K)?\/sec$/.test(u)) {
    const mul = u[0] === 'G' ? 1e9 : u[0] === 'M' ? 1e6 : u[0] === 'K' ? 1e3 : 1;
    return { name: 'counter_per_second', value: tidy(v * mul), unit: '1/s' };
  }
  if (/^(G|M|K)?Hz$/.test(u)) {
    const mul = u[0] === 'G' ? 1e9 : u[0] === 'M' ? 1e6 : u[0] === 'K' ? 1e3 : 1;
    return { name: 'cpu_frequency_hertz', value: tidy(v * mul), unit: 'Hz' };
  }
  const pm = /^%\s*(.*)$/.exec(u) ?? /^%$/.exec(u);
  if (pm) return { name: 'counter_percent', value: v, unit: '%' };
  return null;
}

export const perfStatParser: CaptureParser = {
  id: 'perf-stat',
  title: 'perf stat',
  commands: [{ program: 'perf', args: /^(?:-\S+\s+)*stat\b/ }],
  detect,
  open: () => new PerfStatSink(),
};
