/**
 * Backend: the whole back end behind the TunebookApi contract, for any host (Electron IPC, the
 * browser-mode HTTP server, the CLI). Owns the open notebook, the recent-notebooks list and the
 * event fan-out; dispatches contract calls by name.
 */
import { EventEmitter } from 'node:events';
import { randomBytes } from 'node:crypto';
import { copyFileSync, existsSync, mkdtempSync, readFileSync, readdirSync, renameSync, rmSync, statSync, writeFileSync, mkdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { API_METHODS, isApiMethod, TunebookError, type ApiEvents, type ApiMethodName, type ApiMethods } from '../../shared/api';
import { REPORT_FORMATS } from '../../shared/model';
import type { BundleImportResult, ExportResult, ImportedCapture, ImportOptions, ImportResult, NotebookInfo, ReportFormat } from '../../shared/model';
import * as v from '../../shared/validate';
import { openNotebookDb, schemaVersion, type Db } from '../db/connection';
import { NotebookService, type HostMethods, type NotebookMethods } from './notebookService';
import { allowedPath, type PathAccess } from './hostPaths';
import { EXAMPLE_FILE_NAME, writeExample } from './example/example';
import { isCaptureRead, isWorkerRead, JsonText, recordWorkerOf, type ReadJob } from './workerReads';
import { PARSE_THREAD_LIMITS, WorkerClient } from './workerClient';
import type { CaptureJson } from '../../shared/capture/json';
import type { ParseEvent, ParseRequest } from './parseWorker';
import type { ImportFile, StoreEvent, StoreJob, StoreResult } from './storeWorker';
import { walkPaths } from './captureFiles';
import * as store from './captureStore';
import { exportError, storeError } from './errors';
import { PARSERS } from '../../shared/capture/registry';
import { slug } from './bundle/exportBundle';
import { APP_VERSION, NOTEBOOK_EXTENSION } from './appInfo';
import { printWithChromium } from './report/pdf';
import type { PdfPrinter } from './report/pdf';
import { zipFiles } from './report/zipFiles';

/** Largest pasted capture accepted over the API (files on disk are streamed and have no limit). */
export const MAX_CAPTURE_TEXT = 64 * 1024 * 1024;

export { APP_VERSION, NOTEBOOK_EXTENSION, defaultNotebookPath } from './appInfo';

export interface BackendOptions {
  notebookPath: string;
  userDataDir: string;
  appVersion?: string;
  /** the built parse worker (default: parseWorker.cjs beside the running bundle) */
  parseWorkerFile?: string;
  /** the built store worker (default: storeWorker.cjs beside the running bundle) */
  storeWorkerFile?: string;
  /**
   * The built read worker (readWorker.cjs): hosts that serve a window (Electron, browser mode) give
   * it, and the reads that grow with the notebook (workerReads.ts) run there, answered as JsonText.
   * Without it (the CLI, tests) every call runs on the caller's thread.
   */
  readWorkerFile?: string;
  /**
   * Announce commits made by other processes on the same notebook (another window, `tunebook
   * serve`, the CLI) as a change to all of it, so the windows this host serves never go stale.
   * Hosts of a window set it; SQLite's data_version is looked at once a second.
   */
  watchOtherWriters?: boolean;
  /**
   * Which host paths a client may name (hostPaths.ts). Absent: any (the desktop app, the CLI act for
   * the person at the machine). Browser mode sets it: files arrive by upload, and a path is read or
   * a notebook opened only under the folders the user allowed.
   */
  pathAccess?: PathAccess;
  /** false: the notebook is not added to the recent list (a scratch notebook, such as the example's while it is built) */
  remember?: boolean;
}

/** Contract methods whose answer is a Promise on every host: they run in worker threads, or wait on one. */
type AsyncMethods = 'openExampleNotebook' | 'parseCaptureFiles' | 'parseCaptureText' | 'importCaptures' | 'setCaptureKind' | 'reparseCaptures' | 'compactNotebook'
  | 'reportPreview' | 'exportStudy' | 'importBundle' | 'findInCapture';

/**
 * The contract as the back end serves it, typed per method: arguments as in ApiMethods, results
 * too (a Promise of it for AsyncMethods). Hosts that receive untyped JSON go through Backend.call.
 */
export type BackendApi = {
  [M in ApiMethodName]: (...args: Parameters<ApiMethods[M]>) => M extends AsyncMethods ? Promise<ReturnType<ApiMethods[M]>> : ReturnType<ApiMethods[M]>
};
type ServiceMethodName = Exclude<ApiMethodName, HostMethods>;

/** How often a host that watches for other writers looks at the notebook's data_version. */
export const WATCH_MS = 1000;

const MAX_RECENT = 10;


/** An upload received by browser mode, waiting to be imported. */
interface Upload { file: string; name: string }

/** An exported file browser mode offers for download (GET /api/download/<id>). */
export interface Download { file: string; name: string; type: string }

/** What the desktop app adds to the back end: its Save dialog and Electron's own PDF printing. */
export interface HostHooks {
  /** ask where to save; null when the user cancelled */
  chooseSavePath?(o: { title: string; defaultName: string; filterName: string; extensions: string[] }): Promise<string | null>;
  /** print a report's HTML file to PDF (default: Chromium through playwright-core) */
  printPdf?: PdfPrinter;
}

const FORMAT_INFO: Record<ReportFormat, { ext: string; filterName: string; type: string }> = {
  html: { ext: 'html', filterName: 'HTML report', type: 'text/html; charset=utf-8' },
  md: { ext: 'md', filterName: 'Markdown report', type: 'text/markdown; charset=utf-8' },
  pdf: { ext: 'pdf', filterName: 'PDF report', type: 'application/pdf' },
  eln: { ext: 'eln', filterName: 'Tunebook bundle (.eln)', type: 'application/vnd.eln+zip' },
};

/** Chosen experiments of an export or a preview (all when absent). */
function experimentIdsArg(raw: unknown): number[] | null {
  if (raw === undefined || raw === null) return null;
  if (!Array.isArray(raw) || raw.length === 0 || raw.length > 1_000_000) v.fail('experimentIds must be a list of experiment ids');
  return raw.map((x, i) => v.id(x, `experiment id ${i + 1}`));
}

function isDirectory(p: string): boolean {
  try { return statSync(p).isDirectory(); } catch { return false; }
}

/** Rename, or copy and remove when the target is on another file system. */
function moveFile(from: string, to: string): void {
  try {
    renameSync(from, to);
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EXDEV') throw e;
    const tmp = `${to}.partial-${process.pid}`;
    try { copyFileSync(from, tmp); renameSync(tmp, to); } finally { rmSync(tmp, { force: true }); }
    rmSync(from, { force: true });
  }
}

/** Temp folders of Tunebook processes that are gone (killed mid-import: their staging files stayed). */
function removeStaleTempDirs(): void {
  let names: string[];
  try { names = readdirSync(os.tmpdir()); } catch { return; }
  for (const name of names) {
    const pid = /^tunebook-(\d+)-/.exec(name)?.[1];
    if (!pid || Number(pid) === process.pid) continue;
    try { process.kill(Number(pid), 0); continue; } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'EPERM') continue; // alive, another user's
    }
    rmSync(path.join(os.tmpdir(), name), { recursive: true, force: true });
  }
}

export class Backend {
  private db: Db;
  private service: NotebookService;
  private notebookPath: string;
  private readonly events = new EventEmitter();
  private readonly appVersion: string;
  private readonly parsePool: WorkerClient<ParseRequest, CaptureJson[], ParseEvent>;
  private readonly store: WorkerClient<StoreJob, StoreResult, StoreEvent>;
  /** the read workers: two for records (a study view's outline and comparison load side by side), one for stored captures (null: reads run on this thread) */
  private readonly reads: { records: [WorkerClient<ReadJob, string, never>, WorkerClient<ReadJob, string, never>]; captures: WorkerClient<ReadJob, string, never> } | null;
  private readonly uploads = new Map<string, Upload>();
  private readonly downloads = new Map<string, Download>();
  private hooks: HostHooks = {};
  private tempRoot: string | null = null;
  private watchTimer: NodeJS.Timeout | null = null;
  /** the notebook's data_version as this process last saw it (it moves only for other connections' commits) */
  private seenVersion = -1;
  private readonly access: PathAccess | null;
  /** The methods the back end serves itself; the others are the open notebook's NotebookService. */
  private readonly own: Pick<BackendApi, HostMethods> = {
    notebookInfo: () => this.info(),
    openNotebook: (file, create) => this.openNotebook(file, create),
    // browser mode lists only the notebooks it may open
    openExampleNotebook: () => this.openExample(),
    recentNotebooks: () => this.recentNotebooks().filter((f) => { try { return allowedPath(this.access, f, 'notebook') === f; } catch { return false; } }),
    captureKinds: () => PARSERS.map((p) => ({ id: p.id, title: p.title })),
    parseCaptureFiles: (paths, kind) => this.parseCaptureFiles(paths, kind),
    parseCaptureText: (rawName, rawText, kind) => {
      const name = v.text(rawName, 'name', { max: 1000 });
      const text = v.text(rawText, 'text', { max: MAX_CAPTURE_TEXT });
      return this.parsePool.run({ op: 'text', name, text, ...this.kindArg(kind) });
    },
    cancelCaptureParsing: () => { void this.parsePool.cancel('parsing was cancelled'); },
    importCaptures: (experimentId, sources, options) => this.importCaptures(experimentId, sources, options),
    cancelStoreTask: () => { void this.store.cancel('cancelled: the file being stored was left out, the notebook is as it was before it'); },
    setCaptureKind: async (captureId, rawKind) => {
      const id = v.id(captureId, 'capture id');
      const kind = rawKind === null ? null : this.kindArg(rawKind).kind ?? null;
      this.service.getCapture(id); // not found → a clear error before the worker starts
      await this.runStore({ op: 'reparse', notebook: this.notebookPath, captureIds: [id], kind });
      return this.service.getCapture(id);
    },
    reparseCaptures: () => this.runStore({ op: 'reparse', notebook: this.notebookPath, captureIds: null }),
    // the trash keeps removed captures until it is emptied: compaction only gives back the space of
    // captures nothing links at all (purgeBefore '' forgets no trashed link)
    compactNotebook: () => this.runStore({ op: 'compact', notebook: this.notebookPath, purgeBefore: '' }),
    findInCapture: (captureId, query, limit, fromLine) => this.service.findInCapture(captureId, query, limit, fromLine),
    reportPreview: async (studyId, experimentIds) => {
      const study = this.service.getStudy(studyId).study;
      const r = await this.runStore<{ html: string }>({ op: 'report', notebook: this.notebookPath, studyId: study.id, experimentIds: experimentIdsArg(experimentIds), appVersion: this.appVersion });
      return r.html;
    },
    exportStudy: (studyId, options) => this.exportStudy(studyId, options),
    importBundle: (source) => this.importBundle(source),
  };
  /** The whole contract, typed (the CLI and tests use it; it runs every method on this thread). */
  readonly api: BackendApi;

  constructor(private readonly opts: BackendOptions) {
    this.appVersion = opts.appVersion ?? APP_VERSION;
    this.parsePool = new WorkerClient(opts.parseWorkerFile ?? path.join(__dirname, 'parseWorker.cjs'));
    // a small young generation: a 1 GB import allocates fast and short-lived (chunks, decoded text);
    // collecting it often keeps the peak resident memory down at little cost in speed (npm run bench)
    this.store = new WorkerClient(opts.storeWorkerFile ?? path.join(__dirname, 'storeWorker.cjs'), PARSE_THREAD_LIMITS);
    this.reads = opts.readWorkerFile
      ? { records: [new WorkerClient(opts.readWorkerFile), new WorkerClient(opts.readWorkerFile)], captures: new WorkerClient(opts.readWorkerFile) }
      : null;
    this.access = opts.pathAccess ?? null;
    this.api = this.buildApi();
    this.notebookPath = path.resolve(opts.notebookPath);
    this.db = openNotebookDb(this.notebookPath, { create: true });
    this.service = this.wire(new NotebookService(this.db));
    if (opts.remember !== false) this.remember(this.notebookPath);
    this.warmReads();
    if (opts.watchOtherWriters) this.watch();
  }

  /** See BackendOptions.watchOtherWriters. */
  private watch(): void {
    this.seenVersion = this.dataVersion();
    this.watchTimer = setInterval(() => {
      try {
        const v = this.dataVersion();
        if (v === this.seenVersion) return;
        this.seenVersion = v;
        // the store worker's commits are announced as they happen; anything else is another process
        if (!this.store.busy) this.emit('onDidChangeData', { studyId: null, all: true });
      } catch {
        // the notebook is being switched or closed: the next tick looks again
      }
    }, WATCH_MS);
    this.watchTimer.unref();
  }

  private dataVersion(): number {
    return this.db.pragma('data_version', { simple: true }) as number;
  }

  /** Start the read workers on the notebook now, so the window's first reads do not wait for them. */
  private warmReads(): void {
    if (!this.reads) return;
    for (const w of [...this.reads.records, this.reads.captures]) w.run({ notebook: this.notebookPath, method: null, args: [] }).catch(() => undefined);
  }

  private wire(s: NotebookService): NotebookService {
    s.onChange = (change) => this.emit('onDidChangeData', change);
    return s;
  }

  on<E extends keyof ApiEvents>(event: E, fn: (payload: ApiEvents[E]) => void): () => void {
    this.events.on(event, fn);
    return () => { this.events.off(event, fn); };
  }

  private emit<E extends keyof ApiEvents>(event: E, payload: ApiEvents[E]): void {
    this.events.emit(event, payload);
  }

  info(): NotebookInfo {
    return { path: this.notebookPath, schemaVersion: schemaVersion(this.db), appVersion: this.appVersion };
  }

  /** Switch to another notebook file. On failure the current notebook stays open. */
  openNotebook(file: string, create: boolean): NotebookInfo {
    const target = allowedPath(this.access, path.resolve(v.text(file, 'path', { required: true, max: 4096 })), 'notebook');
    // a notebook made here is a .tunebook file: never "…/evil.sh" or any other file a path may name
    // (an existing notebook of another name still opens)
    const made = !existsSync(target) || statSync(target).size === 0;
    if (create && made && path.extname(target).toLowerCase() !== NOTEBOOK_EXTENSION) v.fail(`a new notebook needs a file name ending in ${NOTEBOOK_EXTENSION}`);
    return this.switchNotebook(target, create);
  }

  /** Make `target` the open notebook (a path already checked). On failure the current one stays open. */
  private switchNotebook(target: string, create: boolean): NotebookInfo {
    if (target === this.notebookPath) return this.info();
    const db = openNotebookDb(target, { create });
    this.db.close();
    this.db = db;
    this.service = this.wire(new NotebookService(db));
    this.notebookPath = target;
    this.remember(target);
    this.warmReads();
    if (this.watchTimer) this.seenVersion = this.dataVersion();
    const info = this.info();
    this.emit('onDidChangeNotebook', info);
    return info;
  }

  /** The example notebook: made the first time in the app's folder (its own file), then opened. */
  private async openExample(): Promise<NotebookInfo> {
    const file = path.join(this.opts.userDataDir, EXAMPLE_FILE_NAME);
    if (!existsSync(file)) {
      mkdirSync(this.opts.userDataDir, { recursive: true });
      await writeExample(file, (notebook) => new Backend({ ...this.opts, notebookPath: notebook, watchOtherWriters: false, readWorkerFile: undefined, pathAccess: undefined, remember: false }));
    }
    // a path of the app's own choosing: browser mode's path access is about paths a page names
    return this.switchNotebook(file, false);
  }

  private recentFile(): string {
    return path.join(this.opts.userDataDir, 'recent-notebooks.json');
  }

  recentNotebooks(): string[] {
    try {
      const list = JSON.parse(readFileSync(this.recentFile(), 'utf8')) as unknown;
      return Array.isArray(list) ? list.filter((x): x is string => typeof x === 'string').slice(0, MAX_RECENT) : [];
    } catch {
      return [];
    }
  }

  private remember(file: string): void {
    const list = [file, ...this.recentNotebooks().filter((x) => x !== file)].slice(0, MAX_RECENT);
    try {
      mkdirSync(this.opts.userDataDir, { recursive: true });
      writeFileSync(this.recentFile(), JSON.stringify(list, null, 2));
    } catch {
      // the recent list is a convenience; never fail an open over it
    }
  }

  /**
   * The typed contract: the back end's own methods, and the NotebookService's (looked up on each call:
   * openNotebook replaces the service). NotebookService implements NotebookMethods, and for those
   * methods BackendApi and ApiMethods agree, so the compiler checks every handler's arguments and result.
   */
  private buildApi(): BackendApi {
    const service = (): NotebookMethods => this.service;
    const api = { ...this.own } as Record<ApiMethodName, unknown>;
    for (const m of API_METHODS) {
      if (m in this.own) continue;
      const name = m as ServiceMethodName;
      api[name] = (...a: unknown[]) => (service()[name] as (...x: unknown[]) => unknown)(...a);
    }
    return api as BackendApi;
  }

  /**
   * Dispatch one call that arrived as untyped JSON (IPC, HTTP): the method must be in the contract
   * and the arguments a list; every method checks its arguments itself. Throws TunebookError for
   * anything a user can act on. The reads of workerReads.ts answer from a read worker, when there
   * is one, as JsonText; the rest as BackendApi says.
   */
  call(method: string, args: unknown[]): unknown {
    if (!isApiMethod(method)) throw new TunebookError('invalid', `unknown method "${method}"`);
    if (!Array.isArray(args)) throw new TunebookError('invalid', 'arguments must be a list');
    if (this.reads && isWorkerRead(method)) {
      const client = isCaptureRead(method) ? this.reads.captures : this.reads.records[recordWorkerOf(method)];
      return client.run({ notebook: this.notebookPath, method, args }).then((json) => new JsonText(json));
    }
    return (this.api[method] as (...a: unknown[]) => unknown)(...args);
  }

  /** Parse files or folders on the host (parseCaptureFiles), with progress a few times a second. */
  private parseCaptureFiles(rawPaths: unknown, kind: unknown): Promise<CaptureJson[]> {
    if (!Array.isArray(rawPaths) || rawPaths.length === 0) v.fail('give one or more paths');
    const list = rawPaths.map((p, i) => this.readablePath(p, `path ${i + 1}`));
    let last = 0;
    const progress = (read: number, total: number): void => {
      const now = Date.now();
      if (now - last < 200 && read < total) return; // a few events a second, and the last one
      last = now;
      this.emit('onDidProgressParse', { read, total });
    };
    return this.parsePool.run({ op: 'files', paths: list, ...this.kindArg(kind) }, (p) => progress(p.read, p.total));
  }

  /**
   * A path a client gave for reading (a capture file or folder, a bundle), resolved and checked
   * against the path access: under browser mode's allowed folders, and so is every file inside a
   * folder (a symlink in it cannot lead out).
   */
  private readablePath(raw: unknown, what: string): string {
    const file = allowedPath(this.access, path.resolve(v.text(raw, what, { required: true, max: 4096 })), 'read');
    if (this.access && isDirectory(file)) {
      for (const f of walkPaths([file]).files) allowedPath(this.access, f.path, 'read');
    }
    return file;
  }

  /** Run a job in the store worker, announcing its progress and each change it commits. */
  private runStore<R extends StoreResult>(job: StoreJob, onCommitted?: (c: ImportedCapture) => void): Promise<R> {
    const done = (): void => { if (this.watchTimer && this.db.open) this.seenVersion = this.dataVersion(); };
    return this.store.run(job, (e) => {
      if ('progress' in e) this.emit('onDidProgressStore', e.progress);
      else if ('committed' in e) {
        onCommitted?.(e.committed);
        // a capture stored on one experiment changes only that experiment
        this.emit('onDidChangeData', job.op === 'import' ? { studyId: e.studyId, experimentId: job.experimentId } : { studyId: e.studyId });
      } else this.emit('onDidChangeData', e.changed === null ? { studyId: null, all: true } : { studyId: e.changed });
    }).finally(done) as Promise<R>;
  }

  /**
   * A folder of this process for staging files, uploads and pasted text (removed at close). Its name
   * carries the process id, so the folders of a process that was killed are found and removed.
   */
  private tempDir(sub: string): string {
    if (!this.tempRoot) {
      removeStaleTempDirs();
      this.tempRoot = mkdtempSync(path.join(os.tmpdir(), `tunebook-${process.pid}-`));
    }
    const dir = path.join(this.tempRoot, sub);
    mkdirSync(dir, { recursive: true });
    return dir;
  }

  /** Browser mode: an uploaded file (streamed to disk by the HTTP host) waiting for importCaptures. */
  uploadTarget(): string {
    return path.join(this.tempDir('uploads'), randomBytes(12).toString('hex'));
  }

  registerUpload(file: string, name: string): string {
    const id = path.basename(file);
    this.uploads.set(id, { file, name });
    return id;
  }

  private async importCaptures(experimentId: unknown, rawSources: unknown, rawOptions: unknown): Promise<ImportResult> {
    const e = this.service.experimentById(experimentId);
    if (!Array.isArray(rawSources) || rawSources.length === 0) v.fail('give one or more captures to import');
    if (rawSources.length > 10_000) v.fail('at most 10,000 sources in one import');
    const o = rawOptions === undefined || rawOptions === null ? {} : v.record(rawOptions, 'options');
    const options: ImportOptions = {
      ...this.kindArg(o.kind),
      acceptResult: o.acceptResult === undefined ? false : v.bool(o.acceptResult, 'acceptResult'),
    };
    const files: ImportFile[] = [];
    const failed: ImportResult['failed'] = [];
    const temps: string[] = [];
    rawSources.forEach((raw, i) => {
      const r = v.record(raw, `source ${i + 1}`);
      if (r.path !== undefined) {
        const { files: found, problems } = walkPaths([this.readablePath(r.path, `source ${i + 1} path`)]);
        files.push(...found);
        for (const p of problems) failed.push({ name: p.name, message: storeError(p.error, p.name).message });
      } else if (r.upload !== undefined) {
        const up = this.uploads.get(v.text(r.upload, `source ${i + 1} upload`, { max: 100 }));
        if (!up) v.fail(`upload ${String(r.upload)} is unknown or was already imported`);
        this.uploads.delete(path.basename(up.file));
        files.push({ path: up.file, name: up.name });
        temps.push(up.file);
      } else if (r.text !== undefined) {
        const name = v.text(r.name, `source ${i + 1} name`, { required: true, max: 1000 }).trim();
        const text = v.text(r.text, `source ${i + 1} text`, { required: true, max: MAX_CAPTURE_TEXT });
        const file = path.join(this.tempDir('pasted'), randomBytes(12).toString('hex'));
        writeFileSync(file, text);
        files.push({ path: file, name });
        temps.push(file);
      } else {
        v.fail(`source ${i + 1} needs a path, an upload or a text`);
      }
    });
    const committed: ImportResult['imported'] = [];
    try {
      if (!files.length) return { imported: [], failed, result: null };
      const result = await this.runStore<ImportResult>({
        op: 'import', notebook: this.notebookPath, experimentId: e.id, files, acceptResult: options.acceptResult === true,
        stagingDir: this.tempDir('staging'), ...(options.kind ? { kind: options.kind } : {}),
      }, (c) => committed.push(c));
      return { ...result, failed: [...failed, ...result.failed] };
    } catch (err) {
      if (!(err instanceof TunebookError) || err.code !== 'cancelled') throw err;
      // what was committed before the cancel stays; the rest was not stored
      const done = new Set(committed.map((c) => c.name));
      const left = files.filter((f) => !done.has(f.name)).map((f) => ({ name: f.name, message: 'not stored: the import was cancelled' }));
      return { imported: committed, failed: [...failed, ...left], result: null, cancelled: true };
    } finally {
      for (const t of temps) rmSync(t, { force: true });
    }
  }

  private kindArg(kind: unknown): { kind?: string } {
    if (kind === undefined || kind === null || kind === '') return {};
    const k = v.text(kind, 'kind', { max: 100 });
    if (k !== 'text' && !PARSERS.some((p) => p.id === k)) v.fail(`unknown capture kind "${k}"`);
    return { kind: k };
  }

  /** The desktop app's Save dialog and PDF printing. */
  setHostHooks(hooks: HostHooks): void {
    this.hooks = hooks;
  }

  /** Browser mode: an exported file waiting to be downloaded. */
  download(id: string): Download | undefined {
    return this.downloads.get(id);
  }

  private async exportStudy(rawStudyId: unknown, rawOptions: unknown): Promise<ExportResult> {
    const study = this.service.getStudy(rawStudyId as number).study;
    const o = v.record(rawOptions, 'options');
    const format = v.oneOf(o.format, REPORT_FORMATS, 'format');
    const experimentIds = experimentIdsArg(o.experimentIds);
    // the HTML report's interactive charts (plotly.js inline); no other format has them
    const interactive = o.interactive === undefined || o.interactive === null ? false : v.bool(o.interactive, 'interactive');
    if (interactive && format !== 'html') v.fail('interactive charts are an option of the HTML report only');
    const info = FORMAT_INFO[format];
    const fileName = `${slug(study.title, 80)}.${info.ext}`;
    // a browser may not choose where the server writes: its export comes back as a download
    if (this.access && o.path != null) throw new TunebookError('refused', 'in browser mode an export is downloaded; it cannot be written to a path on the server');
    let target = o.path === undefined || o.path === null ? null : path.resolve(v.text(o.path, 'path', { required: true, max: 4096 }));
    if (!target && this.hooks.chooseSavePath) {
      target = await this.hooks.chooseSavePath({ title: `Export “${study.title}”`, defaultName: fileName, filterName: info.filterName, extensions: [info.ext] });
      if (!target) return { format, path: null, download: null, fileName, bytes: 0, files: [], cancelled: true };
    }
    if (target && !isDirectory(path.dirname(target))) throw new TunebookError('not-found', `${target} cannot be written: its folder does not exist.`);
    // written in a folder of ours first, then moved where it belongs: a cancelled or failed export leaves nothing behind
    const work = mkdtempSync(path.join(this.tempDir('exports'), 'x-'));
    try {
      const name = target ? path.basename(target) : fileName;
      const out = path.join(work, format === 'pdf' ? `${path.basename(name, path.extname(name))}.html` : name);
      const written = await this.runStore<{ files: string[]; bytes: number }>({
        op: 'export', notebook: this.notebookPath, studyId: study.id, experimentIds, format: format === 'pdf' ? 'html' : format, out, appVersion: this.appVersion,
        ...(interactive ? { interactive } : {}),
        // progress names the file the user asked for (a PDF is printed from an HTML file of ours)
        label: name,
      });
      let files = written.files;
      if (format === 'pdf') {
        const pdf = path.join(work, name);
        await (this.hooks.printPdf ?? printWithChromium)(out, pdf);
        files = [pdf];
      }
      if (!target) {
        // browser mode: one file to download (Markdown with its images as a zip)
        const id = randomBytes(12).toString('hex');
        let file = files[0]!;
        let downloadName = fileName;
        if (format === 'md') {
          downloadName = `${path.basename(fileName, '.md')}-markdown.zip`;
          file = path.join(work, downloadName);
          await zipFiles(file, files.map((f) => ({ file: f, name: path.relative(work, f).split(path.sep).join('/') })));
        }
        this.downloads.set(id, { file, name: downloadName, type: format === 'md' ? 'application/zip' : info.type });
        return { format, path: null, download: id, fileName: downloadName, bytes: statSync(file).size, files: [downloadName], cancelled: false };
      }
      const moved = files.map((f) => {
        const to = path.join(path.dirname(target!), path.relative(work, f));
        mkdirSync(path.dirname(to), { recursive: true });
        moveFile(f, to);
        return to;
      });
      rmSync(work, { recursive: true, force: true });
      return { format, path: target, download: null, fileName: path.basename(target), bytes: moved.reduce((n, f) => n + statSync(f).size, 0), files: moved, cancelled: false };
    } catch (e) {
      rmSync(work, { recursive: true, force: true });
      throw exportError(e, target ?? fileName);
    }
  }

  private async importBundle(rawSource: unknown): Promise<BundleImportResult> {
    const r = v.record(rawSource, 'source');
    let file: string;
    let temp: string | null = null;
    let name: string | undefined;
    if (r.path !== undefined) file = this.readablePath(r.path, 'path');
    else if (r.upload !== undefined) {
      const up = this.uploads.get(v.text(r.upload, 'upload', { max: 100 }));
      if (!up) v.fail(`upload ${String(r.upload)} is unknown or was already imported`);
      this.uploads.delete(path.basename(up.file));
      file = temp = up.file;
      name = up.name; // messages name the file the user chose, not the upload's staging name
    } else v.fail('give the bundle as a path or an upload');
    try {
      return await this.runStore<BundleImportResult>({ op: 'bundle', notebook: this.notebookPath, file, stagingDir: this.tempDir('staging'), ...(name ? { name } : {}) });
    } finally {
      if (temp) rmSync(temp, { force: true });
    }
  }

  /** The bytes of a stored capture, exactly as imported (`tunebook cat`). */
  captureBytes(id: number): Generator<Buffer> {
    return store.captureBytes(this.db, v.id(id, 'capture id'));
  }

  close(): void {
    this.events.removeAllListeners();
    void this.parsePool.close();
    void this.store.close();
    for (const r of this.reads?.records ?? []) void r.close();
    void this.reads?.captures.close();
    if (this.watchTimer) clearInterval(this.watchTimer);
    if (this.db.open) this.db.close();
    if (this.tempRoot) rmSync(this.tempRoot, { recursive: true, force: true });
  }
}
