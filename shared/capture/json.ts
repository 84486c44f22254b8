/**
 * The public JSON form of a parsed capture (`tunebook parse --json`), documented in the README and
 * docs/capture-json.md. Series are summarized unless `series` is asked for, which adds
 * the points (`values`, and `times` when the capture had a clock), and `stride` when a long series
 * was thinned to its point budget (values[j] is sample j × stride; the summary figures stay exact).
 */
import { summarizeSeries } from './series';
import { runSummary, type RunSummary } from './context';
import type { CaptureContext, CaptureRun, ParsedCapture, SeriesSummary, Series, Table } from './types';

export interface CaptureJsonOptions { series?: boolean; tables?: boolean }

export type SeriesJson = SeriesSummary & {
  values?: (number | null)[]; times?: (number | null)[]; stride?: number;
  /** count/min/mean/max of the points within the benchmark's run (context.run), when the series has times */
  run?: RunSummary;
};

export interface CaptureJson {
  file?: string;
  kind: string;
  confidence: number;
  command?: string;
  toolVersion?: string;
  metrics: ParsedCapture['metrics'];
  series: SeriesJson[];
  facts: ParsedCapture['facts'];
  settings: ParsedCapture['settings'];
  tables?: Record<string, Table>;
  findings: ParsedCapture['findings'];
  warnings: string[];
  /** set only on an entry that was not read (a dangling link, a pipe in a folder …): why, in a sentence */
  skipped?: string;
  /** what the capture's surroundings told (a capture kit's manifest): its command, when it ran, the benchmark's run */
  context?: CaptureContext;
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

/** a series' points as JSON has them (null for a missing one), from a plain or a typed array alike (Array.from's callback per point was slower) */
function pointsJson(v: ArrayLike<number>): (number | null)[] {
  const out = new Array<number | null>(v.length);
  for (let i = 0; i < v.length; i++) out[i] = finiteOrNull(v[i]!);
  return out;
}

function seriesJson(s: Series, withPoints: boolean, run: CaptureRun | undefined): SeriesJson {
  const out: SeriesJson = summarizeSeries(s);
  const during = run ? runSummary(s, run) : undefined;
  if (during) out.run = during;
  if (withPoints) {
    out.values = pointsJson(s.values);
    if (s.times) out.times = s.times;
    if (s.stride !== undefined && s.stride > 1) out.stride = s.stride;
  }
  return out;
}

export function toCaptureJson(c: ParsedCapture, opts: CaptureJsonOptions = {}): CaptureJson {
  const out: CaptureJson = {
    ...(c.file !== undefined ? { file: c.file } : {}),
    kind: c.kind,
    confidence: c.confidence,
    ...(c.command !== undefined ? { command: c.command } : {}),
    ...(c.toolVersion !== undefined ? { toolVersion: c.toolVersion } : {}),
    metrics: c.metrics.filter((m) => Number.isFinite(m.value)),
    series: c.series.map((s) => seriesJson(s, opts.series === true, c.context?.run)),
    facts: c.facts,
    settings: c.settings,
    findings: c.findings,
    warnings: c.warnings,
  };
  if (opts.tables && c.tables) out.tables = c.tables;
  if (c.context) out.context = c.context;
  return out;
}
