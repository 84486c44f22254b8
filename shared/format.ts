/**
 * How Tunebook writes numbers, sizes and requirements for people: in the app and in every exported
 * report alike (values with units: shared/units.ts formatQuantity).
 */
import type { Comparator, Requirement } from './model';
import { formatNumber, formatQuantity } from './units';

export const COMPARATOR_LABELS: Record<Comparator, string> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<', '=': '=' };

/** A series' or metric's labels as one text, "device=vda cpu=all" ('' without labels). */
export function labelsText(labels: Readonly<Record<string, string>> | undefined): string {
  return Object.entries(labels ?? {}).map(([k, v]) => `${k}=${v}`).join(' ');
}

/** "1 capture", "2,197 captures": a count with its noun. */
export function plural(n: number, one: string, many = `${one}s`): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;
}

/** +46.4 %, +1,857.2 %, −12.0 % (a real minus), 0.0 %; an em dash when there is nothing to compare. */
export function formatPercent(p: number | null | undefined): string {
  if (p === null || p === undefined || !Number.isFinite(p)) return '—';
  const rounded = Math.round(p * 10) / 10;
  const sign = rounded > 0 ? '+' : rounded < 0 ? '\u2212' : '';
  const digits = Math.abs(rounded) >= 1000 ? formatNumber(Math.abs(rounded)) : Math.abs(rounded).toFixed(1);
  return `${sign}${digits.includes('.') ? digits : `${digits}.0`} %`;
}

export const BYTE_UNITS = [
  { unit: 'B', factor: 1 },
  { unit: 'KB', factor: 1e3 }, { unit: 'KiB', factor: 2 ** 10 },
  { unit: 'MB', factor: 1e6 }, { unit: 'MiB', factor: 2 ** 20 },
  { unit: 'GB', factor: 1e9 }, { unit: 'GiB', factor: 2 ** 30 },
  { unit: 'TB', factor: 1e12 }, { unit: 'TiB', factor: 2 ** 40 },
] as const;
export type ByteUnit = (typeof BYTE_UNITS)[number]['unit'];

export function unitFactor(unit: ByteUnit): number {
  return BYTE_UNITS.find((u) => u.unit === unit)!.factor;
}

/**
 * The unit that shows `bytes` most naturally: the shortest number ≥ 1 (8 GiB for 8589934592,
 * 53.7 GB for 53700000000 rather than 53700 MB); ties go to the larger unit.
 */
export function pickByteUnit(bytes: number): ByteUnit {
  let best: { unit: ByteUnit; len: number; factor: number } = { unit: 'B', len: String(bytes).length, factor: 1 };
  for (const u of BYTE_UNITS) {
    if (bytes < u.factor) continue;
    const len = String(+(bytes / u.factor).toPrecision(12)).length;
    if (len < best.len || (len === best.len && u.factor > best.factor)) best = { unit: u.unit, len, factor: u.factor };
  }
  return best.unit;
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const unit = pickByteUnit(bytes);
  const v = bytes / unitFactor(unit);
  return `${+v.toFixed(2)} ${unit}`;
}

const TYPED_COMPARATORS: readonly [RegExp, Comparator][] = [
  [/^(?:≥|>=|=>)/, '>='], [/^(?:≤|<=|=<)/, '<='], [/^>/, '>'], [/^</, '<'], [/^==?/, '='],
];

/**
 * A threshold typed with its comparator in front ("≥ 100 MiB/s", ">= 30,000", "< 5 %"): the
 * comparator and the rest; no comparator when the text does not start with one.
 */
export function splitComparator(text: string): { comparator?: Comparator; rest: string } {
  const t = text.trim();
  for (const [re, comparator] of TYPED_COMPARATORS) {
    const m = re.exec(t);
    if (m) return { comparator, rest: t.slice(m[0].length).trim() };
  }
  return { rest: t };
}

/** "p99 latency ≤ 70 ms": a requirement as people write it (its label, else its metric). */
export function requirementText(q: Pick<Requirement, 'label' | 'metric' | 'comparator' | 'threshold' | 'unit'>): string {
  return `${q.label || q.metric} ${COMPARATOR_LABELS[q.comparator]} ${formatQuantity(q.threshold, q.unit, q.metric)}`;
}
