/**
 * Input checks shared by every host: the IPC and HTTP boundaries hand the services untrusted JSON,
 * and each service checks what it receives with these before touching the database.
 */
import { TunebookError } from './api';

export function fail(message: string): never {
  throw new TunebookError('invalid', message);
}

export function id(v: unknown, what = 'id'): number {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v <= 0) fail(`${what} must be a positive integer`);
  return v;
}

export function text(v: unknown, what: string, opts: { max?: number; required?: boolean } = {}): string {
  const max = opts.max ?? 100_000;
  if (typeof v !== 'string') fail(`${what} must be text`);
  const s = v;
  if (opts.required && s.trim() === '') fail(`${what} must not be empty`);
  if (s.length > max) fail(`${what} is too long (${s.length} characters, at most ${max})`);
  // the notebook stores UTF-8, which cannot hold half a UTF-16 pair: refused, never quietly made U+FFFD
  const broken = LONE_SURROGATE.exec(s);
  if (broken) fail(`${what} holds a broken character (half of a UTF-16 pair, at character ${broken.index + 1}); it was not saved`);
  return s;
}

const LONE_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

export function optText(v: unknown, what: string, max?: number): string | undefined {
  return v === undefined ? undefined : text(v, what, max === undefined ? {} : { max });
}

export function finite(v: unknown, what: string): number {
  if (typeof v !== 'number' || !Number.isFinite(v)) fail(`${what} must be a number`);
  return v;
}

export function optCount(v: unknown, what: string): number | null | undefined {
  if (v === undefined) return undefined;
  if (v === null) return null;
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0) fail(`${what} must be a whole number ≥ 0`);
  return v;
}

export function oneOf<T extends string>(v: unknown, allowed: readonly T[], what: string): T {
  if (typeof v !== 'string' || !(allowed as readonly string[]).includes(v)) fail(`${what} must be one of ${allowed.join(', ')}`);
  return v as T;
}

export function bool(v: unknown, what: string): boolean {
  if (typeof v !== 'boolean') fail(`${what} must be true or false`);
  return v;
}

export function record(v: unknown, what: string): Record<string, unknown> {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) fail(`${what} must be an object`);
  return v as Record<string, unknown>;
}

export function isoDate(v: unknown, what = 'date'): string {
  const s = text(v, what, { max: 10 });
  if (!/^\d{4}-\d{2}-\d{2}$/.test(s) || Number.isNaN(Date.parse(s + 'T00:00:00Z'))) fail(`${what} must be a date like 2026-11-29`);
  // Date.parse rolls 2026-02-30 over to March 2: a real day reads back as itself
  if (new Date(`${s}T00:00:00Z`).toISOString().slice(0, 10) !== s) fail(`${what} ${s} is not a day of the calendar`);
  return s;
}
