/**
 * A study (or a chosen set of its experiments) as a bundle: Tunebook's full-fidelity bundle.json,
 * the raw captures byte for byte, one folder per experiment, and the RO-Crate metadata that makes
 * the archive a valid .eln file other lab notebooks read.
 */
import { Readable } from 'node:stream';
import { TunebookError } from '../../../shared/api';
import { BUNDLE_FORMAT, BUNDLE_JSON_PATH, BUNDLE_VERSION } from '../../../shared/bundle/format';
import type { BundleCapture, BundleExperiment, BundleJson, BundleProfile, BundleStudy } from '../../../shared/bundle/format';
import { archiveSegment, buildRoCrate } from '../../../shared/bundle/roCrate';
import type { Experiment } from '../../../shared/model';
import type { Db } from '../../db/connection';
import * as bq from '../../db/bundleQueries';
import * as cq from '../../db/captureQueries';
import * as q from '../../db/queries';
import { captureBytes, storedCaptureJson } from '../captureStore';
import { writeArchive } from './elnZip';
import type { ArchiveEntry } from './elnZip';
import { createHash } from 'node:crypto';

export interface BundleSelection {
  studyId: number;
  /** the experiments to export (in the study's order whatever the order given); all when absent */
  experimentIds?: readonly number[] | null;
}

/** A file or folder name from a title: "02-opcache-validate-timestamps" (ASCII, lower case; see archiveSegment). */
export function slug(text: string, max = 48): string {
  return archiveSegment(text.replace(/\./g, ' '), 'untitled').toLowerCase().slice(0, max).replace(/[-.]+$/, '') || 'untitled';
}

/** A capture's file name inside the archive: its own name made safe (archiveSegment), unique within its folder. */
function fileName(name: string, taken: Set<string>): string {
  const base = archiveSegment(name.split(/[\\/]/).pop() ?? '', 'capture.txt');
  let out = base;
  for (let n = 2; taken.has(out.toLowerCase()); n++) {
    const dot = base.lastIndexOf('.');
    out = dot > 0 ? `${base.slice(0, dot)}-${n}${base.slice(dot)}` : `${base}-${n}`;
  }
  taken.add(out.toLowerCase());
  return out;
}

function uniqueName(name: string, taken: Set<string>): string {
  let out = name;
  for (let n = 2; taken.has(out); n++) out = `${name}-${n}`;
  taken.add(out);
  return out;
}

export interface CollectedBundle {
  bundle: BundleJson;
  /** the captures to write, by sha256: where their bytes are in the notebook */
  captureIds: Map<string, number>;
}

/** Everything the bundle says about the selected studies and experiments (reads only). */
export function collectBundle(db: Db, selections: readonly BundleSelection[], opts: { appVersion: string; now?: string }): CollectedBundle {
  const studies: BundleStudy[] = [];
  const captures = new Map<string, BundleCapture>();
  const captureIds = new Map<string, number>();
  const profileIds = new Set<number>();
  const studyFolders = new Set<string>();
  for (const sel of selections) {
    const study = q.getStudy(db, sel.studyId);
    if (!study) throw new TunebookError('not-found', `study ${sel.studyId} does not exist (it may have been deleted)`);
    const all = q.listExperiments(db, study.id);
    const wanted = sel.experimentIds ? new Set(sel.experimentIds) : null;
    const experiments = wanted ? all.filter((e) => wanted.has(e.id)) : all;
    if (wanted && experiments.length !== wanted.size) {
      throw new TunebookError('not-found', `some of the chosen experiments are not in "${study.title}" (they may have been deleted)`);
    }
    const uids = bq.uidsOf(db, 'experiment', experiments.map((e) => e.id));
    const studyFolder = uniqueName(slug(study.title), studyFolders);
    const width = String(all.length).length;
    const out: BundleExperiment[] = experiments.map((e) => {
      if (e.profileId !== null) profileIds.add(e.profileId);
      // numbered by the step's place in the whole study, so folders sort as the story goes
      const folder = `${studyFolder}/${String(all.indexOf(e) + 1).padStart(Math.max(2, width), '0')}-${slug(e.title)}/`;
      return experimentOf(db, e, uids.get(e.id)!, folder, captures, captureIds);
    });
    studies.push({
      uid: bq.uidsOf(db, 'study', [study.id]).get(study.id)!,
      title: study.title,
      goal: study.goal,
      requirements: study.requirements.map(({ id: _id, ...r }) => r),
      view: {
        ...(study.view.hiddenMetrics?.length ? { hiddenMetrics: study.view.hiddenMetrics } : {}),
        ...(study.view.hiddenExperiments?.length
          ? { hiddenExperiments: study.view.hiddenExperiments.map((id) => uids.get(id)).filter((u): u is string => u !== undefined) }
          : {}),
      },
      createdAt: study.createdAt,
      updatedAt: study.updatedAt,
      experiments: out,
    });
  }
  const profileOrder = [...profileIds].sort((a, b) => a - b);
  const profiles: BundleProfile[] = profileOrder.map((id) => {
    const { id: _id, usedBy: _u, ...p } = bq.profileWithUid(db, id)!;
    return p;
  });
  const profileUid = new Map(profileOrder.map((id, i) => [id, profiles[i]!.uid]));
  for (const s of studies) for (const e of s.experiments) e.profile = e.profile === null ? null : profileUid.get(Number(e.profile))!;
  return {
    bundle: {
      format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: opts.now ?? new Date().toISOString(),
      app: { name: 'Tunebook', version: opts.appVersion }, profiles, studies, captures: [...captures.values()],
    },
    captureIds,
  };
}

/** One experiment; its profile is left as the profile's id (as text) until the profiles' uids are known (collectBundle). */
function experimentOf(db: Db, e: Experiment, uid: string, folder: string, captures: Map<string, BundleCapture>, captureIds: Map<string, number>): BundleExperiment {
  const taken = new Set<string>();
  for (const link of e.captures) {
    if (captures.has(link.sha256)) continue;
    // stored once, in the folder of the first experiment that links it
    const row = cq.getCaptureRow(db, link.captureId)!;
    const context = storedCaptureJson(db, link.captureId).context;
    captures.set(link.sha256, {
      sha256: link.sha256, path: `${folder}${fileName(link.name, taken)}`, size: row.size, lines: row.line_count,
      forcedKind: row.forced_kind, kind: row.kind, encodingFormat: 'text/plain', ...(context ? { context } : {}),
    });
    captureIds.set(link.sha256, link.captureId);
  }
  const shaOf = (captureId: number | null): string | null => (captureId === null ? null : cq.getCaptureRow(db, captureId)?.sha256 ?? null);
  return {
    uid, title: e.title, date: e.date, notes: e.notes, status: e.status,
    profile: e.profileId === null ? null : String(e.profileId),
    configChanges: e.configChanges.map(({ id: _id, ...c }) => c),
    metrics: e.metrics.map((m) => ({
      name: m.name, value: m.value, unit: m.unit, better: m.better, primary: m.primary,
      source: m.source ? {
        sha256: shaOf(m.source.captureId), captureName: m.source.captureName, metric: m.source.metric,
        ...(m.source.labels ? { labels: m.source.labels } : {}), ...(m.source.lines ? { lines: m.source.lines } : {}),
      } : null,
    })),
    captures: e.captures.map((l) => ({ sha256: l.sha256, name: l.name, note: l.note, addedAt: l.addedAt })),
    createdAt: e.createdAt, updatedAt: e.updatedAt, folder,
  };
}

export interface ExportProgress { bytesDone: number; bytesTotal: number }

/** The archive's root folder: the study's name, or "tunebook-export" for several. */
function rootName(bundle: BundleJson): string {
  return bundle.studies.length === 1 ? slug(bundle.studies[0]!.title) : 'tunebook-export';
}

/** Writes the bundle of the selection to `outPath` (atomically: a partial file never stays). */
export async function writeBundle(db: Db, selections: readonly BundleSelection[], outPath: string, opts: {
  appVersion: string; now?: string; onProgress?: (p: ExportProgress) => void; signal?: AbortSignal;
}): Promise<{ bytes: number; bundle: BundleJson }> {
  const { bundle, captureIds } = collectBundle(db, selections, opts);
  const json = Buffer.from(JSON.stringify(bundle, null, 1));
  const entries: ArchiveEntry[] = [
    { path: BUNDLE_JSON_PATH, size: json.length, source: () => json },
    ...bundle.captures.map((c): ArchiveEntry => ({
      path: c.path, size: c.size,
      source: () => Readable.from(captureBytes(db, captureIds.get(c.sha256)!), { objectMode: false }),
    })),
  ];
  // the name ELNs show: the one the capture was attached under
  const captureNames = new Map(bundle.studies.flatMap((st) => st.experiments.flatMap((e) => e.captures.map((l) => [l.sha256, l.name] as const))).reverse());
  const metadata = buildRoCrate(bundle, [
    { path: BUNDLE_JSON_PATH, size: json.length, sha256: createHash('sha256').update(json).digest('hex'), encodingFormat: 'application/json', name: 'Tunebook bundle data' },
    ...bundle.captures.map((c) => ({ path: c.path, size: c.size, sha256: c.sha256, encodingFormat: c.encodingFormat, name: captureNames.get(c.sha256) ?? c.path.slice(c.path.lastIndexOf('/') + 1) })),
  ]);
  const r = await writeArchive(outPath, rootName(bundle), entries, metadata, {
    ...(opts.onProgress ? { onProgress: (bytesDone: number, bytesTotal: number) => opts.onProgress!({ bytesDone, bytesTotal }) } : {}),
    ...(opts.signal ? { signal: opts.signal } : {}),
  });
  return { bytes: r.bytes, bundle };
}
