/**
 * Captures stored inside the notebook: written once, verbatim, and read back by line, by series or
 * whole.
 *
 * Storing a file is two steps, so a kill, a crash, a cancel or a full disk at any moment leaves the
 * notebook exactly as it was before that file:
 *  1. stage (stageCapture): one streaming pass over the file that parses it (CaptureStream), cuts
 *     it into ~1 MiB chunks at line ends and, in a second thread, hashes them (SHA-256) and
 *     deflates them into a staging file outside the notebook. Memory stays flat whatever the
 *     file's size.
 *  2. commit (commitStaged): one IMMEDIATE transaction copies the chunks, the parse and the series
 *     into the notebook and links the capture to the experiment — or, when the same bytes are
 *     already stored, only links them. Nothing is visible until COMMIT.
 * The write lock is held only for step 2 (a fraction of the time the file takes to read).
 */
import { createHash, randomBytes } from 'node:crypto';
import { closeSync, mkdirSync, openSync, readSync, statSync, unlinkSync } from 'node:fs';
import { open } from 'node:fs/promises';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { deflateRawSync, inflateRawSync } from 'node:zlib';
import { TunebookError } from '../../shared/api';
import { toCaptureJson, type CaptureJson } from '../../shared/capture/json';
import { LineBreakCounter, LineSplitter, lastLineEnd, safeCut } from '../../shared/capture/lineBreaks';
import { CAPTURE_ENGINE_VERSION, CaptureStream, findingsOf, hasRules } from '../../shared/capture/registry';
import { captureDecoder } from '../../shared/capture/decode';
import { asciiText } from './asciiText';
import { parseFile } from './captureFiles';
import { HalvedStream, writeBytes } from './halfParse';
import { cleanLine } from '../../shared/capture/text';
import type { CaptureContext, Labels, LineRange, ParsedCapture, Series, SeriesStats, Table } from '../../shared/capture/types';
import { minMaxDownsample } from '../../shared/downsample';
import { captureSearchText } from '../../shared/evidence';
import type { CaptureLines, CaptureMatches, ImportedCapture, SeriesPoints } from '../../shared/model';
import type { Db } from '../db/connection';
import * as cq from '../db/captureQueries';

/**
 * Raw bytes per stored chunk (before compression): 1 MiB inflates in a few milliseconds, so any
 * line is read fast, and deflates better and with less overhead per chunk than smaller pieces.
 */
export const CHUNK_BYTES = 1 << 20;
/** Read size of the streaming pass. */
const READ_BYTES = 1 << 20;
/**
 * A capture is cut in two (halfParse.ts) for import only when it has begun at most this many series
 * by the time its kind is known. Told the whole's count ahead (RowStore.follow, RowStore.plan), the
 * first half holds the room of the whole's points and the second half only its own, in typed arrays
 * that cross to this thread as they are: a 1 GB log of iostat -x -p ALL's 226 series imports in
 * 11.4–13.4 s instead of 17.8–18.5 s in one thread, at a peak RSS of 267–270 MB against 282–291 MB.
 * But the second half's points are held twice for a moment (in its thread and here), and more
 * series than this would take a second thread's memory past what one parse needs.
 */
const SPLIT_MAX_SERIES = 256;
/** deflate level: text logs compress 6–10× at level 1, and it keeps up with the parsers */
const LEVEL = 1;
/** chunks on their way through the staging thread at once (it works while the parser reads the next piece) */
const IN_FLIGHT = 4;
/** lines longer than this are cut in the raw-text view (the bytes stay whole in the notebook) */
export const MAX_SHOWN_LINE = 10_000;

const deflate = (b: Buffer): Buffer => deflateRawSync(b, { level: LEVEL });
const inflate = (b: Buffer): Buffer => inflateRawSync(b);

// ---- staging -------------------------------------------------------------------------------------

interface StagedChunk { seq: number; byteStart: number; lineStart: number; midLine: boolean; size: number; offset: number; length: number }

export interface StagedCapture {
  name: string;
  sha256: string;
  size: number;
  lineCount: number;
  /** the deflated chunks, one after another */
  stagingFile: string;
  chunks: StagedChunk[];
  parsed: ParsedCapture;
  forcedKind: string | null;
  /** parsed in one thread, or cut in two (halfParse.ts) */
  threads: 1 | 2;
}

export interface StageOptions {
  kind?: string;
  /** what the capture's surroundings tell (a capture kit's manifest): kept with its parse, used by every re-parse */
  context?: CaptureContext;
  /** folder for the staging file (outside the notebook) */
  stagingDir: string;
  signal?: AbortSignal;
  onProgress?: (read: number, total: number) => void;
  /** the half worker's bundle (default: halfWorker.cjs beside the running one; tests give theirs) */
  halfWorker?: string;
}

/**
 * The staging thread (a worker started from this source, so it needs no bundle of its own): SHA-256
 * over the chunks in order, deflate, append to the staging file (the fd, opened by the caller).
 * Each chunk's buffer comes back with its place in the file, to be filled again. A failure (ENOSPC
 * on a full disk …) comes back with its code. Node built-ins only.
 */
const STAGER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const { deflateRawSync } = require('node:zlib');
const { writeSync } = require('node:fs');
const hash = createHash('sha256');
let written = 0;
let failed = false;
parentPort.on('message', (m) => {
  if (failed) return;
  try {
    if (m.end) { parentPort.postMessage({ sha256: hash.digest('hex') }); return; }
    const bytes = new Uint8Array(m.buf, 0, m.size);
    hash.update(bytes);
    const z = deflateRawSync(bytes, { level: workerData.level });
    for (let o = 0; o < z.length;) o += writeSync(workerData.fd, z, o, z.length - o, written + o);
    parentPort.postMessage({ seq: m.seq, offset: written, length: z.length, buf: m.buf }, [m.buf]);
    written += z.length;
  } catch (e) {
    failed = true;
    parentPort.postMessage({ error: { message: String(e && e.message || e), code: e && e.code } });
  }
});
`;

type StagerReply =
  | { seq: number; offset: number; length: number; buf: ArrayBuffer }
  | { sha256: string }
  | { error: { message: string; code?: string } };

/**
 * Stream a file once: parse it here, and hash, deflate and write its chunks in a staging thread, so
 * the two run on two cores. The chunks are cut at line ends here (and their lines counted), copied
 * into one of IN_FLIGHT + 1 buffers that travel to the staging thread and back (transferred, not
 * copied), so memory stays flat whatever the file's size.
 */
export async function stageCapture(file: string, name: string, opts: StageOptions): Promise<StagedCapture> {
  const st = statSync(file);
  if (!st.isFile()) throw new TunebookError('invalid', `${name} is not a file`);
  const total = st.size;
  mkdirSync(opts.stagingDir, { recursive: true });
  const stagingFile = path.join(opts.stagingDir, `stage-${process.pid}-${randomBytes(6).toString('hex')}.tmp`);
  const fd = openSync(stagingFile, 'w', 0o600);
  // a lean heap: it holds a hash state and the buffer in hand; deflate's output is collected young
  const stager = new Worker(STAGER_SOURCE, { eval: true, workerData: { fd, level: LEVEL }, resourceLimits: { maxYoungGenerationSizeMb: 2, maxOldGenerationSizeMb: 64 } });
  let stagerDone = false;
  let halved: HalvedStream | null = null;
  try {
    const stream = new CaptureStream({ ...(opts.kind ? { kind: opts.kind } : {}), ...(opts.context ? { context: opts.context } : {}), file: name, size: total });
    const decoder = captureDecoder(asciiText);
    // a long capture of few series is parsed on two cores; one of many stays on one (SPLIT_MAX_SERIES says why)
    halved = new HalvedStream(stream, decoder, file, total, {
      name, ...(opts.context ? { context: opts.context } : {}), ...(opts.halfWorker ? { worker: opts.halfWorker } : {}),
      split: true, maxSeries: SPLIT_MAX_SERIES,
    });
    const counter = new LineBreakCounter();
    const chunks: StagedChunk[] = [];
    const metas: Omit<StagedChunk, 'offset' | 'length'>[] = [];
    let byteStart = 0;

    // what the staging thread sends back, in order; a waiter is woken by each reply
    const free: ArrayBuffer[] = Array.from({ length: IN_FLIGHT + 1 }, () => new ArrayBuffer(CHUNK_BYTES + 1));
    let inFlight = 0;
    let failure: Error | null = null;
    let sha256: string | null = null;
    let wake: (() => void) | null = null;
    stager.on('message', (m: StagerReply) => {
      if ('error' in m) failure = Object.assign(new Error(m.error.message), m.error.code ? { code: m.error.code } : {});
      else if ('sha256' in m) sha256 = m.sha256;
      else {
        chunks.push({ ...metas[m.seq]!, offset: m.offset, length: m.length });
        free.push(m.buf);
        inFlight--;
      }
      wake?.();
    });
    stager.on('error', (e) => { failure = e; wake?.(); });
    stager.on('exit', () => { failure ??= sha256 === null ? new Error('the staging thread stopped') : null; wake?.(); });
    const reply = (): Promise<void> => new Promise<void>((resolve) => { wake = () => { wake = null; resolve(); }; });
    const check = (): void => { if (failure) throw failure; };

    /** A chunk to store: counted, copied into a free buffer and sent to be hashed, deflated and written. */
    const emit = async (bytes: Uint8Array): Promise<void> => {
      while (!free.length) { check(); await reply(); }
      check();
      metas.push({ seq: metas.length, byteStart, lineStart: counter.count, midLine: counter.sinceBreak > 0, size: bytes.length });
      counter.push(bytes);
      byteStart += bytes.length;
      const buf = free.pop()!;
      new Uint8Array(buf).set(bytes);
      stager.postMessage({ seq: metas.length - 1, size: bytes.length, buf }, [buf]);
      inFlight++;
    };

    // one buffer to read into (the next piece is read while this one is parsed) and one where chunks are cut
    const readBufs = [Buffer.allocUnsafe(READ_BYTES), Buffer.allocUnsafe(READ_BYTES)];
    const pending = Buffer.allocUnsafe(CHUNK_BYTES + READ_BYTES);
    let pendingLength = 0;

    const input = await open(file, 'r');
    let read = 0;
    let next: Promise<{ bytesRead: number; buffer: Buffer }> | null = null;
    try {
      let which = 0;
      next = input.read(readBufs[0]!, 0, READ_BYTES, null);
      for (;;) {
        const { bytesRead, buffer } = await next;
        next = null;
        if (opts.signal?.aborted) throw new TunebookError('cancelled', 'the import was cancelled');
        if (bytesRead === 0) break;
        const piece = buffer.subarray(0, bytesRead);
        // cut and send the chunks first (the staging thread works while this piece is parsed) …
        pending.set(piece, pendingLength);
        pendingLength += bytesRead;
        let pos = 0;
        while (pendingLength - pos >= CHUNK_BYTES) {
          const windowEnd = pos + CHUNK_BYTES;
          let cut = lastLineEnd(pending.subarray(pos, windowEnd));
          cut = cut > 0 ? pos + cut : safeCut(pending.subarray(0, pendingLength), windowEnd);
          await emit(pending.subarray(pos, cut));
          pos = cut;
        }
        pending.copyWithin(0, pos, pendingLength);
        pendingLength -= pos;
        which ^= 1;
        next = input.read(readBufs[which]!, 0, READ_BYTES, null);
        read += bytesRead;
        // … then parse it (up to the cut, when the rest is parsed in a thread of its own: halfParse.ts)
        halved.write(piece);
        opts.onProgress?.(read, total);
      }
    } finally {
      if (next) await next.catch(() => undefined);
      await input.close();
    }
    if (pendingLength) await emit(pending.subarray(0, pendingLength));
    stager.postMessage({ end: true });
    while (sha256 === null) { check(); await reply(); }
    check();
    if (inFlight !== 0) throw new Error(`the staging thread left ${inFlight} chunks unwritten`);
    stagerDone = true;
    await stager.terminate();
    closeSync(fd);
    // the file grew while it was read: the thread's half ends at its size when the import began
    if (byteStart !== total) halved.cancel();
    const joined = await halved.end();
    const threads = joined !== null && halved.cut ? 2 : 1;
    // the two halves do not join: parse the bytes stored again, in one piece
    const parsed = joined ?? await parseFile(file, {
      ...(opts.kind ? { kind: opts.kind } : {}), ...(opts.context ? { context: opts.context } : {}), name, split: false, bytes: byteStart,
    });
    parsed.findings = findingsOf(parsed, [parsed]);
    return {
      name, sha256: sha256 as string, size: byteStart, lineCount: counter.lines(), stagingFile, chunks, parsed,
      forcedKind: opts.kind ?? null, threads,
    };
  } catch (e) {
    halved?.cancel();
    // the staging thread must be gone before its fd is closed (a later open may get the same number)
    if (!stagerDone) await stager.terminate();
    closeSync(fd);
    removeQuietly(stagingFile);
    throw e;
  }
}

export function removeQuietly(file: string): void {
  try { unlinkSync(file); } catch { /* already gone */ }
}

// ---- parse columns and series --------------------------------------------------------------------

/** The parse of a capture as stored: the public JSON without points and findings, tables deflated, search text. */
export function parseColumns(name: string, parsed: ParsedCapture, forcedKind: string | null): cq.CaptureParseColumns {
  const json = toCaptureJson(parsed);
  json.file = name;
  const stored: CaptureJson = { ...json, findings: [] };
  return {
    kind: parsed.kind,
    forcedKind,
    confidence: parsed.confidence,
    parserVersion: CAPTURE_ENGINE_VERSION,
    parsed: JSON.stringify(stored),
    tables: parsed.tables && Object.keys(parsed.tables).length ? deflate(Buffer.from(JSON.stringify(parsed.tables))) : null,
    searchText: captureSearchText(name, parsed),
  };
}

/** What a stored series keeps beside its points. */
interface SeriesMeta {
  name: string; column: string; unit: string; labels?: Labels; firstSampleSinceBoot?: boolean; lines?: LineRange;
  stride?: number; stats?: SeriesStats; hasTimes: boolean; points: number;
}

/** one buffer for every series written: 226 series of 50,000 points would otherwise leave ~90 MB for the GC to find */
let f64Scratch = new Float64Array(0);

function f64(values: ArrayLike<number | null>): Buffer {
  // (a long capture read in two threads has its points in a Float64Array already: deflated as they are)
  if (values instanceof Float64Array) return deflate(Buffer.from(values.buffer, values.byteOffset, values.byteLength));
  if (f64Scratch.length < values.length) f64Scratch = new Float64Array(Math.max(values.length, 1024));
  const a = f64Scratch;
  for (let i = 0; i < values.length; i++) { const v = values[i]; a[i] = v === null || v === undefined ? NaN : v; }
  // deflateRawSync reads its input before it returns: the scratch buffer is free again right after
  return deflate(Buffer.from(a.buffer, a.byteOffset, values.length * 8));
}

function fromF64(z: Buffer): Float64Array {
  const raw = inflate(z);
  // copy into an aligned buffer: inflate's result may start at any offset
  const out = new Float64Array(raw.length / 8);
  new Uint8Array(out.buffer).set(raw);
  return out;
}

export function writeSeries(db: Db, captureId: number, series: readonly Series[]): void {
  series.forEach((s, idx) => {
    const meta: SeriesMeta = {
      name: s.name, column: s.column, unit: s.unit, hasTimes: !!s.times, points: s.values.length,
      ...(s.labels && Object.keys(s.labels).length ? { labels: s.labels } : {}),
      ...(s.firstSampleSinceBoot ? { firstSampleSinceBoot: true } : {}),
      ...(s.lines ? { lines: s.lines } : {}),
      ...(s.stride !== undefined && s.stride > 1 ? { stride: s.stride } : {}),
      ...(s.stats ? { stats: s.stats } : {}),
    };
    cq.insertSeries(db, captureId, { idx, meta: JSON.stringify(meta), points: f64(s.values), times: s.times ? f64(s.times) : null });
  });
}

function seriesFromRow(r: cq.SeriesRow): Series {
  const meta = JSON.parse(r.meta) as SeriesMeta;
  const s: Series = { name: meta.name, column: meta.column, unit: meta.unit, values: Array.from(fromF64(r.points)) };
  if (meta.labels) s.labels = meta.labels;
  if (meta.firstSampleSinceBoot) s.firstSampleSinceBoot = true;
  if (meta.lines) s.lines = meta.lines;
  if (meta.stride) s.stride = meta.stride;
  if (meta.stats) s.stats = meta.stats;
  if (r.times) s.times = Array.from(fromF64(r.times), (t) => (Number.isFinite(t) ? t : null));
  return s;
}

function captureRow(db: Db, id: number): cq.CaptureRow {
  const row = cq.getCaptureRow(db, id);
  if (!row) throw new TunebookError('not-found', `capture ${id} does not exist (it may have been removed)`);
  return row;
}

/**
 * A stored capture as the parser gave it. `full` brings the series points and tables (what finding
 * rules read of their own capture); without it series have no points (what rules read of the
 * other captures of the experiment: metrics, facts, settings).
 */
export function loadParsed(db: Db, id: number, full: boolean): ParsedCapture {
  const row = captureRow(db, id);
  const json = JSON.parse(row.parsed) as CaptureJson;
  const series: Series[] = full
    ? cq.seriesRows(db, id).map(seriesFromRow)
    : json.series.map((s) => ({ name: s.name, column: s.column, unit: s.unit, values: [], ...(s.labels ? { labels: s.labels } : {}) }));
  const tables = full && row.tables ? JSON.parse(inflate(row.tables).toString('utf8')) as Record<string, Table> : undefined;
  return {
    file: row.name, kind: row.kind, confidence: row.confidence,
    ...(json.command !== undefined ? { command: json.command } : {}),
    ...(json.toolVersion !== undefined ? { toolVersion: json.toolVersion } : {}),
    metrics: json.metrics, series, facts: json.facts, settings: json.settings, warnings: json.warnings, findings: [],
    ...(tables ? { tables } : {}),
  };
}

/** The public JSON of a stored capture (series summarized), with the findings given. */
export function storedCaptureJson(db: Db, id: number): CaptureJson {
  return JSON.parse(captureRow(db, id).parsed) as CaptureJson;
}

/**
 * Judge an experiment's captures together again (after one was added, removed or re-parsed): each
 * capture's own rules see its points and tables, and the metrics, facts and settings of the others
 * (e.g. ss beside sysctl, two /proc/interrupts snapshots). Only one capture's points are in memory at a time.
 */
export function refreshFindings(db: Db, experimentId: number, inMemory?: { captureId: number; parsed: ParsedCapture }): void {
  const links = cq.experimentLinks(db, experimentId);
  const light = links.map((l) => loadParsed(db, l.captureId, false));
  links.forEach((l, i) => {
    // the capture just stored is still in memory: reading its points back would only double them
    const own = inMemory?.captureId === l.captureId ? { ...inMemory.parsed }
      : hasRules(light[i]!.kind) ? loadParsed(db, l.captureId, true) : light[i]!;
    own.file = l.name;
    const all = light.map((c, j) => (j === i ? own : c));
    cq.setLinkFindings(db, l.linkId, findingsOf(own, all));
  });
}

// ---- commit --------------------------------------------------------------------------------------

export interface LinkOptions {
  /** runs inside the transaction after the link is made (e.g. accept the headline result) */
  afterLink?: (captureId: number) => void;
  /** the note of a new link (what a capture kit's manifest says of the file) */
  note?: string;
}

/**
 * Link a stored capture to an experiment (a new link, or the one unlinked before brought back) and
 * judge the experiment's captures again. Runs inside the caller's transaction.
 */
function linkInTransaction(db: Db, captureId: number, experimentId: number, name: string, deduplicated: boolean,
  opts: LinkOptions, inMemory?: ParsedCapture): ImportedCapture {
  let link = cq.linkByPair(db, experimentId, captureId);
  const alreadyLinked = link !== undefined && link.deletedAt === null;
  if (!link) {
    const linkId = cq.insertLink(db, experimentId, captureId, name);
    if (opts.note) cq.updateLink(db, linkId, { name, note: opts.note });
    link = cq.getLink(db, linkId)!;
  }
  else if (link.deletedAt !== null) cq.setLinkDeleted(db, link.linkId, false);
  refreshFindings(db, experimentId, inMemory ? { captureId, parsed: inMemory } : undefined);
  opts.afterLink?.(captureId);
  const row = cq.getCaptureRow(db, captureId)!;
  return {
    linkId: link.linkId, captureId, name: link.name, kind: row.kind, sha256: row.sha256, bytes: row.size, lines: row.line_count,
    deduplicated, alreadyLinked,
  };
}

/**
 * The rows of a staged capture (unless its bytes already are stored): the capture, its chunks read
 * from the staging file, its series. Runs inside the caller's transaction.
 */
export function insertStaged(db: Db, staged: StagedCapture): { captureId: number; deduplicated: boolean } {
  const existing = cq.captureIdBySha(db, staged.sha256);
  if (existing !== undefined) return { captureId: existing, deduplicated: true };
  const fd = openSync(staged.stagingFile, 'r');
  try {
    const captureId = cq.insertCapture(db, {
      sha256: staged.sha256, name: staged.name, size: staged.size, lineCount: staged.lineCount,
      ...parseColumns(staged.name, staged.parsed, staged.forcedKind),
    });
    // one buffer for every chunk (SQLite copies the bytes into its pages as each row is inserted):
    // a 1 GB log's thousand chunks would otherwise leave ~30 MB of Buffers for the GC at the end
    let buf = Buffer.allocUnsafe(0);
    for (const ch of staged.chunks) {
      if (buf.length < ch.length) buf = Buffer.allocUnsafe(Math.max(ch.length, 64 * 1024));
      const data = buf.subarray(0, ch.length);
      readSync(fd, data, 0, ch.length, ch.offset);
      cq.insertChunk(db, captureId, { seq: ch.seq, byteStart: ch.byteStart, lineStart: ch.lineStart, midLine: ch.midLine, size: ch.size, data });
    }
    writeSeries(db, captureId, staged.parsed.series);
    return { captureId, deduplicated: false };
  } finally {
    closeSync(fd);
  }
}

/** Store a staged capture (unless its bytes already are) and link it to the experiment, in one transaction. */
export function commitStaged(db: Db, staged: StagedCapture, experimentId: number, opts: LinkOptions = {}): ImportedCapture {
  const tx = db.transaction((): ImportedCapture => {
    const { captureId, deduplicated } = insertStaged(db, staged);
    return linkInTransaction(db, captureId, experimentId, staged.name, deduplicated, opts, deduplicated ? undefined : staged.parsed);
  });
  return tx.immediate();
}

/** Link bytes already stored (found by their SHA-256) to an experiment, in one transaction. */
export function linkStored(db: Db, captureId: number, experimentId: number, name: string, opts: LinkOptions = {}): ImportedCapture {
  return db.transaction(() => linkInTransaction(db, captureId, experimentId, name, true, opts)).immediate();
}

/** SHA-256 of a file, read through one buffer (the quick look for bytes the notebook already holds). */
export async function hashFile(file: string, onProgress?: (read: number, total: number) => void): Promise<string> {
  const hash = createHash('sha256');
  const total = statSync(file).size;
  const buf = Buffer.allocUnsafe(READ_BYTES);
  const input = await open(file, 'r');
  try {
    let read = 0;
    for (;;) {
      const { bytesRead } = await input.read(buf, 0, READ_BYTES, null);
      if (bytesRead === 0) break;
      hash.update(buf.subarray(0, bytesRead));
      read += bytesRead;
      onProgress?.(read, total);
    }
  } finally {
    await input.close();
  }
  return hash.digest('hex');
}

// ---- reading -------------------------------------------------------------------------------------

const decodeLine = (bytes: Uint8Array): string => {
  const text = cleanLine(Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString('utf8'));
  return text.length > MAX_SHOWN_LINE ? `${text.slice(0, MAX_SHOWN_LINE)}…` : text;
};

/** Lines `first` … `first + count − 1` (1-based), reading only the chunks they are in. */
export function readLines(db: Db, id: number, first: number, count: number): CaptureLines {
  const total = captureRow(db, id).line_count;
  const lines: string[] = [];
  if (first > total || count <= 0) return { first, lines, total };
  const start = cq.chunkWithLine(db, id, first);
  if (!start) return { first, lines, total };
  const splitter = new LineSplitter((bytes) => { lines.push(decodeLine(bytes)); return lines.length < count; }, first, first - 1 - start.line_start);
  let chunk: cq.ChunkRow | undefined = start;
  while (chunk) {
    if (!splitter.push(inflate(chunk.data))) return { first, lines, total };
    chunk = cq.chunkAt(db, id, chunk.seq + 1);
  }
  splitter.end();
  return { first, lines, total };
}

/** Every chunk's bytes in order (`tunebook cat`, re-parsing). */
export function* captureBytes(db: Db, id: number): Generator<Buffer> {
  captureRow(db, id);
  const n = cq.chunkCount(db, id);
  for (let seq = 0; seq < n; seq++) {
    const c = cq.chunkAt(db, id, seq);
    if (!c) throw new TunebookError('internal', `capture ${id} is missing chunk ${seq}`);
    yield inflate(c.data);
  }
}

function asciiLower(src: Buffer): Buffer {
  const out = Buffer.allocUnsafe(src.length);
  for (let i = 0; i < src.length; i++) { const b = src[i]!; out[i] = b >= 65 && b <= 90 ? b + 32 : b; }
  return out;
}

const isBreak = (b: number | undefined): boolean => b === 10 || b === 13;

/**
 * Lines that contain `query` (ASCII letters case-insensitively), chunk by chunk, yielding to the
 * event loop between chunks so a search through 1 GB never stalls the app. Only lines from
 * `fromLine` on (1-based) are looked at: the next page of a search that was `truncated` starts
 * on the line after its last match.
 */
export async function findInCapture(db: Db, id: number, query: string, limit: number, fromLine = 1): Promise<CaptureMatches> {
  const q = query.replace(/[\r\n]+/g, ' ');
  const out: CaptureMatches = { query, matches: [], truncated: false };
  if (!q.trim()) return out;
  const needle = asciiLower(Buffer.from(q, 'utf8'));
  captureRow(db, id);
  const n = cq.chunkCount(db, id);
  // start at the chunk in which fromLine begins (chunks know the line breaks before them)
  const start = fromLine > 1 ? cq.chunkWithLine(db, id, fromLine)?.seq ?? n : 0;
  for (let seq = start; seq < n; seq++) {
    const c = cq.chunkAt(db, id, seq);
    if (!c) break;
    const data = inflate(c.data);
    const lower = asciiLower(data);
    const counter = new LineBreakCounter();
    let counted = 0;
    let from = 0;
    for (;;) {
      const hit = lower.indexOf(needle, from);
      if (hit < 0) break;
      counter.push(data, counted, hit);
      counted = hit;
      let a = hit; while (a > 0 && !isBreak(data[a - 1])) a--;
      let b = hit; while (b < data.length && !isBreak(data[b])) b++;
      const line = c.line_start + 1 + counter.count;
      from = b + 1;
      if (line < fromLine) continue;
      if (out.matches.length >= limit) { out.truncated = true; return out; }
      out.matches.push({ line, text: snippet(decodeLine(data.subarray(a, b)), q) });
    }
    await new Promise<void>((resolve) => setImmediate(resolve));
  }
  return out;
}

/** Up to 300 characters of a matching line, around the match. */
function snippet(line: string, q: string): string {
  if (line.length <= 300) return line;
  const at = Math.max(0, line.toLowerCase().indexOf(q.toLowerCase()) - 100);
  return `${at > 0 ? '…' : ''}${line.slice(at, at + 300)}…`;
}

/** One series' points for a chart: within [from, to] on its x axis, at most maxPoints (min/max per bucket). */
export function seriesPoints(db: Db, id: number, idx: number, range: { from: number; to: number } | null, maxPoints: number): SeriesPoints {
  captureRow(db, id);
  const row = cq.seriesRow(db, id, idx);
  if (!row) throw new TunebookError('not-found', `capture ${id} has no series ${idx}`);
  const meta = JSON.parse(row.meta) as SeriesMeta;
  const values = fromF64(row.points);
  const times = row.times ? fromF64(row.times) : null;
  const stride = meta.stride ?? 1;
  // the since-boot first report is not an interval sample: the chart leaves it out
  const skip = meta.firstSampleSinceBoot ? 1 : 0;
  const xIsTime = times !== null && times.every((t, i) => i < skip || Number.isFinite(t));
  const n = values.length - skip;
  const x = new Float64Array(Math.max(0, n));
  const y = values.subarray(skip);
  for (let i = 0; i < n; i++) x[i] = xIsTime ? times![i + skip]! : (i + skip) * stride;
  const from = range?.from ?? (n ? x[0]! : 0);
  const to = range?.to ?? (n ? x[n - 1]! : 0);
  const d = minMaxDownsample(x, y, from, to, maxPoints);
  return {
    index: idx, name: meta.name, column: meta.column, unit: meta.unit, ...(meta.labels ? { labels: meta.labels } : {}),
    x: d.x, y: d.y, xIsTime, from, to, total: d.total, downsampled: d.downsampled,
  };
}

// ---- re-parsing ----------------------------------------------------------------------------------

/**
 * Parse a stored capture again from its bytes (after a parser improved, or as another kind) and
 * store the new parse; the bytes, links and results stay. `kind` undefined keeps the kind the user
 * chose before (if any); null detects it again. Returns whether the kind changed.
 */
export async function reparseCapture(db: Db, id: number, kind?: string | null): Promise<boolean> {
  const row = captureRow(db, id);
  const forced = kind === undefined ? row.forced_kind : kind;
  // what a capture kit's manifest told when it was stored is kept in its parse: read it the same way again
  const context = storedCaptureJson(db, id).context;
  const stream = new CaptureStream({ ...(forced ? { kind: forced } : {}), ...(context ? { context } : {}), file: row.name, size: row.size });
  const decoder = captureDecoder(asciiText);
  let n = 0;
  for (const bytes of captureBytes(db, id)) {
    writeBytes(stream, decoder, bytes);
    if (++n % 64 === 0) await new Promise<void>((resolve) => setImmediate(resolve));
  }
  stream.write(decoder.end());
  const parsed = stream.end();
  parsed.findings = findingsOf(parsed, [parsed]);
  db.transaction(() => {
    cq.updateCaptureParse(db, id, parseColumns(row.name, parsed, forced ?? null));
    cq.deleteSeries(db, id);
    writeSeries(db, id, parsed.series);
    for (const e of cq.experimentsOfCapture(db, id)) refreshFindings(db, e);
  }).immediate();
  return parsed.kind !== row.kind;
}
