import type { Comparator, Experiment, Requirement, TimelineRow } from './model';

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

/** null when no requirement names the metric; else whether every requirement on it is met. */
export function meetsRequirements(metric: string, value: number, requirements: readonly Requirement[]): boolean | null {
  const applicable = requirements.filter((r) => r.metric === metric);
  if (applicable.length === 0) return null;
  return applicable.every((r) => compare(value, r.comparator, r.threshold));
}

/**
 * The study's timeline: each experiment (in order) with its primary metric, the change from the
 * previous experiment measuring the same metric, and from the first one (the baseline).
 */
export function computeTimeline(experiments: readonly Experiment[], requirements: readonly Requirement[]): TimelineRow[] {
  const first = new Map<string, number>();
  const previous = new Map<string, number>();
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
      meetsGoal: null,
    };
    if (primary) {
      const base = first.get(primary.name);
      const prev = previous.get(primary.name);
      row.stepChangePercent = prev === undefined ? null : percentChange(prev, primary.value);
      row.cumulativeChangePercent = base === undefined ? null : percentChange(base, primary.value);
      if (base === undefined) first.set(primary.name, primary.value);
      // failed and reverted steps are shown, but the next step is compared with what was kept
      if (e.status !== 'failed' && e.status !== 'reverted') previous.set(primary.name, primary.value);
      else if (prev === undefined) previous.set(primary.name, primary.value);
      row.meetsGoal = meetsRequirements(primary.name, primary.value, requirements);
    }
    return row;
  });
}
