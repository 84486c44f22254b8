/**
 * The one place long notebook writes run from in the window: storing captures (from any drop
 * target, the file chooser, a paste or the desktop menu), re-parsing them all, compacting the
 * notebook, exporting a study, importing a bundle. Shows their progress (upload bytes in browser mode, then the back end's bytes read per
 * file) with a Cancel, and says what happened when they end.
 */
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import type { StoreProgress } from '../../../../shared/api';
import type { BundleImportResult, ExportOptions, ExportResult, ImportResult, ImportSource } from '../../../../shared/model';
import { formatQuantity } from '../../../../shared/units';
import { describeError, getUploader, startDownload } from '../../api';
import { useApp } from '../../app/AppContext';
import { useToasts } from '../../components/Toast/useToasts';
import { MAX_TEXT_BYTES, pathResolver } from '../captures/parseCaptures';
import { ImportContext } from './useImport';
import type { ImportApi, Intake } from './useImport';
import './evidence.css';

interface Task {
  label: string;
  /** what the back end does with the file: read it (import, re-parse), write it (export), check it (a bundle) */
  verb?: string;
  /** upload: the page is sending a file (browser mode); store: the back end is working */
  phase: 'upload' | 'store';
  file: string;
  index: number;
  count: number;
  read: number;
  total: number;
}

/** A Tunebook bundle, by its name: dropped with captures, it is imported as a bundle. */
const isBundle = (f: File | string): boolean => /\.eln$/i.test(typeof f === 'string' ? f : f.name);

const plural = (n: number, one: string, many = `${one}s`) => `${n.toLocaleString('en-US')} ${n === 1 ? one : many}`;

/** What importCaptures is given for an intake; browser mode uploads files first. */
async function toSources(intake: Intake, onUpload: (t: Omit<Task, 'label'>) => void, signal: AbortSignal): Promise<ImportSource[]> {
  if ('paths' in intake) return intake.paths.map((path) => ({ path }));
  if ('text' in intake) return [{ text: intake.text, name: intake.name }];
  const resolve = pathResolver();
  const out: ImportSource[] = [];
  const files = intake.files;
  for (const [index, file] of files.entries()) {
    const path = resolve ? resolve(file) : '';
    if (path) { out.push({ path }); continue; }
    const upload = getUploader();
    if (!upload) {
      // inside the desktop app a File without a path (dragged from another application's window) is sent as text
      if (file.size > MAX_TEXT_BYTES) throw new Error(`${file.name} is not a file on this computer and is too large to send as text (${formatQuantity(file.size, 'B')}); save it to disk first.`);
      out.push({ text: await file.text(), name: file.name });
      continue;
    }
    onUpload({ phase: 'upload', file: file.name, index, count: files.length, read: 0, total: file.size });
    const id = await upload(file, (sent, total) => onUpload({ phase: 'upload', file: file.name, index, count: files.length, read: sent, total }), signal);
    out.push({ upload: id });
  }
  return out;
}

export function ImportProvider({ children }: { children: ReactNode }) {
  const { api } = useApp();
  const { show, showError } = useToasts();
  const [task, setTask] = useState<Task | null>(null);
  const running = useRef(false);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => api.on('onDidProgressStore', (p: StoreProgress) => {
    if (!running.current) return;
    const verb = p.task === 'export' ? 'writing' : p.task === 'bundle' ? (p.index === 0 ? 'checking' : 'storing captures of') : 'reading';
    setTask((t) => (t ? { ...t, phase: 'store', verb, file: p.file, index: p.task === 'bundle' ? 0 : p.index, count: p.task === 'bundle' ? 1 : p.count, read: p.read, total: p.total } : t));
  }), [api]);

  const begin = (label: string): AbortController => {
    running.current = true;
    const controller = new AbortController();
    abort.current = controller;
    setTask({ label, phase: 'store', file: '', index: 0, count: 1, read: 0, total: 0 });
    return controller;
  };
  // what an import or bundle stored is announced by the back end as it commits (useQuery reloads on that)
  const end = () => { running.current = false; abort.current = null; setTask(null); };

  const importInto = useCallback(async (experimentId: number, intake: Intake, opts: { kind?: string } = {}): Promise<ImportResult | undefined> => {
    if (running.current) { showError('Another import is under way: wait for it or cancel it first.'); return undefined; }
    // a bundle dropped among captures is imported as a bundle (into the notebook), not stored as a capture
    const bundles = 'files' in intake ? intake.files.filter(isBundle) : 'paths' in intake ? intake.paths.filter(isBundle) : [];
    if (bundles.length) {
      for (const b of bundles) await importBundleRef.current(typeof b === 'string' ? { path: b } : { file: b });
      if ('files' in intake) intake = { files: intake.files.filter((f) => !isBundle(f)) };
      else if ('paths' in intake) intake = { paths: intake.paths.filter((p) => !isBundle(p)) };
      if (('files' in intake && !intake.files.length) || ('paths' in intake && !intake.paths.length)) return undefined;
    }
    const controller = begin('Storing captures');
    try {
      const sources = await toSources(intake, (t) => setTask((x) => ({ ...(x ?? { label: 'Storing captures' }), ...t })), controller.signal);
      if (controller.signal.aborted) return undefined;
      const result = await api.importCaptures(experimentId, sources, opts.kind ? { kind: opts.kind } : {});
      report(result);
      return result;
    } catch (e) {
      const err = describeError(e);
      if (err.code === 'cancelled') show({ message: 'Import cancelled: nothing of the file under way was stored.' });
      else showError(err.message);
      return undefined;
    } finally {
      end();
    }

    function report(r: ImportResult) {
      const fresh = r.imported.filter((c) => !c.alreadyLinked);
      const parts: string[] = [];
      if (fresh.length) parts.push(`Stored ${plural(fresh.length, 'capture')}${fresh.length === 1 ? ` (${fresh[0]!.name}, ${fresh[0]!.kind})` : ''}.`);
      const same = r.imported.length - fresh.length;
      if (same) parts.push(`${plural(same, 'capture')} ${same === 1 ? 'was' : 'were'} already on this experiment.`);
      if (r.cancelled) parts.push('The import was cancelled; the rest was not stored.');
      if (parts.length) show({ message: parts.join(' ') });
      if (r.failed.length && !r.cancelled) showError(`Not stored: ${r.failed.map((f) => `${f.name} — ${f.message}`).join('; ')}`);
    }
  }, [api, show, showError]);

  const runTask = useCallback(async <T,>(label: string, work: () => Promise<T>, done: (r: T) => string | null): Promise<T | undefined> => {
    if (running.current) { showError('Another task is under way: wait for it or cancel it first.'); return undefined; }
    begin(label);
    try {
      const r = await work();
      const message = done(r);
      if (message) show({ message });
      return r;
    } catch (e) {
      const err = describeError(e);
      if (err.code === 'cancelled') show({ message: `${label} cancelled.` });
      else showError(err.message);
      return undefined;
    } finally {
      end();
    }
  }, [show, showError]);

  const reparseAll = useCallback(async () => { await runTask('Re-parsing captures', () => api.reparseCaptures(),
    (r) => `Re-parsed ${plural(r.captures, 'capture')}${r.changedKind ? ` (${plural(r.changedKind, 'capture')} now read as another kind)` : ''}.`); }, [api, runTask]);
  const compact = useCallback(async () => { await runTask('Compacting the notebook', () => api.compactNotebook(),
    (r) => `Notebook compacted: ${formatQuantity(r.bytesBefore, 'B')} → ${formatQuantity(r.bytesAfter, 'B')}.`); }, [api, runTask]);

  const exportStudy = useCallback(async (studyId: number, options: ExportOptions): Promise<ExportResult | undefined> => {
    const r = await runTask('Exporting', () => api.exportStudy(studyId, options), (x) => {
      if (x.cancelled) return null;
      if (x.download) return `Exported ${x.fileName} (${formatQuantity(x.bytes, 'B')}): see your browser's downloads.`;
      return `Exported ${x.files.length > 1 ? `${x.path} and ${plural(x.files.length - 1, 'chart image')}` : x.path} (${formatQuantity(x.bytes, 'B')}).`;
    });
    if (r?.download) startDownload(r.download, r.fileName);
    return r && !r.cancelled ? r : undefined;
  }, [api, runTask]);

  const importBundleRef = useRef<(source: { file: File } | { path: string }) => Promise<BundleImportResult | undefined>>(async () => undefined);
  const importBundle = useCallback(async (source: { file: File } | { path: string }): Promise<BundleImportResult | undefined> => {
    const name = 'file' in source ? source.file.name : source.path.split(/[\\/]/).pop() ?? 'bundle';
    return runTask(`Importing ${name}`, async () => {
      if ('path' in source) return api.importBundle({ path: source.path });
      const resolved = pathResolver()?.(source.file);
      if (resolved) return api.importBundle({ path: resolved });
      const upload = getUploader();
      if (!upload) throw new Error(`${name} is not a file on this computer; save it to disk first.`);
      const id = await upload(source.file, (sent, total) => setTask((t) => (t ? { ...t, phase: 'upload', file: name, read: sent, total } : t)), abort.current?.signal);
      return api.importBundle({ upload: id });
    }, (r) => {
      const added = r.studies.reduce((n, s) => n + s.experimentsAdded, 0);
      const restored = r.studies.filter((s) => s.restored).map((s) => `“${s.title}”`);
      if (!added && restored.length) return `${name}: ${restored.join(', ')} back from the trash; the notebook held everything else in it.`;
      if (!added) return `${name}: the notebook already holds everything in it.`;
      return `Imported ${r.studies.map((s) => `“${s.title}”${s.created ? '' : ' (new experiments)'}`).join(', ')}: ${plural(added, 'experiment')}, ${plural(r.capturesAdded, 'capture')}${r.capturesAlreadyHere ? ` (${plural(r.capturesAlreadyHere, 'capture')} already here)` : ''}.`;
    });
  }, [api, runTask]);

  const cancel = () => {
    if (task?.phase === 'upload') abort.current?.abort();
    else void api.cancelStoreTask();
  };

  importBundleRef.current = importBundle;
  const value = useMemo<ImportApi>(() => ({ importInto, reparseAll, compact, exportStudy, importBundle, busy: task !== null }), [importInto, reparseAll, compact, exportStudy, importBundle, task]);
  const pct = task && task.total > 0 ? Math.min(100, Math.floor((task.read / task.total) * 100)) : null;
  return (
    <ImportContext.Provider value={value}>
      {children}
      {task && (
        <div className="store-task" role="status" aria-live="polite" data-testid="store-task">
          <span className="spinner" aria-hidden="true" />
          <span className="store-task-text">
            {task.label}{task.file && <>: {task.phase === 'upload' ? 'sending' : task.verb ?? 'reading'} <strong>{task.file}</strong></>}
            {task.count > 1 && <span className="muted"> ({task.index + 1} of {task.count})</span>}
            {pct !== null && task.phase === 'upload' && <span className="muted"> {formatQuantity(task.read, 'B')} of {formatQuantity(task.total, 'B')}</span>}
          </span>
          {pct !== null && <progress max={100} value={pct} aria-label="Progress">{pct} %</progress>}
          <button type="button" className="btn btn-small" onClick={cancel}>Cancel</button>
        </div>
      )}
    </ImportContext.Provider>
  );
}
