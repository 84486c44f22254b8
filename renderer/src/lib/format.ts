/** What the forms need to read and show numbers (how numbers are written: shared/format.ts). */
import { BYTE_UNITS, pickByteUnit, unitFactor } from '../../../shared/format';
import type { ByteUnit } from '../../../shared/format';

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

/** Parses a number field: '' → null, otherwise a finite number or NaN. */
export function parseNumber(text: string): number | null {
  const t = text.trim().replace(/,/g, '').replace(/_/g, '');
  if (!t) return null;
  return Number(t);
}
