/**
 * Two experiments side by side — from one study or two, on one machine or two: their metrics'
 * deltas in units, their config changes and hardware profiles field by field. Pure; the back end
 * adds what needs stored captures (settings snapshots, series to overlay).
 */
import type { Better, Disk, Experiment, HardwareProfile } from './model';
import { percentChange, runsOf } from './timeline';
import { formatQuantity } from './units';

export interface MetricDelta {
  name: string;
  /** the unit both values are in (A's) */
  unit: string;
  better: Better;
  /** medians of each side's runs; null where that side did not measure it */
  a: number | null;
  b: number | null;
  aRuns: number;
  bRuns: number;
  /** b − a, in `unit`; null when either is missing or the units cannot be compared */
  delta: number | null;
  deltaPercent: number | null;
  /** false: B measured it in a unit A's cannot be compared with */
  comparable: boolean;
}

export interface FieldDiff { key: string; label: string; a: string | null; b: string | null; same: boolean }

/** Every metric either side measured: A's first, then B's others. */
export function metricDeltas(a: Experiment, b: Experiment): MetricDelta[] {
  const names: string[] = [];
  for (const m of [...a.metrics, ...b.metrics]) if (!names.includes(m.name)) names.push(m.name);
  return names.map((name) => {
    const first = a.metrics.find((m) => m.name === name) ?? b.metrics.find((m) => m.name === name)!;
    const ra = runsOf(a.metrics, name, first.unit);
    const rb = runsOf(b.metrics, name, first.unit);
    const bMeasured = b.metrics.some((m) => m.name === name);
    const comparable = !bMeasured || rb !== null;
    const av = ra?.median ?? null;
    const bv = rb?.median ?? null;
    return {
      name, unit: first.unit, better: first.better, a: av, b: bv, aRuns: ra?.values.length ?? 0, bRuns: rb?.values.length ?? 0,
      delta: av !== null && bv !== null ? bv - av : null,
      deltaPercent: percentChange(av, bv),
      comparable,
    };
  });
}

/** The config changes each side records, by scope and key (the "after" value; "before → after" when both are known). */
export function configDiff(a: Experiment, b: Experiment): FieldDiff[] {
  const text = (e: Experiment, scope: string, key: string): string | null => {
    const c = e.configChanges.find((x) => x.scope === scope && x.key === key);
    return c ? (c.before ? `${c.before} → ${c.after}` : c.after) : null;
  };
  const keys: { scope: string; key: string }[] = [];
  for (const c of [...a.configChanges, ...b.configChanges]) if (!keys.some((k) => k.scope === c.scope && k.key === c.key)) keys.push({ scope: c.scope, key: c.key });
  return keys.map(({ scope, key }) => {
    const av = text(a, scope, key);
    const bv = text(b, scope, key);
    return { key: `${scope}\u0000${key}`, label: scope ? `${scope} · ${key}` : key, a: av, b: bv, same: av === bv };
  });
}

const diskText = (d: Disk): string => [
  d.name,
  d.sizeBytes ? formatQuantity(d.sizeBytes, 'B') : '',
  d.logicalSectorBytes ? `${formatQuantity(d.logicalSectorBytes, 'B')} sectors` : '',
  d.blockBytes ? `${formatQuantity(d.blockBytes, 'B')} blocks` : '',
  d.kind !== 'unknown' ? d.kind : '',
].filter(Boolean).join(', ');

/** The two hardware profiles field by field (a missing profile reads as nothing). */
export function profileDiff(a: HardwareProfile | null, b: HardwareProfile | null): FieldDiff[] {
  const fields: [string, string, (p: HardwareProfile) => string][] = [
    ['name', 'Profile', (p) => p.name],
    ['cpuModel', 'CPU', (p) => p.cpuModel],
    ['cores', 'Cores / threads', (p) => [p.cores, p.threads].filter((x) => x !== null).join(' / ')],
    ['memoryBytes', 'Memory', (p) => (p.memoryBytes ? formatQuantity(p.memoryBytes, 'B') : '')],
    ['disks', 'Disks', (p) => p.disks.map(diskText).join('; ')],
    ['os', 'OS', (p) => p.os],
    ['kernel', 'Kernel', (p) => p.kernel],
    ['cloud', 'Cloud / instance', (p) => p.cloud],
    ['software', 'Software', (p) => p.software],
  ];
  return fields.map(([key, label, get]) => {
    const av = a ? get(a) || null : null;
    const bv = b ? get(b) || null : null;
    return { key, label, a: av, b: bv, same: av === bv };
  });
}
