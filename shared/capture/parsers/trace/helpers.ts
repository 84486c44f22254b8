/** Small helpers shared by the trace group's parsers (top, proc-interrupts, strace, perf). */
import type { LineRange, Metric, ParseOutput, Table, Unit, Labels } from '../../types';

/** An empty ParseOutput to fill in. */
export function emptyOutput(): ParseOutput {
  return { metrics: [], series: [], facts: {}, settings: {}, warnings: [] };
}

/** A growing line range ([first,last]) for evidence. */
export class Range {
  first = 0;
  last = 0;
  add(n: number): void {
    if (!this.first || n < this.first) this.first = n;
    if (n > this.last) this.last = n;
  }
  get(): LineRange | undefined {
    return this.first ? [this.first, this.last] : undefined;
  }
}

export function metric(name: string, value: number, unit: Unit, labels?: Labels, column?: string, lines?: LineRange): Metric {
  const m: Metric = { name, value, unit };
  if (labels && Object.keys(labels).length) m.labels = labels;
  if (column !== undefined) m.column = column;
  if (lines) m.lines = lines;
  return m;
}

export function table(columns: string[], rows: (string | number | null)[][], title?: string): Table {
  const t: Table = { columns, rows };
  if (title !== undefined) t.title = title;
  return t;
}

/** Cap warnings kept by a sink (the registry caps again; this keeps memory bounded on garbage). */
export class Warnings {
  readonly list: string[] = [];
  private dropped = 0;
  add(w: string): void {
    if (this.list.length < 500) this.list.push(w); else this.dropped++;
  }
  done(): string[] {
    if (this.dropped) this.list.push(`${this.dropped} more unreadable lines`);
    return this.list;
  }
}

/** Shorten a line for a warning message. */
export function snippet(s: string, n = 60): string {
  const t = s.trim();
  return t.length > n ? t.slice(0, n) + '…' : t;
}

/** A number that may carry thousands separators "1,234,567" or a decimal comma; NaN if not a number. */
export function numLoose(s: string | undefined): number {
  if (s === undefined) return NaN;
  const t = s.trim();
  if (t === '') return NaN;
  if (/^[-+]?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) return Number(t.replace(/,/g, ''));
  if (/^[-+]?\d+,\d+$/.test(t)) return Number(t.replace(',', '.'));
  if (/^[-+]?(\d+\.?\d*|\.\d+)([eE][-+]?\d+)?$/.test(t)) return Number(t);
  return NaN;
}

/** Sort [key,count] pairs by count, descending, stable by key. */
export function topEntries<K>(m: Map<K, number>, n: number): [K, number][] {
  return [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, n);
}

/** Percent with one decimal as text. */
export function pct(x: number): string {
  return (Math.round(x * 10) / 10).toFixed(1);
}

/** Lines a-b evidence text from a LineRange. */
export function evidence(lines: LineRange | undefined): string | undefined {
  if (!lines) return undefined;
  return lines[0] === lines[1] ? `line ${lines[0]}` : `lines ${lines[0]}-${lines[1]}`;
}
