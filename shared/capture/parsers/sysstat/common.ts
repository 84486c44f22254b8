/**
 * Helpers shared by the sysstat-family parsers (iostat, vmstat, pidstat, mpstat, sar):
 * banner facts, locale date/time stamps, a fast number scanner, and a series collector
 * that pads late series with NaN so series line up by sample index.
 */
import type { HalfSeries } from '../../split';
import type { FactValue, Labels, ReadPace, Series, SeriesStats, SinkOptions, Unit } from '../../types';
import { MAX_POINTS_PER_SERIES, SeriesSet, lostIn, pointBudget, thinEvery } from '../../series';
import { asciiString } from '../../text';

// ---------------------------------------------------------------------------------------------
// Numbers

const POW10 = [1, 10, 100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18, 1e19, 1e20, 1e21, 1e22];

/**
 * Parse the number in s[start, end): digits with an optional sign and one decimal point or
 * decimal comma (sysstat under de_DE etc.). Exact: an integer mantissa divided by a power of ten
 * is correctly rounded, so the result equals Number(text). Anything else (exponent, units,
 * thousands separators) falls back to a slow but strict parse; NaN when not a number.
 */
export function numAt(s: string, start: number, end: number): number {
  let i = start;
  let neg = false;
  let c = s.charCodeAt(i);
  if (c === 45 /* - */ || c === 43 /* + */) { neg = c === 45; i++; }
  if (i >= end) return NaN;
  let m = 0;
  let digits = 0;
  let frac = -1;
  for (; i < end; i++) {
    c = s.charCodeAt(i);
    if (c >= 48 && c <= 57) {
      m = m * 10 + (c - 48);
      digits++;
      if (frac >= 0) frac++;
    } else if ((c === 46 || c === 44) && frac < 0) {
      frac = 0;
    } else {
      return slowNum(s.slice(start, end));
    }
  }
  if (digits === 0) return NaN;
  if (digits > 15) return slowNum(s.slice(start, end));
  let v = frac > 0 ? m / POW10[frac]! : m;
  if (neg) v = -v;
  return v;
}

function slowNum(t: string): number {
  // what the pattern below can start with (a comma becomes the point): "eth0", "-" cells and
  // labels leave here, without a replace and a regex
  const c = t.charCodeAt(0);
  if (!(c >= 48 && c <= 57) && c !== 45 && c !== 43 && c !== 46 && c !== 44) return NaN;
  const u = t.replace(',', '.');
  if (!/^[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?$/.test(u)) return NaN;
  return Number(u);
}

/** Where the last scanNumbers call stopped (offset just after its last token, or at the bad token). */
export const SCAN = { end: 0 };

/**
 * Parse up to `max` whitespace-separated numbers of `line` from offset `pos` into `out`, in one
 * pass (no substrings). Stops early at a token that is not a number; returns how many were read.
 * Same exactness as numAt (integer mantissa ÷ power of ten); unusual tokens take numAt's slow path.
 */
export function scanNumbers(line: string, pos: number, out: Float64Array, max: number, end: number = line.length): number {
  const n = end;
  let k = 0;
  let i = pos;
  while (k < max) {
    let c = 32;
    while (i < n && ((c = line.charCodeAt(i)) === 32 || c === 9)) i++;
    if (i >= n) break;
    const start = i;
    if (c === 45 /* - */) i++;
    // the digits before and after one decimal point or comma, into one integer mantissa
    let m = 0, d = 0;
    const d0 = i;
    while (i < n && (d = line.charCodeAt(i) - 48) >= 0 && d <= 9) { m = m * 10 + d; i++; }
    let digits = i - d0;
    let frac = 0;
    if (i < n && (d === -2 /* . */ || d === -4 /* , */)) {
      const f0 = ++i;
      while (i < n && (d = line.charCodeAt(i) - 48) >= 0 && d <= 9) { m = m * 10 + d; i++; }
      frac = i - f0;
      digits += frac;
    }
    // the token ends here (the end, a space or a tab), else it is read by numAt
    if ((i < n && d !== -16 && d !== -39) || digits === 0 || digits > 15) {
      while (i < n && (c = line.charCodeAt(i)) !== 32 && c !== 9) i++;
      const v = numAt(line, start, i);
      if (v !== v) { SCAN.end = start; return k; }
      out[k++] = v;
      continue;
    }
    const v = frac > 0 ? m / POW10[frac]! : m;
    out[k++] = c === 45 ? -v : v;
  }
  SCAN.end = i;
  return k;
}

/**
 * scanNumbers over ASCII bytes (LineSink.spanBytes): the same numbers from the same characters, and
 * SCAN.end alike. A second copy of the loop, not one over either: V8 reads a byte of a Uint8Array
 * in one load, a character of a string only after checking what kind of string it is, and a
 * function given both would do that in the hottest loop of the parse (a 200 MB vmstat log's numbers
 * took 468 ms of CPU read from bytes, 840 ms from strings; test/parsers/bytes.test.ts holds the two
 * copies to the same results on random lines).
 */
export function scanNumbersBytes(bytes: Uint8Array, pos: number, out: Float64Array, max: number, end: number): number {
  const n = end;
  let k = 0;
  let i = pos;
  while (k < max) {
    let c = 32;
    while (i < n && ((c = bytes[i]!) === 32 || c === 9)) i++;
    if (i >= n) break;
    const start = i;
    if (c === 45 /* - */) i++;
    let m = 0, d = 0;
    const d0 = i;
    while (i < n && (d = bytes[i]! - 48) >= 0 && d <= 9) { m = m * 10 + d; i++; }
    let digits = i - d0;
    let frac = 0;
    if (i < n && (d === -2 /* . */ || d === -4 /* , */)) {
      const f0 = ++i;
      while (i < n && (d = bytes[i]! - 48) >= 0 && d <= 9) { m = m * 10 + d; i++; }
      frac = i - f0;
      digits += frac;
    }
    if ((i < n && d !== -16 && d !== -39) || digits === 0 || digits > 15) {
      // a word that cannot begin a number (a header's "r", "procs"): numAt would say NaN, without a string made for it
      const c0 = bytes[start]!;
      if (!(c0 >= 48 && c0 <= 57) && c0 !== 45 && c0 !== 43 && c0 !== 46 && c0 !== 44) { SCAN.end = start; return k; }
      while (i < n && (c = bytes[i]!) !== 32 && c !== 9) i++;
      const v = numAt(asciiString(bytes, start, i), 0, i - start);
      if (v !== v) { SCAN.end = start; return k; }
      out[k++] = v;
      continue;
    }
    const v = frac > 0 ? m / POW10[frac]! : m;
    out[k++] = c === 45 ? -v : v;
  }
  SCAN.end = i;
  return k;
}

/** Number of a whole token (fast path of numAt). */
export function tokNum(t: string | undefined): number {
  return t === undefined ? NaN : numAt(t, 0, t.length);
}

/** True when the token reads as a plain number (used to tell header lines from data lines). */
export function isNumTok(t: string): boolean {
  return !Number.isNaN(numAt(t, 0, t.length));
}

/**
 * sysstat -h ("human readable") value: "13.2M", "11.6k", "3.5%", "0.00". Size columns are printed
 * scaled by powers of 1024 from the column's own base unit (kB → "k"). Returns the number and the
 * power of 1024 of the suffix (B=0, k=1, M=2 …; -1 when no suffix).
 */
export function humanNum(t: string): { v: number; pow: number } {
  const last = t.charCodeAt(t.length - 1);
  if (last === 37 /* % */) return { v: tokNum(t.slice(0, -1)), pow: -1 };
  const idx = 'BkMGTP'.indexOf(t.charAt(t.length - 1));
  if (idx >= 0 && t.length > 1) return { v: tokNum(t.slice(0, -1)), pow: idx };
  return { v: tokNum(t), pow: -1 };
}

// ---------------------------------------------------------------------------------------------
// Banner: "Linux 3.10.0-862.el7.x86_64 (host)   03/11/2020   _x86_64_  (2 CPU)"

export interface Banner {
  kernel: string;
  hostname: string;
  date?: string;
  /** epoch ms of 00:00 UTC of the banner date, when it could be read */
  day?: number;
  arch?: string;
  cpus?: number;
}

export function parseBanner(line: string): Banner | undefined {
  if (!line.startsWith('Linux ')) return undefined;
  const f = line.trim().split(/\s+/);
  if (f.length < 3) return undefined;
  const host = f[2]!;
  if (!host.startsWith('(')) return undefined;
  const b: Banner = { kernel: f[1]!, hostname: host.replace(/^\(|\)$/g, '') };
  for (let i = 3; i < f.length; i++) {
    const t = f[i]!;
    if (/^_.+_$/.test(t)) b.arch = t.slice(1, -1);
    else if (t.startsWith('(') && f[i + 1] !== undefined && /^CPU\)?$/.test(f[i + 1]!)) { b.cpus = Number(t.slice(1)); i++; }
    else if (b.date === undefined && /\d/.test(t)) {
      b.date = t;
      const d = parseDate(t);
      if (d !== undefined) b.day = d;
    }
  }
  return b;
}

export function bannerFacts(b: Banner, facts: Record<string, FactValue>): void {
  facts.kernel = b.kernel;
  facts.hostname = b.hostname;
  if (b.date !== undefined) facts.date = b.date;
  if (b.arch !== undefined) facts.arch = b.arch;
  if (b.cpus !== undefined && Number.isFinite(b.cpus)) facts.cpu_threads = b.cpus;
}

// ---------------------------------------------------------------------------------------------
// Dates and times as sysstat prints them under various locales

function ymd(y: number, mo: number, d: number): number | undefined {
  if (y < 100) y += 2000;
  if (mo < 1 || mo > 12 || d < 1 || d > 31) return undefined;
  return Date.UTC(y, mo - 1, d);
}

/**
 * A date: "03/11/2020", "11/29/26" (C: MM/DD/YY), "29/11/2026" (DD/MM when the first part > 12),
 * "29.11.2026" (de), "2026-11-29" (ISO), "2026年11月29日" (zh_CN), "2026/11/29".
 * Returns epoch ms at 00:00 UTC.
 */
export function parseDate(t: string): number | undefined {
  let m = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})$/.exec(t);
  if (m) return ymd(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{4})年(\d{1,2})月(\d{1,2})日$/.exec(t);
  if (m) return ymd(+m[1]!, +m[2]!, +m[3]!);
  m = /^(\d{1,2})\.(\d{1,2})\.(\d{2}|\d{4})$/.exec(t);
  if (m) return ymd(+m[3]!, +m[2]!, +m[1]!);
  m = /^(\d{1,2})[/-](\d{1,2})[/-](\d{2}|\d{4})$/.exec(t);
  if (m) {
    const a = +m[1]!, b = +m[2]!;
    return a > 12 ? ymd(+m[3]!, b, a) : ymd(+m[3]!, a, b);
  }
  return undefined;
}

/**
 * A time of day: "22:46:33", "10:46:38 PM" (ampm given separately), "22时46分58秒" (zh_CN).
 * Returns seconds since midnight.
 */
export function parseClock(t: string, ampm?: string): number | undefined {
  let m = /^(\d{1,2}):(\d{2})(?::(\d{2}))?$/.exec(t);
  if (!m) m = /^(\d{1,2})时(\d{1,2})分(?:(\d{1,2})秒)?$/.exec(t);
  if (!m) return undefined;
  let h = +m[1]!;
  const min = +m[2]!, s = m[3] !== undefined ? +m[3] : 0;
  if (h > 23 || min > 59 || s > 60) return undefined;
  if (ampm) {
    const u = ampm.toUpperCase();
    if (u === 'PM' || u === '下午' || u === '午後') { if (h < 12) h += 12; } else if (h === 12) h = 0;
  }
  return h * 3600 + min * 60 + s;
}

export function isAmPm(t: string | undefined): boolean {
  // AM/PM in any case, or the zh/ja markers — all two characters long (no upper-casing per call)
  if (t === undefined || t.length !== 2) return false;
  const a = t.charCodeAt(0) | 32, b = t.charCodeAt(1) | 32;
  if ((a === 97 || a === 112) && b === 109) return true;
  return t === '上午' || t === '下午' || t === '午前' || t === '午後';
}

/**
 * A whole timestamp line of iostat -t: "03/11/2020 09:04:54 AM", "29.11.2026 22:46:43",
 * "2026年11月29日 22时46分44秒", "2026-11-29T22:46:45+0000" (S_TIME_FORMAT=ISO), "11/29/26 22:46:40".
 * Returns epoch ms (times without a zone are read as UTC), or undefined when the line is not one.
 */
export function parseStampLine(line: string): number | undefined {
  const t = line.trim();
  if (t.length < 8 || t.length > 40) return undefined;
  const c = t.charCodeAt(0);
  if (c < 48 || c > 57) return undefined;
  const iso = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(Z|[+-]\d{2}:?\d{2})?$/.exec(t);
  if (iso) {
    let ms = Date.UTC(+iso[1]!, +iso[2]! - 1, +iso[3]!, +iso[4]!, +iso[5]!, +iso[6]!);
    const z = iso[7];
    if (z && z !== 'Z') {
      const sign = z[0] === '-' ? -1 : 1;
      const digits = z.slice(1).replace(':', '');
      ms -= sign * ((+digits.slice(0, 2)) * 60 + (+digits.slice(2))) * 60000;
    }
    return ms;
  }
  const f = t.split(/\s+/);
  if (f.length < 2 || f.length > 3) return undefined;
  const day = parseDate(f[0]!);
  if (day === undefined) return undefined;
  let ampm: string | undefined;
  if (f.length === 3) { if (!isAmPm(f[2])) return undefined; ampm = f[2]; }
  const sec = parseClock(f[1]!, ampm);
  if (sec === undefined) return undefined;
  return day + sec * 1000;
}

/** Tracks time-of-day stamps on top of the banner date, rolling over at midnight. */
export class Clock {
  private day: number | undefined;
  private lastSec = -1;
  setDay(day: number | undefined): void { this.day = day; this.lastSec = -1; }
  /** the day, and whether a time of day was read (split.ts: a second half starts where the banner did) */
  key(): string { return `${this.day}@${this.lastSec >= 0}`; }
  /** epoch ms (or null when no date is known) for seconds since midnight */
  at(sec: number): number | null {
    if (this.day === undefined) return null;
    if (this.lastSec >= 0 && sec < this.lastSec - 12 * 3600) this.day += 86400000;
    this.lastSec = sec;
    return this.day + sec * 1000;
  }
}

// ---------------------------------------------------------------------------------------------
// Tool version and the options of a command line

/** "sysstat version 12.6.1" / "vmstat from procps-ng 4.0.2" (printed by -V) */
export function versionLine(line: string): string | undefined {
  const m = /^(?:sysstat version (\S+)|(?:\w+ from )?(procps(?:-ng)? (?:version )?\S+))\s*$/.exec(line.trim());
  if (!m) return undefined;
  return m[1] !== undefined ? `sysstat ${m[1]}` : m[2]!;
}

/** Does the command line carry a short option letter (alone or grouped, e.g. -y or -xy)? */
export function hasFlag(cmd: string | undefined, letter: string, long?: string): boolean {
  if (!cmd) return false;
  for (const w of cmd.split(/\s+/)) {
    if (long && w === long) return true;
    if (/^-[A-Za-z]+$/.test(w) && w.includes(letter)) return true;
  }
  return false;
}

/** Does the command line give an interval (a bare number argument)? */
export function hasInterval(cmd: string | undefined): boolean | undefined {
  if (!cmd) return undefined;
  const w = cmd.split(/\s+/);
  for (let i = 1; i < w.length; i++) {
    if (/^\d+(\.\d+)?$/.test(w[i]!) && !/^-[pPISTe]$|^-[a-zA-Z]*[pPST]$|^--dec$|^-o$/.test(w[i - 1]!)) return true;
  }
  return false;
}

// ---------------------------------------------------------------------------------------------
// Series collection

/** the series has points, held or (a second half's, Series.lead) the first half's */
export const hasPoints = (s: Series): boolean => s.values.length > 0 || (s.lead ?? 0) > 0;

/**
 * A cached handle on one series: values are pushed directly (no label-key work per value).
 * `pad` fills a series that appears late (or misses a sample) with NaN up to the sample index.
 * Every series keeps at most `budget` points (MAX_POINTS_PER_SERIES): see RowStore.
 *
 * Series that always get their samples together (the columns of a vmstat row, a device's iostat
 * row) can share one RowStore (`rows`): a row is padded, kept or skipped by the stride once for
 * all its columns. A series has one store: asking for it again, alone or in another set, splits
 * the shared store into one store per series first (`RowStore.split`), which go on exactly where
 * it was (RowSet pushes through whichever a row layout has).
 */
export class Collector {
  /** lookup by name + labels; values go through the stores, not the set's push */
  private readonly set = new SeriesSet();
  get list(): Series[] { return this.set.list; }
  /** each series' store and its column in it */
  private readonly stores = new Map<Series, { rows: RowStore; col: number }>();
  private readonly budget: number;
  /** the whole's sample count once told (plan), else 0 */
  private total = 0;
  /** the samples of this part (a first half's), when told with the total */
  private own: number | undefined = undefined;
  /** samples known to follow this part's (follow), else 0 */
  private following = 0;

  /**
   * `budget`: points kept per series (tests use small ones). `base`: the sample the caller's sample 0
   * is (the second half of a capture cut in two, SinkOptions.sampleBase): the samples before it are
   * missing ones, so every store is exactly where one that had read the first half would be, and
   * keeps its points in Float64Arrays (RowStore.typed: they go to the host's thread as they are).
   * `pace`: how much of the input is read (SinkOptions.pace), from which the stores size their arrays.
   * `typed`: Float64Arrays also from sample 0 (a long input: SinkOptions.typed).
   */
  constructor(budget: number = MAX_POINTS_PER_SERIES, readonly base = 0, private readonly pace: ReadPace | null = null, typed = false) {
    this.budget = pointBudget(budget);
    this.typed = typed || base > 0;
  }

  /** the stores keep their points in Float64Arrays */
  private readonly typed: boolean;

  /** the collector of a sink opened with `opts` (its budget, sample base and pace) */
  static open(opts: SinkOptions = {}): Collector {
    return new Collector(opts.budget, opts.sampleBase, opts.pace ?? null, opts.typed === true);
  }

  /** the value store of one series (hot paths push here; finish() builds values, times, stride, stats) */
  store(s: Series): ValueStore {
    const at = this.stores.get(s);
    if (at === undefined) {
      const st = this.valueStore();
      this.stores.set(s, { rows: st, col: 0 });
      return st;
    }
    if (at.rows instanceof ValueStore) return at.rows;
    this.splitRows(at.rows);
    return this.stores.get(s)!.rows as ValueStore;
  }

  /**
   * One store for series pushed a whole row at a time, column i = series[i]; the same store again
   * for the same list. A series already stored otherwise gets its own store: returns null, and the
   * caller pushes per series through store().
   */
  rows(series: readonly Series[]): RowStore | null {
    const first = series.length ? this.stores.get(series[0]!) : undefined;
    if (first !== undefined && first.col === 0 && first.rows.columns === series.length && !first.rows.dissolved
      && series.every((s, i) => { const at = this.stores.get(s); return at !== undefined && at.rows === first.rows && at.col === i; })) {
      return first.rows;
    }
    if (series.some((s) => this.stores.has(s)) || new Set(series).size !== series.length) {
      for (const s of series) { const at = this.stores.get(s); if (at !== undefined && !(at.rows instanceof ValueStore)) this.splitRows(at.rows); }
      return null;
    }
    const rows = new RowStore(series.length, this.budget, this.typed, this.pace);
    this.begin(rows);
    series.forEach((s, col) => this.stores.set(s, { rows, col }));
    return rows;
  }

  /** a fresh store of one series, at sample `base` */
  private valueStore(): ValueStore {
    const st = new ValueStore(this.budget, this.typed, this.pace);
    this.begin(st);
    return st;
  }

  /** a fresh store where the others are: at sample `base`, told what they were told (plan, follow) */
  private begin(st: RowStore): void {
    if (this.base > 0) st.skipTo(this.base);
    if (this.total > 0) st.plan(this.total, this.own);
    else if (this.following > 0) st.follow(this.following);
  }

  /** every store once (a RowStore holds several series) */
  private eachStore(fn: (st: RowStore) => void): void {
    for (const st of new Set(Array.from(this.stores.values(), (at) => at.rows))) fn(st);
  }

  /** The whole capture has `total` samples (counted ahead), `own` of them this part's when told: every store, now and begun later, is planned for them (RowStore.plan). */
  plan(total: number, own?: number): void {
    this.total = total;
    this.own = own;
    this.eachStore((st) => st.plan(total, own));
  }

  /** At least `n` samples follow this part's (a first half, told so before the whole's count): every store is told (RowStore.follow). */
  follow(n: number): void {
    if (this.total > 0 || n <= this.following) return;
    this.following = n;
    this.eachStore((st) => st.follow(n));
  }

  private splitRows(rows: RowStore): void {
    const parts = rows.split();
    for (const [s, at] of this.stores) if (at.rows === rows) this.stores.set(s, { rows: parts[at.col]!, col: 0 });
  }

  get(name: string, column: string, unit: Unit, labels?: Labels, extraKey = ''): Series {
    return this.set.get(name, column, unit, labels, extraKey);
  }

  /**
   * push `v` as sample number `idx` (0-based) of `s` (pads with NaN when idx is ahead; idx < 0:
   * append); `store`: the series' store when the caller keeps it (saves looking it up)
   */
  push(s: Series, v: number, idx: number, lineNo: number, time: number | null | undefined, store?: ValueStore): void {
    const st = store ?? this.store(s);
    if (idx >= 0) {
      idx += this.base;
      if (st.len > idx) return; // one value per sample: a duplicate row is ignored
      st.padTo(idx);
    }
    st.push(v);
    if (time !== undefined && time !== null) st.time(time);
    markLine(s, lineNo);
  }

  /** final list; `sinceBoot` marks values[0] as the since-boot report; `samples` pads every series with NaN to that many */
  finish(sinceBoot: boolean, samples?: number): Series[] {
    if (samples !== undefined) samples += this.base;
    for (const s of this.list) {
      const at = this.stores.get(s) ?? { rows: this.valueStore(), col: 0 };
      if (samples !== undefined) at.rows.padTo(samples);
      at.rows.finishColumn(at.col, s);
      // explicit either way: a -y run or an interval-only tool says false rather than nothing
      s.firstSampleSinceBoot = sinceBoot && hasPoints(s);
    }
    this.stores.clear();
    return this.list;
  }
}

/**
 * The series of one row layout (a vmstat header's columns, an iostat device), pushed a sample at a
 * time: through their shared RowStore while they have one (Collector.rows), else — once another
 * layout shares some of them — through one store each.
 */
export class RowSet {
  private rows: RowStore | null;

  constructor(private readonly col: Collector, readonly series: readonly Series[]) {
    this.rows = col.rows(series);
  }

  /** sample `idx` of every series, vals[i] for series[i] (NaN for the samples before it they missed), and its time */
  push(idx: number, vals: ArrayLike<number>, time: number | null | undefined): void {
    idx += this.col.base;
    const timed = time !== undefined && time !== null;
    const rows = this.rows;
    if (rows !== null && !rows.dissolved) {
      rows.padTo(idx);
      rows.pushRow(vals);
      if (timed) rows.time(time);
      return;
    }
    this.rows = null;
    for (let i = 0; i < this.series.length; i++) {
      const st = this.col.store(this.series[i]!);
      st.padTo(idx);
      st.push(vals[i]!);
      // times run parallel to the values (null where a sample had none); the stores keep them with their points
      if (timed) st.time(time);
    }
  }

  /**
   * A row whose NaN cells are no point at all (pidstat's "-", a text cell): what Collector.push of
   * each number would do, series by series — sample `idx` (< 0: the series' next; a series already
   * past `idx` ignores it), time and evidence line — but through the shared store while every cell
   * is a number. The first row with a gap splits the store (RowStore.split): from there on each
   * series goes on alone, exactly where it was. True when any cell was a number.
   */
  pushPresent(idx: number, vals: ArrayLike<number>, time: number | null | undefined, lineNo: number): boolean {
    const n = this.series.length;
    const rows = this.rows;
    if (rows !== null && !rows.dissolved) {
      let whole = true;
      for (let i = 0; i < n; i++) if (vals[i] !== vals[i]) { whole = false; break; }
      if (whole) {
        if (idx >= 0) {
          idx += this.col.base;
          if (rows.len > idx) return true;
          rows.padTo(idx);
        }
        rows.pushRow(vals);
        if (time !== undefined && time !== null) rows.time(time);
        for (let i = 0; i < n; i++) markLine(this.series[i]!, lineNo);
        return true;
      }
    }
    this.rows = null;
    let any = false;
    for (let i = 0; i < n; i++) {
      const v = vals[i]!;
      if (v !== v) continue;
      this.col.push(this.series[i]!, v, idx, lineNo, time);
      any = true;
    }
    return any;
  }
}

/** a series' evidence now runs to line `lineNo` (from it, when it had none) */
function markLine(s: Series, lineNo: number): void {
  const l = s.lines;
  if (l === undefined) s.lines = [lineNo, lineNo];
  else (l as [number, number])[1] = lineNo;
}

/**
 * Where a store is once `n` samples were pushed (makeRoom thins at the budget): the stride is the
 * least power of two at which n samples keep at most `budget` points, and those points are samples
 * 0, stride, 2·stride … below n.
 */
export function thinningAt(n: number, budget: number): { stride: number; kept: number } {
  let stride = 1;
  while (Math.ceil(n / stride) > budget) stride *= 2;
  return { stride, kept: Math.ceil(n / stride) };
}

/** what a store's guess of its points adds for the rate of samples drifting (RowStore.guess) */
const GUESS_MARGIN = 1.1;

/** the figures RowStore keeps per column, at these offsets of its record (SeriesStats': the sums' compensations too) */
const FIRST = 0, N = 1, SUM = 2, MIN = 3, MAX = 4, LAST = 5, SUM_C = 6, STATS = 7;

/**
 * Column storage for the hot paths: the samples of one or more series that are pushed a row at a
 * time (`columns` of them; a ValueStore is one), one array of doubles per column, grown by doubling
 * up to the point budget (and never re-copied after), holding never more than `budget` points:
 * when it is full, every other point is dropped and the stride doubles (kept points are samples 0,
 * stride, 2·stride …), once for every column. From the first thinning on, exact
 * count/first/min/max/sum/last are kept per column over every sample (as foldStats keeps them).
 * Times (epoch ms, NaN = none) are stored alongside once a sample has one. finishColumn() hands the
 * column's array itself to its series, cut to its length (no copy: a 1 GB iostat -x -p ALL log
 * keeps 226 × 50,000 points, which would otherwise be held twice at the end of a parse).
 *
 * A store that starts at sample n (skipTo: the second half of a capture cut in two) keeps the
 * points before n virtual: `lead` of its kept points are the first half's, not held here. Its
 * arrays hold points lead, lead + 1 … (of the whole's 0, stride, 2·stride …), so it is thinned where
 * one that read everything would be and holds only its own half's points (joinHalves puts the
 * first half's in front).
 */
export class RowStore {
  /** samples pushed (kept or not): the next sample's index */
  len = 0;
  /** this store was split into one store per column (Collector.rows): push there, not here */
  dissolved = false;
  /**
   * the kept points of each column; `cap` is their length. JS arrays of doubles: they become the
   * series' values; a second half's (`typed`) are Float64Arrays: they cross to the host's thread as
   * they are (toWire), where arrays would be copied there and held twice at the end of its half.
   */
  protected bufs: (number[] | Float64Array)[];
  protected cap = 0;
  /**
   * a second half planned for the whole (plan, with a lead): each column's array of the whole's
   * points, room for the lead's at its front, whose bufs[c] is the view from `lead` on (grow), so
   * that the join has the whole's array ready (HalfSeries.whole); null once the lead moves (a
   * thinning the plan did not foresee) or the arrays are made again
   */
  private wholes: Float64Array[] | null = null;
  /** times of the kept points, NaN = none; slots at and after `kept` are always NaN */
  private tbuf: Float64Array | null = null;
  /** the times as the columns' series get them (finishColumn makes them once) */
  private timesOut: (number | null)[] | null = null;
  /** kept points held (in bufs) */
  protected kept = 0;
  /** kept points before them that are not held (skipTo): point lead + j of the whole is bufs[c][j] */
  protected lead = 0;
  protected stride = 1;
  /** held points the store will end with (plan), else 0: its next growth is to that */
  protected room = 0;
  /** samples known to come after all of this store's (follow), else 0 */
  protected following = 0;
  /** index of the next sample to keep */
  protected next = 0;
  /** exact statistics per column, from the first thinning on (`thinned`); count is `len` */
  protected thinned = false;
  /** per column, STATS figures: first (NaN = none), n, sum (after the first), min, max, last, sum's compensation */
  private readonly stats: Float64Array;
  private readonly nanRow: Float64Array;
  private readonly budget: number;

  /**
   * `pace`: how much of the input is read (SinkOptions.pace). A store that must grow guesses from it
   * the points it will end with (grown), where it would otherwise double its way up and hold up to
   * the budget: a 100 MB pidstat log's 260 series, 35,760 samples each, grew to 50,000 points through
   * nine arrays each, a quarter of the parse's time (fresh pages, filled and copied).
   */
  constructor(
    readonly columns: number, budget: number = MAX_POINTS_PER_SERIES, protected readonly typed = false,
    private readonly pace: ReadPace | null = null,
  ) {
    this.budget = pointBudget(budget);
    this.bufs = Array.from({ length: columns }, () => this.none());
    this.stats = new Float64Array(columns * STATS);
    this.nanRow = new Float64Array(columns).fill(NaN);
  }

  /** Push one sample of every column: row[0 .. columns). */
  pushRow(row: ArrayLike<number>): void {
    if (this.kept === this.cap && this.following > 0 && this.len === this.next) this.thinAhead();
    const i = this.len++;
    if (this.thinned) this.foldRow(row, i);
    if (i !== this.next) return;
    if (this.kept === this.cap) this.makeRoom(row, i);
    const k = this.kept++;
    const bufs = this.bufs;
    for (let c = 0; c < this.columns; c++) bufs[c]![k] = row[c]!;
    this.next = i + this.stride;
  }

  /** foldStats of sample `i` (row) into each column's statistics */
  private foldRow(row: ArrayLike<number>, i: number): void {
    for (let c = 0; c < this.columns; c++) this.fold(c, row[c]!, i);
  }

  /** foldStats of sample `i` of column `c` (value v) */
  protected fold(c: number, v: number, i: number): void {
    if (v - v !== 0) return; // not finite (a missing sample): counted only
    const st = this.stats;
    const o = c * STATS;
    if (i === 0) { st[o + FIRST] = v; return; }
    const n = st[o + N]!;
    if (n === 0) { st[o + MIN] = v; st[o + MAX] = v; } else {
      if (v < st[o + MIN]!) st[o + MIN] = v;
      if (v > st[o + MAX]!) st[o + MAX] = v;
    }
    st[o + N] = n + 1;
    // the sum compensated (Neumaier: what rounding leaves out is kept beside), as foldStats keeps it
    const s = st[o + SUM]!, t = s + v;
    st[o + SUM_C] = st[o + SUM_C]! + lostIn(s, v, t);
    st[o + SUM] = t;
    st[o + LAST] = v;
  }

  /**
   * Missing samples (NaN) up to sample `idx` (exclusive): the same as pushing NaN rows until
   * len === idx, without a call per sample — a NaN changes no statistic but the count, and the
   * kept ones are written in one fill while the points are not thinned yet.
   */
  padTo(idx: number): void {
    while (this.len < idx) {
      if (this.thinned) {
        // the samples the stride skips are only counted; a kept one is a NaN point
        const next = this.next;
        if (this.len !== next) { this.len = next < idx ? next : idx; continue; }
      } else {
        // not thinned (yet): every sample is kept (stride 1); times at and after `kept` are NaN already
        const m = Math.min(idx - this.len, this.cap - this.kept);
        if (m > 0) {
          // a loop, not fill(): most gaps are a sample or two, and a call to fill per column cost more
          const from = this.kept, to = from + m;
          for (const b of this.bufs) for (let j = from; j < to; j++) b[j] = NaN;
          this.kept += m;
          this.len += m;
          this.next = this.len;
          continue;
        }
      }
      this.pushRow(this.nanRow);
    }
  }

  /**
   * A fresh store starts at sample `n`, thinned exactly as if `n` samples had been pushed, with
   * those samples' points virtual (`lead`) and their statistics nothing but the count: the second
   * half of a capture cut in two (Collector.base) starts every store tens of thousands of samples in,
   * and holds only its own points.
   */
  skipTo(n: number): void {
    if (this.len !== 0) throw new Error('skipTo on a store already pushed to');
    const { stride, kept } = thinningAt(n, this.budget);
    this.len = n;
    this.lead = kept;
    this.stride = stride;
    this.next = kept * stride;
    if (stride > 1) {
      // the first thinning's statistics over missing samples: nothing but the count (len)
      this.thinned = true;
      this.clearStats();
    }
  }

  /**
   * The whole capture will have `total` samples (counted ahead: the half worker tells both halves,
   * halfParse.ts). The store thins now to the stride it will end at, and its next growth gives the
   * points just the room they will take, where it would otherwise grow to the budget and thin its
   * way down: a long parse waits on fresh memory (an iostat -x log of 231,720 reports keeps 28,965
   * points a series, after arrays of 16,384 and 50,000 and three thinnings). Either way it ends the
   * same: more samples than told are thinned as ever; fewer would leave it thinned more than they
   * need, which joinHalves refuses (a series' count is not the total).
   *
   * Which half holds the whole's arrays: the second (typed, with a lead) makes them at its last
   * growth, room for the first half's points in front (grow, HalfSeries.whole), and the join writes
   * the first half's into them. A first half told its `own` samples then takes only their room:
   * the whole's points are made and first touched in the thread that finishes first, not in the
   * host's, which still has its half, the join and the findings to do (226 series of a 200 MB
   * iostat -x log: 52 MB, ~200 ms of fresh pages on this VM). Not told them, a first half takes the
   * room of the whole's, as it did before the second half made them.
   */
  plan(total: number, own?: number): void {
    if (total < this.len) return;
    const { stride, kept } = thinningAt(total, this.budget);
    if (stride > this.stride) this.thinTo(stride);
    // a first half told its own samples holds only their points (samples 0, stride … below `own`)
    this.room = (own !== undefined && own < total ? Math.ceil(own / stride) : kept) - this.lead;
    this.following = 0;
  }

  /**
   * At least `n` samples come after all of this store's (a first half, told the second half's count
   * as the half worker counts it, before it knows the whole's): the whole has at least len + n, so
   * its stride is at least theirs. A full store thins that far before it grows (thinAhead), where it
   * would otherwise grow to the budget while the count goes on: a first half of a 1 GB log read
   * 60,000 samples before it was told the whole's, and held 50,000 points a series.
   */
  follow(n: number): void {
    if (n > this.following) this.following = n;
  }

  /** full, before sample `len` is pushed: thin as far as the whole surely will (follow) */
  protected thinAhead(): void {
    const { stride } = thinningAt(this.len + this.following, this.budget);
    if (stride > this.stride) this.thinTo(stride);
  }

  /**
   * the buffers' next size: the room planned; else the points guessed from the pace, when the store
   * will most likely never thin (a guess a half or more above its size, under the most it can hold);
   * else doubling from 64, but from 16,384 points straight to the most they can hold (grow says why).
   * A guess too low only means one more growth: where a store thins never depends on its size.
   */
  private grown(cap: number): number {
    const most = this.budget - this.lead;
    if (this.room > cap) return Math.min(most, this.room);
    const guess = this.guess();
    if (guess >= Math.max(64, cap * 1.5) && guess < most) return guess;
    return Math.min(most, cap >= 16384 ? most : Math.max(64, cap * 2));
  }

  /**
   * The points this store will hold at the end if the samples go on at the rate they came so far:
   * its samples (missing ones included) over the share of the input read, a tenth more for the
   * rate's drift, at its stride. 0 when the pace is unknown.
   */
  private guess(): number {
    const share = this.pace === null ? 0 : this.pace.share;
    if (!(share > 0 && share < 1)) return 0;
    return Math.ceil((this.len / share) * GUESS_MARGIN / this.stride) - this.lead;
  }

  /** statistics of no sample yet (their count is `len`) */
  private clearStats(): void {
    this.stats.fill(0);
    for (let o = FIRST; o < this.stats.length; o += STATS) this.stats[o] = NaN;
  }

  /**
   * the time (epoch ms) of the sample just pushed; kept only when the stride kept that sample. The
   * points have times once any sample had one, kept or not: what the store ends with must not
   * depend on when it thinned (a store told its count ahead thins before the first sample).
   */
  time(t: number | null): void {
    let tb = this.tbuf;
    if (tb === null) {
      if (t === null) return;
      tb = this.tbuf = new Float64Array(this.cap).fill(NaN);
    }
    const k = this.kept - 1;
    if (k < 0 || this.len - 1 !== (this.lead + k) * this.stride) return;
    tb[k] = t ?? NaN;
  }

  /** grow the buffers, or (at the budget) thin them 2:1; `row` is sample `i`, about to be kept */
  protected makeRoom(row: ArrayLike<number>, i: number): void {
    if (this.cap < this.budget - this.lead) { this.grow(); return; }
    // (every sample since the lead is still in the buffers at the first thinning: thinTo folds them, and this row is not yet)
    const first = !this.thinned;
    this.thinTo(this.stride * 2);
    if (first) this.foldRow(row, i);
    this.room = 0;
    // (a store with a lead: the thinning may have made room among the virtual points only)
    if (this.kept === this.cap) this.grow();
  }

  /**
   * Keep only the points at a multiple of `stride` (a multiple of the store's): the whole's points
   * lead + j that the ratio divides. At the first thinning, the statistics begin from the held points.
   */
  private thinTo(stride: number): void {
    const r = stride / this.stride;
    const lead = this.lead;
    if (!this.thinned) {
      // not thinned: the stride is 1, held point j is sample lead + j
      this.thinned = true;
      this.clearStats();
      this.bufs.forEach((b, c) => { for (let j = 0; j < this.kept; j++) this.fold(c, b[j]!, lead + j); });
    }
    const from = (r - (lead % r)) % r;
    let n = 0;
    for (const b of this.bufs) n = thinEvery(b, this.kept, from, r);
    if (this.tbuf !== null) { thinEvery(this.tbuf, this.kept, from, r); this.tbuf.fill(NaN, n); }
    this.kept = n;
    this.lead = Math.ceil(lead / r);
    this.wholes = null; // (the views stay the columns' arrays; the room in front no longer fits the lead)
    this.stride = stride;
    this.next = Math.ceil(this.len / stride) * stride;
  }

  private grow(): void {
    // doubling, but from 16,384 points straight to the most they hold: arrays that large live in the
    // large-object space until a full GC, and 226 series growing 16k → 32k → 50k at once left
    // ~90 MB of them behind during a 1 GB import (its peak RSS)
    const size = this.grown(this.cap);
    this.wholes = null;
    if (this.typed && this.lead > 0 && size === this.room) {
      // a planned second half's last growth: the whole's arrays, made and filled here, in its thread
      const lead = this.lead, kept = this.kept;
      const wholes = this.bufs.map((buf) => {
        const w = new Float64Array(lead + size).fill(NaN);
        w.set((buf as Float64Array).subarray(0, kept), lead);
        return w;
      });
      this.wholes = wholes;
      this.bufs = wholes.map((w) => w.subarray(lead));
    } else this.bufs = this.bufs.map((buf) => {
      // filled at once: an array made holey and then given doubles is made twice (V8's elements
      // kind changes), which doubled the fresh pages of a parse
      const nb = this.typed ? new Float64Array(size).fill(NaN) : new Array<number>(size).fill(NaN);
      for (let j = 0; j < this.kept; j++) nb[j] = buf[j]!;
      return nb;
    });
    if (this.tbuf !== null) {
      const nt = new Float64Array(size).fill(NaN);
      nt.set(this.tbuf);
      this.tbuf = nt;
    }
    this.cap = size;
  }

  /** column `c`'s statistics as a series keeps them (foldStats' shape) */
  private statsOf(c: number): SeriesStats {
    const st = this.stats;
    const o = c * STATS;
    const n = st[o + N]!;
    const first = st[o + FIRST]!;
    const sum = st[o + SUM]!, sumC = st[o + SUM_C]!;
    // every sample's sum: the first added to the others' (compensated as they are), not summed again per sample
    const sumAll = first === first ? first + sum : sum;
    const sumAllC = first === first ? sumC + lostIn(first, sum, sumAll) : sumC;
    return {
      count: this.len, first: first === first ? first : null, n, sum,
      min: n ? st[o + MIN]! : null, max: n ? st[o + MAX]! : null, last: n ? st[o + LAST]! : null, sumAll, sumC, sumAllC,
    };
  }

  /** move column `c`'s points into `s` (values, times, and stride/stats when thinned); the store keeps no hold on them */
  finishColumn(c: number, s: Series): void {
    const k = this.kept;
    const vals = this.bufs[c]!;
    this.bufs[c] = this.none();
    if (this.lead > 0) s.lead = this.lead;
    const tb = this.tbuf;
    // a second half's series (a lead before its points) are read only by endHalf and the join, as
    // HalfSeries: its columns share one typed view of the times (toWire sends each buffer once)
    const half = this.typed && this.lead > 0;
    if (this.typed) {
      const whole = this.wholes?.[c];
      if (whole !== undefined) {
        s.values = whole.subarray(0, this.lead + k);
        (s as HalfSeries).whole = true;
      } else s.values = (vals as Float64Array).subarray(0, k);
      if (tb !== null && half) (s as HalfSeries).times = tb.subarray(0, k);
    } else {
      const arr = vals as number[];
      arr.length = k;
      s.values = arr;
    }
    if (tb !== null && !half) {
      // one array for all the columns: their points have the same times (joinHalves copies a shared one before it writes)
      let times = this.timesOut;
      if (times === null) {
        times = this.timesOut = new Array<number | null>(k);
        for (let j = 0; j < k; j++) { const t = tb[j]!; times[j] = t === t ? t : null; }
      }
      s.times = times;
    }
    if (this.stride > 1) { s.stride = this.stride; s.stats = this.statsOf(c); }
  }

  /** One store per column, each exactly where this one is (points, times, stride, statistics); this one is done. */
  split(): ValueStore[] {
    const parts = this.bufs.map((buf, c) => {
      const st = new ValueStore(this.budget, this.typed, this.pace);
      st.adopt(this, buf, c);
      return st;
    });
    this.dissolved = true;
    this.bufs = this.bufs.map(() => this.none());
    this.wholes = null;
    return parts;
  }

  /** a column's points before any: an empty array of the store's kind */
  private none(): number[] | Float64Array {
    return this.typed ? new Float64Array(0) : [];
  }

  /** take column `c` of `from` as this single-column store's state (split) */
  protected adopt(from: RowStore, buf: number[] | Float64Array, c: number): void {
    this.len = from.len;
    this.bufs = [buf];
    this.wholes = from.wholes === null ? null : [from.wholes[c]!];
    this.cap = from.cap;
    this.tbuf = from.tbuf === null ? null : from.tbuf.slice();
    this.kept = from.kept;
    this.lead = from.lead;
    this.room = from.room;
    this.following = from.following;
    this.stride = from.stride;
    this.next = from.next;
    this.thinned = from.thinned;
    this.stats.set(from.stats.subarray(c * STATS, (c + 1) * STATS));
  }
}

/** The store of one series: a RowStore of one column, pushed a value at a time. */
export class ValueStore extends RowStore {
  private readonly one = new Float64Array(1);
  constructor(budget: number = MAX_POINTS_PER_SERIES, typed = false, pace: ReadPace | null = null) { super(1, budget, typed, pace); }

  /** pushRow of one value, without the row */
  push(v: number): void {
    if (this.kept === this.cap && this.following > 0 && this.len === this.next) this.thinAhead();
    const i = this.len++;
    if (this.thinned) this.fold(0, v, i);
    if (i !== this.next) return;
    if (this.kept === this.cap) { this.one[0] = v; this.makeRoom(this.one, i); }
    this.bufs[0]![this.kept++] = v;
    this.next = i + this.stride;
  }

  /** move the points into `s` (values, times, and stride/stats when thinned) */
  finishInto(s: Series): void {
    this.finishColumn(0, s);
  }
}

/** true when only spaces/tabs follow offset i (up to `end`) */
export function restIsBlank(line: string, i: number, end: number = line.length): boolean {
  for (const n = end; i < n; i++) { const c = line.charCodeAt(i); if (c !== 32 && c !== 9) return false; }
  return true;
}

/** restIsBlank of ASCII bytes */
export function restIsBlankBytes(bytes: Uint8Array, i: number, end: number): boolean {
  for (; i < end; i++) { const c = bytes[i]!; if (c !== 32 && c !== 9) return false; }
  return true;
}

/** widen a series' evidence range */
export function widenLines(s: Series, first: number, last: number): void {
  if (first < 0) return;
  const l = s.lines;
  s.lines = l ? [Math.min(l[0], first), Math.max(l[1], last)] : [first, last];
}

/** snake_case a column label for the generic fallback: "%ifutil" → "ifutil_percent", "rxpck/s" → "rxpck_per_second". */
export function genericName(col: string): string {
  let c = col;
  let suffix = '';
  if (c.startsWith('%')) { c = c.slice(1); suffix = '_percent'; }
  if (c.endsWith('/s')) { c = c.slice(0, -2); suffix = suffix || '_per_second'; }
  const base = c.replace(/[^A-Za-z0-9]+/g, '_').replace(/^_+|_+$/g, '').toLowerCase();
  return (base || 'value') + suffix;
}

// ---------------------------------------------------------------------------------------------
// Cutting a capture in two (CaptureParser.split, shared/capture/split.ts)

/** How many lines of `bytes` (whole lines) begin a sample: `begins(bytes, i)` for each line start i. */
export function countLines(bytes: Uint8Array, begins: (bytes: Uint8Array, i: number) => boolean): number {
  let n = 0;
  for (let i = 0; i < bytes.length;) {
    if (begins(bytes, i)) n++;
    const nl = bytes.indexOf(10, i);
    if (nl < 0) break;
    i = nl + 1;
  }
  return n;
}

/**
 * The first line start at or after `from` (a line start) where `cut(text, i, prev)` holds — prev is
 * the previous line's start, or -1 when it is before `from` — else -1.
 */
export function findLine(text: string, from: number, cut: (text: string, i: number, prev: number) => boolean): number {
  let prev = -1;
  for (let i = from; i < text.length;) {
    if (cut(text, i, prev)) return i;
    const nl = text.indexOf('\n', i);
    if (nl < 0) break;
    prev = i;
    i = nl + 1;
  }
  return -1;
}

/** the line starting at i is empty (or only blanks) */
export function blankAt(text: string, i: number): boolean {
  for (; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || c === 13) return true;
    if (c !== 32 && c !== 9) return false;
  }
  return true;
}
