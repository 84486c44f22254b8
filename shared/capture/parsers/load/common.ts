/** Small helpers shared by the load-generator parsers (ab, wrk, hey, locust, redis-benchmark, sysbench). */
import type { Labels, Metric, ParseOutput, Table, Unit } from '../../types';
import { commandLine, emptyOutput, headCommand, lookupTable, metric, num, type MetricOptions } from '../kit';

/** Builds a ParseOutput incrementally. */
export class Out {
  readonly o: ParseOutput = emptyOutput();
  private warned = 0;
  /** 1-based index of the tool run being read (several runs pasted into one capture). */
  run = 1;
  private readonly runOf = new WeakMap<Metric, number>();

  /** A new run of the tool starts in the same capture. */
  newRun(): void { this.run++; }

  /**
   * The kit's metric, added to the output as a figure of the run being read (Out.finish labels
   * each with its run); a value that did not read (not finite) adds nothing.
   */
  metric(name: string, value: number, unit: Unit, opts?: MetricOptions): Metric | undefined {
    if (!Number.isFinite(value)) return undefined;
    const m = metric(name, value, unit, opts);
    this.o.metrics.push(m);
    this.runOf.set(m, this.run);
    return m;
  }

  /** As metric, replacing an earlier one of the same name and labels in this run (tools that print running totals). */
  setMetric(name: string, value: number, unit: Unit, opts?: MetricOptions): void {
    const key = labelKey(opts?.labels);
    const i = this.o.metrics.findIndex((m) => m.name === name && labelKey(m.labels) === key && this.runOf.get(m) === this.run);
    if (i !== -1) this.o.metrics.splice(i, 1);
    this.metric(name, value, unit, opts);
  }

  has(name: string, labels?: Labels): boolean {
    const key = labelKey(labels);
    return this.o.metrics.some((m) => m.name === name && labelKey(m.labels) === key && this.runOf.get(m) === this.run);
  }

  /** Keep `table` in the output as tables[name], when it has rows. */
  table(name: string, table: Table): void {
    if (table.rows.length) (this.o.tables ??= {})[name] = table;
  }

  /** The errors the tool printed (its first 50), as the `errors` fact. */
  toolErrors(errors: readonly string[]): void {
    if (errors.length) this.o.facts.errors = errors.slice(0, 50);
  }

  /** Say why no results were read: the tool's first error, or else a truncated capture. */
  noResults(tool: string, errors: readonly string[], what = 'results'): void {
    this.note(errors.length ? `${tool} printed no results: ${errors[0]!}` : `no ${tool} ${what} found (truncated capture?)`);
  }

  warn(lineNo: number, text: string): void {
    this.warned++;
    if (this.warned <= 500) this.o.warnings.push(`line ${lineNo}: could not read ${JSON.stringify(text.length > 120 ? text.slice(0, 120) + '…' : text)}`);
  }

  note(w: string): void { this.o.warnings.push(w); }

  /** Return the output, with a warning when nothing at all was read (and none was given yet). */
  finish(what: string): ParseOutput {
    const o = this.o;
    if (this.run > 1) {
      for (const m of o.metrics) m.labels = { ...(m.labels ?? {}), run: String(this.runOf.get(m) ?? 1) };
      o.warnings.push(`${this.run} ${what} runs in one capture: every metric is labelled run=1…${this.run}`);
    }
    const nothing = !o.metrics.length && !o.series.length && !Object.keys(o.facts).length && !Object.keys(o.settings).length && !Object.keys(o.tables ?? {}).length;
    if (nothing && !o.warnings.length) o.warnings.push(`no ${what} output found`);
    return o;
  }

  /** Take a shell prompt + command line as `command` (first one only). Returns true when the line was one. */
  command(line: string, tools: readonly string[]): boolean {
    const cmd = commandLine(line, tools);
    if (cmd === undefined) return false;
    if (this.o.command === undefined) this.o.command = cmd;
    return true;
  }
}

/**
 * Whether one of a capture's first lines runs one of `tools`, with or without a shell prompt
 * before it (the kit's headCommand, bare); `withUrl`: and names an http(s) URL (the HTTP load generators).
 */
export function headRuns(head: readonly string[], tools: readonly string[], withUrl = false): boolean {
  const cmd = headCommand(head, tools, { bare: true });
  return cmd !== undefined && (!withUrl || /\bhttps?:\/\//.test(cmd));
}

function labelKey(labels: Labels | undefined): string {
  if (!labels) return '';
  return Object.keys(labels).sort().map((k) => `${k}=${labels[k]}`).join('\u0000');
}

/** Split one CSV line (RFC 4180 quotes, doubled quotes inside). Linear. */
export function splitCsv(line: string, sep = ','): string[] {
  const out: string[] = [];
  let cur = '';
  let q = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (q) {
      if (c === '"') {
        if (line[i + 1] === '"') { cur += '"'; i++; } else q = false;
      } else cur += c;
    } else if (c === '"') q = true;
    else if (c === sep) { out.push(cur); cur = ''; }
    else cur += c;
  }
  out.push(cur);
  return out;
}

/** Plain number, no decimal-comma guessing (CSV fields, C printf output). */
export function dec(s: string | undefined): number {
  if (s === undefined) return NaN;
  const t = s.trim();
  // load generators print a dot decimal and no grouping: the shared num() without its comma readings
  return t.includes(',') ? NaN : num(t);
}

/** A percentile as a metric-name fragment: 50 → "p50", 99.9 → "p99_9", 100 → "max" is left to the caller. */
export function pName(p: number): string {
  return 'p' + String(p).replace('.', '_');
}

/** "0.713" ms → seconds, rounded to kill float noise. */
export function ms(v: number): number {
  return round(v / 1000);
}

/** `v` to `digits` significant digits (12: kills float noise such as 0.1 + 0.2). Rounding twice gives the same number. */
export function round(v: number, digits = 12): number {
  // fast path, same result: zero (also -0, which toPrecision turns into 0), and an integer that has
  // at most `digits` digits, which toPrecision keeps as it is (counts, byte sizes: most CSV cells)
  if (v === 0) return 0;
  if (digits >= 12 && v % 1 === 0 && v < 1e12 && v > -1e12) return v;
  if (!Number.isFinite(v)) return v;
  return Number(v.toPrecision(digits));
}

const TIME_MULT = lookupTable({ ns: 1e-9, us: 1e-6, 'µs': 1e-6, ms: 1e-3, s: 1, m: 60, h: 3600 });

/** "498.32us" / "1.98ms" / "2.10s" / "1.00m" → seconds (wrk, redis); NaN otherwise. Linear, unlike a nested-quantifier pattern. */
export function timeUnit(s: string, defaultUnit = 's'): number {
  const m = /^([-+]?(?:\d+(?:\.\d*)?|\.\d+))(ns|us|µs|ms|s|m|h)?$/.exec(s.trim());
  if (!m) return NaN;
  const mult = TIME_MULT[m[2] ?? defaultUnit];
  return mult === undefined ? NaN : round(Number(m[1]) * mult);
}
