/**
 * Worker thread entry (bundled to dist/readWorker.cjs): the notebook's heavy reads — a study of
 * 10,000 experiments, its timeline and comparison, search, a capture's lines and series — on a
 * read-only connection of its own (WAL lets it read while the main thread writes), so the Electron
 * main process and the browser-mode server never wait on them. The answer comes back as JSON text,
 * which the hosts pass on as it is (no parse and re-serialise on the main thread).
 */
import { parentPort } from 'node:worker_threads';
import type { ApiMethods } from '../../shared/api';
import { openNotebookDb, type Db } from '../db/connection';
import { NotebookService } from './notebookService';
import { serveJobs } from './workerProtocol';
import { isWorkerRead, type ReadJob } from './workerReads';

let open: { notebook: string; db: Db; service: NotebookService } | null = null;

function serviceFor(notebook: string): NotebookService {
  if (open?.notebook === notebook) return open.service;
  open?.db.close();
  open = null;
  const db = openNotebookDb(notebook, { create: false });
  db.pragma('query_only = ON'); // this connection never writes
  open = { notebook, db, service: new NotebookService(db) };
  return open.service;
}

serveJobs<ReadJob, string, never>(parentPort, async (job) => {
  if (!isWorkerRead(job.method)) throw new Error(`${job.method} is not a read`);
  const service = serviceFor(job.notebook);
  const fn = service[job.method] as (...a: unknown[]) => ReturnType<ApiMethods[typeof job.method]>;
  const result: unknown = await fn.apply(service, job.args);
  return JSON.stringify(result ?? null);
});
