/**
 * Worker thread entry (bundled to dist/parseWorker.cjs): parses capture files or pasted text off
 * the main thread, so a 1 GB log never stalls the app's IPC or the browser-mode server. Nothing is
 * stored: this is the Captures view's preview. Events: bytes read of the files. A file of a folder
 * that cannot be read (a dangling link, a loop, a pipe …) is an empty `text` capture whose warning
 * says why, with `skipped` set: the rest of the folder is still read (captureFiles.parsePaths).
 */
import { parentPort } from 'node:worker_threads';
import { parsePaths } from './captureFiles';
import { CaptureStream, evaluateFindings } from '../../shared/capture/registry';
import { toCaptureJson, type CaptureJson } from '../../shared/capture/json';
import { serveJobs } from './workerProtocol';

export type ParseRequest =
  | { op: 'files'; paths: string[]; kind?: string }
  | { op: 'text'; name: string; text: string; kind?: string };
export interface ParseEvent { read: number; total: number }

serveJobs<ParseRequest, CaptureJson[], ParseEvent>(parentPort, async (job, emit) => {
  if (job.op === 'files') {
    const parsed = await parsePaths(job.paths, {
      ...(job.kind ? { kind: job.kind } : {}),
      onProgress: (read, total) => emit({ read, total }),
    });
    // `skipped` rides along on the capture's JSON (the Captures view shows its warning)
    return parsed.map((p) => (p.skipped === undefined ? toCaptureJson(p.capture) : { ...toCaptureJson(p.capture), skipped: p.skipped }));
  }
  const s = new CaptureStream({ ...(job.kind ? { kind: job.kind } : {}), file: job.name });
  s.write(job.text);
  const c = s.end();
  c.findings = evaluateFindings([c])[0]!;
  return [toCaptureJson(c)];
});
