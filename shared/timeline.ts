import type { Comparator, Experiment, Requirement, TimelineRow } from './model';
import { comparableUnits, convertValue } from './units';

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

/**
 * null when no requirement names the metric in a unit the value can be compared with; else whether
 * every such requirement is met (the threshold converted to the value's unit: ≥ 100 MiB/s against B/s).
 */
export function meetsRequirements(metric: string, value: number, unit: string, requirements: readonly Requirement[]): boolean | null {
  const applicable = requirements.filter((r) => r.metric === metric && comparableUnits(r.unit, unit));
  if (applicable.length === 0) return null;
  return applicable.every((r) => compare(value, r.comparator, convertValue(r.threshold, r.unit, unit)!));
}

interface Point { value: number; unit: string }

/** Percent change from a to b in b's unit; notComparable when their units measure different things. */
function change(from: Point | undefined, to: Point): { percent: number | null; notComparable: boolean } {
  if (!from) return { percent: null, notComparable: false };
  const a = convertValue(from.value, from.unit, to.unit);
  return a === null ? { percent: null, notComparable: true } : { percent: percentChange(a, to.value), notComparable: false };
}

/**
 * The study's timeline: each experiment (in order) with its primary metric, the change from the
 * previous experiment measuring the same metric, and from the first one (the baseline).
 */
export function computeTimeline(experiments: readonly Experiment[], requirements: readonly Requirement[]): TimelineRow[] {
  const first = new Map<string, Point>();
  const previous = new Map<string, Point>();
  return [...experiments].sort((a, b) => a.position - b.position).map((e) => {
    const primary = e.metrics.find((m) => m.primary) ?? null;
    const row: TimelineRow = {
      experimentId: e.id,
      position: e.position,
      title: e.title,
      status: e.status,
      metric: primary?.name ?? null,
      value: primary?.value ?? null,
      unit: primary?.unit ?? null,
      better: primary?.better ?? null,
      stepChangePercent: null,
      cumulativeChangePercent: null,
      stepNotComparable: false,
      cumulativeNotComparable: false,
      meetsGoal: null,
    };
    if (primary) {
      const point: Point = { value: primary.value, unit: primary.unit };
      const base = first.get(primary.name);
      const prev = previous.get(primary.name);
      const step = change(prev, point);
      const cumulative = change(base, point);
      row.stepChangePercent = step.percent;
      row.stepNotComparable = step.notComparable;
      row.cumulativeChangePercent = cumulative.percent;
      row.cumulativeNotComparable = cumulative.notComparable;
      if (base === undefined) first.set(primary.name, point);
      // failed and reverted steps are shown, but the next step is compared with what was kept
      if (e.status !== 'failed' && e.status !== 'reverted') previous.set(primary.name, point);
      else if (prev === undefined) previous.set(primary.name, point);
      row.meetsGoal = meetsRequirements(primary.name, primary.value, primary.unit, requirements);
    }
    return row;
  });
}
