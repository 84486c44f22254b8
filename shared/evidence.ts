/**
 * Evidence rules shared by the back end, the CLI and the UI: which figure of a capture is its
 * headline result, how a capture figure becomes a result, the metrics a study usually records, and
 * the text full-text search finds a stored capture by. Pure.
 */
import type { Labels, Metric, ParsedCapture } from './capture/types';
import type { Better, Experiment, ResultCandidate } from './model';
import { metricInfo } from './metrics';
import { formatQuantity } from './units';

/** Capture kinds whose headline figure is a result: the load generators and fio. */
export const RESULT_KINDS: Readonly<Record<string, readonly string[]>> = {
  ab: ['requests_per_second'],
  wrk: ['requests_per_second'],
  hey: ['requests_per_second'],
  locust: ['requests_per_second'],
  'redis-benchmark': ['requests_per_second'],
  sysbench: ['transactions_per_second', 'events_per_second', 'queries_per_second', 'requests_per_second'],
  fio: ['iops', 'bandwidth_bytes_per_second'],
};

/** Labels that say which part of a run a figure is (kept in the result's name when they tell figures apart). */
const NAMING_LABELS = ['direction', 'test', 'endpoint', 'type'] as const;

function labelText(labels: Labels | undefined): string {
  if (!labels) return '';
  const parts = Object.entries(labels).map(([k, v]) => (NAMING_LABELS.includes(k as (typeof NAMING_LABELS)[number]) ? v : `${k} ${v}`));
  return parts.length ? ` (${parts.join(', ')})` : '';
}

const snake = (s: string): string => s.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '');

/**
 * A capture figure as a result. Its name is the canonical metric name, with the label values that
 * tell it apart from the capture's other figures of the same name (fio randrw: iops_read and
 * iops_write; one direction only: iops).
 */
export function resultFromMetric(m: Metric, captureId: number, all: readonly Metric[]): ResultCandidate {
  const twins = all.filter((x) => x.name === m.name && x !== m);
  let name = m.name;
  if (twins.length && m.labels) {
    const differing = Object.keys(m.labels).filter((k) => twins.some((t) => t.labels?.[k] !== m.labels![k]));
    const suffix = differing.map((k) => snake(m.labels![k]!)).filter(Boolean).join('_');
    if (suffix) name = `${m.name}_${suffix}`;
  }
  const info = metricInfo(m.name);
  return {
    name,
    value: m.value,
    unit: m.unit,
    better: info.better as Better,
    label: `${info.label}${labelText(m.labels)}: ${formatQuantity(m.value, m.unit, m.name)}`,
    source: {
      captureId,
      metric: m.name,
      ...(m.labels && Object.keys(m.labels).length ? { labels: { ...m.labels } } : {}),
      ...(m.lines ? { lines: [m.lines[0], m.lines[1]] as [number, number] } : {}),
    },
  };
}

/**
 * The headline figures of a load-generator or fio capture, best first: requests per second (ab,
 * wrk, hey, locust's Aggregated row, each redis-benchmark test), sysbench's throughput, fio's IOPS
 * then bandwidth per direction. Figures of one job of a multi-job fio run are left out when the
 * run has overall ones. Empty for other kinds.
 */
export function headlineCandidates(kind: string, metrics: readonly Metric[], captureId: number): ResultCandidate[] {
  const names = RESULT_KINDS[kind];
  if (!names) return [];
  const finite = metrics.filter((m) => Number.isFinite(m.value));
  const out: ResultCandidate[] = [];
  for (const name of names) {
    let found = finite.filter((m) => m.name === name);
    if (found.some((m) => !m.labels?.job)) found = found.filter((m) => !m.labels?.job);
    if (kind === 'locust' && found.some((m) => m.labels?.endpoint === 'Aggregated')) found = found.filter((m) => m.labels?.endpoint === 'Aggregated');
    for (const m of found) out.push(resultFromMetric(m, captureId, finite));
    if (kind === 'sysbench' && out.length) break; // one throughput figure: the mode's own
  }
  return out;
}

/** The index of the candidate to propose: the study's usual primary metric when the capture has it, else the first. */
export function preferredCandidate(candidates: readonly ResultCandidate[], usualPrimary: string | null): number {
  if (usualPrimary) {
    const i = candidates.findIndex((c) => c.name === usualPrimary);
    if (i >= 0) return i;
  }
  return 0;
}

export interface UsualMetric { name: string; unit: string; better: Better; primary: boolean }

/**
 * The metrics a study records, most used first (the primary one of most experiments leads): what a
 * new experiment's result form proposes instead of an empty one.
 */
export function usualMetrics(experiments: readonly Pick<Experiment, 'metrics'>[]): UsualMetric[] {
  const seen = new Map<string, UsualMetric & { uses: number; primaries: number; last: number }>();
  experiments.forEach((e, i) => {
    for (const m of e.metrics) {
      const u = seen.get(m.name) ?? { name: m.name, unit: m.unit, better: m.better, primary: false, uses: 0, primaries: 0, last: i };
      u.uses++;
      if (m.primary) u.primaries++;
      u.unit = m.unit;
      u.better = m.better;
      u.last = i;
      seen.set(m.name, u);
    }
  });
  const list = [...seen.values()].sort((a, b) => b.primaries - a.primaries || b.uses - a.uses || a.last - b.last);
  return list.map((u, i) => ({ name: u.name, unit: u.unit, better: u.better, primary: i === 0 && u.primaries > 0 }));
}

/**
 * What full-text search finds a stored capture by: its name, kind, command and tool version, its
 * metric names and values (as stored and as shown: "2197" and "2,197 IOPS"), its series columns,
 * and its findings.
 */
export function captureSearchText(name: string, c: ParsedCapture): string {
  const parts: string[] = [name, c.kind];
  if (c.command) parts.push(c.command);
  if (c.toolVersion) parts.push(c.toolVersion);
  const seen = new Set<string>();
  const add = (s: string) => { if (!seen.has(s)) { seen.add(s); parts.push(s); } };
  for (const m of c.metrics.slice(0, 2000)) {
    if (!Number.isFinite(m.value)) continue;
    add(m.name);
    if (m.column) add(m.column);
    add(String(Math.round(m.value * 1000) / 1000));
    add(formatQuantity(m.value, m.unit, m.name));
  }
  for (const s of c.series.slice(0, 2000)) { add(s.name); add(s.column); }
  for (const f of c.findings) { add(f.id); add(f.message); }
  return parts.join(' ');
}
