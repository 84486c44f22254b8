/**
 * Worker thread entry (bundled to dist/halfWorker.cjs): the second half of a long capture
 * (halfParse.ts). Started ahead, it waits for its job; then counts the samples after the cut (told
 * the host as it goes) and before it (the whole's count goes to the host at once), parses from the
 * cut to the end, primed with the head's lines and numbering its samples from the count before the
 * cut, and sends its half back.
 */
import { closeSync, openSync, readSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import { captureDecoder } from '../../shared/capture/decode';
import { SplitMismatch, endSecondHalf, secondHalfStream, splitPlan } from '../../shared/capture/split';
import { asciiText } from './asciiText';
import { toWire, writeBytes, type HalfJob, type HalfReply } from './halfParse';

const READ_BYTES = 1 << 20;
/** how often the samples counted after the cut are told (the host's first half: RowStore.follow) */
const COUNT_TOLD_BYTES = 16 << 20;
/** how often the bytes parsed are told (the host's progress) */
const PROGRESS_BYTES = 8 << 20;

function run(job: HalfJob): void {
  const plan = splitPlan(job.kind, job.head);
  if (!plan) throw new SplitMismatch('the head cannot be cut');
  const fd = openSync(job.file, 'r');
  try {
    const buf = Buffer.allocUnsafe(READ_BYTES);
    // the samples of bytes [from, to), counted a piece of whole lines at a time; `told` hears the count so far every COUNT_TOLD_BYTES
    const count = (from: number, to: number, told?: (n: number) => void): number => {
      let n = 0;
      let pos = from;
      while (pos < to) {
        if (told && n > 0 && (pos - from) % COUNT_TOLD_BYTES < READ_BYTES) told(n);
        const got = readSync(fd, buf, 0, Math.min(READ_BYTES, to - pos), pos);
        if (got === 0) throw new SplitMismatch('the file is shorter than it was');
        const end = pos + got === to ? got : buf.lastIndexOf(10, got - 1) + 1;
        if (end === 0) throw new SplitMismatch('a line longer than a read');
        n += plan.count(buf.subarray(0, end));
        pos += end;
      }
      return n;
    };
    // the samples after the cut first, told the host as they are counted (its first half thins as
    // far as the whole surely will: RowStore.follow); then those before the cut (this half's are
    // numbered from there), and the whole's: both halves keep their points in just the room the
    // whole's stride leaves them (RowStore.plan)
    const after = count(job.at, job.end, (n) => parentPort!.postMessage({ after: n } satisfies HalfReply));
    const base = count(0, job.at);
    const total = base + after;
    parentPort!.postMessage({ total, base } satisfies HalfReply);
    const half = secondHalfStream(job.kind, plan, base, { file: job.name, ...(job.context ? { context: job.context } : {}) });
    half.stream.planSamples(total);
    const decoder = captureDecoder(asciiText);
    for (let pos = job.at; pos < job.end;) {
      const n = readSync(fd, buf, 0, Math.min(READ_BYTES, job.end - pos), pos);
      if (n === 0) break;
      pos += n;
      writeBytes(half.stream, decoder, buf.subarray(0, n));
      if ((pos - job.at) % PROGRESS_BYTES < n) parentPort!.postMessage({ read: pos - job.at } satisfies HalfReply);
    }
    half.stream.write(decoder.end());
    const { wire, transfer } = toWire(endSecondHalf(half, base, total));
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
