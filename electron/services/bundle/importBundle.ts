/**
 * Importing a bundle: everything is checked before anything is written — the archive (paths, sizes,
 * zip bombs, every file's SHA-256: elnZip.ts), bundle.json (format, version, every field and
 * reference: shared/bundle/validate.ts), and that each capture file is the bytes it claims to be —
 * then the new captures are staged outside the notebook and everything is written in one
 * transaction. A bundle that fails any check is rejected whole; nothing is half-imported.
 *
 * What the notebook already holds is left as it is, found by uid (studies, experiments, profiles)
 * and by SHA-256 (captures): importing the same bundle twice adds nothing the second time, and a
 * later bundle of a study adds only its new experiments.
 */
import { createWriteStream, mkdtempSync, rmSync } from 'node:fs';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { TunebookError } from '../../../shared/api';
import { BUNDLE_JSON_PATH } from '../../../shared/bundle/format';
import type { BundleJson } from '../../../shared/bundle/format';
import type { BundleImportResult } from '../../../shared/model';
import { parseBundleJson } from '../../../shared/bundle/validate';
import type { Db } from '../../db/connection';
import * as bq from '../../db/bundleQueries';
import * as cq from '../../db/captureQueries';
import * as q from '../../db/queries';
import { insertStaged, refreshFindings, removeQuietly, stageCapture } from '../captureStore';
import type { StagedCapture } from '../captureStore';
import { openArchive } from './elnZip';
import type { OpenedArchive } from './elnZip';

export interface BundleImportProgress { phase: 'check' | 'store'; bytesDone: number; bytesTotal: number }

export interface BundleImportOptions {
  /** where captures are staged (outside the notebook) */
  stagingDir: string;
  signal?: AbortSignal;
  onProgress?: (p: BundleImportProgress) => void;
  /** the bundle's name as the user knows it (an upload is staged under a random one) */
  name?: string;
}

function reject(file: string, why: string): never {
  throw new TunebookError('invalid', `"${path.basename(file)}" cannot be imported: ${why.replace(/\.$/, '')}. Nothing was imported.`);
}

/** bundle.json, and every capture it names present in the archive as the file the crate lists with the same SHA-256 and size. */
async function readBundle(archive: OpenedArchive, file: string): Promise<BundleJson> {
  if (!archive.files.has(BUNDLE_JSON_PATH)) {
    reject(file, `it holds no ${BUNDLE_JSON_PATH} (an .eln file from another notebook has no Tunebook data to import)`);
  }
  let bundle: BundleJson;
  try {
    bundle = parseBundleJson(await archive.readJson(BUNDLE_JSON_PATH));
  } catch (e) {
    if (e instanceof TunebookError) reject(file, e.message);
    throw e;
  }
  for (const c of bundle.captures) {
    const f = archive.files.get(c.path);
    if (!f) reject(file, `the capture file "${c.path}" is missing`);
    if (f.sha256 !== c.sha256) reject(file, `the capture file "${c.path}" is listed with another SHA-256 than the bundle data gives`);
    if (f.size !== c.size) reject(file, `the capture file "${c.path}" has ${f.size} bytes, the bundle data says ${c.size}`);
  }
  return bundle;
}

export async function importBundle(db: Db, file: string, opts: BundleImportOptions): Promise<BundleImportResult> {
  const label = opts.name ?? file;
  const archive = await openArchive(file, {}, opts.name);
  const stagingDir = mkdtempSync(path.join(opts.stagingDir, 'bundle-'));
  const staged: StagedCapture[] = [];
  try {
    const bundle = await readBundle(archive, label);
    // every file's bytes against its SHA-256, before anything is written
    await archive.verify((bytesDone, bytesTotal) => opts.onProgress?.({ phase: 'check', bytesDone, bytesTotal }), opts.signal);

    // the captures the notebook does not hold yet: out of the archive, then staged like any import
    const missing = bundle.captures.filter((c) => cq.captureIdBySha(db, c.sha256) === undefined);
    const total = missing.reduce((n, c) => n + c.size, 0);
    let done = 0;
    for (const c of missing) {
      if (opts.signal?.aborted) throw new TunebookError('cancelled', 'the import was cancelled; nothing was imported');
      const raw = path.join(stagingDir, `raw-${staged.length}`);
      await pipeline(await archive.open(c.path), createWriteStream(raw, { mode: 0o600 }), ...(opts.signal ? [{ signal: opts.signal }] : []));
      const name = c.path.slice(c.path.lastIndexOf('/') + 1);
      const s = await stageCapture(raw, name, {
        stagingDir, ...(c.forcedKind ? { kind: c.forcedKind } : {}), ...(c.context ? { context: c.context } : {}), ...(opts.signal ? { signal: opts.signal } : {}),
        onProgress: (read) => opts.onProgress?.({ phase: 'store', bytesDone: done + read, bytesTotal: total }),
      });
      removeQuietly(raw);
      staged.push(s);
      // the bytes read out are the bytes verified a moment ago (a file changed in between is refused)
      if (s.sha256 !== c.sha256) reject(label, `the capture file "${c.path}" changed while it was read`);
      done += c.size;
    }
    return db.transaction(() => writeBundle(db, bundle, staged)).immediate();
  } finally {
    for (const s of staged) removeQuietly(s.stagingFile);
    rmSync(stagingDir, { recursive: true, force: true });
    await archive.close();
  }
}

/** Everything new in the bundle, inside the caller's transaction. */
function writeBundle(db: Db, bundle: BundleJson, staged: readonly StagedCapture[]): BundleImportResult {
  const result: BundleImportResult = { studies: [], capturesAdded: 0, capturesAlreadyHere: 0, profilesAdded: 0 };
  const captureId = new Map<string, number>();
  for (const s of staged) {
    const r = insertStaged(db, s);
    captureId.set(s.sha256, r.captureId);
    result.capturesAdded += r.deduplicated ? 0 : 1;
  }
  for (const c of bundle.captures) {
    if (captureId.has(c.sha256)) continue;
    captureId.set(c.sha256, cq.captureIdBySha(db, c.sha256)!);
    result.capturesAlreadyHere++;
  }
  const profileId = new Map<string, number>();
  for (const p of bundle.profiles) {
    const found = bq.byUid(db, 'profile', p.uid);
    if (found) { profileId.set(p.uid, found.id); continue; }
    profileId.set(p.uid, bq.insertProfileRow(db, p));
    result.profilesAdded++;
  }
  for (const s of bundle.studies) {
    const found = bq.byUid(db, 'study', s.uid);
    let studyId: number;
    if (found) {
      studyId = found.id;
      if (found.deleted) bq.restoreStudyRow(db, studyId);
    } else {
      studyId = bq.insertStudyRow(db, { uid: s.uid, title: s.title, goal: s.goal, view: {}, createdAt: s.createdAt, updatedAt: s.updatedAt });
      q.replaceRequirements(db, studyId, s.requirements);
    }
    let added = 0;
    const experimentIds = new Map<string, number>();
    for (const e of s.experiments) {
      if (bq.byUid(db, 'experiment', e.uid)) continue;
      const id = bq.insertExperimentRow(db, studyId, {
        uid: e.uid, title: e.title, profileId: e.profile === null ? null : profileId.get(e.profile)!, date: e.date, notes: e.notes,
        status: e.status, createdAt: e.createdAt, updatedAt: e.updatedAt,
      });
      experimentIds.set(e.uid, id);
      for (const c of e.configChanges) q.insertConfigChange(db, id, c);
      for (const l of e.captures) bq.insertLinkRow(db, id, captureId.get(l.sha256)!, l);
      for (const { source, ...m } of e.metrics) {
        // the result's capture by its bytes: the id it has in this notebook
        const { sha256, ...figure } = source ?? { sha256: null };
        q.insertResultMetric(db, id, { ...m, source: source ? { ...(figure as Omit<typeof source, 'sha256'>), captureId: sha256 ? captureId.get(sha256)! : null } : null });
      }
      if (e.captures.length) refreshFindings(db, id);
      added++;
    }
    if (!found) {
      const hidden = (s.view.hiddenExperiments ?? []).map((u) => experimentIds.get(u)).filter((x): x is number => x !== undefined);
      bq.setStudyView(db, studyId, { ...(s.view.hiddenMetrics ? { hiddenMetrics: s.view.hiddenMetrics } : {}), ...(hidden.length ? { hiddenExperiments: hidden } : {}) });
    }
    result.studies.push({ id: studyId, title: s.title, created: !found, restored: found?.deleted === true, experimentsAdded: added, experimentsAlreadyHere: s.experiments.length - added });
  }
  return result;
}
