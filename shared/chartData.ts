/**
 * What a study's charts show, as data: the chain of kept steps on the primary metric (failed and
 * reverted attempts as separate points), and each other metric as a small multiple on the same
 * steps, with their spreads, point labels, hover text and requirement lines. One copy of these
 * rules for the app's interactive charts (plotly) and the static SVG of exported reports.
 */
import type { Experiment, MetricTrack, Requirement, StudyComparison, TimelineRow } from './model';
import { metricInfo } from './metrics';
import { comparableUnits, convertValue, displayScale, formatQuantity } from './units';
import { formatPercent, requirementText } from './format';
import { minMaxDownsample } from './downsample';
import { isSetApart } from './timeline';

export interface ChartSeries {
  name: string;
  /** experiments as labels (a category axis), or as step numbers (a long study) */
  x: (string | number)[];
  y: (number | null)[];
  /** label drawn at each point (a "\n" starts a second, smaller line) */
  text?: string[];
  /** shown on hover (plain text) */
  hover?: string[];
  /** the spread of repeated runs around each point: its lowest and highest */
  low?: (number | null)[];
  high?: (number | null)[];
  /** 'line': joined points (the chain); 'points': markers only (attempts set apart) */
  mode?: 'line' | 'points';
  tone?: 'accent' | 'muted';
}
export interface GoalLine { value: number; label: string }

export interface ChartData {
  /** "Requests per second · requests_per_second" */
  title: string;
  metric: string;
  series: ChartSeries[];
  goals: GoalLine[];
  /** the axis' unit as shown (req/s, MiB/s, ms …) */
  yTitle: string;
}

/** Past this many experiments the charts number the steps on a plain axis and leave out point labels. */
export const MANY_STEPS = 60;

/** "B", "1", "2" … a step's number as the timeline shows it (the baseline is B). */
export const stepNo = (i: number): string => (i === 0 ? 'B' : String(i));
/** A title short enough for an axis or a column; the whole one goes on hover. */
export const shortTitle = (t: string, n = 26): string => (t.length > n ? `${t.slice(0, n - 1)}…` : t);

/** x of the experiments drawn: "B. Baseline", "1. opcache …"; the step's number in a long study. */
function axisLabels(rows: readonly { title: string }[], steps: readonly number[], categorical: boolean): (string | number)[] {
  return !categorical ? steps.slice() : rows.map((r, i) => `${stepNo(steps[i]!)}. ${shortTitle(r.title)}`);
}

const pick = <T>(list: readonly T[], at: readonly number[]): T[] => at.map((i) => list[i]!);

/** A metric's columns for the experiments drawn. */
function pickTrack(t: MetricTrack, at: readonly number[]): MetricTrack {
  return { ...t, value: pick(t.value, at), min: pick(t.min, at), max: pick(t.max, at), runs: pick(t.runs, at) };
}

/** What the charts read of an experiment: its config changes (the labels under its point). */
export type Charted = Pick<Experiment, 'id' | 'configChanges'>;

/** The first config change of an experiment under its point ("\nopcache.validate_timestamps +1"). */
function changeLabel(e: Charted | undefined): string {
  if (!e || !e.configChanges.length) return '';
  const key = e.configChanges[0]!.key;
  return `\n${key.length > 28 ? `…${key.slice(-27)}` : key}${e.configChanges.length > 1 ? ` +${e.configChanges.length - 1}` : ''}`;
}

/** Every config change of an experiment, for its point's hover text. */
function changesText(e: Charted | undefined): string {
  if (!e || !e.configChanges.length) return '';
  return `\n${e.configChanges.map((c) => `${c.key}: ${c.before || '∅'} → ${c.after || '∅'}`).join('\n')}`;
}

/** How a metric's axis shows it (MiB/s, ms …), from its largest value. */
function scaleOf(track: MetricTrack): { factor: number; label: string } {
  let max = 0;
  for (let i = 0; i < track.value.length; i++) max = Math.max(max, Math.abs(track.max[i] ?? track.value[i] ?? 0));
  return displayScale(track.unit, max, track.name);
}

/** The spread of repeated runs around each drawn point. */
function spreadOf(track: MetricTrack, y: readonly (number | null)[], factor: number): { low: (number | null)[]; high: (number | null)[] } {
  return {
    low: track.min.map((v, i) => (y[i] === null || v === null ? null : v * factor)),
    high: track.max.map((v, i) => (y[i] === null || v === null ? null : v * factor)),
  };
}

/** The study's requirements on this metric, as lines in the axis' unit. */
function goalLines(requirements: readonly Requirement[], metric: string, unit: string, factor: number): GoalLine[] {
  return requirements
    .filter((q) => q.metric === metric && comparableUnits(q.unit, unit))
    .map((q) => ({ value: convertValue(q.threshold, q.unit, unit)! * factor, label: requirementText(q) }));
}

export interface ChartOptions {
  /** the rows (indices into the comparison) drawn; the others are hidden from the charts */
  shown?: readonly number[];
  /** category labels even for a long study (a static chart thins its labels itself) */
  categorical?: boolean;
}

function shownRows(c: StudyComparison, o: ChartOptions): readonly number[] {
  return o.shown ?? c.rows.map((_, i) => i);
}

/** The primary metric: the chain of kept steps as a line, failed and reverted attempts as separate points. */
export function chainChart(c: StudyComparison, experiments: readonly Charted[], requirements: readonly Requirement[], o: ChartOptions = {}): ChartData | null {
  const full = c.metrics.find((m) => m.primary);
  if (!full) return null;
  const shown = shownRows(c, o);
  const rows = pick(c.rows, shown);
  const many = rows.length > MANY_STEPS;
  const track = pickTrack(full, shown);
  const x = axisLabels(rows, shown, o.categorical || !many);
  const scale = scaleOf(track);
  const byId = new Map(experiments.map((e) => [e.id, e]));
  const point = (keep: (r: TimelineRow) => boolean) => {
    const ys = rows.map((r, i) => (keep(r) && track.value[i] !== null ? track.value[i]! * scale.factor : null));
    return {
      x,
      y: ys,
      ...spreadOf(track, ys, scale.factor),
      // the value, and under it the step's config change (all of them in the hover)
      text: many ? undefined : rows.map((r, i) => (ys[i] === null ? '' : `${formatQuantity(track.value[i]!, track.unit, track.name)}${changeLabel(byId.get(r.experimentId))}`)),
      hover: rows.map((r, i) => `${stepNo(shown[i]!)}. ${r.title} (${r.status})\n${ys[i] === null ? '—' : formatQuantity(track.value[i]!, track.unit, track.name)}${r.stepChangePercent !== null ? `, step ${formatPercent(r.stepChangePercent)}` : ''}${many ? '' : changesText(byId.get(r.experimentId))}`),
    };
  };
  const series = keptAndApart('kept steps', point, (r) => r.inChain);
  return { title: `${metricInfo(full.name).label} · ${full.name}`, metric: full.name, series, goals: goalLines(requirements, track.name, track.unit, scale.factor), yTitle: scale.label };
}

type Drawn = Omit<ChartSeries, 'name' | 'mode' | 'tone'>;

/**
 * The kept steps as a line and the failed or reverted attempts as points of their own beside it
 * (shown, never joined into the line of what was kept): one rule for the chain and every other
 * metric's chart.
 */
function keptAndApart(name: string, point: (keep: (r: TimelineRow) => boolean) => Drawn, kept: (r: TimelineRow) => boolean): ChartSeries[] {
  const series: ChartSeries[] = [{ name, ...point(kept), mode: 'line' }];
  const apart = point((r) => !kept(r) && isSetApart(r));
  if (apart.y.some((v) => v !== null)) series.push({ name: 'failed or reverted (set apart)', ...apart, mode: 'points', tone: 'muted' });
  return series;
}

/** Another metric of the study as a small chart on the same steps: the x axis says only the step (B, 1, 2 …). */
export function metricChart(c: StudyComparison, metric: string, experiments: readonly Charted[], requirements: readonly Requirement[], o: ChartOptions = {}): ChartData | null {
  const full = c.metrics.find((m) => m.name === metric);
  if (!full) return null;
  const shown = shownRows(c, o);
  const rows = pick(c.rows, shown);
  const many = rows.length > MANY_STEPS;
  const track = pickTrack(full, shown);
  const scale = scaleOf(track);
  const byId = new Map(experiments.map((e) => [e.id, e]));
  const x = many && !o.categorical ? shown.slice() : shown.map(stepNo);
  const point = (keep: (r: TimelineRow) => boolean): Drawn => {
    const y = rows.map((r, i) => (keep(r) && track.value[i] !== null ? track.value[i]! * scale.factor : null));
    return {
      x, y, ...spreadOf(track, y, scale.factor),
      text: many ? undefined : track.value.map((v, i) => (y[i] === null ? '' : formatQuantity(v!, track.unit, track.name))),
      hover: rows.map((r, i) => `${stepNo(shown[i]!)}. ${r.title} (${r.status})\n${y[i] === null ? '—' : formatQuantity(track.value[i]!, track.unit, track.name)}${many ? '' : changesText(byId.get(r.experimentId))}`),
    };
  };
  const series = keptAndApart(track.name, point, (r) => r.status === 'kept');
  return { title: `${metricInfo(track.name).label} · ${track.name}`, metric: track.name, series, goals: goalLines(requirements, track.name, track.unit, scale.factor), yTitle: scale.label };
}

/** Past this many points a trace is drawn as a plain line (or bare markers), without labels, and thinned to the pixels it has (MANY_STEPS numbers the steps from far fewer). */
export const MANY_POINTS = 500;

/**
 * A long numbered series (a study of thousands of steps) as drawn: at most two points per pixel of
 * the x range shown, each bucket's lowest and highest kept (with their own hover text), so the
 * line looks exactly the same and costs plotly a fraction of the time. Zooming in draws the
 * points of the range zoomed to. Labelled (category) series are drawn whole.
 */
export function thinSeries(s: ChartSeries, range: readonly [number, number] | null, pixels: number): ChartSeries {
  if (s.x.length <= MANY_POINTS || typeof s.x[0] !== 'number') return s;
  // the steps with a value (the line joins across the others: connectgaps), by their x
  const at: number[] = [];
  s.y.forEach((v, i) => { if (v !== null) at.push(i); });
  const xs = at.map((i) => s.x[i] as number);
  const d = minMaxDownsample(xs, at.map((i) => s.y[i]!), range?.[0] ?? (s.x[0] as number), range?.[1] ?? (s.x[s.x.length - 1] as number), Math.max(400, pixels * 2));
  const pick = <T,>(list: readonly T[] | undefined) => list && d.index.map((k) => list[at[k]!]!);
  return { ...s, x: d.x, y: d.y, text: pick(s.text), hover: pick(s.hover), low: pick(s.low), high: pick(s.high) };
}
