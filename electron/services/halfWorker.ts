/**
 * Worker thread entry (bundled to dist/halfWorker.cjs): the second half of a long capture
 * (halfParse.ts). Started ahead, it waits for its job; then counts the samples before the cut and
 * after it (the whole's count goes to the host at once), parses from the cut to the end, primed
 * with the head's lines and numbering its samples from the first count, and sends its half back.
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
    // the samples of bytes [from, to), counted a piece of whole lines at a time
    const count = (from: number, to: number): number => {
      let n = 0;
      let pos = from;
      while (pos < to) {
        const got = readSync(fd, buf, 0, Math.min(READ_BYTES, to - pos), pos);
        if (got === 0) throw new SplitMismatch('the file is shorter than it was');
        const end = pos + got === to ? got : buf.lastIndexOf(10, got - 1) + 1;
        if (end === 0) throw new SplitMismatch('a line longer than a read');
        n += plan.count(buf.subarray(0, end));
        pos += end;
      }
      return n;
    };
    // the samples before the cut (this half's are numbered from there), and the whole's: both
    // halves keep their points in just the room the whole's stride leaves them (RowStore.plan)
    const base = count(0, job.at);
    const total = base + count(job.at, job.end);
    parentPort!.postMessage({ total } satisfies HalfReply);
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
