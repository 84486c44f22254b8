/**
 * Showing parsed capture values the way the tool printed them. Values arrive in base units
 * (seconds, bytes, per second: docs/capture-json.md); `column` is the label as the tool
 * printed it, and hints at the unit the user knows (fio "clat (usec)", iostat "wkB/s", "await").
 */
import type { FactValue, Labels } from '../../../../shared/capture/types';

export interface Scale {
  /** multiply a base-unit value by this to get the shown number */
  factor: number;
  /** shown after the number ('' for plain counts) */
  suffix: string;
}

const BINARY = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'] as const;

/** iostat / sar -d / pidstat print these in milliseconds. */
const MS_COLUMNS = /^(?:[rwdf]_?await|await|svctm|r_await|w_await|d_await|f_await|iodelay)$/i;

const TIME_STEPS: Scale[] = [
  { factor: 1e9, suffix: 'ns' }, { factor: 1e6, suffix: 'µs' }, { factor: 1e3, suffix: 'ms' }, { factor: 1, suffix: 's' },
];

function timeScale(column: string, magnitude: number): Scale {
  let hinted = -1;
  if (/\bnsec\b|\(ns\)/i.test(column)) hinted = 0;
  else if (/\busec\b|\(us\)|µs/i.test(column)) hinted = 1;
  else if (/\bmsec\b|\(ms\)|\bms\b|_ms$/i.test(column) || MS_COLUMNS.test(column)) hinted = 2;
  if (hinted >= 0) {
    // the tool's unit, stepped up while the number would reach 1,000 (fio's 6497.8k usec → 6.5 s, as 1.4 s beside it)
    let i = hinted;
    while (i < TIME_STEPS.length - 1 && magnitude * TIME_STEPS[i]!.factor >= 1000) i++;
    return TIME_STEPS[i]!;
  }
  if (magnitude === 0 || magnitude >= 1) return TIME_STEPS[3]!;
  if (magnitude >= 1e-3) return TIME_STEPS[2]!;
  if (magnitude >= 1e-6) return TIME_STEPS[1]!;
  return TIME_STEPS[0]!;
}

function byteScale(column: string, magnitude: number, per: string): Scale {
  // sysstat and friends: "kB" and "MB" are 1024-based; keep the tool's spelling.
  if (/kB/.test(column)) return { factor: 1 / 1024, suffix: `kB${per}` };
  if (/MB/.test(column) && !/MiB/.test(column)) return { factor: 1 / 2 ** 20, suffix: `MB${per}` };
  // otherwise fio's way: the smallest binary unit that keeps the number under 10,000 (8788KiB/s, 168MiB/s)
  let i = 0;
  while (i < BINARY.length - 1 && magnitude / 1024 ** i >= 10_000) i++;
  return { factor: 1 / 1024 ** i, suffix: `${BINARY[i]}${per}` };
}

/** The scale for a value (or a set of values of one series, given their largest magnitude). */
export function scaleFor(unit: string, column: string | undefined, magnitude: number): Scale {
  const col = column ?? '';
  const mag = Number.isFinite(magnitude) ? Math.abs(magnitude) : 0;
  switch (unit) {
    case 's': return timeScale(col, mag);
    case 'B': return byteScale(col, mag, '');
    case 'B/s': return byteScale(col, mag, '/s');
    case '%': return { factor: 1, suffix: '%' };
    // a column that already says "per second" (w/s, Requests/sec) needs no "/s" after each number
    case '1/s': return { factor: 1, suffix: /\/s(?:ec)?$|per sec/i.test(col) ? '' : '/s' };
    case 'count': case 'ratio': case '': return { factor: 1, suffix: '' };
    default: return { factor: 1, suffix: unit };
  }
}

const NUMBER_FORMATS = {
  whole: new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 }),
  one: new Intl.NumberFormat('en-US', { maximumFractionDigits: 1 }),
  two: new Intl.NumberFormat('en-US', { maximumFractionDigits: 2 }),
  small: new Intl.NumberFormat('en-US', { maximumSignificantDigits: 3 }),
};

/** 2,197 · 97.8 · 4.12 · 0.0123: grouped, with as many decimals as the size calls for. */
export function formatNumber(v: number): string {
  if (!Number.isFinite(v)) return '—';
  const a = Math.abs(v);
  if (a >= 1000) return NUMBER_FORMATS.whole.format(v);
  if (a >= 100) return NUMBER_FORMATS.one.format(v);
  if (a >= 1) return NUMBER_FORMATS.two.format(v);
  return NUMBER_FORMATS.small.format(v);
}

export function formatScaled(v: number | null | undefined, scale: Scale): string {
  if (v === null || v === undefined || !Number.isFinite(v)) return '—';
  const n = formatNumber(v * scale.factor);
  if (!scale.suffix) return n;
  return `${n} ${scale.suffix}`;
}

/** The exact stored value, for a tooltip. */
export function rawQuantity(value: number | null | undefined, unit: string): string {
  if (value === null || value === undefined) return '';
  return unit && unit !== 'count' ? `${value} ${unit}` : String(value);
}

export function labelPairs(labels: Labels | undefined): [string, string][] {
  return labels ? Object.entries(labels) : [];
}

/** "97 %" for a confidence in 0..1. */
export function formatConfidence(c: number): string {
  if (!Number.isFinite(c)) return '—';
  return `${Math.round(c * 100)} %`;
}

/** A primitive fact or setting as text. */
export function factText(v: FactValue): string {
  if (v === null) return '—';
  if (typeof v === 'boolean') return v ? 'yes' : 'no';
  if (typeof v === 'number') return Number.isInteger(v) ? String(v) : formatNumber(v);
  if (typeof v === 'string') return v;
  return JSON.stringify(v);
}

export function isPrimitiveFact(v: FactValue): v is string | number | boolean | null {
  return v === null || typeof v !== 'object';
}

