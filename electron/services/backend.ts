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
}

const MAX_RECENT = 10;

export class Backend {
  private db: Db;
  private service: NotebookService;
  private notebookPath: string;
  private readonly events = new EventEmitter();
  private readonly appVersion: string;

  constructor(private readonly opts: BackendOptions) {
    this.appVersion = opts.appVersion ?? APP_VERSION;
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

  /** Dispatch one contract call. Throws TunebookError for anything a user can act on. */
  call(method: ApiMethodName | string, args: unknown[]): unknown {
    if (!isApiMethod(method)) throw new TunebookError('invalid', `unknown method "${method}"`);
    if (!Array.isArray(args)) throw new TunebookError('invalid', 'arguments must be a list');
    switch (method) {
      case 'notebookInfo': return this.info();
      case 'openNotebook': return this.openNotebook(args[0] as string, args[1] === true);
      case 'recentNotebooks': return this.recentNotebooks();
      default: {
        const fn = this.service[method] as (...a: unknown[]) => unknown;
        return fn.apply(this.service, args);
      }
    }
  }

  /** A typed, synchronous view of the API (the CLI and tests use it). */
  get api(): ApiMethods {
    const out = {} as Record<ApiMethodName, (...a: unknown[]) => unknown>;
    for (const m of API_METHODS) out[m] = (...a: unknown[]) => this.call(m, a);
    return out as unknown as ApiMethods;
  }

  close(): void {
    this.events.removeAllListeners();
    if (this.db.open) this.db.close();
  }
}

/** Turn anything thrown into the wire form; unexpected errors are logged, not leaked in detail. */
export function toErrorBody(e: unknown, log: (e: unknown) => void = console.error): { code: string; message: string } {
  if (e instanceof TunebookError) return { code: e.code, message: e.message };
  log(e);
  return { code: 'internal', message: `internal error: ${e instanceof Error ? e.message : String(e)}` };
}
