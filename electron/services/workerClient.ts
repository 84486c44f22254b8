/**
 * Runs jobs in a worker thread (parseWorker.ts, storeWorker.ts), so a 1 GB capture never stalls the
 * app's IPC or the browser-mode server. One worker per client, started on first use and kept; jobs
 * run in order. Cancelling terminates the worker (what a job had not committed is lost, by design);
 * the next job starts a fresh one. If the worker dies, the pending jobs fail with the reason.
 *
 * Protocol (workerProtocol.ts): the client posts `{ id, ...job }`; the worker answers with any
 * number of `{ id, event }` and then one `{ id, result }` or `{ id, error: { code, message } }`.
 */
import { Worker } from 'node:worker_threads';
import type { ResourceLimits } from 'node:worker_threads';
import { TunebookError } from '../../shared/api';
import { resultOf } from '../../shared/envelope';
import type { WorkerReply } from './workerProtocol';

/**
 * Limits of a thread that parses long captures (the store worker, the half worker): a small young
 * generation. A long parse allocates fast and short-lived (decoded text, numbers); collected often,
 * it stays in pages already touched, where a large one keeps faulting in fresh ones (slow on a VM:
 * npm run bench prints what they cost) and lifts the peak resident memory. 8 MB: the half worker
 * took 3–5 % less time than with the default, timed alternately (iostat -x and vmstat, 200 MB).
 */
export const PARSE_THREAD_LIMITS: ResourceLimits = { maxYoungGenerationSizeMb: 8 };

interface Pending<R, E> { resolve(r: R): void; reject(e: Error): void; onEvent: ((e: E) => void) | undefined }

export class WorkerClient<Job extends object, Result, Event> {
  private worker: Worker | null = null;
  private nextId = 1;
  private readonly pending = new Map<number, Pending<Result, Event>>();

  constructor(private readonly workerFile: string, private readonly resourceLimits?: ResourceLimits) {}

  private ensure(): Worker {
    if (this.worker) return this.worker;
    const w = new Worker(this.workerFile, this.resourceLimits ? { resourceLimits: this.resourceLimits } : {});
    w.on('message', (m: WorkerReply<Result, Event>) => {
      const p = this.pending.get(m.id);
      if (!p) return;
      if ('event' in m) { p.onEvent?.(m.event); return; }
      this.pending.delete(m.id);
      if (this.pending.size === 0) w.unref(); // an idle worker never keeps the process alive
      try {
        p.resolve(resultOf<Result>('error' in m ? { ok: false, error: m.error } : { ok: true, result: m.result }, 'a worker thread'));
      } catch (e) {
        p.reject(e as Error);
      }
    });
    const fail = (e: Error): void => {
      for (const p of this.pending.values()) p.reject(e);
      this.pending.clear();
      this.worker = null;
    };
    w.on('error', fail);
    w.on('exit', (code) => { if (this.worker === w) fail(new Error(`worker stopped (exit code ${code})`)); });
    w.unref();
    this.worker = w;
    return w;
  }

  /** true while a job is queued or running */
  get busy(): boolean {
    return this.pending.size > 0;
  }

  run(job: Job, onEvent?: (e: Event) => void): Promise<Result> {
    const id = this.nextId++;
    return new Promise((resolve, reject) => {
      this.pending.set(id, { resolve, reject, onEvent });
      const w = this.ensure();
      w.ref(); // a job under way keeps the process alive (the CLI waits for it)
      w.postMessage({ ...job, id });
    });
  }

  /** Stop the worker mid-job: every pending job fails with code 'cancelled'. */
  async cancel(message: string): Promise<void> {
    const w = this.worker;
    this.worker = null;
    const err = new TunebookError('cancelled', message);
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
