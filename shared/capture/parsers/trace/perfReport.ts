/**
 * perf report --stdio (tools/perf/ui/stdio/hist.c, builtin-report.c): the `# Samples` / `# Event count` /
 * `# Total Lost Samples` lines and the --header / --header-only block; the column header and its dotted ruler, which
 * give the column spans for any --sort key set and -n / --show-total-period; Children/Self or Overhead, one value per
 * member with --group; --hierarchy's nested rows; the call graph under each entry in every print type (graph, fractal,
 * flat, folded; percent, count or period values; caller or callee order), kept as a bounded tree and as its paths;
 * perf record's summary lines and perf's warnings in front of the report. See docs/capture-json.md.
 */
import type { CaptureParser, LineSink, Metric } from '../../types';
import { commandLine, emptyOutput, lookupTable, metric } from '../kit';
import { snippet, table, Warnings } from './helpers';
import { PerfMessages, RecordSummary } from './perfRecord';

/** the program whose prompt line ("$ perf …") names the capture's command */
const PERF = ['perf'];

const SAMPLES = /^#\s*Samples:\s*([\d.,]+)\s?([KMG])?\s+of events?\s+'([^']*)'/;
/** entries given children_percent / overhead_percent metrics: the top TOP_N by Self (or Overhead), and by Children */
const TOP_N = 20;
/** rows kept in the entries table */
const MAX_ROWS = 100_000;
/** paths kept in the callchains table, and nodes in the callgraph table (the first ones printed: the top entries) */
const MAX_CHAINS = 2000;
const MAX_NODES = 5000;
/** frames kept per node (a longer run is cut, and the path says so), levels of nesting followed */
const MAX_FRAMES = 256;
const MAX_DEPTH = 512;
/** a path repeats its ancestors' frames: at most this many frames and characters of each are kept (the rest counted) */
const MAX_PATH_FRAMES = 512;
const MAX_CHAIN_CHARS = 8192;

/**
 * An entry row as perf report -q (--quiet) prints it, with no header above it: one or two percentages
 * (Overhead, or Children and Self), perhaps -n's Samples and --show-total-period's Period, then the
 * sort keys: "    79.66%     0.00%  burn     libc.so.6             [.] __libc_start_call_main".
 */
const QUIET_ROW = /^ *-?\d+\.\d\d%(?: +-?\d+\.\d\d%)?(?: +\d+){0,2}  +\S/;
/** a symbol as perf prints it: "[.] main" (user), "[k] do_syscall_64" (kernel), [g] guest, [u] guest user, [H] hypervisor */
const SYMBOL_MARK = '\\[[.kguH]\\] ';
const SYMBOL = new RegExp(`^${SYMBOL_MARK}`);
/** a row with a symbol among its cells */
const ROW_SYMBOL = new RegExp(` ${SYMBOL_MARK}\\S`);
/** a shared object as perf names it: "[kernel.kallsyms]", "[vdso]", a path, "libc.so.6", a module (not a command: "kworker/u4:2") */
const DSO_LIKE = /^\[[^\]]+\]$|^\/|\.so(?:\.\d+)*$|\.ko$/;
/** a call graph's lines under an entry: "---main", "--79.43%--main", "|" */
const GRAPH_LINE = /^ +(?:---\S|\|?\s*--\d+\.\d+%--\S|\|\s*$)/;

function detect(head: readonly string[]): number {
  let s = 0;
  let headerBlock = 0;
  let quietRows = 0, quietSymbols = 0, graphLines = 0, hashLines = 0, otherLines = 0;
  const rowLengths = new Set<number>();
  const n = Math.min(head.length, 200);
  for (let i = 0; i < n; i++) {
    const l = head[i]!;
    if (l.startsWith('#')) hashLines++;
    else if (QUIET_ROW.test(l)) {
      quietRows++;
      if (ROW_SYMBOL.test(l)) quietSymbols++;
      rowLengths.add(l.length);
    } else if (l.trim() !== '' && !GRAPH_LINE.test(l) && !/^ {10,}\S/.test(l)) otherLines++;
    if (GRAPH_LINE.test(l)) graphLines++;
    if (SAMPLES.test(l)) s += 0.6;
    else if (/^#\s+(Overhead|Children)\s+\S/.test(l)) s += 0.35;
    else if (/^#\s+Event count \(approx\.\):/.test(l)) s += 0.2;
    else if (/^# To display the perf\.data header info/.test(l)) s += 0.3;
    else if (/^# (captured on|header version|perf version|cmdline) +: /.test(l)) headerBlock++;
    if (s >= 0.95) break;
  }
  // perf report --header-only: the perf.data header block alone (perf script --header shows it too, with samples
  // after it, and its parser is surer of those)
  if (headerBlock >= 3) s += 0.6;
  // perf report -q: rows (and call graphs) with no "#" line at all
  // (its symbols are marked "[.] "; rows without them are padded to one width, as perf pads its columns)
  if (hashLines === 0 && otherLines === 0 && quietRows >= 2 && (quietSymbols >= 2 || rowLengths.size === 1)) {
    s += 0.45 + (quietSymbols >= 2 ? 0.25 : 0) + (graphLines >= 2 ? 0.2 : 0);
  }
  return Math.min(0.97, s);
}

/**
 * The header perf report -q leaves out, told from the first row's shape: Overhead, or Children and
 * Self; a count is -n's Samples (with two counts, Samples then Period; a lone count is told to be
 * --show-total-period's Period from all the rows' values at the end: endQuiet); then perf's default
 * sort keys, command, shared object and symbol (a symbol begins "[.] ", a shared object looks like a
 * path, "[kernel.kallsyms]" or "lib….so"), or "pid:command" for --sort pid. Gives each column's name
 * and where it starts, or null for a row it cannot tell.
 */
export function quietColumns(row: string): { name: string; start: number }[] | null {
  const cells: { start: number; end: number; text: string }[] = [];
  const re = /\S+(?: \S+)*/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(row))) cells.push({ start: m.index, end: m.index + m[0].length, text: m[0] });
  let i = 0;
  const names: string[] = [];
  while (i < cells.length && /^-?\d+\.\d+%$/.test(cells[i]!.text)) i++;
  if (i === 1) names.push('Overhead'); else if (i === 2) names.push('Children', 'Self'); else return null;
  let counts = 0;
  while (i + counts < cells.length && /^\d+$/.test(cells[i + counts]!.text)) counts++;
  if (counts > 2) return null;
  names.push(...['Samples', 'Period'].slice(0, counts));
  const numbers = i + counts;
  const keys = cells.slice(numbers);
  // "[.] main" is one cell; a symbol with a run of blanks in it is cut into more, all of them the symbol's
  const sym = keys.findIndex((c) => SYMBOL.test(c.text));
  const named = sym >= 0 ? keys.slice(0, sym) : keys;
  if (named.length > 2 || (sym < 0 && named.length === 0)) return null;
  const pid = (t: string): boolean => /^\d+:\S/.test(t);
  if (named.length === 2) names.push(pid(named[0]!.text) ? 'Pid:Command' : 'Command', 'Shared Object');
  else if (named.length === 1) names.push(pid(named[0]!.text) ? 'Pid:Command' : DSO_LIKE.test(named[0]!.text) ? 'Shared Object' : 'Command');
  if (sym >= 0) names.push('Symbol');
  // a column starts where its cell does (text is left-aligned) or just after the cell before (numbers are right-aligned)
  return names.map((name, j) => ({ name, start: j >= numbers ? cells[j]!.start : j === 0 ? 0 : cells[j - 1]!.end + 1 }));
}

const COLUMN_KEY = lookupTable({
  Children: 'children_percent', Self: 'self_percent', Overhead: 'overhead_percent', Samples: 'samples', Period: 'period',
  Command: 'command', 'Shared Object': 'object', Symbol: 'symbol', Pid: 'pid', 'Pid:Command': 'pid_command', Tid: 'tid',
  CPU: 'cpu', 'Source:Line': 'srcline', Trace: 'trace', 'Data Symbol': 'data_symbol', 'Data Object': 'data_object',
  'Local Weight': 'local_weight', 'Memory access': 'mem', 'Branch Mispredicted': 'mispredict',
});
const keyOf = (name: string): string => COLUMN_KEY[name] ?? name.toLowerCase().replace(/[^a-z0-9]+/g, '_');
/** columns that hold numbers (one per group member with --group) */
const numericKey = (k: string): boolean => k.endsWith('_percent') || k === 'samples' || k === 'period';
const LABEL_KEYS = ['command', 'object', 'symbol', 'pid', 'pid_command', 'tid', 'cpu', 'srcline'];

interface Span { name: string; key: string; start: number; end: number }
type Cell = string | number | null;

/** One node of the printed call graph: a run of frames, with the value printed on its first line (null: the "---" root). */
interface GNode {
  parent: GNode | null;
  /** column where its continuation frames start */
  col: number;
  frames: string[];
  /** frames beyond MAX_FRAMES, not kept */
  cut: number;
  value: number | null;
  /** the value was printed with % */
  pct: boolean;
  level: number;
  hasChild: boolean;
  /** the sum and number of its children's values (in fractal mode they add up to 100 %, above the parent's own share) */
  childSum: number;
  childCount: number;
  /** its callgraph table row (null when beyond MAX_NODES, or the dummy root) */
  row: Cell[] | null;
  virtual: boolean;
  line: number;
}

/** `selfHeavy`: its Self is at least half its Children (of 1 % or more) */
interface Entry { idx: number; base: number; label: string; symbol: string; selfHeavy: boolean }

/** A chain (a path of the graph, a flat or folded line) before its percent is decided. */
interface ChainRow { row: Cell[]; value: number | null; pct: boolean; base: number; root: boolean; frames: string[]; total: number }

/** `rounded`: the Samples header's text when perf printed it with a K/M/G suffix (truncated: 2K is 2,000–2,999) */
interface Section { event: string; samples: number; count?: number; line: number; members: string[]; rounded?: { n: number; unit: string; mul: number } }

class PerfReportSink implements LineSink {
  private out = emptyOutput();
  private w = new Warnings();
  private rec = new RecordSummary();
  private msg = new PerfMessages();
  private started = false;
  private preamble = { n: 0, first: 0, last: 0, sample: '' };
  private header: string | null = null;
  private spans: Span[] | null = null;
  /** --hierarchy: the sort keys, one per level, and where a level-0 row's first value ends */
  private hier: { keys: string[]; nOver: number; base: number; path: string[] } | null = null;
  private entryKeys: string[] = [];
  private rows: Cell[][] = [];
  private droppedRows = 0;
  /** level of each hierarchy row (parallel to rows); -1 elsewhere */
  private levels: number[] = [];
  private section: Section | null = null;
  private sections: Section[] = [];
  private lost: { n: number; line: number } | null = null;
  private entry: Entry | null = null;
  private stack: GNode[] = [];
  private flat: { value: number; pct: boolean; frames: string[]; cut: number; line: number } | null = null;
  private chains: ChainRow[] = [];
  private droppedChains = 0;
  private nodes: Cell[][] = [];
  /** each callgraph row's run of frames in printed order (parallel to nodes), joined once the order is known */
  private nodeRuns: { frames: string[]; cut: number }[] = [];
  private droppedNodes = 0;
  private mode: 'graph' | 'flat' | 'folded' | null = null;
  private fractal = false;
  private valueRatios: number[] = [];
  private anyNumeric = false;
  /** chains that begin or end with their entry's own function (heavy: of entries that are selfHeavy) */
  private order = { first: 0, last: 0, heavyFirst: 0, heavyLast: 0 };
  /** line of the first row of a report with no header (perf report -q), else null */
  private quiet: number | null = null;
  /** where a -q report's first percentage ends, and the first row whose ends elsewhere (nested: --hierarchy) */
  private quietEnd = -1;
  private quietNested = 0;

  line(text: string, lineNo: number): void {
    const t = text.trim();
    if (t === '') { this.endGraph(); this.endFlat(); this.msg.close(); return; }
    if (t.startsWith('#')) { this.msg.close(); this.hashLine(text, t, lineNo); return; }
    if (this.entry) {
      // -g folded: "8.73% a;b;c" (or a count / period) at column 0 under an entry
      const fm = /^(-?\d+(?:\.\d+)?)(%?) (\S.*)$/.exec(text);
      if (fm) { this.folded(Number(fm[1]), fm[2] === '%', fm[3]!, lineNo); return; }
      // -g flat: the value at column 11, frames at column 16, a blank line after each chain
      const vm = /^ {11}(-?\d+(?:\.\d+)?)(%?)$/.exec(text);
      if (vm) { this.endGraph(); this.endFlat(); this.flat = { value: Number(vm[1]), pct: vm[2] === '%', frames: [], cut: 0, line: lineNo }; this.mode = 'flat'; return; }
      if (this.flat && /^ {16}\S/.test(text)) { if (this.flat.frames.length < MAX_PATH_FRAMES) this.flat.frames.push(t); else this.flat.cut++; return; }
    }
    if (!this.spans && !this.header && QUIET_ROW.test(text) && this.quietRow(text, lineNo)) { this.endGraph(); this.endFlat(); this.msg.close(); this.entryRow(text, lineNo); return; }
    if (this.spans && /^\s*-?\d+(\.\d+)?%/.test(text)) {
      if (this.quiet !== null && !this.quietNested && text.indexOf('%') + 1 !== this.quietEnd) this.quietNested = lineNo;
      this.endGraph(); this.endFlat(); this.msg.close(); this.entryRow(text, lineNo); return;
    }
    if (this.entry && /^\s+no entry >= [\d.]+%$/.test(text)) return; // --hierarchy: every child under --percent-limit
    if (this.entry && /^\s/.test(text)) { this.graphLine(text, lineNo); return; }
    if (this.rec.line(t, lineNo)) { this.msg.close(); return; }
    if (this.msg.line(t, lineNo)) return;
    if (!this.header && !this.out.command) {
      const c = commandLine(text, PERF);
      if (c) { this.out.command = c; return; }
    }
    if (!this.started) {
      // before the report: the recorded command's own output (perf record … ; perf report …)
      const p = this.preamble;
      if (!p.n) { p.first = lineNo; p.sample = snippet(text); }
      p.n++;
      p.last = lineNo;
      return;
    }
    this.w.add(`line ${lineNo}: could not read "${snippet(text)}"`);
  }

  /** The command line told from outside the text (a capture kit's manifest): read as a prompt line would be (-G, -g caller|callee). */
  setCommand(cmd: string): void {
    if (!this.out.command) this.out.command = cmd;
  }

  private hashLine(text: string, t: string, lineNo: number): void {
    this.endGraph();
    this.endFlat();
    this.entry = null;
    if (t !== '#') this.started = true;
    const sm = SAMPLES.exec(t);
    if (sm) {
      const mul = sm[2] === 'K' ? 1e3 : sm[2] === 'M' ? 1e6 : sm[2] === 'G' ? 1e9 : 1;
      const event = sm[3]!;
      // --group: "anon group { cpu-clock, task-clock }" (or a named group's "{ … }")
      const g = /\{\s*([^{}]*?)\s*\}/.exec(event);
      const members = g ? g[1]!.split(/\s*,\s*/).filter(Boolean) : [event];
      const n = Number(sm[1]!.replace(/,/g, ''));
      this.section = { event, samples: Math.round(n * mul), line: lineNo, members };
      if (sm[2]) this.section.rounded = { n, unit: sm[2], mul };
      this.sections.push(this.section);
      this.spans = null;
      this.hier = null;
      return;
    }
    const cm = /^#\s*Event count \(approx\.\):\s*(\d+)/.exec(t);
    if (cm && this.section) { this.section.count = Number(cm[1]); return; }
    const lm = /^#\s*Total Lost Samples:\s*(\d+)/.exec(t);
    if (lm) { this.lost = { n: Number(lm[1]), line: lineNo }; this.out.facts.perf_lost_samples = Number(lm[1]); return; }
    const hm = /^#\s+([a-z][a-z ]*[a-z])\s+:\s+(.*)$/.exec(t);
    if (hm) { this.headerFact(hm[1]!, hm[2]!.trim()); return; }
    if (/^#\s+(Children|Self|Overhead|Samples|Period)\b/.test(t)) { this.header = text; this.spans = null; this.hier = null; return; }
    if (this.header && /^#\s*\.{2,}/.test(t)) this.ruler(text, this.header);
  }

  /** The dotted ruler gives the spans of the columns named by the header line. */
  private ruler(text: string, header: string): void {
    const spans: Span[] = [];
    const re = /\.+/g;
    let m: RegExpExecArray | null;
    while ((m = re.exec(text))) spans.push({ name: '', key: '', start: m.index, end: m.index + m[0].length });
    for (let i = 0; i < spans.length; i++) {
      const s = spans[i]!;
      const e = i + 1 < spans.length ? spans[i + 1]!.start : header.length;
      s.name = header.slice(s.start, Math.max(s.end, e)).trim();
      s.key = keyOf(s.name);
    }
    const last = spans[spans.length - 1];
    if (spans.length >= 2 && last && last.name.includes(' / ')) {
      // --hierarchy: "Overhead  Command / Shared Object / Symbol", one sort key per level of nested rows
      const keys = last.name.split(' / ').map((k) => keyOf(k.trim()));
      const over = spans.slice(0, -1);
      this.hier = { keys, nOver: over.length, base: -1, path: [] };
      this.spans = over;
      this.entryKeys = [...this.expandKeys(over.map((s) => s.key)), ...keys, 'level'];
      return;
    }
    this.useSpans(spans);
  }

  private useSpans(spans: Span[]): void {
    this.spans = spans;
    this.entryKeys = this.expandKeys(spans.map((s) => s.key));
  }

  /** the entries table's keys for these columns: a number column once per --group member */
  private expandKeys(keys: string[]): string[] {
    const members = this.section?.members.length ?? 1;
    return keys.flatMap((k) => (numericKey(k) && members > 1 ? this.section!.members.map((mem, j) => (j === 0 ? k : `${k}[${mem}]`)) : [k]));
  }

  /** perf report -q: no header; the columns are told from the first row (quietColumns) */
  private quietRow(text: string, lineNo: number): boolean {
    const cols = quietColumns(text);
    if (!cols) return false;
    this.useSpans(cols.map((c) => ({ name: c.name, key: keyOf(c.name), start: c.start, end: c.start })));
    this.quiet = lineNo;
    this.quietEnd = text.indexOf('%') + 1;
    return true;
  }

  /**
   * The end of a -q report: a lone sort key read as the command is the shared object when any row's
   * looks like one (the top entry is often the program itself, "burn", under --sort dso); then say
   * which columns were told from the rows' shape.
   */
  private endQuiet(): void {
    if (this.quiet === null || !this.spans) return;
    const i = this.entryKeys.indexOf('command');
    if (i >= 0 && !this.quietNested && !this.entryKeys.includes('object') && !this.entryKeys.includes('symbol') && this.rows.some((r) => typeof r[i + 1] === 'string' && DSO_LIKE.test(r[i + 1] as string))) {
      this.renameColumn('command', 'Shared Object');
    }
    // one count column: -n's Samples, or --show-total-period's Period, whose values are the event's
    // period times the samples (cpu-clock: multiples of 250,000 ns), where sample counts are small and uneven
    const c = this.entryKeys.indexOf('samples');
    if (c >= 0 && !this.entryKeys.includes('period')) {
      const counts = this.rows.map((r) => r[c + 1]).filter((v): v is number => typeof v === 'number' && v > 0);
      if (counts.length && (counts.every((v) => v % 1000 === 0) || Math.min(...counts) >= 100_000)) this.renameColumn('samples', 'Period');
    }
    this.w.add(`line ${this.quiet}: rows with no header (perf report -q): columns read as ${this.spans.map((s) => s.name).join(', ')}, told from the rows' shape`);
    if (this.quietNested) this.w.add(`line ${this.quietNested}: rows at other indents (perf report -q --hierarchy?): read as rows of one level`);
  }

  /** a -q column told otherwise at the end: its span and its key in the entries table */
  private renameColumn(key: string, name: string): void {
    const to = keyOf(name);
    this.entryKeys[this.entryKeys.indexOf(key)] = to;
    const sp = this.spans!.find((s) => s.key === key)!;
    sp.name = name;
    sp.key = to;
  }

  private headerFact(key: string, value: string): void {
    const f = this.out.facts;
    switch (key) {
      case 'hostname': f.hostname = value; break;
      case 'os release': f.kernel = value; break;
      case 'perf version': this.out.toolVersion = `perf ${value}`; break;
      case 'arch': f.arch = value; break;
      case 'nrcpus online': f.cpu_threads = Number(value); break;
      case 'cpudesc': f.cpu_model = value; break;
      case 'total memory': { const m = /^(\d+)\s*kB$/.exec(value); if (m) f.memory_total_bytes = Number(m[1]) * 1024; break; }
      case 'cmdline': f.perf_record_command = value; break;
      case 'captured on': f.perf_captured_on = value; break;
      case 'event': {
        // "name = cpu-clock, , id = { 53, 54 }, type = 1, …": the events perf record was asked for
        const m = /^name = ([^,]+)/.exec(value);
        const list = Array.isArray(f.perf_record_events) ? f.perf_record_events : [];
        if (m && list.length < 64) f.perf_record_events = [...list, m[1]!.trim()];
        break;
      }
      case 'sample duration': { const m = /^([\d.]+)\s*ms$/.exec(value); if (m) f.perf_sample_duration_seconds = Number(m[1]) / 1000; break; }
      default: break;
    }
  }

  /** The cells of a row, cut where the ruler's spans are; rows whose cells overflowed are split on runs of spaces. */
  private cells(text: string): string[] {
    const spans = this.spans!;
    const cells: string[] = [];
    for (let i = 0; i < spans.length; i++) {
      const end = i + 1 < spans.length ? spans[i + 1]!.start : text.length;
      cells.push(text.slice(spans[i]!.start, end).trim());
    }
    if (cells.some((c, i) => i < cells.length - 1 && c === '') || /\S$/.test(text.slice(0, (spans[1]?.start ?? 1) - 1))) {
      const parts = text.trim().split(/\s{2,}/);
      const per = this.section && this.section.members.length > 1 ? this.section.members.length : 1;
      const need = spans.reduce((a, s) => a + (numericKey(s.key) ? per : 1), 0);
      // a row cut short ("    2.94%  ls") and shifted: its percentage is not where the header says; take its words in order
      if (parts.length >= need || (!/^-?[\d.]+%?$/.test(cells[0]!) && /^-?[\d.]+%$/.test(parts[0]!))) {
        cells.length = 0;
        let p = 0;
        for (let i = 0; i < spans.length; i++) {
          const take = i === spans.length - 1 ? Math.max(1, parts.length - p) : numericKey(spans[i]!.key) ? per : 1;
          cells.push(parts.slice(p, p + take).join(i === spans.length - 1 ? '  ' : ' '));
          p += take;
        }
      }
    }
    return cells;
  }

  /** One cell's values for a column: numbers (one per group member) or the text. */
  private push(row: Cell[], key: string, cell: string): void {
    if (!numericKey(key)) { row.push(cell); return; }
    const members = this.section?.members.length ?? 1;
    const vals = cell.split(/\s+/);
    for (let j = 0; j < Math.max(1, members); j++) {
      const v = vals[j] ?? '';
      row.push(v === '' && j > 0 ? null : Number(key.endsWith('_percent') ? v.replace('%', '') : v));
    }
  }

  private entryRow(text: string, lineNo: number): void {
    this.started = true;
    const row: Cell[] = [this.section?.event ?? ''];
    let level = -1;
    if (this.hier) {
      // "       33.02%        libc.so.6": the values, then the name of this level's key; the level shows in the indent
      const h = this.hier;
      const per = this.section && this.section.members.length > 1 ? this.section.members.length : 1;
      const words: string[] = [];
      let p = 0;
      let firstEnd = -1;
      while (words.length < h.nOver * per) {
        while (p < text.length && (text[p] === ' ' || text[p] === '\t')) p++;
        const start = p;
        while (p < text.length && text[p] !== ' ' && text[p] !== '\t') p++;
        if (p === start) break;
        words.push(text.slice(start, p));
        if (firstEnd < 0) firstEnd = p;
      }
      const name = text.slice(p).trim();
      if (h.base < 0) h.base = firstEnd;
      level = Math.max(0, Math.min(h.keys.length - 1, Math.round((firstEnd - h.base) / 3)));
      for (let i = 0; i < h.nOver; i++) this.push(row, this.spans![i]!.key, words.slice(i * per, (i + 1) * per).join(' '));
      h.path.length = level;
      h.path[level] = name;
      for (let i = 0; i < h.keys.length; i++) row.push(i <= level ? h.path[i] ?? '' : '');
      row.push(level);
    } else {
      const cells = this.cells(text);
      for (let i = 0; i < cells.length; i++) this.push(row, this.spans![i]!.key, cells[i]!);
    }
    row.push(lineNo);
    if (this.rows.length < MAX_ROWS) { this.rows.push(row); this.levels.push(level); } else this.droppedRows++;
    const keys = this.entryKeys;
    const at = (k: string): Cell => { const i = keys.indexOf(k); return i >= 0 ? row[i + 1] ?? null : null; };
    const iCh = keys.indexOf('children_percent');
    const iOver = keys.indexOf('overhead_percent');
    const iSelf = keys.indexOf('self_percent');
    const pctIdx = iCh >= 0 ? iCh : iOver >= 0 ? iOver : iSelf;
    const base = pctIdx >= 0 ? Number(row[pctIdx + 1]) : NaN;
    let label = ['command', 'symbol'].map((k) => String(at(k) ?? '')).filter(Boolean).join(' ');
    if (!label) label = keys.filter((k) => !numericKey(k) && k !== 'level').map((k) => String(at(k) ?? '')).filter(Boolean).join(' ');
    const symbol = String(at('symbol') ?? '').replace(/^\[[^\]]*\]\s+/, '');
    const self = iSelf >= 0 && iCh >= 0 ? Number(row[iSelf + 1]) : NaN;
    this.entry = { idx: this.rows.length + this.droppedRows, base, label, symbol, selfHeavy: base >= 1 && self >= base / 2 };
    this.stack = [];
  }

  // ---------------------------------------------------------------- call graphs

  /**
   * One line of the graph art: margin, then per level "|" or " " and 10 columns; a node's first line holds
   * "--value--frame" where its parent's frames run, its other frames start 10 columns after that "--";
   * the single root chain is printed "---frame" (hist.c, ipchain__fprintf_graph / callchain__fprintf_graph).
   */
  private graphLine(text: string, lineNo: number): void {
    const entry = this.entry!;
    let i = 0;
    const n = text.length;
    while (i < n && (text.charCodeAt(i) === 32 || text.charCodeAt(i) === 124)) i++;
    if (i >= n) return; // "|   |" spacer lines
    const rest = text.slice(i);
    if (rest.startsWith('---')) {
      this.endGraph();
      this.mode = 'graph';
      this.newNode(null, i + 3, rest.slice(3).trim(), null, false, lineNo, entry);
      return;
    }
    const bm = /^--(-?\d+(?:\.\d+)?)(%?)--(.*)$/.exec(rest);
    if (bm) {
      this.mode = 'graph';
      const col = i + 10;
      if (!this.stack.length) this.stack.push(this.virtualRoot());
      while (this.stack.length > 1 && this.stack[this.stack.length - 1]!.col >= col) this.pop();
      if (this.stack.length >= MAX_DEPTH) return;
      this.newNode(this.stack[this.stack.length - 1]!, col, bm[3]!.trim(), Number(bm[1]), bm[2] === '%', lineNo, entry);
      return;
    }
    if (!this.stack.length) return;
    while (this.stack.length > 1 && this.stack[this.stack.length - 1]!.col > i) this.pop();
    const top = this.stack[this.stack.length - 1]!;
    if (top.virtual) return;
    if (top.frames.length < MAX_FRAMES) top.frames.push(rest.trim()); else top.cut++;
  }

  private virtualRoot(): GNode {
    return { parent: null, col: -1, frames: [], cut: 0, value: null, pct: false, level: 0, hasChild: false, childSum: 0, childCount: 0, row: null, virtual: true, line: 0 };
  }

  private newNode(parent: GNode | null, col: number, frame: string, value: number | null, pct: boolean, lineNo: number, entry: Entry): void {
    const real = parent && !parent.virtual ? parent : null;
    const node: GNode = {
      parent: real, col, frames: frame ? [frame] : [], cut: 0, value, pct, level: parent ? parent.level + 1 : 0,
      hasChild: false, childSum: 0, childCount: 0, row: null, virtual: false, line: lineNo,
    };
    if (parent) {
      parent.hasChild = true;
      if (value !== null) {
        parent.childSum += value;
        parent.childCount++;
        if (pct) {
          // fractal (-g fractal): percentages of the parent, so a child can show more than its parent, and the
          // children of a node add up to 100 % (with "[...]" for the rest); in graph mode they never exceed it
          const above = parent.virtual || parent.value === null ? entry.base : parent.pct ? parent.value : NaN;
          if (value > above + 0.011 || parent.childSum > above + 0.01 * parent.childCount + 0.011 || frame.startsWith('[...]')) this.fractal = true;
        } else if (node.level === 1) this.numeric(value, entry);
      }
    }
    if (this.nodes.length < MAX_NODES) {
      const id = this.nodes.length + 1;
      node.row = [entry.idx, id, real?.row ? Number(real.row[1]) : null, node.level, null, value, '', lineNo];
      this.nodes.push(node.row);
      this.nodeRuns.push({ frames: node.frames, cut: 0 });
    } else this.droppedNodes++;
    this.stack.push(node);
  }

  private pop(): void {
    const node = this.stack.pop();
    if (!node || node.virtual) return;
    if (node.row) this.nodeRuns[Number(node.row[1]) - 1]!.cut = node.cut;
    if (node.hasChild || !this.entry) return;
    // a leaf: its path from the top of the graph is a chain
    const isRoot = node.value === null;
    if (this.chains.length >= MAX_CHAINS) { this.droppedChains++; return; }
    const nodes: GNode[] = [];
    for (let n: GNode | null = node; n; n = n.parent) nodes.push(n);
    const frames: string[] = [];
    let total = 0;
    for (let i = nodes.length - 1; i >= 0; i--) {
      const n = nodes[i]!;
      total += n.frames.length + n.cut;
      for (const f of n.frames) if (frames.length < MAX_PATH_FRAMES) frames.push(f);
    }
    if (!total) return;
    this.addChain(frames, total, isRoot ? null : node.value, isRoot || node.pct, node.line, node.frames[node.frames.length - 1]);
  }

  /** A value printed without "%" (-g …,count or …,period): how it compares with the entry's share tells which. */
  private numeric(value: number, entry: Entry): void {
    if (entry.base > 0 && Number.isFinite(value) && this.valueRatios.length < 200) this.valueRatios.push(value / (entry.base / 100));
    this.anyNumeric = true;
  }

  private endGraph(): void {
    while (this.stack.length) this.pop();
  }

  private endFlat(): void {
    const f = this.flat;
    if (!f) return;
    this.flat = null;
    if (f.frames.length) this.addChain(f.frames, f.frames.length + f.cut, f.value, f.pct, f.line);
  }

  private folded(value: number, pct: boolean, stack: string, lineNo: number): void {
    this.endGraph();
    this.endFlat();
    this.mode = 'folded';
    const frames = stack.split(';');
    this.addChain(frames.length > MAX_PATH_FRAMES ? frames.slice(0, MAX_PATH_FRAMES) : frames, frames.length, value, pct, lineNo, frames[frames.length - 1]);
  }

  /**
   * One path of the graph (or a flat / folded chain): `frames` in printed order (at most MAX_PATH_FRAMES of `total`,
   * the first ones printed), `last` its last frame. Its chain text is made at the end, once the order is known.
   */
  private addChain(frames: string[], total: number, value: number | null, pct: boolean, lineNo: number, last = frames[frames.length - 1]): void {
    const entry = this.entry!;
    if (value !== null && !pct) this.numeric(value, entry);
    if (this.chains.length >= MAX_CHAINS) { this.droppedChains++; return; }
    // which way the frames run: from the entry's symbol to its callers (callee order), or to it from the outermost caller
    if (entry.symbol && total > 1 && frames.length && last !== undefined) {
      const name = (f: string): string => { const sp = f.indexOf(' '); return sp < 0 ? f : f.slice(0, sp); };
      const isFirst = name(frames[0]!) === entry.symbol;
      const isLast = name(last) === entry.symbol;
      if (isFirst && !isLast) { this.order.first++; if (entry.selfHeavy) this.order.heavyFirst++; }
      else if (isLast && !isFirst) { this.order.last++; if (entry.selfHeavy) this.order.heavyLast++; }
    }
    this.chains.push({ row: [entry.idx, entry.label, null, total, '', value, lineNo], value, pct, base: entry.base, root: value === null, frames, total });
  }

  // ---------------------------------------------------------------- the result

  /**
   * A path's text, callee first whatever the print order: each " <- " points to the caller of the frame before it.
   * `printed` holds the first frames printed of `total`; in caller order they are the outermost callers, so the
   * frames not kept are the callee side and are counted in front.
   */
  private static chainText(printed: string[], total: number, caller: boolean): string {
    const frames = caller ? printed.slice().reverse() : printed;
    const missing = total - printed.length;
    const parts: string[] = [];
    let len = 0;
    if (caller && missing > 0) { parts.push(`…(${missing} more)`); len = parts[0]!.length; }
    let shown = 0;
    for (const f of frames) {
      if (len + f.length > MAX_CHAIN_CHARS) {
        if (!parts.length) { parts.push(f.slice(0, MAX_CHAIN_CHARS) + '…'); shown = 1; }
        break;
      }
      parts.push(f);
      len += f.length + 4;
      shown++;
    }
    const rest = frames.length - shown + (caller ? 0 : missing);
    if (rest > 0) parts.push(`…(${rest} more)`);
    return parts.join(' <- ');
  }

  /** caller: frames run from the outermost caller down; callee: from the entry's function up to its callers. */
  private callOrder(): 'caller' | 'callee' {
    const cmd = this.out.command ?? '';
    if (/\breport\b/.test(cmd)) {
      const g = /(?:\s-g\s*|--call-graph[=\s]+)(\S+)/.exec(cmd);
      if (g && /\bcaller\b/.test(g[1]!)) return 'caller';
      if (g && /\bcallee\b/.test(g[1]!)) return 'callee';
      if (/\s(-G|--inverted)(\s|$)/.test(cmd)) return 'caller';
    }
    const children = this.entryKeys.includes('children_percent');
    // without Children, a chain that ends at the entry's own function was printed caller first (-G)
    if (!children && this.order.last > this.order.first) return 'caller';
    if (!children && this.order.first > this.order.last) return 'callee';
    // with Children, only an entry that spends at least half its time in itself tells: its own chains run from the
    // outermost caller down to it (caller) or from it out to its callers (callee); an entry whose time is in its
    // callees starts its chains with itself either way
    if (children && this.order.heavyFirst > this.order.heavyLast) return 'callee';
    return children ? 'caller' : 'callee';
  }

  /** What the printed call-graph values are: percent of the total, percent of the parent (fractal), samples or period. */
  private valueKind(): 'percent' | 'relative_percent' | 'samples' | 'period' | 'number' {
    if (!this.anyNumeric) return this.fractal ? 'relative_percent' : 'percent';
    const s = this.sections[0];
    if (!s?.samples || !s.count || !this.valueRatios.length) return 'number';
    const r = Math.max(...this.valueRatios);
    return Math.abs(Math.log(r / s.samples)) <= Math.abs(Math.log(r / s.count)) ? 'samples' : 'period';
  }

  end() {
    this.endGraph();
    this.endFlat();
    this.endQuiet();
    const out = this.out;
    const metrics: Metric[] = [];
    const multi = this.sections.length > 1;
    for (const e of this.sections) {
      const l = multi ? { event: e.event } : undefined;
      if (!multi) out.facts.perf_event = e.event;
      metrics.push(metric('samples_total', e.samples, 'count', { labels: l, column: 'Samples', lines: e.line }));
      if (e.count !== undefined) metrics.push(metric('event_count_total', e.count, 'count', { labels: l, column: 'Event count (approx.)', lines: e.line }));
    }
    const [shares, counts] = this.entryMetrics(multi);
    metrics.push(...shares);
    if (this.lost) metrics.push(metric('lost_samples_total', this.lost.n, 'count', { column: 'Total Lost Samples', lines: this.lost.line }));
    metrics.push(...counts);
    metrics.push(...this.rec.metrics(), ...this.msg.metrics());
    out.metrics = metrics;
    this.rec.facts(out.facts);
    this.msg.facts(out.facts);

    out.tables = {};
    const keys = this.entryKeys;
    if (keys.length) out.tables.entries = table(['event', ...keys, 'line'], this.rows, 'perf report rows (percentages as numbers)');
    const graph = this.chains.length > 0 || this.nodes.length > 0;
    if (graph) {
      const kind = this.valueKind();
      out.facts.perf_callgraph_order = this.callOrder();
      out.facts.perf_callgraph_mode = this.mode === 'graph' && this.fractal ? 'fractal' : this.mode ?? 'graph';
      out.facts.perf_callgraph_value = kind;
      const absolute = kind === 'percent';
      for (const c of this.chains) c.row[2] = c.root ? (Number.isFinite(c.base) ? c.base : null) : absolute && c.pct ? c.value : null;
      for (const r of this.nodes) r[4] = r[5] === null ? this.baseOf(Number(r[0])) : absolute ? r[5] ?? null : null;
      // frames callee first in both orders (perf_callgraph_order says how perf printed them)
      const caller = out.facts.perf_callgraph_order === 'caller';
      for (const c of this.chains) c.row[4] = PerfReportSink.chainText(c.frames, c.total, caller);
      this.nodes.forEach((r, i) => {
        const run = this.nodeRuns[i]!;
        const cut = run.cut ? [`…(${run.cut} more)`] : [];
        r[6] = (caller ? [...cut, ...run.frames.slice().reverse()] : [...run.frames, ...cut]).join(';');
      });
    }
    if (this.chains.length) {
      out.tables.callchains = table(['entry', 'entry_label', 'percent', 'depth', 'chain', 'value', 'line'], this.chains.map((c) => c.row),
        'paths of the call graph under each entry (leaves of the graph, flat and folded chains), callee first: each " <- " points to the caller (fact perf_callgraph_order: how perf printed them)');
    }
    if (this.nodes.length) {
      out.tables.callgraph = table(['entry', 'node', 'parent', 'level', 'percent', 'value', 'frames', 'line'], this.nodes,
        'the call graph as printed: one row per node (a run of frames joined with ";", callee first whatever the print order), parent node (its parent in the printed tree), value as printed');
    }
    if (this.preamble.n) {
      const p = this.preamble;
      this.w.add(`${p.first === p.last ? `line ${p.first}` : `lines ${p.first}-${p.last}`}: ${p.n} line${p.n > 1 ? 's' : ''} before the report, not perf's (the recorded command's own output?), not read: "${p.sample}"`);
    }
    if (this.droppedRows) this.w.add(`${this.droppedRows} entries beyond ${MAX_ROWS} were not kept in the entries table`);
    if (this.droppedChains || this.droppedNodes) {
      this.w.add(`call graphs beyond the first ${MAX_CHAINS} paths / ${MAX_NODES} nodes were not kept (${this.droppedChains} paths, ${this.droppedNodes} nodes): the top entries' graphs are`);
    }
    for (const u of this.rec.unread) this.w.add(u);
    if (!metrics.some((m) => m.name === 'recorded_samples_total')) {
      for (const e of this.sections) {
        const r = e.rounded;
        if (!r) continue;
        const fmt = (v: number): string => v.toLocaleString('en-US');
        this.w.add(`line ${e.line}: samples_total ${fmt(e.samples)}${multi ? ` (${e.event})` : ''} is perf's rounded header (${fmt(r.n)}${r.unit}: ${fmt(e.samples)}–${fmt(Math.round((r.n + 1) * r.mul) - 1)}); perf record's summary gives the exact count`);
      }
    }
    if (!this.sections.length && !this.rows.length) {
      if (out.toolVersion || out.facts.perf_record_command) this.w.add('the perf.data header only (perf report --header-only): no entries');
      else this.w.add(`no perf report rows found${this.rec.lines ? ' (only perf record\'s summary)' : ''}`);
    }
    out.warnings = this.w.done();
    return out;
  }

  private baseOf(entryIdx: number): number | null {
    const r = this.rows[entryIdx - 1];
    if (!r) return null;
    const keys = this.entryKeys;
    const iCh = keys.indexOf('children_percent');
    const iOver = keys.indexOf('overhead_percent');
    const iSelf = keys.indexOf('self_percent');
    const i = iCh >= 0 ? iCh : iOver >= 0 ? iOver : iSelf;
    const v = i >= 0 ? r[i + 1] : null;
    return typeof v === 'number' && Number.isFinite(v) ? v : null;
  }

  /** overhead_percent (Self or Overhead) and children_percent, with samples_total (-n) and event_count_total (Period), of the top entries. */
  private entryMetrics(multi: boolean): [Metric[], Metric[]] {
    const keys = this.entryKeys;
    if (!keys.length || !this.rows.length) return [[], []];
    const iSelf = keys.indexOf('self_percent');
    const iOver = keys.indexOf('overhead_percent');
    const iCh = keys.indexOf('children_percent');
    const selfIdx = (iOver >= 0 ? iOver : iSelf) + 1;
    const chIdx = iCh + 1;
    const members = this.sections.length === 1 && this.sections[0]!.members.length > 1 ? this.sections[0]!.members : null;
    const leafLevel = this.hier ? this.hier.keys.length - 1 : -1;
    const cand = this.rows.filter((_, i) => leafLevel < 0 || this.levels[i] === leafLevel);
    const num = (v: Cell | undefined): number => (typeof v === 'number' ? v : NaN);
    const bySelf = selfIdx > 0 ? cand.slice().sort((a, b) => (num(b[selfIdx]) || 0) - (num(a[selfIdx]) || 0)).slice(0, TOP_N) : [];
    const byChildren = chIdx > 0 ? cand.slice().sort((a, b) => (num(b[chIdx]) || 0) - (num(a[chIdx]) || 0)).slice(0, TOP_N) : [];
    const chosen = [...bySelf, ...byChildren.filter((r) => !bySelf.includes(r))];
    const metrics: Metric[] = [];
    const counts: Metric[] = [];
    const selfColumn = keys[selfIdx - 1] === 'self_percent' ? 'Self' : 'Overhead';
    for (const r of chosen) {
      const labels: Record<string, string> = {};
      for (const k of LABEL_KEYS) { const i = keys.indexOf(k); if (i >= 0) labels[k] = String(r[i + 1]); }
      if (multi) labels.event = String(r[0]);
      const line = Number(r[r.length - 1]);
      const lines: [number, number] = [line, line];
      const each = (key: string, name: string, unit: string, column: string, to = metrics): void => {
        const i = keys.indexOf(key);
        if (i < 0) return;
        // counts of a row cut short are left out; a percentage that cannot be read is said so (by the registry)
        const keep = (v: number): boolean => unit === '%' || Number.isFinite(v);
        if (!members) { const v = num(r[i + 1]); if (keep(v)) to.push(metric(name, v, unit, { labels, column, lines })); return; }
        members.forEach((mem, j) => {
          const at = keys.indexOf(j === 0 ? key : `${key}[${mem}]`);
          const v = at >= 0 ? num(r[at + 1]) : NaN;
          if (at >= 0 && r[at + 1] !== null && keep(v)) to.push(metric(name, v, unit, { labels: { ...labels, event: mem }, column, lines }));
        });
      };
      if (selfIdx > 0) each(keys[selfIdx - 1]!, 'overhead_percent', '%', selfColumn);
      if (iCh >= 0) each('children_percent', 'children_percent', '%', 'Children');
      each('samples', 'samples_total', 'count', 'Samples', counts);
      each('period', 'event_count_total', 'count', 'Period', counts);
    }
    return [metrics, counts];
  }
}

export const perfReportParser: CaptureParser = {
  id: 'perf-report',
  title: 'perf report --stdio',
  commands: [{ program: 'perf', args: /^(?:-\S+\s+)*report\b/ }],
  detect,
  open: () => new PerfReportSink(),
};
