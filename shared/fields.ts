/**
 * The fields of the notebook's records, checked: one copy of each rule (which fields, how long,
 * which values), used by every API method that writes them and by bundle import alike. Pure: what
 * needs the database (does the profile exist? the capture?) is checked by the caller.
 */
import {
  COMPARATORS, DISK_KINDS, EXPERIMENT_STATUSES,
  type ConfigChange, type Disk, type Experiment, type HardwareProfile, type Requirement, type ResultMetric, type ResultSource,
} from './model';
import { toBase } from './units';
import * as v from './validate';

const today = (): string => new Date().toISOString().slice(0, 10);

export function studyTitle(raw: unknown): string {
  return v.text(raw, 'title', { required: true, max: 300 }).trim();
}

export function studyGoal(raw: unknown): string | undefined {
  return v.optText(raw, 'goal');
}

/** A requirement, its threshold in the base unit of its unit (≥ 100 MiB/s is 104857600 B/s). */
export function requirementFields(raw: unknown, i: number): Omit<Requirement, 'id'> {
  const r = v.record(raw, `requirement ${i + 1}`);
  const threshold = toBase(v.finite(r.threshold, `requirement ${i + 1} threshold`), (v.optText(r.unit, 'unit', 40) ?? '').trim());
  return {
    metric: v.text(r.metric, `requirement ${i + 1} metric`, { required: true, max: 200 }).trim(),
    comparator: v.oneOf(r.comparator, COMPARATORS, `requirement ${i + 1} comparator`),
    threshold: threshold.value,
    unit: threshold.unit,
    label: v.optText(r.label, 'label', 200) ?? '',
  };
}

export type ProfileFields = Omit<HardwareProfile, 'id' | 'usedBy'>;

/** A hardware profile's fields; those missing keep `base`'s. */
export function profileFields(raw: unknown, base?: ProfileFields): ProfileFields {
  const r = v.record(raw, 'profile');
  const str = (key: string, max = 2000): string | undefined => v.optText(r[key], key, max);
  const disks = r.disks === undefined ? base?.disks ?? [] : diskFields(r.disks);
  const name = r.name === undefined ? base?.name : v.text(r.name, 'name', { required: true, max: 300 }).trim();
  if (!name) v.fail('name must not be empty');
  const count = (key: string, current: number | null | undefined): number | null => {
    const x = v.optCount(r[key], key);
    return x === undefined ? current ?? null : x;
  };
  return {
    name,
    cpuModel: str('cpuModel') ?? base?.cpuModel ?? '',
    cores: count('cores', base?.cores),
    threads: count('threads', base?.threads),
    memoryBytes: count('memoryBytes', base?.memoryBytes),
    disks,
    os: str('os') ?? base?.os ?? '',
    kernel: str('kernel') ?? base?.kernel ?? '',
    cloud: str('cloud') ?? base?.cloud ?? '',
    software: str('software', 10_000) ?? base?.software ?? '',
    notes: str('notes', 100_000) ?? base?.notes ?? '',
  };
}

export function diskFields(raw: unknown): Disk[] {
  if (!Array.isArray(raw)) v.fail('disks must be a list');
  if (raw.length > 64) v.fail('at most 64 disks per profile');
  return raw.map((d, i) => {
    const r = v.record(d, `disk ${i + 1}`);
    const n = (key: string): number | null => v.optCount(r[key], `disk ${i + 1} ${key}`) ?? null;
    return {
      name: v.text(r.name, `disk ${i + 1} name`, { required: true, max: 200 }).trim(),
      sizeBytes: n('sizeBytes'),
      logicalSectorBytes: n('logicalSectorBytes'),
      physicalSectorBytes: n('physicalSectorBytes'),
      blockBytes: n('blockBytes'),
      kind: r.kind === undefined ? 'unknown' : v.oneOf(r.kind, DISK_KINDS, `disk ${i + 1} kind`),
    };
  });
}

export type ExperimentFields = Pick<Experiment, 'title' | 'date' | 'notes' | 'status'>;

/** An experiment's own fields (its profile is the caller's: an id in the API, a uid in a bundle). */
export function experimentFields(raw: unknown, base?: ExperimentFields): ExperimentFields {
  const r = v.record(raw, 'experiment');
  const title = r.title === undefined ? base?.title : v.text(r.title, 'title', { required: true, max: 300 }).trim();
  if (!title) v.fail('title must not be empty');
  return {
    title,
    date: r.date === undefined ? base?.date ?? today() : v.isoDate(r.date),
    notes: v.optText(r.notes, 'notes', 1_000_000) ?? base?.notes ?? '',
    status: r.status === undefined ? base?.status ?? 'kept' : v.oneOf(r.status, EXPERIMENT_STATUSES, 'status'),
  };
}

export function changeFields(raw: unknown, base?: Omit<ConfigChange, 'id'>): Omit<ConfigChange, 'id'> {
  const r = v.record(raw, 'config change');
  const key = r.key === undefined ? base?.key : v.text(r.key, 'key', { required: true, max: 1000 }).trim();
  if (!key) v.fail('key must not be empty');
  return {
    key,
    scope: v.optText(r.scope, 'scope', 200) ?? base?.scope ?? '',
    before: v.optText(r.before, 'before', 100_000) ?? base?.before ?? '',
    after: v.optText(r.after, 'after', 100_000) ?? base?.after ?? '',
    why: v.optText(r.why, 'why', 100_000) ?? base?.why ?? '',
  };
}

export type MetricFields = Omit<ResultMetric, 'id' | 'source'>;

/** A result's fields; a value in a unit Tunebook knows is stored in its base unit (8788 KiB/s → 8998912 B/s). */
export function metricFields(raw: unknown, base?: MetricFields): MetricFields {
  const r = v.record(raw, 'metric');
  const name = r.name === undefined ? base?.name : v.text(r.name, 'name', { required: true, max: 200 }).trim();
  if (!name) v.fail('name must not be empty');
  const value = r.value === undefined ? base?.value : v.finite(r.value, 'value');
  if (value === undefined) v.fail('value must be a number');
  const q1 = toBase(value, (v.optText(r.unit, 'unit', 40) ?? base?.unit ?? '').trim());
  return {
    name,
    value: q1.value,
    unit: q1.unit,
    better: r.better === undefined ? base?.better ?? 'higher' : v.oneOf(r.better, ['higher', 'lower'] as const, 'better'),
    primary: r.primary === undefined ? base?.primary ?? false : v.bool(r.primary, 'primary'),
  };
}

/** The figure a result was taken from, without its capture (the caller finds that: an id, or a sha256). */
export function sourceFields(r: Record<string, unknown>): Pick<ResultSource, 'metric' | 'labels' | 'lines'> {
  const out: Pick<ResultSource, 'metric' | 'labels' | 'lines'> = { metric: v.text(r.metric, 'source metric', { required: true, max: 200 }) };
  if (r.labels !== undefined) {
    const labels = v.record(r.labels, 'source labels');
    out.labels = Object.fromEntries(Object.entries(labels).slice(0, 20).map(([k, x]) => [k.slice(0, 100), v.text(x, `source label ${k}`, { max: 1000 })]));
  }
  if (r.lines !== undefined) {
    const l = r.lines;
    if (!Array.isArray(l) || l.length !== 2 || !l.every((n) => Number.isSafeInteger(n) && (n as number) > 0)) v.fail('source lines must be two line numbers');
    out.lines = [l[0] as number, l[1] as number];
  }
  return out;
}

/** Metric names left out of a study's charts. */
export function hiddenMetricsField(raw: unknown): string[] {
  if (!Array.isArray(raw) || raw.length > 1000) v.fail('view hiddenMetrics must be a list of metric names');
  return raw.map((m, i) => v.text(m, `hidden metric ${i + 1}`, { max: 200 }));
}
