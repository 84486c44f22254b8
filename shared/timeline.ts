/**
 * The study's story, computed once for every host (the app, `tunebook show --json`, reports): the
 * chain of kept steps on the primary metric with each step's change, the cumulative change and its
 * share of the gain; every requirement judged on every experiment; every metric across the study.
 *
 * Rules
 *  - A result's value is in a base unit; values are compared after conversion, and never across
 *    units that measure different things (then "not comparable").
 *  - Several results of the same metric on one experiment are repeated runs: the experiment's value
 *    is their median, and their lowest and highest make its spread.
 *  - The chain is the kept, measured steps. Failed and reverted attempts are shown with their change
 *    from the last kept step, but set apart: the next step is compared with what was kept. Planned
 *    steps are not judged.
 *  - A step is not significant when its runs' range and the previous kept step's overlap (at least
 *    one side repeated): the change is within the run-to-run noise. With one run each, nothing can
 *    be told (null).
 */
import type {
  Better, Comparator, Experiment, MetricTrack, Requirement, RequirementCheck, ResultMetric, StudyComparison, TimelineRow,
} from './model';
import { median } from './stats';
import { convertValue } from './units';

/** Percent change from a to b, rounded to 0.1 % (140 → 205 = 46.4). null when a is 0 or missing. */
export function percentChange(from: number | null, to: number | null): number | null {
  if (from === null || to === null || from === 0 || !Number.isFinite(from) || !Number.isFinite(to)) return null;
  return Math.round(((to - from) / Math.abs(from)) * 1000) / 10;
}

export function compare(value: number, comparator: Comparator, threshold: number): boolean {
  switch (comparator) {
    case '>=': return value >= threshold;
    case '<=': return value <= threshold;
    case '>': return value > threshold;
    case '<': return value < threshold;
    case '=': return value === threshold;
  }
}


/** An experiment's runs of one metric, in one unit. */
export interface Runs { unit: string; values: number[]; median: number; min: number; max: number }

/**
 * The results of `metric` on an experiment, in `unit` (default: the first result's). Results in a
 * unit that cannot be converted to it are left out; null when none is left.
 */
export function runsOf(metrics: readonly ResultMetric[], metric: string, unit?: string): Runs | null {
  const same = metrics.filter((m) => m.name === metric);
  if (!same.length) return null;
  const u = unit ?? same[0]!.unit;
  const values = same.map((m) => convertValue(m.value, m.unit, u)).filter((v): v is number => v !== null && Number.isFinite(v));
  if (!values.length) return null;
  return { unit: u, values, median: median(values), min: Math.min(...values), max: Math.max(...values) };
}

/** Every requirement judged on one experiment: its value in the requirement's unit, and whether it is met. */
export function checkRequirements(e: MeasuredExperiment, requirements: readonly Requirement[]): RequirementCheck[] {
  return requirements.map((r) => {
    // results in a unit the requirement's cannot be compared with are not a measurement of it
    const value = runsOf(e.metrics, r.metric, r.unit)?.median ?? null;
    return {
      metric: r.metric, comparator: r.comparator, threshold: r.threshold, unit: r.unit,
      value, met: value === null || e.status === 'planned' ? null : compare(value, r.comparator, r.threshold),
    };
  });
}

interface Point { value: number; unit: string; min: number; max: number; runs: number }

/** Percent change from a to b in b's unit; notComparable when their units measure different things. */
function change(from: Point | undefined, to: Point): { percent: number | null; notComparable: boolean; delta: number | null } {
  if (!from) return { percent: null, notComparable: false, delta: null };
  const a = convertValue(from.value, from.unit, to.unit);
  return a === null ? { percent: null, notComparable: true, delta: null } : { percent: percentChange(a, to.value), notComparable: false, delta: to.value - a };
}

/** Whether two steps' run ranges are apart (significant), overlap (not), or cannot tell (one run each). */
function significance(from: Point | undefined, to: Point): boolean | null {
  if (!from || (from.runs < 2 && to.runs < 2)) return null;
  const lo = convertValue(from.min, from.unit, to.unit);
  const hi = convertValue(from.max, from.unit, to.unit);
  if (lo === null || hi === null) return null;
  return to.max < lo || to.min > hi;
}

/** What the timeline reads of an experiment (no notes, captures or config changes needed). */
export type MeasuredExperiment = Pick<Experiment, 'id' | 'position' | 'title' | 'status' | 'metrics'>;

const byPosition = <E extends MeasuredExperiment>(experiments: readonly E[]): E[] => [...experiments].sort((a, b) => a.position - b.position);

/**
 * The study's timeline: each experiment (in order) with its primary metric, the change from the
 * previous kept step measuring the same metric, and from the first one (the baseline).
 */
export function computeTimeline(experiments: readonly MeasuredExperiment[], requirements: readonly Requirement[]): TimelineRow[] {
  const first = new Map<string, Point>();
  const previous = new Map<string, Point>();
  const rows = byPosition(experiments).map((e) => {
    const primary = e.metrics.find((m) => m.primary) ?? null;
    const runs = primary ? runsOf(e.metrics, primary.name, primary.unit) : null;
    const checks = checkRequirements(e, requirements);
    const judged = checks.filter((c) => c.met !== null);
    const row: TimelineRow = {
      experimentId: e.id,
      position: e.position,
      title: e.title,
      status: e.status,
      metric: primary?.name ?? null,
      value: runs?.median ?? null,
      unit: primary?.unit ?? null,
      better: primary?.better ?? null,
      runs: runs?.values.length ?? 0,
      spread: runs && runs.values.length > 1 ? { min: runs.min, max: runs.max } : null,
      inChain: false,
      stepChangePercent: null,
      cumulativeChangePercent: null,
      stepNotComparable: false,
      cumulativeNotComparable: false,
      shareOfGainPercent: null,
      significant: null,
      requirements: checks,
      meetsGoal: e.status === 'planned' || judged.length === 0 ? null : judged.every((c) => c.met),
    };
    if (primary && runs && e.status !== 'planned') {
      const point: Point = { value: runs.median, unit: runs.unit, min: runs.min, max: runs.max, runs: runs.values.length };
      const base = first.get(primary.name);
      const prev = previous.get(primary.name);
      const step = change(prev, point);
      const cumulative = change(base, point);
      row.stepChangePercent = step.percent;
      row.stepNotComparable = step.notComparable;
      row.cumulativeChangePercent = cumulative.percent;
      row.cumulativeNotComparable = cumulative.notComparable;
      row.significant = step.notComparable ? null : significance(prev, point);
      row.inChain = e.status === 'kept';
      if (base === undefined) first.set(primary.name, point);
      // failed and reverted steps are shown, but the next step is compared with what was kept
      if (row.inChain || prev === undefined) previous.set(primary.name, point);
    }
    return row;
  });
  return withShares(rows);
}

/** Each kept step's share of the gain from the baseline to the last kept step (on the study's primary metric). */
function withShares(rows: TimelineRow[]): TimelineRow[] {
  const metric = mainMetric(rows);
  const chain = rows.filter((r) => r.inChain && r.metric === metric && r.value !== null && !r.cumulativeNotComparable);
  if (chain.length < 2) return rows;
  const base = chain[0]!;
  const last = chain[chain.length - 1]!;
  const total = convertValue(last.value!, last.unit ?? '', base.unit ?? '')! - base.value!;
  if (total === 0) return rows;
  for (let i = 1; i < chain.length; i++) {
    const r = chain[i]!;
    const prev = convertValue(chain[i - 1]!.value!, chain[i - 1]!.unit ?? '', base.unit ?? '');
    const now = convertValue(r.value!, r.unit ?? '', base.unit ?? '');
    if (prev === null || now === null) continue;
    r.shareOfGainPercent = Math.round(((now - prev) / total) * 1000) / 10;
  }
  return rows;
}

/**
 * Whether a step's measurement counts toward the study's goal: only a kept step's. A reverted or
 * failed attempt is shown and judged, but what it reached was undone, so it never "meets" the goal
 * for the study (the first experiment meeting every requirement, a requirement's "met by step N").
 */
export function countsTowardGoal(r: Pick<TimelineRow, 'status'>): boolean {
  return r.status === 'kept';
}

/** Whether a step is an attempt shown apart from the chain of kept steps: a failed or reverted one. */
export function isSetApart(r: Pick<TimelineRow, 'status'>): boolean {
  return r.status === 'failed' || r.status === 'reverted';
}

/** The metric most experiments have as primary (normally the study's one metric). */
export function mainMetric(rows: readonly Pick<TimelineRow, 'metric'>[]): string | null {
  const counts = new Map<string, number>();
  for (const r of rows) if (r.metric) counts.set(r.metric, (counts.get(r.metric) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0] ?? null;
}

/**
 * What the comparison view shows: the timeline, every metric of the study across its experiments
 * (the primary one first, then in the order they first appear), and the first kept experiment that
 * met every requirement (countsTowardGoal).
 */
export function computeComparison(experiments: readonly MeasuredExperiment[], requirements: readonly Requirement[]): StudyComparison {
  const ordered = byPosition(experiments);
  const rows = computeTimeline(ordered, requirements);
  const primary = mainMetric(rows);
  const names: string[] = primary ? [primary] : [];
  for (const e of ordered) for (const m of e.metrics) if (!names.includes(m.name)) names.push(m.name);
  const metrics: MetricTrack[] = names.map((name) => {
    const firstResult = ordered.flatMap((e) => e.metrics).find((m) => m.name === name)!;
    const unit = firstResult.unit;
    const better: Better = firstResult.better;
    const track: MetricTrack = { name, unit, better, primary: name === primary, value: [], min: [], max: [], runs: [] };
    for (const e of ordered) {
      const runs = e.status === 'planned' ? null : runsOf(e.metrics, name, unit);
      track.value.push(runs?.median ?? null);
      track.min.push(runs?.min ?? null);
      track.max.push(runs?.max ?? null);
      track.runs.push(runs?.values.length ?? 0);
    }
    return track;
  });
  const firstMeetingAll = requirements.length
    ? rows.find((r) => countsTowardGoal(r) && r.requirements.every((c) => c.met === true))?.experimentId ?? null
    : null;
  return { rows, metrics, firstMeetingAll };
}
