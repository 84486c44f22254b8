/**
 * Worker thread entry (bundled to dist/halfWorker.cjs): the second half of a long capture
 * (halfParse.ts). Started ahead, it waits for its job; then counts the samples before the cut,
 * parses from the cut to the end, primed with the head's lines and numbering its samples from that
 * count, and sends its half back.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { captureDecoder } from '../../shared/capture/decode';
import { SplitMismatch, endSecondHalf, secondHalfStream, splitPlan } from '../../shared/capture/split';
import { asciiText } from './asciiText';
import { toWire, writeBytes, type HalfJob, type HalfReply } from './halfParse';

const READ_BYTES = 1 << 20;
/** how often the bytes parsed are told (the host's progress) */
const PROGRESS_BYTES = 8 << 20;

function run(job: HalfJob): void {
  const plan = splitPlan(job.kind, job.head);
  if (!plan) throw new SplitMismatch('the head cannot be cut');
  const fd = openSync(job.file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_BYTES);
    // the samples before the cut, counted in the bytes, a piece of whole lines at a time
    let base = 0;
    let pos = 0;
    while (pos < job.at) {
      const n = readSync(fd, buf, 0, Math.min(READ_BYTES, job.at - pos), pos);
      if (n === 0) break;
      const end = pos + n === job.at ? n : buf.lastIndexOf(10, n - 1) + 1;
      if (end === 0) throw new SplitMismatch('a line longer than a read');
      base += plan.count(buf.subarray(0, end));
      pos += end;
    }
    if (pos !== job.at) throw new SplitMismatch('the file is shorter than the cut');
    const half = secondHalfStream(job.kind, plan, base, { file: job.name, ...(job.context ? { context: job.context } : {}) });
    const decoder = captureDecoder(asciiText);
    for (pos = job.at; pos < job.end;) {
      const n = readSync(fd, buf, 0, Math.min(READ_BYTES, job.end - pos), pos);
      if (n === 0) break;
      pos += n;
      writeBytes(half.stream, decoder, buf.subarray(0, n));
      if ((pos - job.at) % PROGRESS_BYTES < n) parentPort!.postMessage({ read: pos - job.at } satisfies HalfReply);
    }
    half.stream.write(decoder.end());
    const { wire, transfer } = toWire(endSecondHalf(half, base));
    parentPort!.postMessage({ half: wire } satisfies HalfReply, transfer);
  } finally {
    closeSync(fd);
  }
}

// started ahead (HalvedStream), it waits for its job
parentPort!.once('message', (job: HalfJob) => {
  try {
    run(job);
  } catch (e) {
    const reply: HalfReply = e instanceof SplitMismatch ? { mismatch: e.message } : { error: e instanceof Error ? e.message : String(e) };
    parentPort!.postMessage(reply);
  }
});
