/**
 * vmstat (procps / procps-ng 3.x, 4.x): plain, -w, -t, -a, -S k|K|m|M, -n, -y, repeated headers,
 * the procps 4 "gu" column, -d (disk counters), -s (summary → metrics and facts).
 */
import type { CaptureParser, LineSink, Metric, ParseOutput, Series, SinkOptions, SplitPlan, Unit } from '../../types';
import { commandLine, emptyOutput, hasControlChar, lookupTable } from '../kit';
import {
  Collector, RowSet, SCAN, countLines, findLine, hasFlag, hasPoints, numAt, parseStampLine, restIsBlank, restIsBlankBytes, scanNumbers,
  scanNumbersBytes, versionLine, widenLines,
} from './common';
import { asciiCodes, asciiString, hasControlByte, sameCodes } from '../../text';

/** the program of a command line (after a prompt, or bare) that printed the capture */
const TOOLS = ['vmstat'];

interface ColSpec { name: string; unit: Unit; /** 'mem' columns scale with -S, 'ms' are milliseconds */ kind?: 'mem' | 'ms' | 'sector' }

const COLS = lookupTable<ColSpec>({
  r: { name: 'procs_running', unit: 'count' },
  b: { name: 'procs_blocked', unit: 'count' },
  swpd: { name: 'swap_used_bytes', unit: 'B', kind: 'mem' },
  free: { name: 'memory_free_bytes', unit: 'B', kind: 'mem' },
  buff: { name: 'buffer_bytes', unit: 'B', kind: 'mem' },
  cache: { name: 'cache_bytes', unit: 'B', kind: 'mem' },
  inact: { name: 'memory_inactive_bytes', unit: 'B', kind: 'mem' },
  active: { name: 'memory_active_bytes', unit: 'B', kind: 'mem' },
  si: { name: 'swap_in_bytes_per_second', unit: 'B/s', kind: 'mem' },
  so: { name: 'swap_out_bytes_per_second', unit: 'B/s', kind: 'mem' },
  bi: { name: 'blocks_in_per_second', unit: '1/s' },
  bo: { name: 'blocks_out_per_second', unit: '1/s' },
  in: { name: 'interrupts_per_second', unit: '1/s' },
  cs: { name: 'context_switches_per_second', unit: '1/s' },
  us: { name: 'cpu_user_percent', unit: '%' },
  sy: { name: 'cpu_system_percent', unit: '%' },
  id: { name: 'cpu_idle_percent', unit: '%' },
  wa: { name: 'cpu_iowait_percent', unit: '%' },
  st: { name: 'cpu_steal_percent', unit: '%' },
  gu: { name: 'cpu_guest_percent', unit: '%' },
});

/** Column order when a localized header cannot be read by name. */
const ORDER = ['r', 'b', 'swpd', 'free', 'buff', 'cache', 'si', 'so', 'bi', 'bo', 'in', 'cs', 'us', 'sy', 'id', 'wa', 'st', 'gu'];
const ORDER_A = ['r', 'b', 'swpd', 'free', 'inact', 'active', 'si', 'so', 'bi', 'bo', 'in', 'cs', 'us', 'sy', 'id', 'wa', 'st', 'gu'];

const DISK_COLS: ColSpec[] = [
  { name: 'reads_total', unit: 'count' },
  { name: 'read_merges_total', unit: 'count' },
  { name: 'read_bytes_total', unit: 'B', kind: 'sector' },
  { name: 'read_time_seconds_total', unit: 's', kind: 'ms' },
  { name: 'writes_total', unit: 'count' },
  { name: 'write_merges_total', unit: 'count' },
  { name: 'write_bytes_total', unit: 'B', kind: 'sector' },
  { name: 'write_time_seconds_total', unit: 's', kind: 'ms' },
  { name: 'io_in_progress', unit: 'count' },
  { name: 'io_time_seconds_total', unit: 's' },
];
const DISK_LABELS = ['total', 'merged', 'sectors', 'ms', 'total', 'merged', 'sectors', 'ms', 'cur', 'sec'];

/** vmstat columns that are instantaneous values, never since-boot averages */
const SNAPSHOT_SERIES = new Set(['procs_running', 'procs_blocked', 'swap_used_bytes', 'memory_free_bytes', 'buffer_bytes', 'cache_bytes', 'memory_inactive_bytes', 'memory_active_bytes']);

const UNIT_MULT = lookupTable({ k: 1000, K: 1024, m: 1000 * 1000, M: 1024 * 1024 });

function unitFromCommand(cmd: string | undefined): number {
  if (!cmd) return 1024;
  const m = /(?:^|\s)(?:-S\s*|--unit[=\s]\s*|-[a-zA-Z]*S\s*)([kKmM])\b/.exec(cmd);
  return m ? UNIT_MULT[m[1]!]! : 1024;
}

interface Layout { specs: ColSpec[]; cols: string[]; set: RowSet | null; memCol: Uint8Array; stamp: boolean; first: number; last: number }

const MAX_FIELDS = 48;

class VmstatSink implements LineSink {
  private readonly out: ParseOutput = emptyOutput();
  private readonly col: Collector;
  private layout: Layout | null = null;
  private readonly layouts = new Map<string, Layout>();
  private sample = 0;
  private memMult = 1024;
  /** the command line said which unit the memory columns are in */
  private memUnitKnown = false;
  private active = false;
  private diskMode = false;
  private disks = new Map<string, { series: Series[]; last: number }>();
  private diskSample = -1;
  private readonly metrics: Metric[] = [];
  private readonly vals = new Float64Array(MAX_FIELDS);
  private skipFirst = false;
  private anyData = false;

  /** the line span() tried as a data row and left to line() (not tried again there) */
  private spanMiss = 0;

  constructor(opts: SinkOptions = {}) {
    this.col = Collector.open(opts);
  }

  /** the whole has `total` samples, counted ahead (split.ts): the stores take just the room they will need */
  planSamples(total: number, own?: number): void {
    this.col.plan(total, own);
  }

  /** at least `n` samples follow this part's, counted ahead (split.ts): the stores thin as far as the whole surely will */
  samplesAfter(n: number): void {
    this.col.follow(n);
  }

  /** rows read; the headers and modes in effect; the memory unit (split.ts) */
  splitState(): { samples: number; key: string; settled: string; series: number } {
    const L = this.layout;
    const key = [L ? L.cols.join(' ') + (L.stamp ? ' +stamp' : '') : '', this.lastProcsText, this.lastHeaderText, L === this.lastHeaderLayout,
      this.diskMode, this.partition, this.disks.size, this.pendingStamp].join('\n');
    return { samples: this.sample, key, settled: this.memUnitKnown ? String(this.memMult) : '', series: this.col.list.length };
  }

  /** The command line (a prompt line at the top, or told by the capture kit's manifest): -S units, -y. */
  setCommand(cmd: string): void {
    this.out.command = cmd;
    this.memMult = unitFromCommand(cmd);
    this.memUnitKnown = true;
    this.skipFirst = hasFlag(cmd, 'y', '--no-first');
  }

  span(chunk: string, start: number, end: number, lineNo: number): boolean {
    const L = this.layout;
    if (L === null || this.diskMode) return false;
    if (this.dataRow(chunk, start, end, lineNo, L)) return true;
    // not tried again in line(), unless cleaning changes it (a NUL or a colour code inside a row:
    // a line read in place with a character cleanLine would remove is left to line())
    if (!hasControlChar(chunk.slice(start, end))) this.spanMiss = lineNo;
    return false;
  }

  spanBytes(bytes: Uint8Array, start: number, end: number, lineNo: number): boolean {
    const L = this.layout;
    const rows = L !== null && !this.diskMode;
    if (rows) {
      const ncol = L.cols.length;
      if (scanNumbersBytes(bytes, start, this.vals, ncol + 1, end) === ncol) {
        const at = SCAN.end;
        if (L.stamp ? this.takeRow(L, lineNo, asciiString(bytes, at, end)) : restIsBlankBytes(bytes, at, end) && this.takeRow(L, lineNo, null)) return true;
      }
    }
    // the two header lines a terminal run repeats, known by their bytes as line() knows their text
    const len = end - start, procs = this.lastProcsCodes, head = this.lastHeaderCodes;
    if (procs !== null && len === procs.length && sameCodes(bytes, start, procs)) { this.procsAgain(); return true; }
    if (head !== null && len === head.length && this.lastHeaderLayout !== null && sameCodes(bytes, start, head)) { this.headerAgain(); return true; }
    // (not a row: not tried again in line(), unless cleaning changes it)
    if (rows && !hasControlByte(bytes, start, end)) this.spanMiss = lineNo;
    return false;
  }

  line(text: string, lineNo: number): void {
    const L = this.layout;
    if (L !== null && !this.diskMode && this.spanMiss !== lineNo && this.dataRow(text, 0, text.length, lineNo, L)) return;
    // the two header lines a terminal run repeats every screenful, as read the last time
    if (text === this.lastProcsText) { this.procsAgain(); return; }
    if (text === this.lastHeaderText && this.lastHeaderLayout !== null) { this.headerAgain(); return; }
    const t = text.trim();
    if (t === '') return;
    this.slowLine(text, 0, lineNo);
  }

  private lastProcsText = '';
  private lastProcsStamp = false;
  private lastHeaderText = '';
  private lastHeaderLayout: Layout | null = null;
  /** their character codes (asciiCodes), for lines of bytes */
  private lastProcsCodes: Uint8Array | null = null;
  private lastHeaderCodes: Uint8Array | null = null;

  /** the "procs ---memory---" line again */
  private procsAgain(): void {
    this.diskMode = false;
    this.pendingStamp = this.lastProcsStamp;
  }

  /** the column header again: its layout, as read the last time */
  private headerAgain(): void {
    this.layout = this.lastHeaderLayout;
    this.diskMode = false;
  }

  /** "r b swpd free … st [date time]" in one pass, text[from, to) */
  private dataRow(text: string, from: number, to: number, lineNo: number, L: Layout): boolean {
    if (scanNumbers(text, from, this.vals, L.cols.length + 1, to) !== L.cols.length) return false;
    return L.stamp ? this.takeRow(L, lineNo, text.slice(SCAN.end, to)) : restIsBlank(text, SCAN.end, to) && this.takeRow(L, lineNo, null);
  }

  /**
   * The numbers just scanned (vals) as a row of layout L: `tail`, what follows them on a row of a
   * stamped layout (its date and time), else null (the rest of the row was blank).
   */
  private takeRow(L: Layout, lineNo: number, tail: string | null): boolean {
    const vals = this.vals;
    const ncol = L.cols.length;
    let time: number | undefined;
    if (tail !== null) {
      const t = hasControlChar(tail) ? undefined : parseStampLine(tail);
      if (t === undefined) return false;
      time = t;
    }
    if (L.set === null) L.set = new RowSet(this.col, L.cols.map((c, i) => this.col.get(L.specs[i]!.name, c, L.specs[i]!.unit)));
    if (!this.memUnitKnown) this.guessMemUnit(L, vals, lineNo);
    const memCol = L.memCol, mem = this.memMult;
    for (let i = 0; i < ncol; i++) if (memCol[i] === 1) vals[i] = vals[i]! * mem;
    L.set.push(this.sample++, vals, time);
    if (L.first < 0) L.first = lineNo;
    L.last = lineNo;
    this.anyData = true;
    return true;
  }

  /**
   * Without the command line, vmstat's memory unit is unknown (KiB by default). On the first row:
   * free + buff + cache under 64 MiB "in KiB" is no machine these tools run on, so it was -S M.
   */
  private guessMemUnit(L: Layout, vals: Float64Array, lineNo: number): void {
    this.memUnitKnown = true;
    let sum = 0, seen = 0;
    L.cols.forEach((c, i) => { if (c === 'free' || c === 'buff' || c === 'cache') { sum += vals[i]!; seen++; } });
    if (seen === 3 && sum > 0 && sum < 65536) {
      this.memMult = 1024 * 1024;
      this.out.warnings.push(`line ${lineNo}: no command line: memory columns look like MiB (vmstat -S M), not KiB`);
    }
  }

  private slowLine(text: string, _n: number, lineNo: number): void {
    const t = text.trim();
    const f = t.split(/\s+/);
    const first = f[0]!;
    if (/^-*procs-*$/.test(first) && t.includes('---')) {
      this.diskMode = false;
      // procs memory swap io system cpu [timestamp]: a 7th group is the -t time stamp
      this.pendingStamp = f.length >= 7;
      this.lastProcsText = text;
      this.lastProcsCodes = asciiCodes(text);
      this.lastProcsStamp = this.pendingStamp;
      return;
    }
    if (first === 'disk-' || (first.startsWith('disk-') && t.includes('reads'))) { this.diskMode = true; return; }
    // -p: "vda  reads  read sectors  writes  requested writes"
    if (f.length === 7 && f[1] === 'reads' && f[2] === 'read' && f[4] === 'writes') { this.partition = f[0]!; this.layout = null; return; }
    if (this.partition && f.length === 4 && this.partitionRow(f, lineNo)) return;
    if (this.diskMode) {
      if (first === 'total' && f.length >= 10) return;
      if (this.diskRow(f, lineNo)) return;
    }
    if ((first === 'r' && f[1] === 'b') || (f.length >= 15 && !/\d/.test(t))) {
      this.setHeader(f);
      this.lastHeaderText = text;
      this.lastHeaderCodes = asciiCodes(text);
      this.lastHeaderLayout = this.layout;
      return;
    }
    const cmd = commandLine(t, TOOLS, { bare: true });
    if (cmd) {
      if (this.out.command === undefined) this.setCommand(cmd);
      return;
    }
    const ver = versionLine(t);
    if (ver) { this.out.toolVersion ??= ver; return; }
    // -s summary: "24684092 K total memory", "770318 interrupts"
    const sm = /^(\d+)\s+(?:([KMkm])\s+)?([A-Za-z][A-Za-z -]*)$/.exec(t);
    if (sm) { this.summary(+sm[1]!, sm[2], sm[3]!.trim(), lineNo, t); return; }
    if (/^(?:\^C|\S*[#$%>])$/.test(t)) return;
    this.out.warnings.push(`line ${lineNo}: could not read "${t.length > 80 ? t.slice(0, 80) + '…' : t}"`);
  }

  private pendingStamp = false;

  private setHeader(f: string[]): void {
    const key = f.join(' ');
    let L = this.layouts.get(key);
    if (!L) {
      let cols = f;
      let stamp = false;
      const last = f[f.length - 1]!;
      // -t adds a time zone name ("UTC", "CET") under "-----timestamp-----"
      if (this.pendingStamp || (f.length > 15 && !(last in COLS) && /^[A-Z][A-Za-z0-9+:_/-]*$/.test(last))) { cols = f.slice(0, -1); stamp = true; }
      const isA = cols.includes('inact') || cols.includes('active');
      if (isA) this.active = true;
      const order = isA ? ORDER_A : ORDER;
      const specs = cols.map((c, i) => COLS[c] ?? COLS[c.toLowerCase()] ?? COLS[order[i] ?? ''] ?? { name: c.replace(/\W+/g, '_').toLowerCase(), unit: '' });
      L = { specs, cols, set: null, memCol: new Uint8Array(specs.map((sp) => (sp.kind === 'mem' ? 1 : 0))), stamp, first: -1, last: -1 };
      this.layouts.set(key, L);
    }
    this.layout = L;
    this.diskMode = false;
  }

  private diskRow(f: string[], lineNo: number): boolean {
    if (f.length < 11) return false;
    const dev = f[0]!;
    const vals: number[] = [];
    for (let i = 1; i <= 10; i++) { const v = numAt(f[i]!, 0, f[i]!.length); if (v !== v) return false; vals.push(v); }
    let time: number | undefined;
    if (f.length >= 13) time = parseStampLine(f[11] + ' ' + f[12]);
    let e = this.disks.get(dev);
    if (!e) {
      e = { series: DISK_COLS.map((c, i) => this.col.get(c.name, DISK_LABELS[i]!, c.unit, { device: dev })), last: -2 };
      this.disks.set(dev, e);
    }
    if (this.diskSample < 0 || e.last === this.diskSample) this.diskSample++;
    e.last = this.diskSample;
    for (let i = 0; i < 10; i++) {
      const k = DISK_COLS[i]!.kind;
      const v = vals[i]!;
      this.col.push(e.series[i]!, k === 'ms' ? v / 1000 : k === 'sector' ? v * 512 : v, this.diskSample, lineNo, time);
    }
    return true;
  }

  private partition = '';
  private partSample = 0;

  private partitionRow(f: string[], lineNo: number): boolean {
    const v = f.map((x) => numAt(x, 0, x.length));
    if (v.some((x) => x !== x)) return false;
    const dev = { device: this.partition };
    const cols: [string, string, Unit, number][] = [
      ['reads_total', 'reads', 'count', 1], ['read_bytes_total', 'read sectors', 'B', 512],
      ['writes_total', 'writes', 'count', 1], ['requested_write_bytes_total', 'requested writes', 'B', 512],
    ];
    cols.forEach(([name, col, unit, mult], i) => this.col.push(this.col.get(name, col, unit, dev), v[i]! * mult, this.partSample, lineNo, undefined));
    this.partSample++;
    return true;
  }

  private summary(v: number, unit: string | undefined, what: string, lineNo: number, raw: string): void {
    const mult = unit ? UNIT_MULT[unit] ?? 1024 : 1;
    const base = what.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_|_$/g, '');
    if (base === 'total_memory' && unit) this.out.facts.memory_total_bytes = v * mult;
    if (base === 'total_swap' && unit) this.out.facts.swap_total_bytes = v * mult;
    let name: string;
    let u: Unit;
    let value = v * mult;
    if (unit) { name = base + '_bytes'; u = 'B'; } else if (base === 'boot_time') { name = 'boot_time_seconds'; u = 's'; }
    else if (base.startsWith('milli_')) { name = base.slice(6) + '_seconds_total'; u = 's'; value = v / 1000; } // -D
    else { name = base + '_total'; u = 'count'; }
    this.metrics.push({ name, value, unit: u, column: raw.replace(/^\d+\s+/, ''), lines: [lineNo, lineNo] });
  }

  end(): ParseOutput {
    void this.active;
    for (const L of this.layouts.values()) {
      if (!L.set) continue;
      for (const sr of L.set.series) widenLines(sr, L.first, L.last);
    }

    this.out.series = this.col.finish(false);
    // values[0] of the per-sample layout is the since-boot average unless -y; -d counters are totals
    // Only the rates and CPU shares of the first report are averages since boot; procs and memory
    // columns (r b swpd free buff cache inact active) are the state at that moment, like every row.
    for (const s of this.out.series) s.firstSampleSinceBoot = !this.skipFirst && hasPoints(s) && !s.name.endsWith('_total') && s.name !== 'io_in_progress' && !SNAPSHOT_SERIES.has(s.name);
    this.out.metrics = this.metrics;
    if (!this.anyData && this.disks.size === 0 && this.partSample === 0 && this.metrics.length === 0 && this.out.warnings.length === 0) this.out.warnings.push('no vmstat samples found');
    return this.out;
  }
}

export const vmstat: CaptureParser = {
  id: 'vmstat',
  title: 'vmstat (procps)',
  commands: [{ program: 'vmstat' }],
  detect(head) {
    let score = 0;
    for (let i = 0; i < head.length; i++) {
      const t = head[i]!.trim();
      if (/^-*procs-*\s+-+memory-+\s+-+swap-+/.test(t)) return 0.98;
      if (/^r\s+b\s+swpd\s+(?:free|frei)\s/.test(t)) return 0.95;
      if (/^disk-\s+-+reads-+\s+-+writes-+/.test(t)) return 0.95;
      if (/^\d+\s+K total memory$/.test(t)) score = Math.max(score, 0.6);
      if (/^\d+\s+CPU context switches$/.test(t)) score = Math.max(score, 0.9);
      if (/^\d+ disks$/.test(t) && /^\s*\d+ partitions$/.test(head[i + 1] ?? '')) score = Math.max(score, 0.9);
      if (/^\S+\s+reads\s+read sectors\s+writes\s+requested writes$/.test(t)) return 0.95;
      if (/^\d+ forks$/.test(t) && head.filter((x) => x.trim() !== '').length <= 3) score = Math.max(score, 0.6);
    }
    return score;
  },
  open: (opts) => new VmstatSink(opts),
  split: { plan: splitPlan },
};

/** a row of numbers: its first non-blank character is a digit */
function rowAt(text: string, i: number): boolean {
  let c = text.charCodeAt(i);
  while (c === 32 || c === 9) c = text.charCodeAt(++i);
  return c >= 48 && c <= 57;
}

/** rowAt in UTF-8 bytes */
function rowBytesAt(bytes: Uint8Array, i: number): boolean {
  let c = bytes[i];
  while (c === 32 || c === 9) c = bytes[++i];
  return c !== undefined && c >= 48 && c <= 57;
}

/**
 * A vmstat log of rows under one procs header is cut before a row that follows a row (every row is
 * a sample). Not the -d/-p/-s reports (their samples are not one row each).
 */
function splitPlan(head: readonly string[]): SplitPlan | null {
  if (head.some((l) => /^\s*(?:disk-|\{)/.test(l) || /^\S+\s+reads\s+read sectors/.test(l))) return null;
  const header = head.findIndex((l) => /^\s*r\s+b\s/.test(l));
  if (header < 0) return null;
  const first = head.findIndex((l, i) => i > header && rowAt(l, 0));
  if (first < 0) return null;
  return {
    primer: head.slice(0, first),
    count: (bytes) => countLines(bytes, rowBytesAt),
    boundary: (text, from) => findLine(text, from, (t, i, prev) => prev >= 0 && rowAt(t, i) && rowAt(t, prev)),
  };
}
