/**
 * Runs capture parsing in a worker thread (see parseWorker.ts). One worker, started on first use
 * and kept; jobs queue in order. If the worker dies, the pending jobs fail with the reason and the
 * next job starts a fresh worker.
 */
import { Worker } from 'node:worker_threads';
import path from 'node:path';
import type { CaptureJson } from '../../shared/capture/json';
import { TunebookError } from '../../shared/api';

export type ParseRequest =
  | { op: 'files'; paths: string[]; kind?: string }
  | { op: 'text'; name: string; text: string; kind?: string };
export type ParseJob = ParseRequest & { id: number };

type Reply = { id: number; result?: CaptureJson[]; error?: string; progress?: { read: number; total: number } };

interface Pending { resolve(r: CaptureJson[]): void; reject(e: Error): void; onProgress: ((read: number, total: number) => void) | undefined }

export class ParsePool {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending>();

  constructor(private readonly workerFile = path.join(__dirname, 'parseWorker.cjs')) {}

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.workerFile);
    w.on('message', (m: Reply) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if (m.progress) { p.onProgress?.(m.progress.read, m.progress.total); return; }
      this.pending.delete(m.id);
      if (m.error !== undefined) p.reject(new Error(m.error)); else p.resolve(m.result ?? []);
    });
    const fail = (e: Error): void => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => { if (this.worker === w) fail(new Error(`parser worker stopped (exit code ${code})`)); });
    w.unref();
    this.worker = w;
    return w;
  }

  run(job: ParseRequest, onProgress?: (read: number, total: number) => void): Promise<CaptureJson[]> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onProgress });
      this.ensure().postMessage({ ...job, id });
    });
  }

  /** Stop the worker mid-parse: every pending job fails with code 'cancelled'; the next job starts a fresh worker. */
  async cancel(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    const err = new TunebookError('cancelled', 'parsing was cancelled');
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
    if (w) await w.terminate();
  }

  async close(): Promise<void> {
    const w = this.worker;
    this.worker = null;
    if (w) await w.terminate();
  }
}
