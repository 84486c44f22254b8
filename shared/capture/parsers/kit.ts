/**
 * The parser kit: what every capture parser builds its output with, in one place.
 *
 *  - `emptyOutput()` — a ParseOutput to fill in;
 *  - `textRecord()` — an object whose keys come from the text (settings, labels, a row by its
 *    column heads), without a prototype;
 *  - `metric(name, value, unit, { labels, column, lines })` — the one Metric builder (a group
 *    keeps a named wrapper only where it really differs: fio's `fioMetric`, load's `Out.metric`);
 *  - `commandLine(line, tools)` / `headCommand(head, tools)` — the command a shell prompt line runs
 *    (or, `bare`, a command line typed without a prompt), when its program is one of `tools`;
 *  - `lookupTable({...})` — the string-keyed tables parsers look text up in, with no prototype, so
 *    a line reading `constructor`, `toString` or `__proto__` finds nothing in them;
 *  - and the text readers of ../text that parsers use (fields, words, num, commandParts), so a
 *    parser imports from here alone.
 *
 * text.ts stays where it is: the registry, the capture context and the store use it (cleanLine,
 * commandParts) and know nothing of what a parser outputs. Pure; nothing here throws.
 */
import type { Labels, LineRange, Metric, ParseOutput, Unit } from '../types';
import { commandParts, promptCommand } from '../text';

export { commandParts, commandWord, fields, hasControlChar, num, scanFields, words } from '../text';

/** An empty ParseOutput to fill in (its facts and settings are textRecords: their keys come from the text). */
export function emptyOutput(): ParseOutput {
  return { metrics: [], series: [], facts: textRecord(), settings: textRecord(), warnings: [] };
}

/**
 * An object whose keys come from a capture's text (settings, facts, labels, a row read by its
 * column heads): no prototype, so a key `__proto__` is kept as any other and reading a key that
 * was not set gives undefined, never an Object.prototype member (`constructor`, `toString`).
 */
export function textRecord<T>(): Record<string, T> {
  return Object.create(null) as Record<string, T>;
}

// ---- metrics -----------------------------------------------------------------------------------

export interface MetricOptions {
  /** left out of the metric when empty */
  labels?: Labels;
  /** the label exactly as the tool printed it */
  column?: string;
  /** the evidence: a range of lines, or one line number */
  lines?: LineRange | number;
}

/** One metric. Its keys come in one order (name, value, unit, labels, column, lines), as the JSON shows them. */
export function metric(name: string, value: number, unit: Unit, opts?: MetricOptions): Metric {
  const m: Metric = { name, value, unit };
  if (opts !== undefined) {
    const { labels, column, lines } = opts;
    if (labels !== undefined && hasKeys(labels)) m.labels = labels;
    if (column !== undefined) m.column = column;
    if (lines !== undefined) m.lines = typeof lines === 'number' ? [lines, lines] : lines;
  }
  return m;
}

function hasKeys(o: object): boolean {
  for (const k in o) if (Object.prototype.hasOwnProperty.call(o, k)) return true;
  return false;
}

// ---- lookup tables -----------------------------------------------------------------------------

/**
 * A table to look text up in (column heads, keys, units, headings): frozen and without a prototype,
 * so `TABLE[word]` is undefined for every word it does not list — `constructor`, `toString`,
 * `__proto__` included, which a plain object literal would answer with Object.prototype's members.
 */
export function lookupTable<T>(entries: Readonly<Record<string, T>>): Readonly<Record<string, T>> {
  const table = Object.create(null) as Record<string, T>;
  for (const k of Object.keys(entries)) table[k] = entries[k]!;
  return Object.freeze(table);
}

// ---- command lines -----------------------------------------------------------------------------

/** How many of a capture's first lines are looked at for the command that printed it (headCommand). */
const HEAD_COMMAND_LINES = 5;
/** A bare command line longer than this is not taken for one (a long line of output that starts with a tool's name). */
const MAX_BARE_COMMAND = 400;
/** A command line as typed: an optional prompt word ending in #, $, %, > ("host:~$", "C:\>"), then the command. */
const TYPED = /^\s*(?:\S*[#$%>]\s+)?(\S.*)$/;

export interface CommandLineOptions {
  /** also a command line without a shell prompt before it ("iostat -x 1", "sudo sysctl -a") */
  bare?: boolean;
}

/**
 * The command `line` runs: after a shell prompt ("[root@h ~]# sysctl -a", "user@host:~$ iostat -x 1",
 * "$ ab -n 10 …": text.ts promptCommand), or, `bare`, as typed without one. With `tools`, only a
 * command whose program (after sudo/env/time/watch prefixes, its base name) is one of them.
 * Undefined when the line is no such command. Cheap on the lines of a capture: a line that does
 * not hold one of the tools' names is refused at once.
 */
export function commandLine(line: string, tools?: readonly string[], opts?: CommandLineOptions): string | undefined {
  if (tools === undefined) return promptCommand(line);
  if (!mentions(line, tools)) return undefined;
  const c = promptCommand(line, tools);
  if (c !== undefined || opts?.bare !== true) return c;
  const m = TYPED.exec(line);
  if (m === null) return undefined;
  const cmd = m[1]!.trim();
  return cmd.length < MAX_BARE_COMMAND && tools.includes(commandParts(cmd).program) ? cmd : undefined;
}

/** The command one of the first HEAD_COMMAND_LINES lines of `head` runs, when it runs one of `tools` (commandLine). */
export function headCommand(head: readonly string[], tools: readonly string[], opts?: CommandLineOptions): string | undefined {
  const n = Math.min(head.length, HEAD_COMMAND_LINES);
  for (let i = 0; i < n; i++) {
    const c = commandLine(head[i]!, tools, opts);
    if (c !== undefined) return c;
  }
  return undefined;
}

/** Whether `line` holds one of `tools` anywhere (no tool, no command of it). */
function mentions(line: string, tools: readonly string[]): boolean {
  for (let i = 0; i < tools.length; i++) if (line.indexOf(tools[i]!) !== -1) return true;
  return false;
}
