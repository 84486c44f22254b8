/**
 * Units of measured values: reading what people type ("43.0k IOPS", "8,788 KiB/s", "207 ms") into
 * the base units the capture engine stores (capture/types.ts), comparing and converting them, and
 * showing base values the way people write them. Pure, never throws, linear in the input length.
 */

/** The units values are stored in (the same as captured metrics use). */
export type BaseUnit = '1/s' | 'B/s' | 'B' | 's' | '%' | 'ratio' | 'count' | '';

export const BASE_UNITS: readonly BaseUnit[] = ['1/s', 'B/s', 'B', 's', '%', 'ratio', 'count', ''];

/** `unit` is a base unit, or for a unit Tunebook does not know, the unit text as typed (trimmed). */
export interface Quantity {
  value: number;
  unit: string;
}

/** value in base unit = value × mul ÷ div (two exact-ish steps: 207 ms ÷ 1000 is 0.207, × 0.001 is not). */
interface UnitDef {
  base: BaseUnit;
  mul: number;
  div: number;
}

const def = (base: BaseUnit, mul = 1, div = 1): UnitDef => ({ base, mul, div });

// ---------------------------------------------------------------------------------------------
// The one table of unit words.

/** Spellings where case carries meaning: B = byte and b = bit, M = mega. */
const CASED_UNITS: ReadonlyArray<readonly [readonly string[], UnitDef]> = [
  [['B'], def('B')],
  [['kB', 'KB'], def('B', 1e3)],
  [['MB'], def('B', 1e6)],
  [['GB'], def('B', 1e9)],
  [['TB'], def('B', 1e12)],
  [['PB'], def('B', 1e15)],
  [['b'], def('B', 1, 8)],
  [['kb', 'Kb'], def('B', 1e3, 8)],
  [['Mb'], def('B', 1e6, 8)],
  [['Gb'], def('B', 1e9, 8)],
  [['Tb'], def('B', 1e12, 8)],
];

/** Spellings read in any case (keys lower case). */
const UNCASED_UNITS: ReadonlyArray<readonly [readonly string[], UnitDef]> = [
  [['byte', 'bytes'], def('B')],
  [['kib'], def('B', 1024)],
  [['mib'], def('B', 1024 ** 2)],
  [['gib'], def('B', 1024 ** 3)],
  [['tib'], def('B', 1024 ** 4)],
  [['pib'], def('B', 1024 ** 5)],
  [['bit', 'bits'], def('B', 1, 8)],
  [['kbit', 'kbits'], def('B', 1e3, 8)],
  [['mbit', 'mbits'], def('B', 1e6, 8)],
  [['gbit', 'gbits'], def('B', 1e9, 8)],
  [['tbit', 'tbits'], def('B', 1e12, 8)],
  [['ns', 'nsec', 'nanosecond', 'nanoseconds'], def('s', 1, 1e9)],
  [['us', 'µs', 'μs', 'usec', 'microsecond', 'microseconds'], def('s', 1, 1e6)],
  [['ms', 'msec', 'millisecond', 'milliseconds'], def('s', 1, 1e3)],
  [['s', 'sec', 'secs', 'second', 'seconds'], def('s')],
  [['min', 'mins', 'minute', 'minutes'], def('s', 60)],
  [['h', 'hr', 'hrs', 'hour', 'hours'], def('s', 3600)],
  [['rps', 'qps', 'tps', 'iops', 'hz'], def('1/s')],
  [['%', 'percent', 'pct'], def('%')],
  [['ratio'], def('ratio')],
  [['count', 'x', '×', 'times'], def('count')],
];

const CASED = new Map<string, UnitDef>(CASED_UNITS.flatMap(([words, d]) => words.map((w) => [w, d] as const)));
const UNCASED = new Map<string, UnitDef>(UNCASED_UNITS.flatMap(([words, d]) => words.map((w) => [w, d] as const)));

/**
 * SI multipliers written on a number ("43.0k", "1.2M"), also used to shorten large rates.
 * Lower-case m is never one: it means milli (ms) or is ambiguous.
 */
const SI_PREFIXES: ReadonlyArray<readonly [string, number]> = [
  ['k', 1e3], ['M', 1e6], ['G', 1e9], ['T', 1e12], ['P', 1e15], ['E', 1e18],
];
const SI_MULTIPLIERS = new Map<string, number>([...SI_PREFIXES, ['K', 1e3]]);

/** Things counted per second whose name may carry an SI multiplier ("kreq/s"); any other word is still a rate. */
const RATE_NOUNS = new Set(['req', 'reqs', 'request', 'requests', 'op', 'ops', 'io', 'ios', 'event', 'events', 'query', 'queries', 'transaction', 'transactions', 'tx', 'txn', 'txns', 'msg', 'msgs', 'message', 'messages', 'packet', 'packets', 'pkt', 'pkts']);

const BINARY_BYTES = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;
const SI_BYTES = ['B', 'kB', 'MB', 'GB', 'TB', 'PB'] as const;
const TIME_STEPS: ReadonlyArray<readonly [string, number]> = [['ns', 1e9], ['µs', 1e6], ['ms', 1e3], ['s', 1]];

/** What each base unit measures; `per` is how many of it make one of the dimension (100 % = 1). */
const DIMENSIONS: Record<BaseUnit, { dimension: string; per: number }> = {
  '1/s': { dimension: 'rate', per: 1 },
  'B/s': { dimension: 'data rate', per: 1 },
  B: { dimension: 'data size', per: 1 },
  s: { dimension: 'time', per: 1 },
  '%': { dimension: 'fraction', per: 100 },
  ratio: { dimension: 'fraction', per: 1 },
  count: { dimension: 'count', per: 1 },
  '': { dimension: 'count', per: 1 },
};

/** Metric names whose per-second values have a word of their own. */
const RATE_NAMES: ReadonlyArray<readonly [RegExp, string]> = [
  [/^(?:requests_per_second|rps|req(?:uests)?_per_sec)$/, 'req/s'],
  [/^iops|_iops$/, 'IOPS'],
  [/^(?:queries_per_second|qps)$/, 'QPS'],
  [/^(?:transactions_per_second|tps)$/, 'TPS'],
];

// ---------------------------------------------------------------------------------------------
// Resolving unit text.

function isBase(unit: string): unit is BaseUnit {
  return Object.hasOwn(DIMENSIONS, unit);
}

/** A plain unit word from the table (no rates). */
function lookup(word: string): UnitDef | undefined {
  return CASED.get(word) ?? UNCASED.get(word.toLowerCase());
}

/**
 * "1", "#", "", "req", "write requests", "kreq" → how many per counted thing (kreq = 1000).
 * Words have two letters or more, so "k req" is left to the SI multiplier and "m/s" is not a rate.
 */
function nounFactor(noun: string): number | undefined {
  if (noun === '' || noun === '1' || noun === '#') return 1;
  if (!/^\p{L}{2,}(?:[\s_-]+\p{L}{2,})*$/u.test(noun) || lookup(noun)) return undefined;
  const mult = SI_MULTIPLIERS.get(noun.charAt(0));
  return mult !== undefined && RATE_NOUNS.has(noun.slice(1).toLowerCase()) ? mult : 1;
}

/** Split "X/s", "X per second", "XBps" into X and the duration it is counted over. */
function splitRate(text: string): { inner: string; per: UnitDef; bytesOnly: boolean } | undefined {
  const slash = text.lastIndexOf('/');
  if (slash !== -1) {
    const per = lookup(text.slice(slash + 1).trim());
    return per?.base === 's' ? { inner: text.slice(0, slash).trim(), per, bytesOnly: false } : undefined;
  }
  const words = text.split(/\s+/);
  if (words.length >= 2 && words[words.length - 2]!.toLowerCase() === 'per') {
    const per = lookup(words[words.length - 1]!);
    return per?.base === 's' ? { inner: words.slice(0, -2).join(' '), per, bytesOnly: false } : undefined;
  }
  // MBps, kbps, Gbps: only after a byte or bit unit ("ops" is not o-per-second)
  if (text.length > 2 && text.endsWith('ps')) return { inner: text.slice(0, -2), per: def('s'), bytesOnly: true };
  return undefined;
}

/** Any unit text Tunebook knows, as a factor to its base unit; undefined for custom units. */
/** Units met so far and what they resolve to: a study's 10,000 results repeat a handful of unit strings. */
const resolved = new Map<string, UnitDef | undefined>();

function resolveUnit(text: string): UnitDef | undefined {
  if (resolved.has(text)) return resolved.get(text);
  const d = resolveUnitUncached(text);
  if (resolved.size < 10_000) resolved.set(text, d);
  return d;
}

function resolveUnitUncached(text: string): UnitDef | undefined {
  const t = text.trim();
  if (t === '') return undefined;
  const plain = lookup(t);
  if (plain) return plain;
  const rate = splitRate(t);
  if (!rate) return undefined;
  const inner = rate.inner === '' ? undefined : lookup(rate.inner);
  // per.mul / per.div seconds per period: "/min" divides by 60, "/ms" multiplies by 1000
  if (inner?.base === 'B') return def('B/s', inner.mul * rate.per.div, inner.div * rate.per.mul);
  if (rate.bytesOnly) return undefined;
  if (inner?.base === 'count') return def('1/s', inner.mul * rate.per.div, inner.div * rate.per.mul);
  if (inner) return undefined;
  const n = nounFactor(rate.inner);
  return n === undefined ? undefined : def('1/s', n * rate.per.div, rate.per.mul);
}

/** Text that may stand as a unit of its own: not a number, no digits ("connections", "errors"). */
function isCustomUnit(text: string): boolean {
  return text !== '' && !/^[\s.,+\-\u2212]/.test(text) && !/\d/.test(text);
}

// ---------------------------------------------------------------------------------------------
// Parsing.

// Anchored, and every repetition starts with a distinct character: no backtracking on long input.
const NUMBER = /^[+\-\u2212]?(?:\d+(?:,\d+)*(?:\.\d*)?|\.\d+)(?:[eE][+\-\u2212]?\d+)?/;

/**
 * The number of a NUMBER match. Commas group thousands when every group after the first has
 * exactly 3 digits (8,788 · 1,234,567.5); a single comma otherwise is a decimal comma (12,5).
 */
function readNumber(token: string): number | null {
  let t = token.replace(/\u2212/g, '-');
  if (t.includes(',')) {
    const mantissa = /^[+-]?[\d,]*/.exec(t)![0];
    const groups = mantissa.replace(/^[+-]/, '').split(',');
    const thousands = /^[1-9]\d{0,2}$/.test(groups[0]!) && groups.slice(1).every((g) => g.length === 3);
    if (thousands) t = t.replace(/,/g, '');
    else if (groups.length === 2 && !t.includes('.')) t = t.replace(',', '.');
    else return null;
  }
  const v = Number(t);
  return Number.isFinite(v) ? v : null;
}

/** A value in any unit (known or custom) to its base unit. */
function quantityIn(value: number, unit: string): Quantity | null {
  const q = toBase(value, unit.trim());
  return Number.isFinite(q.value) ? q : null;
}

/**
 * What people type into a result or requirement field: "2,197 IOPS", "43.0k", "168MiB/s",
 * "12,5 ms", "95 %", "12 connections". A bare number takes `defaultUnit` (any unit text).
 * Null for empty or unreadable text.
 */
export function parseQuantity(text: string, defaultUnit = ''): Quantity | null {
  if (typeof text !== 'string') return null;
  const s = text.trim();
  const m = NUMBER.exec(s);
  if (!m) return null;
  const value = readNumber(m[0]);
  if (value === null) return null;
  const rest = s.slice(m[0].length).trim();
  if (rest === '') return quantityIn(value, defaultUnit);
  if (resolveUnit(rest)) return quantityIn(value, rest);
  // "43.0k", "50k req/s", "12k connections", "2kIOPS": an SI multiplier on the number
  const mult = SI_MULTIPLIERS.get(rest.charAt(0));
  if (mult !== undefined) {
    const after = rest.slice(1);
    const unit = after.trim();
    if (unit === '') return quantityIn(value * mult, defaultUnit);
    if (resolveUnit(unit) || (/^\s/.test(after) && isCustomUnit(unit))) return quantityIn(value * mult, unit);
  }
  return isCustomUnit(rest) ? { value, unit: rest } : null;
}

// ---------------------------------------------------------------------------------------------
// Converting and comparing.

/** A value in any unit parseQuantity knows (KiB/s, ms, req/s, GB) in its base unit; other units unchanged. */
export function toBase(value: number, unit: string): Quantity {
  const d = resolveUnit(unit);
  return d ? { value: (value * d.mul) / d.div, unit: d.base } : { value, unit };
}

/** The inverse of toBase. */
function fromBase(value: number, unit: string): number {
  const d = resolveUnit(unit);
  return d ? (value * d.div) / d.mul : value;
}

/** What a unit measures ('rate', 'data rate', 'data size', 'time', 'fraction', 'count'), or 'custom:<unit>'. */
export function unitDimension(unit: string): string {
  const base = toBase(1, unit).unit;
  return isBase(base) ? DIMENSIONS[base].dimension : `custom:${unit}`;
}

/** Whether two units measure the same thing, so one value can be shown or compared in the other. */
export function comparableUnits(a: string, b: string): boolean {
  return unitDimension(a) === unitDimension(b);
}

/** `value` in `from` expressed in `to` (0.05 ratio → 5 %, KiB/s → B/s); null when they measure different things. */
export function convertValue(value: number, from: string, to: string): number | null {
  if (from === to) return value; // the usual case (a study's results in one unit), and exact
  if (!comparableUnits(from, to)) return null;
  const a = toBase(value, from);
  const b = toBase(1, to).unit;
  const perA = isBase(a.unit) ? DIMENSIONS[a.unit].per : 1;
  const perB = isBase(b) ? DIMENSIONS[b].per : 1;
  const inB = perA === perB ? a.value : (a.value / perA) * perB;
  return fromBase(inB, to);
}

// ---------------------------------------------------------------------------------------------
// Showing.

const FORMATS = {
  whole: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
  one: new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }),
  two: new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }),
  sig3: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }),
};

/** The typographic minus, and never "−0". */
function withMinus(text: string): string {
  const t = text.replace('-', '\u2212');
  return /^\u2212[0.]*$/.test(t) ? t.slice(1) : t;
}

/** 2,197 · 1,857.2 · 97.84 · 0.0123 · −3: grouped, with as many decimals as the size calls for. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  const f = a >= 100 ? FORMATS.one : a >= 1 ? FORMATS.two : FORMATS.sig3;
  return withMinus(f.format(v));
}

/** The word after a per-second number: req/s, IOPS, QPS, TPS, or plain /s. */
function rateNoun(metric: string | undefined): string {
  // any case: a result named "IOPS" or "QPS" reads as 43.0k IOPS, not 43.0k /s
  if (metric !== undefined) for (const [re, noun] of RATE_NAMES) if (re.test(metric.toLowerCase())) return noun;
  return '/s';
}

/** 286 req/s · 2,197 IOPS · 43.0k IOPS · 1.25M req/s: three significant digits from 10,000 up. */
function formatRate(v: number, noun: string): string {
  const a = Math.abs(v);
  if (a < 10_000) return `${formatNumber(v)} ${noun}`;
  let i = SI_PREFIXES.findLastIndex(([, p]) => a >= p);
  let n = Number((a / SI_PREFIXES[i]![1]).toPrecision(3));
  // 999,950 rounds up to 1000k: say 1.00M
  if (n >= 1000 && i < SI_PREFIXES.length - 1) n = Number((a / SI_PREFIXES[++i]![1]).toPrecision(3));
  const digits = n < 1000 ? n.toPrecision(3) : FORMATS.whole.format(n);
  return `${v < 0 ? '\u2212' : ''}${digits}${SI_PREFIXES[i]![0]} ${noun}`;
}

/** A number of bytes in some unit: three significant digits below 100, whole numbers from 100 up. */
function byteDigits(n: number): number {
  return n < 100 ? Number(n.toPrecision(3)) : Math.round(n);
}

function byteText(n: number): string {
  return (n < 100 ? FORMATS.sig3 : FORMATS.whole).format(byteDigits(n));
}

/** "8,788 KiB": the largest of `units` in which the number is shown exactly (and is 1 to 9,999). */
function exactBytes(a: number, units: readonly string[], step: number): string | undefined {
  for (let i = units.length - 1; i >= 0; i--) {
    const n = a / step ** i;
    if (n >= 1 && n < 10_000 && byteDigits(n) === n) return `${byteText(n)} ${units[i]}`;
  }
  return undefined;
}

/**
 * Bytes as fio prints them: in the unit where the number is exact (8,788 KiB/s, 168 MiB/s, 4 KiB),
 * or in SI when that is exact and shorter (2.1 GB); otherwise in the largest binary unit that
 * keeps the number at least 1 (1.96 GiB, 23.5 GiB, 163 MiB).
 */
function formatBytes(v: number, per: string): string {
  const a = Math.abs(v);
  const sign = v < 0 ? '\u2212' : '';
  const binary = exactBytes(a, BINARY_BYTES, 1024);
  const si = exactBytes(a, SI_BYTES, 1000);
  const exact = binary && si ? (si.length < binary.length ? si : binary) : (binary ?? si);
  if (exact) return `${sign}${exact}${per}`;
  let i = BINARY_BYTES.length - 1;
  while (i > 0 && a / 1024 ** i < 1) i--;
  return `${sign}${byteText(a / 1024 ** i)} ${BINARY_BYTES[i]}${per}`;
}

/** 35 ns · 812 µs · 207 ms · 1.4 s · 125 s: the smallest unit whose shown number stays below 1,000. */
function formatDuration(v: number): string {
  const a = Math.abs(v);
  // formatNumber shows one decimal from 100 up, so 999.95 would already read "1,000"
  const i = a === 0 ? TIME_STEPS.length - 1 : TIME_STEPS.findIndex(([, f], k) => k === TIME_STEPS.length - 1 || a * f < 999.95);
  const [word, f] = TIME_STEPS[i]!;
  return `${formatNumber(v * f)} ${word}`;
}

/**
 * A value stored in a base unit, shown the way people write it: 286 req/s, 43.0k IOPS,
 * 8,788 KiB/s, 2.1 GB, 207 ms, 95 % (a ratio shows as percent), 1,234, 12 connections.
 * `metric` picks the word for per-second values (requests_per_second → req/s). Non-finite → —.
 */
export function formatQuantity(value: number, unit: string, metric?: string): string {
  const q = toBase(value, unit);
  // a finite value may still overflow on its way to the base unit (1e308 GB)
  if (!Number.isFinite(q.value) || (q.unit === 'ratio' && !Number.isFinite(q.value * 100))) return '—';
  switch (q.unit) {
    case '1/s': return formatRate(q.value, rateNoun(metric));
    case 'B/s': return formatBytes(q.value, '/s');
    case 'B': return formatBytes(q.value, '');
    case 's': return formatDuration(q.value);
    case '%': return `${formatNumber(q.value)} %`;
    case 'ratio': return `${formatNumber(q.value * 100)} %`;
    case 'count': case '': return formatNumber(q.value);
    default: return `${formatNumber(q.value)} ${q.unit}`;
  }
}

/** The unit as an axis title shows it: req/s, IOPS, /s, B/s, s, %, '' for plain counts. */
export function unitLabel(unit: string, metric?: string): string {
  if (unit === '1/s') return rateNoun(metric);
  if (unit === 'count') return '';
  return unit;
}

/**
 * A stored value as text a user can edit and save again without losing anything: what
 * formatQuantity shows when it reads back exactly ("168 MiB/s", "207 ms", "43.0k IOPS"), else the
 * plain base value with its unit in `unit` ("8998912.5" and "B/s"). `unit` is '' when the text
 * carries the unit.
 */
export function editableQuantity(value: number, unit: string, metric?: string): { text: string; unit: string } {
  if (!Number.isFinite(value)) return { text: '', unit };
  const q = toBase(value, unit);
  if (isBase(q.unit) && q.unit !== '' && q.unit !== 'count') {
    const text = formatQuantity(q.value, q.unit, metric).replace(/\u2212/g, '-');
    const back = parseQuantity(text, q.unit);
    if (back && convertValue(back.value, back.unit, q.unit) !== null) {
      const v = convertValue(back.value, back.unit, q.unit)!;
      if (v === q.value || Math.abs(v - q.value) <= Math.abs(q.value) * 1e-12) return { text, unit: '' };
    }
  }
  return { text: String(q.value), unit: q.unit };
}

/**
 * How a chart axis shows values of one unit, given their largest magnitude: multiply by `factor`
 * and title the axis with `label` (B/s in MiB/s, seconds in ms, a ratio in %). Rates and counts
 * keep their values (the chart's ticks say 10k, 20k).
 */
export function displayScale(unit: string, magnitude: number, metric?: string): { factor: number; label: string } {
  const base = toBase(1, unit).unit;
  const mag = Number.isFinite(magnitude) ? Math.abs(magnitude) : 0;
  if (base === 'B' || base === 'B/s') {
    let i = 0;
    while (i < BINARY_BYTES.length - 1 && mag / 1024 ** (i + 1) >= 1) i++;
    return { factor: toBase(1, unit).value / 1024 ** i, label: `${BINARY_BYTES[i]}${base === 'B/s' ? '/s' : ''}` };
  }
  if (base === 's') {
    const seconds = mag * toBase(1, unit).value;
    const [word, f] = seconds >= 1 || seconds === 0 ? ['s', 1] as const : seconds >= 1e-3 ? ['ms', 1e3] as const : seconds >= 1e-6 ? ['µs', 1e6] as const : ['ns', 1e9] as const;
    return { factor: toBase(1, unit).value * f, label: word };
  }
  if (base === 'ratio') return { factor: 100, label: '%' };
  return { factor: toBase(1, unit).value, label: unitLabel(base, metric) };
}
