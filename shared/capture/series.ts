import type { Labels, Series, SeriesStats, SeriesSummary, Unit } from './types';

/**
 * Point budget of one series. A longer series (a day-long iostat/vmstat log, an ab -g file) is
 * thinned 2:1 whenever its kept points reach the budget — every other point is kept and the stride
 * doubles — so `values[j]` is sample `j × stride` and memory stays bounded however long the capture.
 * Count/min/mean/max/last stay exact: they come from `stats`, kept over every sample pushed.
 * Even, so a thinning always keeps the sample being pushed.
 */
export const MAX_POINTS_PER_SERIES = 50_000;

/** a budget usable by the thinning code: even and ≥ 2 */
export function pointBudget(budget: number = MAX_POINTS_PER_SERIES): number {
  return Math.max(2, Math.floor(budget / 2) * 2);
}

export function emptyStats(): SeriesStats {
  return { count: 0, first: null, n: 0, sum: 0, min: null, max: null, last: null, sumAll: 0, sumC: 0, sumAllC: 0 };
}

/** What rounding leaves out of s + v (Neumaier): add it to the sum's compensation. */
export const lostIn = (s: number, v: number, t: number): number => (Math.abs(s) >= Math.abs(v) ? (s - t) + v : (v - t) + s);

/** the sum of the samples after the first, with what rounding left out of it */
export const statSum = (st: SeriesStats): number => st.sum + (st.sumC ?? 0);
/** the sum of every sample, the first included */
export const statSumAll = (st: SeriesStats): number => st.sumAll + (st.sumAllC ?? 0);

/** Add the next sample (number `st.count`) to running statistics. NaN/±Infinity count but are left out of the figures. */
export function foldStats(st: SeriesStats, v: number): void {
  const i = st.count++;
  if (v - v !== 0) return; // not finite (a missing sample)
  let s = st.sumAll, t = s + v;
  st.sumAllC = (st.sumAllC ?? 0) + lostIn(s, v, t);
  st.sumAll = t;
  if (i === 0) { st.first = v; return; }
  if (st.n === 0) { st.min = v; st.max = v; } else {
    if (v < st.min!) st.min = v;
    if (v > st.max!) st.max = v;
  }
  st.n++;
  s = st.sum; t = s + v;
  st.sumC = (st.sumC ?? 0) + lostIn(s, v, t);
  st.sum = t;
  st.last = v;
}

/** Statistics of the first `n` values (all of them by default), in order. */
export function statsOf(values: ArrayLike<number>, n: number = values.length): SeriesStats {
  const st = emptyStats();
  for (let i = 0; i < n; i++) foldStats(st, values[i]!);
  return st;
}

/** Keep a[from], a[from + step], a[from + 2·step] … of the first n entries, packed to the front; returns how many (thinnedLength(n) from 0 by 2). */
export function thinEvery<T>(a: { [i: number]: T }, n: number, from = 0, step = 2): number {
  let j = 0;
  for (let k = from; k < n; k += step) a[j++] = a[k]!;
  return j;
}

/** how many of `n` points thinEvery keeps from 0 by 2 */
export const thinnedLength = (n: number): number => (n === 0 ? 0 : Math.floor((n - 1) / 2) + 1);

const round6 = (x: number): number => Math.round(x * 1e6) / 1e6;

/**
 * Summary of a series: count of all samples; min/mean/max/last of the interval samples (a since-boot
 * first sample left out). Exact for thinned series too (from `stats`).
 */
export function summarizeSeries(s: Series): SeriesSummary {
  let count: number, n: number, sum: number, min: number | null, max: number | null, last: number | null;
  const st = s.stats;
  if (st) {
    count = st.count;
    n = st.n; min = st.min; max = st.max; last = st.last;
    const f = st.first;
    sum = statSum(st);
    if (!s.firstSampleSinceBoot && f !== null) {
      // the first sample counts: fold it in front of the others
      sum = statSumAll(st);
      min = n && min! < f ? min : f;
      max = n && max! > f ? max : f;
      if (!n) last = f;
      n++;
    }
  } else {
    const start = s.firstSampleSinceBoot ? 1 : 0;
    let lo = Infinity, hi = -Infinity;
    let c = 0;
    sum = 0; n = 0; last = null;
    for (let i = start; i < s.values.length; i++) {
      const v = s.values[i]!;
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
      // compensated, as the statistics of a thinned series are
      const t = sum + v;
      c += lostIn(sum, v, t);
      sum = t;
      n++; last = v;
    }
    sum += c;
    count = s.values.length;
    min = n ? lo : null;
    max = n ? hi : null;
  }
  const out: SeriesSummary = {
    name: s.name, column: s.column, unit: s.unit,
    count,
    min: n ? min : null,
    mean: n ? round6(sum / n) : null,
    max: n ? max : null,
    last: n ? last : null,
  };
  if (s.labels && Object.keys(s.labels).length) out.labels = s.labels;
  if (s.firstSampleSinceBoot) out.firstSampleSinceBoot = true;
  return out;
}

/** Halve a series' kept points (values and times alike) and double its stride. */
function thinSeries(s: Series, vals: number[]): void {
  const n = thinEvery(vals, vals.length);
  vals.length = n;
  if (s.times) { thinEvery(s.times, s.times.length); s.times.length = n; }
  s.stride = (s.stride ?? 1) * 2;
}

/**
 * Append one sample to a series whose points live in `values`/`times`, under a point budget
 * (`pointBudget(budget)`). `time` undefined = this sample has no time (null in `times` once
 * times exist). Samples the stride skips only update `stats`.
 */
export function pushPoint(s: Series, value: number, time?: number | null, budget: number = MAX_POINTS_PER_SERIES): void {
  // (a series built a point at a time has a plain array; one read in two threads, a typed one, is never added to)
  const vals = Array.isArray(s.values) ? s.values : (s.values = Array.from(s.values));
  let st = s.stats;
  if (st !== undefined) {
    const i = st.count;
    foldStats(st, value);
    if (i !== vals.length * (s.stride ?? 1)) return; // between two kept points
  }
  if (vals.length >= budget) {
    if (st === undefined) {
      // first thinning: every sample so far is still here
      st = s.stats = statsOf(vals);
      foldStats(st, value);
    }
    thinSeries(s, vals);
  }
  vals.push(value);
  if (time !== undefined) {
    if (!s.times) s.times = new Array<number | null>(vals.length - 1).fill(null);
    s.times.push(time);
  } else if (s.times) {
    s.times.push(null);
  }
}

/** How many samples a series has had pushed (points kept × stride, or exactly, once thinned). */
export function sampleCount(s: Series): number {
  return s.stats ? s.stats.count : s.values.length;
}

/** Pad with missing (NaN) samples up to `n`, so series that start late line up by sample index. */
export function padTo(s: Series, n: number, budget: number = MAX_POINTS_PER_SERIES): void {
  while (sampleCount(s) < n) pushPoint(s, NaN, undefined, budget);
}

/**
 * Set sample `index` of a series: pads up to it, appends it, or — when the same sample comes twice
 * (a line repeated within one frame) — replaces it while it is still held as a point.
 */
export function setSample(s: Series, index: number, value: number, budget: number = MAX_POINTS_PER_SERIES): void {
  padTo(s, index, budget);
  const n = sampleCount(s);
  if (n === index) { pushPoint(s, value, undefined, budget); return; }
  if (n === index + 1 && !s.stats && s.values.length === n) s.values[index] = value;
}

function labelKey(name: string, labels: Labels | undefined): string {
  if (!labels) return name;
  let k = name;
  for (const key of Object.keys(labels).sort()) k += '\u0000' + key + '=' + labels[key];
  return k;
}

/**
 * Collects series keyed by name + labels, each kept under the point budget (see
 * MAX_POINTS_PER_SERIES). Every push appends one sample to its series; parsers whose series must
 * line up by sample index (a device that appears in the 5th report) pad with NaN themselves, as
 * the sysstat Collector does.
 */
export class SeriesSet {
  private readonly byKey = new Map<string, Series>();
  readonly list: Series[] = [];
  private readonly budget: number;

  /** `budget`: points kept per series (tests use small ones) */
  constructor(budget: number = MAX_POINTS_PER_SERIES) {
    this.budget = pointBudget(budget);
  }

  /** the series for name + labels (+ an extra key some parsers need), created on first use */
  get(name: string, column: string, unit: Unit, labels?: Labels, extraKey = ''): Series {
    const key = labelKey(name, labels) + (extraKey ? '\u0001' + extraKey : '');
    let s = this.byKey.get(key);
    if (!s) {
      s = { name, column, unit, values: [] };
      if (labels && Object.keys(labels).length) s.labels = labels;
      this.byKey.set(key, s);
      this.list.push(s);
    }
    return s;
  }

  /** Append one value; `lineNo` widens the series' evidence range. */
  push(name: string, column: string, unit: Unit, labels: Labels | undefined, value: number, lineNo?: number, time?: number | null): Series {
    const s = this.get(name, column, unit, labels);
    pushPoint(s, value, time, this.budget);
    if (lineNo !== undefined) s.lines = s.lines ? [s.lines[0], lineNo] : [lineNo, lineNo];
    return s;
  }
}
