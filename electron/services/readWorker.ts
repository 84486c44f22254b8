/**
 * Worker thread entry (bundled to dist/readWorker.cjs): the notebook's heavy reads — a study of
 * 10,000 experiments, its timeline and comparison, search, a capture's lines and series — on a
 * read-only connection of its own (WAL lets it read while the main thread writes), so the Electron
 * main process and the browser-mode server never wait on them. The answer comes back as JSON text,
 * which the hosts pass on as it is (no parse and re-serialise on the main thread).
 *
 * Answers are kept until the notebook changes: SQLite's data_version moves whenever another
 * connection (the main thread's, the store worker's) commits, and it is read before each query, so
 * a kept answer is never older than the last commit. Going back to a study of 10,000 experiments
 * is then instant; after a change its first read is a fresh one.
 */
import { parentPort } from 'node:worker_threads';
import { openNotebookDb, type Db } from '../db/connection';
import { NotebookService } from './notebookService';
import { serveJobs } from './workerProtocol';
import { isWorkerRead, type ReadJob } from './workerReads';

/** At most this much answer text is kept (UTF-16 code units: about twice as many bytes). */
const KEEP_CHARS = 32 * 1024 * 1024;

interface Open {
  notebook: string;
  db: Db;
  service: NotebookService;
  dataVersion: () => number;
  /** answers by method and arguments, oldest first, valid while data_version is `version` */
  kept: Map<string, string>;
  keptChars: number;
  version: number;
}
let open: Open | null = null;

function notebookFor(notebook: string): Open {
  if (open?.notebook === notebook) return open;
  open?.db.close();
  open = null;
  const db = openNotebookDb(notebook, { create: false });
  db.pragma('query_only = ON'); // this connection never writes
  // reads of a large notebook: pages mapped rather than copied, and more of them kept
  // (a study of 10,000 experiments reads ~40% faster; a notebook larger than the map is read as usual)
  db.pragma('mmap_size = 1073741824');
  db.pragma('cache_size = -65536');
  const dataVersion = db.prepare('PRAGMA data_version').pluck();
  open = { notebook, db, service: new NotebookService(db), dataVersion: () => dataVersion.get() as number, kept: new Map(), keptChars: 0, version: -1 };
  return open;
}

function keep(o: Open, key: string, json: string): void {
  if (json.length > KEEP_CHARS / 2) return;
  o.kept.set(key, json);
  o.keptChars += json.length;
  for (const [k, v] of o.kept) {
    if (o.keptChars <= KEEP_CHARS) break;
    o.kept.delete(k);
    o.keptChars -= v.length;
  }
}

serveJobs<ReadJob, string, never>(parentPort, async (job) => {
  const o = notebookFor(job.notebook);
  const method = job.method;
  if (method === null) return 'null';
  if (!isWorkerRead(method)) throw new Error(`${String(method)} is not a read`);
  // read before the query: a commit after this point makes the next job start afresh
  const version = o.dataVersion();
  if (version !== o.version) { o.kept.clear(); o.keptChars = 0; o.version = version; }
  const key = `${method}\u0000${JSON.stringify(job.args)}`;
  const hit = o.kept.get(key);
  if (hit !== undefined) return hit;
  const fn = o.service[method] as (...a: unknown[]) => unknown;
  const json = JSON.stringify((await fn.apply(o.service, job.args)) ?? null);
  keep(o, key, json);
  return json;
});
