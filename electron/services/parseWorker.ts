/**
 * Worker thread entry (bundled to dist/parseWorker.cjs): parses capture files or pasted text off
 * the main thread, so a 1 GB log never stalls the app's IPC or the browser-mode server. Nothing is
 * stored: this is the Captures view's preview. Events: bytes read of the files.
 */
import { parentPort } from 'node:worker_threads';
import { parseFiles, expandPaths } from './captureFiles';
import { CaptureStream, evaluateFindings } from '../../shared/capture/registry';
import { toCaptureJson, type CaptureJson } from '../../shared/capture/json';
import { serveJobs } from './workerProtocol';

export type ParseRequest =
  | { op: 'files'; paths: string[]; kind?: string }
  | { op: 'text'; name: string; text: string; kind?: string };
export interface ParseEvent { read: number; total: number }

serveJobs<ParseRequest, CaptureJson[], ParseEvent>(parentPort, async (job, emit) => {
  let parsed;
  if (job.op === 'files') {
    parsed = await parseFiles(expandPaths(job.paths), {
      ...(job.kind ? { kind: job.kind } : {}),
      onProgress: (read, total) => emit({ read, total }),
    });
  } else {
    const s = new CaptureStream({ ...(job.kind ? { kind: job.kind } : {}), file: job.name });
    s.write(job.text);
    const c = s.end();
    c.findings = evaluateFindings([c])[0]!;
    parsed = [c];
  }
  return parsed.map((c) => toCaptureJson(c));
});
