/**
 * The public JSON form of a parsed capture (`tunebook parse --json`), documented in the README and
 * docs/capture-json.md. Series are summarized unless `series` is asked for, which adds
 * the points (`values`, and `times` when the capture had a clock), and `stride` when a long series
 * was thinned to its point budget (values[j] is sample j × stride; the summary figures stay exact).
 */
import { summarizeSeries } from './series';
import type { ParsedCapture, SeriesSummary, Series, Table } from './types';

export interface CaptureJsonOptions { series?: boolean; tables?: boolean }

export type SeriesJson = SeriesSummary & { values?: (number | null)[]; times?: (number | null)[]; stride?: number };

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
}

const finiteOrNull = (v: number): number | null => (Number.isFinite(v) ? v : null);

function seriesJson(s: Series, withPoints: boolean): SeriesJson {
  const out: SeriesJson = summarizeSeries(s);
  if (withPoints) {
    out.values = s.values.map(finiteOrNull);
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
    series: c.series.map((s) => seriesJson(s, opts.series === true)),
    facts: c.facts,
    settings: c.settings,
    findings: c.findings,
    warnings: c.warnings,
  };
  if (opts.tables && c.tables) out.tables = c.tables;
  return out;
}
