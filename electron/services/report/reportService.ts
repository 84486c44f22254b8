/**
 * Reports of a study, read from the notebook: the report's input (the study, the chosen
 * experiments, their profiles and what each capture shows), rendered as HTML or Markdown (shared/
 * report), and written to disk — the Markdown with its chart images beside it. Runs in the store
 * worker (storeWorker.ts), so a long study never stalls the window.
 */
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TunebookError } from '../../../shared/api';
import { PARSERS } from '../../../shared/capture/registry';
import type { Metric } from '../../../shared/capture/types';
import { headlineCandidates } from '../../../shared/evidence';
import { metricInfo } from '../../../shared/metrics';
import { renderHtml } from '../../../shared/report/html';
import { renderMarkdown } from '../../../shared/report/markdown';
import type { MarkdownReport } from '../../../shared/report/markdown';
import { buildStory } from '../../../shared/report/story';
import type { ReportCapture, ReportInput } from '../../../shared/report/story';
import { formatQuantity } from '../../../shared/units';
import type { Db } from '../../db/connection';
import * as q from '../../db/queries';
import { readLines, storedCaptureJson } from '../captureStore';
import { interactiveScripts } from './interactiveScripts';

/** How much of each capture's raw text a report carries (the whole capture travels in the bundle). */
export const REPORT_RAW_LINES = 2000;
export const REPORT_RAW_BYTES = 256 * 1024;
/** Figures of a capture the report lists when it has no headline figure (iostat, vmstat …). */
const MAX_FIGURES = 12;

export interface ReportSelection {
  studyId: number;
  /** the experiments reported (kept in the study's order); all when absent */
  experimentIds?: readonly number[] | null;
}

const KIND_TITLES = new Map(PARSERS.map((p) => [p.id, p.title]));

function labelsText(m: Metric): string {
  const l = m.labels ? Object.entries(m.labels).map(([k, v]) => (k === 'direction' || k === 'endpoint' || k === 'test' ? v : `${k} ${v}`)) : [];
  return l.length ? ` (${l.join(', ')})` : '';
}

/** A capture's figures for a report: its headline figures (load generators, fio), else its first ones. */
function figuresOf(kind: string, metrics: readonly Metric[], captureId: number): { figures: ReportCapture['figures']; more: number } {
  const headline = headlineCandidates(kind, metrics, captureId);
  if (headline.length) {
    return { figures: headline.map((c) => ({ label: c.label.slice(0, c.label.lastIndexOf(':')), value: formatQuantity(c.value, c.unit, c.source.metric) })), more: metrics.length - headline.length };
  }
  const shown = metrics.slice(0, MAX_FIGURES);
  return {
    figures: shown.map((m) => ({ label: `${metricInfo(m.name).label}${labelsText(m)}`, value: formatQuantity(m.value, m.unit, m.name) })),
    more: metrics.length - shown.length,
  };
}

/** The first lines of a capture, up to the report's limits. */
function rawText(db: Db, captureId: number): { text: string; shownLines: number } {
  const { lines } = readLines(db, captureId, 1, REPORT_RAW_LINES);
  let bytes = 0;
  let n = 0;
  while (n < lines.length && bytes + lines[n]!.length + 1 <= REPORT_RAW_BYTES) bytes += lines[n++]!.length + 1;
  return { text: lines.slice(0, n).join('\n'), shownLines: n };
}

export function reportInput(db: Db, sel: ReportSelection, opts: { appVersion: string; now?: string }): ReportInput {
  const study = q.getStudy(db, sel.studyId);
  if (!study) throw new TunebookError('not-found', `study ${sel.studyId} does not exist (it may have been deleted)`);
  const all = q.listExperiments(db, study.id);
  const wanted = sel.experimentIds ? new Set(sel.experimentIds) : null;
  const experiments = wanted ? all.filter((e) => wanted.has(e.id)) : all;
  if (wanted && experiments.length !== wanted.size) throw new TunebookError('not-found', `some of the chosen experiments are not in "${study.title}" (they may have been deleted)`);
  if (!experiments.length) throw new TunebookError('invalid', `"${study.title}" has no experiments to report`);
  const captures = new Map<number, ReportCapture>();
  for (const e of experiments) {
    for (const l of e.captures) {
      const parsed = storedCaptureJson(db, l.captureId);
      const { figures, more } = figuresOf(l.kind, parsed.metrics, l.captureId);
      captures.set(l.linkId, {
        name: l.name, note: l.note, kind: l.kind, kindTitle: KIND_TITLES.get(l.kind) ?? l.kind, bytes: l.bytes, lines: l.lines,
        ...(parsed.command ? { command: parsed.command } : {}), ...(parsed.toolVersion ? { toolVersion: parsed.toolVersion } : {}),
        figures, moreFigures: more, findings: l.findings, raw: rawText(db, l.captureId),
      });
    }
  }
  return {
    study, experiments, studyExperimentCount: all.length, profiles: q.listProfiles(db), captures,
    generatedAt: opts.now ?? new Date().toISOString(), appVersion: opts.appVersion,
  };
}

/** The HTML report; `interactive`: with the charts' interactive versions (plotly.js inline, about 1.1 MB more). */
export function reportHtml(db: Db, sel: ReportSelection, opts: { appVersion: string; now?: string; interactive?: boolean }): string {
  return renderHtml(buildStory(reportInput(db, sel, opts)), opts.interactive ? { interactive: interactiveScripts() } : {});
}

/** Where the Markdown's chart images go: a folder named after the file ("report.md" → "report-charts"). */
export function chartDirOf(mdFile: string): string {
  return `${path.basename(mdFile, path.extname(mdFile))}-charts`;
}

export function reportMarkdown(db: Db, sel: ReportSelection, mdFile: string, opts: { appVersion: string; now?: string }): MarkdownReport {
  return renderMarkdown(buildStory(reportInput(db, sel, opts)), chartDirOf(mdFile));
}

/** Writes a file whole or not at all: a temporary file beside it, renamed at the end. */
export function writeAtomically(file: string, data: string | Buffer): void {
  const tmp = `${file}.partial-${process.pid}`;
  try {
    writeFileSync(tmp, data);
    renameSync(tmp, file);
  } catch (e) {
    rmSync(tmp, { force: true });
    throw e;
  }
}

/** The Markdown file and its chart images; returns every file written. */
export function writeMarkdown(report: MarkdownReport, mdFile: string): string[] {
  const dir = path.dirname(mdFile);
  const written: string[] = [];
  for (const img of report.images) {
    const file = path.join(dir, ...img.path.split('/'));
    mkdirSync(path.dirname(file), { recursive: true });
    writeAtomically(file, img.svg);
    written.push(file);
  }
  writeAtomically(mdFile, report.markdown);
  return [mdFile, ...written];
}
