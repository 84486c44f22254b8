/**
 * What a capture's surroundings say about it, beyond its text: the command line that printed it and
 * when that ran, and the benchmark it was recorded around. A capture kit's manifest tells all of it
 * (electron/services/kit/kitManifest.ts); it is kept with the stored capture and given to every
 * parse of it (CaptureStream's `context`), so a re-parse reads it the same way.
 *
 * With a start time, the monitors are put on one clock with the benchmark:
 *  - a series without times (vmstat and iostat without -t, top -b) gets sample i at
 *    start + i × interval, the interval read from the command (`vmstat 1`, `top -b -d 2`);
 *  - a series with times of day but no zone (sar, mpstat, pidstat print the server's local time,
 *    read as UTC) is moved by the server's offset from UTC, found from the start time (whole
 *    quarter hours, as time zones are).
 * The summaries then also give each series' figures during the benchmark's run (SeriesJson.run).
 * Pure: runs in Node, a worker or a page.
 */
import { commandParts } from './text';
import type { CaptureContext, CaptureRun, Series } from './types';

export type { CaptureContext, CaptureRun };

/** Options of the sysstat tools and top that take a value: a number after one is not the interval. */
const VALUE_OPTIONS = new Set(['-P', '-p', '-I', '-o', '-f', '-s', '-e', '-c', '-n', '-i', '-m', '-N', '-U', '-u', '-w', '-S', '-E', '-G', '-g', '-T', '-j', '--dec', '-q', '--human']);
const NUMBER = /^\d+(?:\.\d+)?$/;

/**
 * Seconds between two samples of a monitor's command: top's -d (`-d 1`, `-d1`, `-d=1`), else the
 * first of the numbers that end a sysstat/vmstat command (`[interval [count]]`), skipping a number
 * that is an option's value (`mpstat -P 0 1` → 1). Undefined when the command gives none.
 */
export function intervalOf(command: string): number | undefined {
  const { program, args } = commandParts(command);
  if (program === 'top') {
    for (let i = 0; i < args.length; i++) {
      const m = /^-[a-zA-Z]*d=?([\d.]*)$/.exec(args[i]!);
      if (!m) continue;
      const v = Number(m[1] || args[i + 1]);
      if (v > 0) return v;
    }
    return 3; // top's default delay
  }
  let first: number | undefined;
  for (let i = 0; i < args.length; i++) {
    const a = args[i]!;
    if (!NUMBER.test(a)) { first = undefined; continue; }
    if (i > 0 && VALUE_OPTIONS.has(args[i - 1]!)) continue;
    first ??= Number(a);
  }
  return first !== undefined && first > 0 ? first : undefined;
}

const QUARTER_HOUR = 15 * 60_000;
const MAX_OFFSET = 14 * 3_600_000;

/** The first finite time of a series, or undefined. */
function firstTime(s: Series): number | undefined {
  for (const t of s.times ?? []) if (t !== null && Number.isFinite(t)) return t;
  return undefined;
}

/**
 * Put the series on the clock the context tells (see the file's comment). Changes `series` in place;
 * returns what was done, for a test or a note: the zone offset removed (ms) and how many series got
 * times from the interval.
 */
export function alignSeries(series: Series[], ctx: CaptureContext): { offsetMs: number; clocked: number } {
  let offsetMs = 0;
  let clocked = 0;
  if (ctx.started === undefined || !Number.isFinite(ctx.started)) return { offsetMs, clocked };
  // times of day read as UTC: the server's zone is their distance from the true start
  const earliest = Math.min(...series.map(firstTime).filter((t): t is number => t !== undefined));
  if (Number.isFinite(earliest)) {
    const off = Math.round((earliest - ctx.started) / QUARTER_HOUR) * QUARTER_HOUR;
    if (off !== 0 && Math.abs(off) <= MAX_OFFSET) offsetMs = off;
  }
  const interval = ctx.command ? intervalOf(ctx.command) : undefined;
  for (const s of series) {
    if (s.times && firstTime(s) !== undefined) {
      if (offsetMs) s.times = s.times.map((t) => (t === null ? null : t - offsetMs));
      continue;
    }
    if (interval === undefined) continue;
    const step = interval * 1000 * (s.stride ?? 1);
    s.times = Array.from({ length: s.values.length }, (_, j) => Math.round(ctx.started! + j * step));
    clocked++;
  }
  return { offsetMs, clocked };
}

export interface RunSummary { count: number; min: number | null; mean: number | null; max: number | null }

/** A series' figures over its points within the run (times between its start and end), or undefined without times. */
export function runSummary(s: Pick<Series, 'values' | 'times' | 'firstSampleSinceBoot'>, run: CaptureRun): RunSummary | undefined {
  if (!s.times) return undefined;
  let count = 0, sum = 0, min = Infinity, max = -Infinity;
  for (let i = s.firstSampleSinceBoot ? 1 : 0; i < s.values.length; i++) {
    const t = s.times[i];
    const v = s.values[i]!;
    if (t === null || t === undefined || t < run.started || t > run.ended || !Number.isFinite(v)) continue;
    count++; sum += v;
    if (v < min) min = v;
    if (v > max) max = v;
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return count ? { count, min, mean: round(sum / count), max } : { count: 0, min: null, mean: null, max: null };
}

/** Whether a value is a CaptureContext as stored (JSON), for reading it back safely. */
export function contextFromJson(text: string | null | undefined): CaptureContext | undefined {
  if (!text) return undefined;
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as CaptureContext) : undefined;
  } catch { return undefined; }
}
