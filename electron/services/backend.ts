/**
 * Backend: the whole back end behind the TunebookApi contract, for any host (Electron IPC, the
 * browser-mode HTTP server, the CLI). Owns the open notebook, the recent-notebooks list and the
 * event fan-out; dispatches contract calls by name.
 */
import { EventEmitter } from 'node:events';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { API_METHODS, isApiMethod, TunebookError, type ApiEvents, type ApiMethodName, type ApiMethods } from '../../shared/api';
import type { NotebookInfo } from '../../shared/model';
import * as v from '../../shared/validate';
import { openNotebookDb, schemaVersion, type Db } from '../db/connection';
import { NotebookService } from './notebookService';
import { ParsePool } from './parsePool';
import { PARSERS } from '../../shared/capture/registry';

/** Largest pasted capture accepted over the API (files on disk are streamed and have no limit). */
export const MAX_CAPTURE_TEXT = 64 * 1024 * 1024;

declare const __APP_VERSION__: string | undefined;
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0-dev';

export const NOTEBOOK_EXTENSION = '.tunebook';

export function defaultNotebookPath(userDataDir: string): string {
  return path.join(userDataDir, `notebook${NOTEBOOK_EXTENSION}`);
}

export interface BackendOptions {
  notebookPath: string;
  userDataDir: string;
  appVersion?: string;
  /** the built parse worker (default: parseWorker.cjs beside the running bundle) */
  parseWorkerFile?: string;
}

const MAX_RECENT = 10;

export class Backend {
  private db: Db;
  private service: NotebookService;
  private notebookPath: string;
  private readonly events = new EventEmitter();
  private readonly appVersion: string;
  private readonly parsePool: ParsePool;

  constructor(private readonly opts: BackendOptions) {
    this.appVersion = opts.appVersion ?? APP_VERSION;
    this.parsePool = new ParsePool(opts.parseWorkerFile);
    this.notebookPath = path.resolve(opts.notebookPath);
    this.db = openNotebookDb(this.notebookPath, { create: true });
    this.service = this.wire(new NotebookService(this.db));
    this.remember(this.notebookPath);
  }

  private wire(s: NotebookService): NotebookService {
    s.onChange = (studyId) => this.emit('onDidChangeData', { studyId });
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
    const target = path.resolve(v.text(file, 'path', { required: true, max: 4096 }));
    if (create && path.extname(target) === '') v.fail(`a new notebook needs a file name ending in ${NOTEBOOK_EXTENSION}`);
    if (target === this.notebookPath) return this.info();
    const db = openNotebookDb(target, { create });
    this.db.close();
    this.db = db;
    this.service = this.wire(new NotebookService(db));
    this.notebookPath = target;
    this.remember(target);
    const info = this.info();
    this.emit('onDidChangeNotebook', info);
    return info;
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
   * Dispatch one contract call. Throws TunebookError for anything a user can act on. Notebook calls
   * answer synchronously; capture parsing answers with a Promise (it runs in a worker).
   */
  call(method: ApiMethodName | string, args: unknown[]): unknown {
    if (!isApiMethod(method)) throw new TunebookError('invalid', `unknown method "${method}"`);
    if (!Array.isArray(args)) throw new TunebookError('invalid', 'arguments must be a list');
    switch (method) {
      case 'notebookInfo': return this.info();
      case 'openNotebook': return this.openNotebook(args[0] as string, args[1] === true);
      case 'recentNotebooks': return this.recentNotebooks();
      case 'captureKinds': return PARSERS.map((p) => ({ id: p.id, title: p.title }));
      case 'parseCaptureFiles': {
        const paths = args[0];
        if (!Array.isArray(paths) || paths.length === 0) v.fail('give one or more paths');
        const list = paths.map((p, i) => path.resolve(v.text(p, `path ${i + 1}`, { required: true, max: 4096 })));
        let last = 0;
        const progress = (read: number, total: number): void => {
          const now = Date.now();
          if (now - last < 200 && read < total) return; // a few events a second, and the last one
          last = now;
          this.emit('onDidProgressParse', { read, total });
        };
        return this.parsePool.run({ op: 'files', paths: list, ...this.kindArg(args[1]) }, progress);
      }
      case 'parseCaptureText': {
        const name = v.text(args[0], 'name', { max: 1000 });
        const text = v.text(args[1], 'text', { max: MAX_CAPTURE_TEXT });
        return this.parsePool.run({ op: 'text', name, text, ...this.kindArg(args[2]) });
      }
      case 'cancelCaptureParsing': return this.parsePool.cancel();
      default: {
        const fn = this.service[method] as (...a: unknown[]) => unknown;
        return fn.apply(this.service, args);
      }
    }
  }

  private kindArg(kind: unknown): { kind?: string } {
    if (kind === undefined || kind === null || kind === '') return {};
    const k = v.text(kind, 'kind', { max: 100 });
    if (k !== 'text' && !PARSERS.some((p) => p.id === k)) v.fail(`unknown capture kind "${k}"`);
    return { kind: k };
  }

  /** A typed view of the API for the CLI and tests (the parse methods return Promises at run time). */
  get api(): ApiMethods {
    const out = {} as Record<ApiMethodName, (...a: unknown[]) => unknown>;
    for (const m of API_METHODS) out[m] = (...a: unknown[]) => this.call(m, a);
    return out as unknown as ApiMethods;
  }

  close(): void {
    this.events.removeAllListeners();
    void this.parsePool.close();
    if (this.db.open) this.db.close();
  }
}

/**
 * Turn anything thrown into the wire form (ApiErrorBody['error']). A TunebookError keeps its code
 * (also one from another realm, recognised by name); anything else is an internal error, logged
 * by the caller, whose message is passed on so a user can report it.
 */
export function toErrorBody(e: unknown): { code: string; message: string } {
  if (e instanceof TunebookError) return { code: e.code, message: e.message };
  if (e instanceof Error && e.name === 'TunebookError' && typeof (e as { code?: unknown }).code === 'string') {
    return { code: (e as Error & { code: string }).code, message: e.message };
  }
  return { code: 'internal', message: `Internal error: ${e instanceof Error ? e.message : String(e)}` };
}
