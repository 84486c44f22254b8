/**
 * Worker thread entry (bundled to dist/parseWorker.cjs): parses capture files or pasted text off
 * the main thread, so a 1 GB log never stalls the app's IPC or the browser-mode server.
 * Messages: { id, op: 'files', paths, kind? } | { id, op: 'text', name, text, kind? }
 * Replies:  { id, progress: { file, read, total } } … then { id, result: CaptureJson[] } | { id, error }
 */
import { parentPort } from 'node:worker_threads';
import { parseFiles, expandPaths } from './captureFiles';
import { CaptureStream, evaluateFindings } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import type { ParseJob } from './parsePool';

parentPort?.on('message', (job: ParseJob) => {
  void run(job);
});

async function run(job: ParseJob): Promise<void> {
  try {
    let parsed;
    if (job.op === 'files') {
      const files = expandPaths(job.paths);
      parsed = await parseFiles(files, {
        ...(job.kind ? { kind: job.kind } : {}),
        onProgress: (read, total) => parentPort?.postMessage({ id: job.id, progress: { read, total } }),
      });
    } else {
      const s = new CaptureStream({ ...(job.kind ? { kind: job.kind } : {}), file: job.name });
      s.write(job.text);
      const c = s.end();
      c.findings = evaluateFindings([c])[0]!;
      parsed = [c];
    }
    parentPort?.postMessage({ id: job.id, result: parsed.map((c) => toCaptureJson(c)) });
  } catch (e) {
    parentPort?.postMessage({ id: job.id, error: e instanceof Error ? e.message : String(e) });
  }
}
