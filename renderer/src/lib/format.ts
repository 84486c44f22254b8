/** Number formatting shared by the views (values with units: shared/units.ts formatQuantity). */
import type { Comparator } from '../../../shared/model';
import { formatNumber } from '../../../shared/units';

export const COMPARATOR_LABELS: Record<Comparator, string> = { '>=': '≥', '<=': '≤', '>': '>', '<': '<', '=': '=' };

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

/**
 * How a size input shows `bytes`: exactly in the shortest unit when that is short (8 GiB, 50 GiB,
 * 53.7 GB), else rounded to two decimals in the largest binary unit (24684092 KiB of `free` shows
 * as 23.54 GiB). The input keeps the exact bytes until the user edits the number.
 */
export function sizeForInput(bytes: number): { unit: ByteUnit; text: string } {
  const unit = pickByteUnit(bytes);
  const exact = String(+(bytes / unitFactor(unit)).toPrecision(12));
  if (exact.replace(/[^0-9]/g, '').length <= 5) return { unit, text: exact };
  const binary = [...BYTE_UNITS].reverse().find((u) => (u.unit === 'B' || u.unit.endsWith('iB')) && bytes >= u.factor) ?? BYTE_UNITS[0];
  return { unit: binary.unit, text: String(+(bytes / binary.factor).toFixed(2)) };
}

export function formatBytes(bytes: number | null | undefined): string {
  if (bytes === null || bytes === undefined) return '—';
  const unit = pickByteUnit(bytes);
  const v = bytes / unitFactor(unit);
  return `${+v.toFixed(2)} ${unit}`;
}

/** Parses a number field: '' → null, otherwise a finite number or NaN. */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(/,/g, '').replace(/_/g, '');
  if (!t) return null;
  return Number(t);
}
