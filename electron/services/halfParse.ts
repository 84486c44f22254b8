/**
 * The second half of a long capture, parsed in a thread of its own while the host parses the first
 * (shared/capture/split.ts says how and why; this is the threads and the file).
 *
 * A host (the CLI's and the app's parseFile, the store's stageCapture) calls startSecondHalf once its
 * stream knows the capture's kind. For a file of SPLIT_MIN_BYTES or more whose parser can be cut, it
 * finds a cut about half way (a report's first line), gives the half worker (halfWorker.ts, bundled
 * to halfWorker.cjs beside the host's bundle) its job and returns where to stop feeding its own
 * stream. HalvedStream starts that worker as it begins, so the thread and its bundle load while the
 * host reads the head (~0.1 s off the second half's way, which is the longer one). The
 * worker counts the samples before the cut, parses the rest, and sends its half back (points in
 * transferred Float64Arrays). The host joins the two (CaptureStream.end with joinHalves); when they
 * do not join, or the worker fails, the host parses the file again in one piece.
 */
import { isAscii } from 'node:buffer';
import { existsSync, closeSync, openSync, readSync } from 'node:fs';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import type { CaptureDecoder } from '../../shared/capture/decode';
import type { CaptureStream } from '../../shared/capture/registry';
import { SPLIT_MIN_BYTES, SplitMismatch, headLines, joinHalves, splitPlan, type HalfSeries, type SecondHalf } from '../../shared/capture/split';
import type { CaptureContext, ParsedCapture } from '../../shared/capture/types';
import { PARSE_THREAD_LIMITS } from './workerClient';

/** what the half worker is told */
export interface HalfJob {
  file: string;
  /** byte offset of the cut (a line's start) */
  at: number;
  /** the file's size when the host began: the worker reads up to there (the host checks it read as much) */
  end: number;
  kind: string;
  /** the head's lines (the plan is made again from them there) */
  head: string[];
  name: string;
  context?: CaptureContext;
}

/**
 * what the half worker sends: the samples after the cut as it counts them (the host's stores thin
 * ahead), then the whole's and those before the cut (the host's own), counted before it parses (the host plans its stores for them), bytes of its half parsed so far (now and then), then its half or why not
 */
export type HalfReply = { after: number } | { total: number; base: number } | { read: number } | { half: SecondHalf } | { mismatch: string } | { error: string };

/** The half with its points in Float64Arrays (times: NaN = none), and their buffers to transfer, not copy. */
export function toWire(half: SecondHalf): { wire: SecondHalf; transfer: ArrayBuffer[] } {
  // (the columns of one store share their times' buffer: each goes once)
  const transfer = new Set<ArrayBuffer>();
  const typed = (a: ArrayLike<number | null>): Float64Array => {
    // a second half's stores keep Float64Arrays (RowStore.typed): sent as they are; anything else is
    // copied by index (Float64Array.from walks an array through its iterator, 4× slower)
    let out: Float64Array;
    if (a instanceof Float64Array) out = a;
    else {
      out = new Float64Array(a.length);
      for (let i = 0; i < out.length; i++) out[i] = a[i] ?? NaN;
    }
    transfer.add(out.buffer as ArrayBuffer);
    return out;
  };
  const series = half.out.series.map((s): HalfSeries => (s.times ? { ...s, values: typed(s.values), times: typed(s.times) } : { ...s, values: typed(s.values) }));
  return { wire: { ...half, out: { ...half.out, series } }, transfer: [...transfer] };
}

/** The smallest file cut in two: TUNEBOOK_SPLIT_MIN_BYTES when set (tests, and "off"), else SPLIT_MIN_BYTES. */
export function splitMinBytes(env: NodeJS.ProcessEnv = process.env): number {
  const v = env.TUNEBOOK_SPLIT_MIN_BYTES;
  if (v === undefined || v === '') return SPLIT_MIN_BYTES;
  if (v === 'off') return Infinity;
  const n = Number(v);
  return Number.isFinite(n) && n >= 0 ? n : SPLIT_MIN_BYTES;
}

/** the half worker beside the running bundle, when there is one (not under the unit tests' TypeScript) */
export function defaultHalfWorker(): string | null {
  const f = path.join(__dirname, 'halfWorker.cjs');
  return existsSync(f) ? f : null;
}

/** the half worker's bundle a host asked for (`worker`: a path, null for none, undefined for the default) */
const halfWorkerFile = (worker: string | null | undefined): string | null => (worker === undefined ? defaultHalfWorker() : worker);

const HEAD_BYTES = 64 * 1024;
const WINDOW_BYTES = 4 << 20;

function readAt(file: string, start: number, length: number): Buffer {
  const fd = openSync(file, 'r');
  try {
    const buf = Buffer.allocUnsafe(length);
    let got = 0;
    while (got < length) {
      const n = readSync(fd, buf, got, length - got, start + got);
      if (n === 0) break;
      got += n;
    }
    return buf.subarray(0, got);
  } finally {
    closeSync(fd);
  }
}

/** Where to cut a file of `size` bytes whose kind is `kind`, and its head's lines; null when it is not cut. */
export function planCut(file: string, size: number, kind: string): { at: number; head: string[] } | null {
  const headBytes = readAt(file, 0, Math.min(size, HEAD_BYTES));
  // plain UTF-8 text (no BOM, no NUL: what a UTF-16 file has), whole lines
  if (headBytes.includes(0) || (headBytes[0] === 0xef && headBytes[1] === 0xbb)) return null;
  let headText: string;
  try { headText = new TextDecoder('utf-8', { fatal: true }).decode(headBytes.subarray(0, headBytes.lastIndexOf(10) + 1)); } catch { return null; }
  const head = headLines(headText);
  const plan = splitPlan(kind, head);
  if (!plan) return null;
  const start = Math.floor(size / 2);
  // a few reports' worth first (the host waits for this), the longer window only when they hold no boundary
  for (const bytes of [HEAD_BYTES, WINDOW_BYTES]) {
    const window = readAt(file, start, Math.min(bytes, size - start));
    // latin1: one character per byte, so offsets are byte offsets (the markers are ASCII)
    const text = window.toString('latin1');
    const from = text.indexOf('\n') + 1;
    if (from <= 0) continue;
    const cut = plan.boundary(text, from);
    if (cut >= 0) return { at: start + cut, head };
    if (window.length < bytes) break;
  }
  return null;
}

export interface SecondHalfThread {
  /** the host feeds its stream the bytes before this offset only */
  readonly at: number;
  /** the second half, or SplitMismatch / an Error */
  result(): Promise<SecondHalf>;
  /** stop the worker (a cancel, a failure, or the host went past the cut) */
  cancel(): void;
}

/**
 * The half worker, started ahead of its job (startSecondHalf posts it); it waits for it. Null when no
 * thread can be had (a path Node refuses, ERR_WORKER_INIT_FAILED …): the capture is then parsed in
 * one piece, as it always can be.
 */
export function spawnHalfWorker(workerFile: string): Worker | null {
  let worker: Worker;
  try { worker = new Worker(workerFile, { resourceLimits: PARSE_THREAD_LIMITS }); } catch { return null; }
  // a failure before its job is told by threadId -1 (startSecondHalf then starts another), after it by the job's result
  worker.on('error', () => undefined);
  return worker;
}

/**
 * Start the second half of `file` in the half worker (`warm`: one started ahead, else a new one),
 * when the file is long enough and its kind can be cut; null when it is parsed in one piece (the
 * caller then stops `warm`).
 */
export function startSecondHalf(
  file: string, size: number, kind: string,
  opts: {
    name: string; context?: CaptureContext; worker?: string | null; minBytes?: number; warm?: Worker | null;
    onRead?: (bytes: number) => void;
    /** samples after the cut counted so far, told as the worker counts them (before onTotal) */
    onAfter?: (samples: number) => void;
    /** the whole's samples and those before the cut, counted by the worker before it parses */
    onTotal?: (samples: number, before: number) => void;
  },
): SecondHalfThread | null {
  const workerFile = halfWorkerFile(opts.worker);
  if (workerFile === null || size < (opts.minBytes ?? splitMinBytes())) return null;
  let plan: { at: number; head: string[] } | null;
  try { plan = planCut(file, size, kind); } catch { return null; }
  if (plan === null) return null;
  const job: HalfJob = { file, at: plan.at, end: size, kind, head: plan.head, name: opts.name, ...(opts.context ? { context: opts.context } : {}) };
  // (threadId is -1 once a thread has stopped: a warm one that failed to start is replaced)
  const worker = opts.warm && opts.warm.threadId !== -1 ? opts.warm : spawnHalfWorker(workerFile);
  if (worker !== opts.warm) void opts.warm?.terminate();
  if (worker === null) return null;
  worker.postMessage(job);
  const done = new Promise<SecondHalf>((resolve, reject) => {
    worker.on('message', (m: HalfReply) => {
      if ('read' in m) { opts.onRead?.(m.read); return; }
      if ('after' in m) { opts.onAfter?.(m.after); return; }
      if ('total' in m) { opts.onTotal?.(m.total, m.base); return; }
      if ('half' in m) resolve(m.half);
      else if ('mismatch' in m) reject(new SplitMismatch(m.mismatch));
      else reject(new Error(m.error));
      void worker.terminate();
    });
    worker.once('error', reject);
    worker.once('exit', (code) => reject(new Error(`the second half's thread stopped (${code})`)));
  });
  done.catch(() => undefined); // a host that stops early never asks
  return {
    at: plan.at,
    result: () => done,
    cancel: () => { void worker.terminate(); },
  };
}

/** Decoded and parsed 64 KiB at a time: those strings die young, where 1 MiB ones would wait in the large-object space for a full GC. */
const DECODE_BYTES = 64 * 1024;

/**
 * Bytes of a capture into its stream, through its decoder, DECODE_BYTES at a time. A piece of
 * ASCII bytes (no carriage return) that the decoder would only copy into a string goes to a stream
 * whose sink reads bytes as they are (CaptureStream.writeAscii): no string is made of its lines.
 */
export function writeBytes(stream: CaptureStream, decoder: CaptureDecoder, bytes: Uint8Array): void {
  for (let o = 0; o < bytes.length; o += DECODE_BYTES) {
    const piece = bytes.subarray(o, Math.min(bytes.length, o + DECODE_BYTES));
    if (stream.readsBytes && decoder.clear && isAscii(piece) && piece.indexOf(13) === -1) stream.writeAscii(piece);
    else stream.write(decoder.write(piece));
  }
}

/**
 * A host's stream fed with a file's pieces in order, cut in two once its kind is known (when the
 * file is long enough and its kind can be: startSecondHalf). The host reads on (the store stages
 * every byte) or stops (`write` says when the rest is the thread's), then calls `end`.
 */
export class HalvedStream {
  private half: SecondHalfThread | null = null;
  private planned: boolean;
  private fed = 0;
  /** cancelled after the cut: this stream read only the first half */
  private abandoned = false;
  /** bytes of the second half its thread has parsed */
  private secondRead = 0;
  /** the half worker, started as this stream begins (a long file that may be cut), until it gets its job or is stopped */
  private warm: Worker | null = null;
  /** this stream's stores were told the samples after the cut or the whole's: what it parsed stands only joined to the second half */
  private toldCount = false;

  /** the capture was cut in two (so far: the join may still fail) */
  get cut(): boolean { return this.half !== null; }

  /** bytes parsed so far, by both threads */
  get parsed(): number {
    const half = this.half;
    return half === null ? this.fed : Math.min(this.fed, half.at) + this.secondRead;
  }

  /** the most bytes told as parsed (the progress never goes back) */
  reported = 0;

  private tell(): void {
    this.reported = Math.max(this.reported, this.parsed);
    this.opts.onProgress?.(this.reported);
  }

  constructor(
    private readonly stream: CaptureStream,
    private readonly decoder: CaptureDecoder,
    private readonly file: string,
    private readonly size: number,
    private readonly opts: {
      name: string; context?: CaptureContext; split: boolean; worker?: string | null; onProgress?: (bytes: number) => void;
      /** cut only a capture that has begun at most this many series by the time its kind is known (the import's memory) */
      maxSeries?: number;
    },
  ) {
    this.planned = !opts.split;
    const workerFile = halfWorkerFile(opts.worker);
    if (opts.split && workerFile !== null && size >= splitMinBytes()) this.warm = spawnHalfWorker(workerFile);
  }

  /** the worker started ahead is not needed (or was handed its job) */
  private dropWarm(): void {
    if (this.warm !== null && this.half === null) void this.warm.terminate();
    this.warm = null;
  }

  /** The file's next piece (it starts where the last one ended). True once the rest is the second half's: nothing more is parsed here. */
  write(piece: Uint8Array): boolean {
    const start = this.fed;
    this.fed += piece.length;
    // until the cut is planned, a decoded piece at a time: the kind is known once the head is read,
    // and the second thread gets its job then, not after a whole piece parsed by a cold parser
    let o = 0;
    while (!this.planned && o < piece.length) {
      const end = Math.min(piece.length, o + DECODE_BYTES);
      this.stream.write(this.decoder.write(piece.subarray(o, end)));
      o = end;
      if (this.stream.kind !== null) this.startCut(start + o);
    }
    const half = this.half;
    const stop = half === null ? piece.length : Math.max(o, Math.min(piece.length, half.at - start));
    writeBytes(this.stream, this.decoder, piece.subarray(o, stop));
    if (stop > 0) this.tell();
    return this.half !== null && this.fed >= this.half.at;
  }

  /** The kind is known, `fed` bytes in: cut the file in two now, or never. */
  private startCut(fed: number): void {
    this.planned = true;
    const series = this.stream.seriesBegun;
    if (this.opts.maxSeries !== undefined && (series === null || series > this.opts.maxSeries)) { this.dropWarm(); return; }
    this.half = startSecondHalf(this.file, this.size, this.stream.kind!, {
      ...this.opts, warm: this.warm,
      onRead: (n) => { this.secondRead = n; this.tell(); },
      onAfter: (n) => { if (this.half !== null) { this.toldCount = true; this.stream.samplesAfter(n); } },
      onTotal: (n, before) => { if (this.half !== null) { this.toldCount = true; this.stream.planSamples(n, before); } },
    });
    // (past the cut already: a cut in the head read)
    if (this.half !== null && this.half.at < fed) { this.half.cancel(); this.half = null; }
    this.dropWarm();
  }

  /** The parse, joined from the two halves when the file was cut; null when they do not join (read it again whole, split: false). */
  async end(): Promise<ParsedCapture | null> {
    this.dropWarm();
    if (this.abandoned) return null;
    this.stream.write(this.decoder.end());
    const half = this.half;
    // (planned for the whole, its stores may be thinned more than its own samples need)
    if (half === null) return this.toldCount ? null : this.stream.end();
    try {
      if (this.fed < half.at) throw new SplitMismatch('the file ended before the cut');
      const second = await half.result();
      return this.stream.end((out, at) => joinHalves(out, at, second));
    } catch {
      this.cancel();
      return null;
    }
  }

  /**
   * Stop the second half's thread (a cancel or a failure of the host's, a file that changed size).
   * After the cut, end() then says the parse must be read again.
   */
  cancel(): void {
    this.dropWarm();
    this.half?.cancel();
    if (this.half !== null && this.fed >= this.half.at) this.abandoned = true;
    this.half = null;
  }
}
