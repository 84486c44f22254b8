/**
 * Helpers of the trace group's parsers (top, proc-interrupts, strace, perf) that the other groups
 * do not need; the output builders (emptyOutput, metric) and command lines are the kit's (../kit).
 */
import type { LineRange, Table } from '../../types';

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

/** Percent with one decimal as text. */
export function pct(x: number): string {
  return (Math.round(x * 10) / 10).toFixed(1);
}

/** Lines a-b evidence text from a LineRange. */
export function evidence(lines: LineRange | undefined): string | undefined {
  if (!lines) return undefined;
  return lines[0] === lines[1] ? `line ${lines[0]}` : `lines ${lines[0]}-${lines[1]}`;
}
