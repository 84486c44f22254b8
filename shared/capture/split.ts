/**
 * A long capture cut in two and parsed on two cores, with the very result of one parse from start
 * to end (issue 9: a 1 GB iostat or vmstat log is read at what one core can do, and a machine has
 * more than one).
 *
 * The cut is at a sample boundary (SplitRules: the first line of an iostat report, a vmstat row),
 * about half way. The first half is parsed as usual. The second is parsed by a second stream that
 * reads the head's lines before the first sample (the primer: banner, headers) and then the second
 * half, with its samples numbered from the first half's count (SinkOptions.sampleBase), told ahead by
 * counting the lines that begin one (SplitPlan.count). Its stores start with that many samples
 * counted but not held (RowStore.skipTo), so each is thinned exactly where one that read everything
 * would be: its kept points are samples 0, stride, 2·stride … of the whole, and it holds those
 * after the cut (Series.lead tells how many come before).
 *
 * joinHalves then puts the first half's points in front and adds the two halves' statistics —
 * after checking that the second half was read as the rest of the first would have been: the count
 * told ahead is the first half's own, the state carried over (headers, units, clock: splitState)
 * is the same, and the second half said nothing the first would not have (no warning, metric or
 * table of its own). When one check fails it throws SplitMismatch, and the host reads the capture
 * again in one piece: slower, never different.
 *
 * The sums of a thinned series are added as two sums, not one after another; both ways are
 * compensated (SeriesStats.sumC: what rounding left out is kept beside), so the sum comes out the
 * same to the last bit but in cases no log of real samples meets.
 */
import { CaptureStream, parserById, type ParseOptions, type SplitPoint } from './registry';
import { lostIn, statsOf } from './series';
import type { FactValue, ParseOutput, ParsedCapture, Series, SeriesStats, SplitPlan } from './types';

/** WHATWG TextEncoder, global in Node, workers and pages (shared/ compiles without DOM or Node types) */
declare const TextEncoder: new () => { encode(text: string): Uint8Array };

/** Captures smaller than this are parsed in one piece: a second thread costs more than it saves. */
export const SPLIT_MIN_BYTES = 32 * 1024 * 1024;

/** The two halves do not join: the capture must be read in one piece. */
export class SplitMismatch extends Error {
  constructor(why: string) {
    super(`the two halves of the capture do not join: ${why}`);
    this.name = 'SplitMismatch';
  }
}

/**
 * A series of the second half: its points may be typed arrays (they cross between threads so,
 * transferred, not copied; a time NaN is none), and the first `lead` points of the whole are not
 * among them (Series.lead: the stores hold only the second half's own).
 */
export type HalfSeries = Omit<Series, 'values' | 'times'> & {
  values: ArrayLike<number>; times?: ArrayLike<number | null>;
  /**
   * values is the whole's array: point j of the whole is values[j], and the first `lead` are room
   * (NaN) for the first half's, which the join writes in (RowStore.finishColumn). It then becomes the
   * joined series' own: the whole's points are made (and their memory first touched) in the second
   * half's thread, which finishes first, not in the host's, which joins.
   */
  whole?: true;
};

/** What the second half's stream read (secondHalfStream → endSecondHalf). */
export interface SecondHalf {
  /** the sink's own output (no warnings of the stream's, no clock alignment) */
  out: Omit<ParseOutput, 'series'> & { series: HalfSeries[] };
  /** its samples were numbered from this many */
  base: number;
  /** its sink's state after the primer */
  key: string;
  /** its sink's settled state at the end */
  settled: string;
  /** the primer's lines (its line numbers are these many more than the second half's own) */
  primerLines: number;
  /** the stream added nothing of its own (no overlong line cut, no warning of a parser's failure) */
  clean: boolean;
  /**
   * the whole's samples as counted ahead, when both halves were told them (CaptureStream.planSamples):
   * every joined series must then count as many, or a store was thinned for samples it never had
   */
  total?: number;
}

/** The plan for a capture of `kind` whose head is `head`, or null when it cannot be cut. */
export function splitPlan(kind: string, head: readonly string[]): SplitPlan | null {
  const rules = parserById(kind)?.split;
  if (!rules) return null;
  try { return rules.plan(head); } catch { return null; }
}

/** The second half's stream: primed, its samples numbered from `base`. Write the second half's text to it, then endSecondHalf. */
export function secondHalfStream(kind: string, plan: SplitPlan, base: number, opts: ParseOptions = {}): { stream: CaptureStream; key: string; primerLines: number } {
  const stream = new CaptureStream({ ...opts, kind, sampleBase: base });
  if (plan.primer.length) stream.write(plan.primer.join('\n') + '\n');
  const st = stream.splitState();
  if (st === null) throw new SplitMismatch('the primer left the stream mid-line');
  return { stream, key: st.key, primerLines: st.lines };
}

export function endSecondHalf(half: { stream: CaptureStream; key: string; primerLines: number }, base: number, total?: number): SecondHalf {
  const { out, settled, clean } = half.stream.endHalf();
  return { out, base, key: half.key, settled, primerLines: half.primerLines, clean, ...(total !== undefined ? { total } : {}) };
}

const seriesKey = (s: HalfSeries): string => {
  let k = s.name + '\u0000' + s.column + '\u0000' + s.unit;
  if (s.labels) for (const l of Object.keys(s.labels).sort()) k += '\u0000' + l + '=' + s.labels[l];
  return k;
};

const sameFact = (a: FactValue | undefined, b: FactValue): boolean => JSON.stringify(a) === JSON.stringify(b);

/**
 * The output of the whole capture from its two halves' (see the top of this file). `first` is the
 * first half's sink output, `at` its state at the cut. Throws SplitMismatch when they do not join.
 */
export function joinHalves(first: ParseOutput, at: SplitPoint | null, second: SecondHalf): ParseOutput {
  const miss = (why: string): never => { throw new SplitMismatch(why); };
  if (at === null) return miss('the first half did not end at a line\'s start, or its stream warned');
  const out2 = second.out;
  if (!second.clean) miss('the second half\'s stream warned');
  if (at.samples !== second.base || at.samples <= 0) miss(`the first half has ${at.samples} samples, ${second.base} were counted ahead`);
  if (at.key !== second.key) miss('the state carried over differs');
  if (at.settled !== second.settled) miss('the halves settled on different units');
  if (out2.warnings.length) miss('the second half warned');
  if (out2.metrics.length || (out2.tables && Object.keys(out2.tables).length) || Object.keys(out2.settings).length) miss('the second half has figures of its own');
  for (const [k, v] of Object.entries(out2.facts)) if (!sameFact(first.facts[k], v)) miss(`fact ${k} differs`);
  if (out2.command !== undefined && out2.command !== first.command) miss('the command lines differ');
  if (out2.toolVersion !== undefined && out2.toolVersion !== first.toolVersion) miss('the tool versions differ');

  const shift = at.lines - second.primerLines;
  const byKey = new Map<string, number>();
  first.series.forEach((s, i) => { const k = seriesKey(s); if (byKey.has(k)) miss(`two series ${s.name}`); byKey.set(k, i); });
  const series = first.series.slice();
  // the columns of one store share their times (RowStore.finishColumn): each is written in place below
  const timesSeen = new Set<unknown>();
  for (const s of series) if (s.times) { if (timesSeen.has(s.times)) s.times = s.times.slice(); else timesSeen.add(s.times); }
  const joined = new Set<number>();
  for (const s2 of out2.series) {
    if (s2.lines) s2.lines = [s2.lines[0] + shift, s2.lines[1] + shift];
    const i = byKey.get(seriesKey(s2));
    if (i === undefined) { series.push(plain(s2)); continue; } // begun in the second half: missing before, as it would be
    if (joined.has(i)) miss(`two series ${s2.name}`);
    joined.add(i);
    series[i] = joinSeries(series[i]!, s2, at.samples);
  }
  // a series only the first half has would have been padded (iostat) or left (vmstat): told apart by reading it whole
  if (joined.size !== first.series.length) miss('a series ends in the first half');
  const total = second.total;
  if (total !== undefined) for (const s of series) if (sampleCount(s) !== total) miss(`${s.name} has ${sampleCount(s)} samples, ${total} were counted ahead`);
  return { ...first, series };
}

/**
 * The whole's points in the first half's array (it is the first half's own, so it is written in
 * place): its points 0, r, 2r … below jn (r = the whole's stride ÷ the first half's), `none` up to
 * jc, then the second half's own from jc to k (point j is b[j - lead]).
 */
function into<T extends number | null>(a: T[], b: ArrayLike<T>, r: number, jn: number, jc: number, k: number, lead: number, none: T): T[] {
  if (r !== 1) for (let j = 0; j < jn; j++) a[j] = a[j * r]!;
  a.length = k;
  for (let j = jn; j < jc; j++) a[j] = none;
  if (none === null) for (let j = jc; j < k; j++) a[j] = timeOf(b[j - lead] as number | null) as T;
  else for (let j = jc; j < k; j++) a[j] = b[j - lead]!;
  return a;
}

/**
 * The whole's points in the second half's array (HalfSeries.whole: its own are in place from jc on,
 * the room before them NaN since it was made): the first half's points 0, r, 2r … (of `b`) below jn.
 */
function front(a: Float64Array, b: ArrayLike<number>, r: number, jn: number): Float64Array {
  for (let j = 0; j < jn; j++) a[j] = b[j * r]!;
  return a;
}

/** the samples a series stands for: a thinned one's count, else its points (a second half's lead included) */
const sampleCount = (s: Series): number => (s.stats ? s.stats.count : (s.lead ?? 0) + s.values.length);

/** a time as a series keeps it: null for none (NaN in a typed array) */
const timeOf = (t: number | null | undefined): number | null => (t === null || t === undefined || t !== t ? null : t);

/** a second half's series (begun there) as one of the whole, missing before it began */
function plain(s: HalfSeries): Series {
  const { values, times, lead = 0, whole, ...rest } = s;
  const out: Series = {
    ...rest,
    values: whole && values instanceof Float64Array ? values : new Array<number>(lead).fill(NaN).concat(Array.from(values)),
  };
  if (times) out.times = new Array<number | null>(lead).fill(null).concat(Array.from(times, timeOf));
  return out;
}

/** One series from its first half's (samples [0, n1) of [0, cut)) and its second half's (missing before `cut`). */
function joinSeries(s1: Series, s2: HalfSeries, cut: number): Series {
  const miss = (why: string): never => { throw new SplitMismatch(`${s1.name}: ${why}`); };
  if (s1.firstSampleSinceBoot !== s2.firstSampleSinceBoot) miss('the halves disagree on the since-boot sample');
  const S = s2.stride ?? 1;
  const s1Stride = s1.stride ?? 1;
  if (S % s1Stride !== 0) miss('the first half was thinned more than the whole');
  const n1 = s1.stats ? s1.stats.count : s1.values.length;
  if (n1 > cut) miss('the first half has more samples than it began');
  const lead = s2.lead ?? 0;
  const K = s2.whole ? s2.values.length : lead + s2.values.length;
  // points j of the whole: the first half's below n1, missing up to the cut, the second half's after
  const jn = Math.ceil(n1 / S), jc = Math.ceil(cut / S);
  if (K < jc) miss('the second half has fewer points than the cut');
  if (lead !== 0 && lead !== jc) miss('the second half\'s points begin elsewhere than the cut');
  if (S > 1 && !s2.stats) miss('the second half lost its statistics');
  // (before the points are moved: a first half not thinned has its statistics in them)
  const stats = S > 1 ? joinStats(s1.stats ?? statsOf(s1.values), s2.stats!) : undefined;
  const values = s2.whole && s2.values instanceof Float64Array
    ? front(s2.values, s1.values, S / s1Stride, jn)
    : into(Array.isArray(s1.values) ? s1.values : Array.from(s1.values), s2.values, S / s1Stride, jn, jc, K, lead, NaN);
  const times = s1.times || s2.times ? into(s1.times ?? [], s2.times ?? [], S / s1Stride, s1.times ? jn : 0, jc, K, lead, null) : undefined;
  const l1 = s1.lines, l2 = s2.lines;
  // made without `delete`: an object a property is deleted from falls back to slow (dictionary)
  // properties, and every later reader of its values paid for it (the findings' loops over a 200 MB
  // iostat -x log took 70 ms instead of a few)
  const { times: _times, lines: _lines, stride: _stride, stats: _stats, ...rest } = s1;
  return {
    ...rest, values,
    ...(times ? { times } : {}),
    ...(l1 || l2 ? { lines: [l1 ? l1[0] : l2![0], l2 ? l2[1] : l1![1]] as [number, number] } : {}),
    ...(stats ? { stride: S, stats } : {}),
  };
}

/**
 * Statistics of the whole from the first half's (`a`, samples [0, n1)) and the second's (`b`: every
 * sample, those before the cut missing, so b.first is null and b.n counts only its own).
 */
export function joinStats(a: SeriesStats, b: SeriesStats): SeriesStats {
  const n = a.n + b.n;
  // the two compensated sums added as one (their high parts exactly, what rounding leaves out beside)
  const sum = a.sum + b.sum, sumAll = a.sumAll + b.sumAll;
  return {
    count: b.count,
    first: a.first,
    n,
    sum,
    sumC: (a.sumC ?? 0) + (b.sumC ?? 0) + lostIn(a.sum, b.sum, sum),
    min: a.n === 0 ? b.min : b.n === 0 ? a.min : Math.min(a.min!, b.min!),
    max: a.n === 0 ? b.max : b.n === 0 ? a.max : Math.max(a.max!, b.max!),
    last: b.n ? b.last : a.last,
    sumAll,
    sumAllC: (a.sumAllC ?? 0) + (b.sumAllC ?? 0) + lostIn(a.sumAll, b.sumAll, sumAll),
  };
}

/**
 * The whole of `text` parsed as two halves cut at the first sample boundary at or after `near`
 * (in one thread: what the hosts do in two, for tests and the bench). Both halves are told the
 * whole's sample count as the hosts tell them: the second before it begins, the first (with its own) once it has
 * read `planAt` characters (past the cut: never, as a host done before the count came; null:
 * neither is told). Null when it cannot be cut; throws
 * SplitMismatch when the halves do not join.
 */
export function parseTextInHalves(text: string, near: number, opts: ParseOptions & { kind: string; planAt?: number | null }): ParsedCapture | null {
  const { planAt = 0, ...parseOpts } = opts;
  const head = headLines(text);
  const plan = splitPlan(opts.kind, head);
  if (!plan) return null;
  const lineStart = near <= 0 ? 0 : text.lastIndexOf('\n', near - 1) + 1;
  const cut = plan.boundary(text, lineStart);
  if (cut <= 0) return null;
  const encoder = new TextEncoder();
  const base = plan.count(encoder.encode(text.slice(0, cut)));
  const total = planAt === null ? undefined : base + plan.count(encoder.encode(text.slice(cut)));
  const second = secondHalfStream(opts.kind, plan, base, parseOpts);
  if (total !== undefined) second.stream.planSamples(total);
  second.stream.write(text.slice(cut));
  const half = endSecondHalf(second, base, total);
  const first = new CaptureStream(parseOpts);
  const told = total !== undefined && planAt !== null && planAt <= cut ? planAt : cut;
  first.write(text.slice(0, told));
  if (total !== undefined && told === planAt) first.planSamples(total, base);
  first.write(text.slice(told, cut));
  return first.end((out, at) => joinHalves(out, at, half));
}

/** The head's lines as detection sees them (the first 64 KiB, whole lines). */
export function headLines(text: string, max = 64 * 1024): string[] {
  const head = text.length > max ? text.slice(0, text.lastIndexOf('\n', max) + 1 || max) : text;
  const lines = head.split(/\r?\n/);
  if (lines.length && lines[lines.length - 1] === '') lines.pop();
  return lines;
}
