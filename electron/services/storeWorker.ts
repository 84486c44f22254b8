/**
 * Worker thread entry (bundled to dist/storeWorker.cjs): the notebook's long writes — importing
 * captures, re-parsing them, compacting the file — on a connection of its own, so the window and
 * the browser-mode server stay responsive however large the file. Each file is committed in one
 * transaction (captureStore.ts); the main thread announces the change after each commit.
 */
import { parentPort } from 'node:worker_threads';
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync, statSync } from 'node:fs';
import path from 'node:path';
import type { StoreProgress } from '../../shared/api';
import type { BundleImportResult, ImportedCapture, ImportResult } from '../../shared/model';
import { openNotebookDb, type Db } from '../db/connection';
import * as cq from '../db/captureQueries';
import * as q from '../db/queries';
import { commitStaged, hashFile, linkStored, reparseCapture, removeQuietly, stageCapture } from './captureStore';
import type { LinkOptions } from './captureStore';
import { storeError } from './errors';
import { sparseProblem } from './captureFiles';
import { archiveKind, extractArchive } from './archive';
import { MAX_MANIFEST_BYTES, kitContext, readKitManifest, type KitManifest } from './kit/manifest';
import type { CaptureContext } from '../../shared/capture/types';
import { NotebookService } from './notebookService';
import { resultProposal } from './proposals';
import { serveJobs } from './workerProtocol';
import { importBundle } from './bundle/importBundle';
import { writeBundle } from './bundle/exportBundle';
import { reportHtml, reportMarkdown, writeAtomically, writeMarkdown } from './report/reportService';

export interface ImportFile { path: string; name: string }

export type StoreJob =
  | { op: 'import'; notebook: string; experimentId: number; files: ImportFile[]; kind?: string; acceptResult: boolean; stagingDir: string }
  | { op: 'reparse'; notebook: string; captureIds: number[] | null; kind?: string | null }
  | { op: 'compact'; notebook: string; purgeBefore: string }
  | { op: 'report'; notebook: string; studyId: number; experimentIds: number[] | null; appVersion: string }
  | { op: 'export'; notebook: string; studyId: number; experimentIds: number[] | null; format: 'html' | 'md' | 'eln'; out: string; appVersion: string; label?: string; interactive?: boolean }
  | { op: 'bundle'; notebook: string; file: string; stagingDir: string; name?: string };

export type StoreEvent =
  | { progress: StoreProgress }
  | { committed: ImportedCapture; studyId: number }
  | { changed: number | null };

export type StoreResult = ImportResult | { captures: number; changedKind: number } | { bytesBefore: number; bytesAfter: number; capturesRemoved: number }
  | { html: string } | { files: string[]; bytes: number } | BundleImportResult;

/** Progress events, a few a second at most (and always the last one of a file). */
function throttled(emit: (e: StoreEvent) => void): (p: StoreProgress) => void {
  let last = 0;
  return (p) => {
    const t = Date.now();
    if (t - last < 150 && p.read < p.total) return;
    last = t;
    emit({ progress: p });
  };
}

function withDb<T>(notebook: string, fn: (db: Db) => Promise<T>): Promise<T> {
  const db = openNotebookDb(notebook, { create: false });
  return fn(db).finally(() => db.close());
}

/**
 * The name a capture from an archive gets: the archive's name without its extension, then the
 * member's path inside it (`kit.tar.gz` + `monitors/vmstat.txt` → `kit/monitors/vmstat.txt`); a
 * member already under a folder of the archive's name (the kit's own top folder) is not nested twice.
 */
export function archiveMemberName(archive: string, member: string): string {
  const stem = archive.replace(/\.(tar\.gz|tgz|tar|zip)$/i, '');
  if (member.startsWith(`${path.posix.basename(stem)}/`)) {
    const dir = path.posix.dirname(stem);
    return dir === '.' ? member : `${dir}/${member}`;
  }
  return `${stem}/${member}`;
}

/**
 * The capture kit's manifest among an archive's files (manifest.json at its top or in its one top
 * folder), read; null for any other archive.
 */
function kitOf(files: readonly { name: string; path: string }[]): { manifest: KitManifest; top: string } | null {
  const m = files.find((x) => /^(?:[^/]+\/)?manifest\.json$/.test(x.name));
  if (!m) return null;
  try {
    if (statSync(m.path).size > MAX_MANIFEST_BYTES) return null;
    const manifest = readKitManifest(readFileSync(m.path, 'utf8'));
    return manifest ? { manifest, top: m.name.slice(0, m.name.length - 'manifest.json'.length) } : null;
  } catch {
    return null;
  }
}

async function importFiles(job: Extract<StoreJob, { op: 'import' }>, emit: (e: StoreEvent) => void): Promise<ImportResult> {
  return withDb(job.notebook, async (db) => {
    const service = new NotebookService(db);
    const progress = throttled(emit);
    const out: ImportResult = { imported: [], failed: [], result: null };
    const acceptResult = (experimentId: number, note?: string): LinkOptions => ({
      ...(note ? { note } : {}),
      afterLink: () => {
        if (!job.acceptResult) return;
        const p = resultProposal(db, q.getExperiment(db, experimentId)!);
        const c = p ? p.candidates[p.preferred] : undefined;
        if (!p || !c) return;
        const add = (primary: boolean) => service.addResultMetric(experimentId, { name: c.name, value: c.value, unit: c.unit, better: c.better, primary, source: c.source });
        if (!p.repeat) { if (!out.result) out.result = add(true); return; }
        // another run of the measurement this import made the primary result: a repeat beside it
        if (out.result && c.name === out.result.name) (out.runs ??= []).push(add(false));
      },
    });
    const stored = (imported: ImportedCapture, studyId: number): void => {
      out.imported.push(imported);
      emit({ committed: imported, studyId });
    };
    const importOne = async (f: ImportFile, index: number, count: number, kit?: { context?: CaptureContext; note: string }): Promise<void> => {
      const onProgress = (read: number, total: number) => progress({ task: 'import', file: f.name, index, count, read, total });
      const linkOptions = (experimentId: number): LinkOptions => acceptResult(experimentId, kit?.note);
      progress({ task: 'import', file: f.name, index, count, read: 0, total: 1 });
      try {
        const e = service.experimentById(job.experimentId);
        const st = statSync(f.path);
        // a sparse file (100 GiB of holes) is refused before minutes of zero bytes are hashed and stored
        const sparse = await sparseProblem(f.path, st, f.name);
        if (sparse) throw sparse;
        // bytes the notebook may already hold (a capture of the same size): hash first, and only link them
        if (cq.hasCaptureOfSize(db, st.size)) {
          const known = cq.captureIdBySha(db, await hashFile(f.path, onProgress));
          if (known !== undefined) { stored(linkStored(db, known, e.id, f.name, linkOptions(e.id)), e.studyId); return; }
        }
        const staged = await stageCapture(f.path, f.name, {
          stagingDir: job.stagingDir, ...(job.kind ? { kind: job.kind } : {}), ...(kit?.context ? { context: kit.context } : {}), onProgress,
        });
        try {
          stored(commitStaged(db, staged, e.id, linkOptions(e.id)), e.studyId);
        } finally {
          removeQuietly(staged.stagingFile);
        }
      } catch (err) {
        out.failed.push({ name: f.name, message: storeError(err, f.name).message });
      }
    };
    for (const [index, f] of job.files.entries()) {
      const count = job.files.length;
      // unreadable: importOne says why
      const kind = await archiveKind(f.path, f.name).catch(() => null);
      if (!kind) { await importOne(f, index, count); continue; }
      // an archive (the capture kit's, or any .tar, .tar.gz or .zip): its files are the captures
      const dir = path.join(job.stagingDir, `archive-${process.pid}-${randomBytes(6).toString('hex')}`);
      try {
        const unpacked = await extractArchive(f.path, dir, {
          label: f.name,
          onProgress: (read, total) => progress({ task: 'import', file: f.name, index, count, read, total }),
        });
        for (const s of unpacked.skipped) if (s.kind !== 'hidden') out.failed.push({ name: archiveMemberName(f.name, s.name), message: s.reason });
        // the capture kit's archive: its manifest tells each file's command, times and benchmark
        const kit = kitOf(unpacked.files);
        for (const m of unpacked.files) {
          const told = kit && m.name.startsWith(kit.top) ? kitContext(kit.manifest, m.name.slice(kit.top.length)) : undefined;
          await importOne({ path: m.path, name: archiveMemberName(f.name, m.name) }, index, count, told);
        }
      } catch (err) {
        // refused or unreadable as a whole: nothing of it is stored
        out.failed.push({ name: f.name, message: storeError(err, f.name).message });
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    }
    // move what was committed from the WAL into the notebook file (a copy of the .tunebook file then has it);
    // a checkpoint that cannot finish (a reader, a full disk) is harmless: the WAL still holds the data
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* next time */ }
    return out;
  });
}

async function reparse(job: Extract<StoreJob, { op: 'reparse' }>, emit: (e: StoreEvent) => void): Promise<{ captures: number; changedKind: number }> {
  return withDb(job.notebook, async (db) => {
    const ids = job.captureIds ?? cq.allCaptureIds(db);
    const progress = throttled(emit);
    let changedKind = 0;
    for (const [index, id] of ids.entries()) {
      const row = cq.getCaptureRow(db, id);
      if (!row) continue;
      progress({ task: 'reparse', file: row.name, index, count: ids.length, read: index, total: ids.length });
      if (await reparseCapture(db, id, job.kind)) changedKind++;
    }
    emit({ changed: null });
    return { captures: ids.length, changedKind };
  });
}

async function compact(job: Extract<StoreJob, { op: 'compact' }>, emit: (e: StoreEvent) => void): Promise<{ bytesBefore: number; bytesAfter: number; capturesRemoved: number }> {
  const size = (): number => [job.notebook, `${job.notebook}-wal`].reduce((n, f) => { try { return n + statSync(f).size; } catch { return n; } }, 0);
  return withDb(job.notebook, async (db) => {
    const bytesBefore = size();
    emit({ progress: { task: 'compact', file: '', index: 0, count: 1, read: 0, total: 1 } });
    const capturesRemoved = db.transaction(() => cq.purgeDetached(db, job.purgeBefore)).immediate();
    db.exec('VACUUM');
    db.pragma('wal_checkpoint(TRUNCATE)');
    emit({ changed: null });
    return { bytesBefore, bytesAfter: size(), capturesRemoved };
  });
}

/** A report or a bundle of a study, written to `out` (a file in the Backend's temp folder: it moves it where it belongs). */
async function exportStudy(job: Extract<StoreJob, { op: 'export' }>, emit: (e: StoreEvent) => void): Promise<{ files: string[]; bytes: number }> {
  return withDb(job.notebook, async (db) => {
    const progress = throttled(emit);
    const name = job.label ?? path.basename(job.out);
    const sel = { studyId: job.studyId, experimentIds: job.experimentIds };
    progress({ task: 'export', file: name, index: 0, count: 1, read: 0, total: 1 });
    let files: string[];
    if (job.format === 'eln') {
      await writeBundle(db, [sel], job.out, {
        appVersion: job.appVersion,
        onProgress: (p) => progress({ task: 'export', file: name, index: 0, count: 1, read: p.bytesDone, total: Math.max(1, p.bytesTotal) }),
      });
      files = [job.out];
    } else if (job.format === 'md') {
      files = writeMarkdown(reportMarkdown(db, sel, job.out, { appVersion: job.appVersion }), job.out);
    } else {
      writeAtomically(job.out, reportHtml(db, sel, { appVersion: job.appVersion, interactive: job.interactive === true }));
      files = [job.out];
    }
    progress({ task: 'export', file: name, index: 0, count: 1, read: 1, total: 1 });
    return { files, bytes: files.reduce((n, f) => n + statSync(f).size, 0) };
  });
}

async function bundle(job: Extract<StoreJob, { op: 'bundle' }>, emit: (e: StoreEvent) => void): Promise<BundleImportResult> {
  return withDb(job.notebook, async (db) => {
    const progress = throttled(emit);
    const name = job.name ?? path.basename(job.file);
    const result = await importBundle(db, job.file, {
      stagingDir: job.stagingDir, name,
      onProgress: (p) => progress({ task: 'bundle', file: name, index: p.phase === 'check' ? 0 : 1, count: 2, read: p.bytesDone, total: Math.max(1, p.bytesTotal) }),
    });
    try { db.pragma('wal_checkpoint(PASSIVE)'); } catch { /* next time */ }
    emit({ changed: null });
    return result;
  });
}

serveJobs<StoreJob, StoreResult, StoreEvent>(parentPort, (job, emit) => {
  switch (job.op) {
    case 'import': return importFiles(job, emit);
    case 'reparse': return reparse(job, emit);
    case 'compact': return compact(job, emit);
    case 'report': return withDb(job.notebook, async (db) => ({ html: reportHtml(db, { studyId: job.studyId, experimentIds: job.experimentIds }, { appVersion: job.appVersion }) }));
    case 'export': return exportStudy(job, emit);
    case 'bundle': return bundle(job, emit);
  }
});
