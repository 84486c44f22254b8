/**
 * Reading capture files from disk: streamed through the shared CaptureStream in chunks, so a
 * 1 GB iostat log never sits in memory whole. Folders are walked; what cannot be read (a dangling
 * symbolic link, a loop of links, an unreadable or special file, one that vanished, a sparse file
 * of zeros) is reported with a plain sentence and the rest is read: a dropped folder is never
 * refused for one bad entry. parsePaths turns each bad entry into an unread `text` capture whose
 * warning says why (`skipped` in the JSON), so the CLI and the app say the same words; import
 * lists the same sentences in its `failed`.
 */
import { constants as fsc, lstatSync, readdirSync, readlinkSync, statSync, type Stats } from 'node:fs';
import { open, type FileHandle } from 'node:fs/promises';
import path from 'node:path';
import { CaptureStream, evaluateFindings } from '../../shared/capture/registry';
import { captureDecoder } from '../../shared/capture/decode';
import { asciiText } from './asciiText';
import type { CaptureContext, ParsedCapture } from '../../shared/capture/types';
import { HalvedStream } from './halfParse';
import { TunebookError } from '../../shared/api';

export interface ParseFileOptions {
  kind?: string;
  /** called with bytes read so far and the file size */
  onProgress?: (read: number, total: number) => void;
  signal?: AbortSignal;
  /** the capture's name (run1/iostat.txt, its `file`) and the name said in messages; else the base name and the path */
  name?: string;
  /** false: never cut a long capture in two (halfParse.ts); it is, when its kind can be and it is long enough */
  split?: boolean;
  /** the half worker's bundle (default: halfWorker.cjs beside the running one; tests give theirs) */
  halfWorker?: string;
  /** what the capture's surroundings tell (CaptureStream's `context`: a capture kit's manifest) */
  context?: CaptureContext;
  /** read only the first this many bytes (the bytes the store staged, when it parses them again) */
  bytes?: number;
}

/** Read size: 1 MiB pieces (decoded and parsed 64 KiB at a time: HalvedStream). */
const READ_BYTES = 1 << 20;

/** What a special file is, in words. */
function specialKind(st: Stats): string | null {
  if (st.isFIFO()) return 'a named pipe (FIFO)';
  if (st.isSocket()) return 'a socket';
  if (st.isCharacterDevice()) return 'a character device';
  if (st.isBlockDevice()) return 'a block device';
  return null;
}

const gib = (n: number): string => (n >= 2 ** 30 ? `${(n / 2 ** 30).toFixed(1)} GiB` : n >= 2 ** 20 ? `${(n / 2 ** 20).toFixed(1)} MiB` : `${n} bytes`);

/**
 * A failure to read `label` (a file or a folder), said plainly, as a TunebookError: the same
 * sentences storeError gives an import for a missing or unreadable file.
 */
export function readProblem(e: unknown, label: string): TunebookError {
  if (e instanceof TunebookError) return e;
  const code = String((e as { code?: unknown } | null)?.code ?? '');
  const detail = e instanceof Error ? e.message : String(e);
  if (code === 'ENOENT' || code === 'ENOTDIR') return new TunebookError('not-found', `${label} does not exist (it may have been moved or deleted).`);
  if (code === 'EACCES' || code === 'EPERM') return new TunebookError('refused', `${label} cannot be read: permission denied.`);
  if (code === 'EISDIR') return new TunebookError('invalid', `${label} is a folder, not a file.`);
  if (code === 'ELOOP') return new TunebookError('invalid', `${label} is a loop of symbolic links: not followed.`);
  if (code === 'ENXIO') return new TunebookError('invalid', `${label} is a socket or a device without a reader, not a file: not read.`);
  if (code === 'ENAMETOOLONG') return new TunebookError('invalid', `${label}: the path is too long.`);
  return new TunebookError('refused', `${label} could not be read (${detail}).`);
}

/** A regular file that is mostly holes: this long, and taking this little space on disk. */
const SPARSE_MIN_BYTES = 64 * 2 ** 20;

function isAllZero(b: Buffer): boolean {
  // a text capture has a non-zero byte at once; only a hole or a binary file gets far
  for (let i = 0; i < b.length; i++) if (b[i] !== 0) return false;
  return true;
}

/**
 * A sparse file (a long file of holes, e.g. from `truncate -s 100G`) is not a capture: reading it
 * would take minutes of zero bytes. Checked only when the disk holds far less than the length
 * says, and then confirmed by sampling the content (a compressed file system also reports few
 * blocks for a real log, but a log has no MiB of zero bytes). Returns the refusal, or null.
 */
export async function sparseProblem(file: string, st: Stats, label: string): Promise<TunebookError | null> {
  if (!st.isFile() || st.size < SPARSE_MIN_BYTES || st.blocks * 512 >= st.size / 8) return null;
  const fh = await open(file, 'r');
  try {
    const buf = Buffer.alloc(READ_BYTES);
    for (let k = 0; k < 8; k++) {
      const at = Math.floor(((st.size - READ_BYTES) * k) / 7);
      const { bytesRead } = await fh.read(buf, 0, READ_BYTES, at);
      if (bytesRead === READ_BYTES && isAllZero(buf)) {
        return new TunebookError('invalid', `${label} is a sparse file (${gib(st.size)} long, ${gib(st.blocks * 512)} on disk, the rest zero bytes), not a capture: not read.`);
      }
    }
  } finally {
    await fh.close();
  }
  return null;
}

/**
 * Parse one file. A named pipe is read to its end (`tunebook parse <(iostat -x 1 5)`), opened
 * without waiting: one that has no writer reads as empty instead of hanging; a device or a socket is refused, and a file that turns into a run of 1 MiB of zero bytes stops being read
 * there (a warning says so), so /dev/zero or a hole never reads forever. Read failures throw a
 * TunebookError with a plain sentence (readProblem).
 */
export async function parseFile(file: string, opts: ParseFileOptions = {}): Promise<ParsedCapture> {
  const label = opts.name ?? file;
  let st: Stats;
  try { st = statSync(file); } catch (e) { throw readProblem(e, label); }
  if (st.isDirectory()) throw readProblem(Object.assign(new Error('folder'), { code: 'EISDIR' }), label);
  const special = specialKind(st);
  if (special && !st.isFIFO()) throw new TunebookError('invalid', `${label} is ${special}, not a file: not read.`);
  const sparse = await sparseProblem(file, st, label).catch((e: unknown) => { throw readProblem(e, label); });
  if (sparse) throw sparse;
  // /proc files say 0 bytes and have content: the total is then unknown, what was read is shown
  const total = opts.bytes !== undefined ? Math.min(opts.bytes, st.size) : st.size;
  const stream = new CaptureStream({ ...(opts.kind ? { kind: opts.kind } : {}), ...(opts.context ? { context: opts.context } : {}), file: opts.name ?? path.basename(file), size: total });
  // UTF-8, or UTF-16 when the first bytes say so (PowerShell's >): the same decoding as the store's
  const decoder = captureDecoder(asciiText);
  let read = 0;
  let zeros = -1;
  // never waits to open (a file swapped for a pipe since the stat included); no effect on a regular file
  let input: FileHandle;
  try { input = await open(file, fsc.O_RDONLY | (fsc.O_NONBLOCK ?? 0)); } catch (e) { throw readProblem(e, label); }
  const pipe = st.isFIFO() || (await input.stat().catch(() => st)).isFIFO();
  // a pipe opened without waiting answers EAGAIN while its writer is quiet: wait and read again
  const readPiece = async (buf: Buffer): Promise<{ bytesRead: number; buffer: Buffer }> => {
    if (opts.bytes !== undefined && read >= opts.bytes) return { bytesRead: 0, buffer: buf };
    for (;;) {
      try {
        return await input.read(buf, 0, opts.bytes !== undefined ? Math.min(READ_BYTES, opts.bytes - read) : READ_BYTES, null);
      } catch (e) {
        if (!pipe || (e as { code?: unknown }).code !== 'EAGAIN' || opts.signal?.aborted) throw e;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    }
  };
  // two buffers: the next piece is read (in the thread pool) while this one is parsed
  const bufs = [Buffer.allocUnsafe(READ_BYTES), Buffer.allocUnsafe(READ_BYTES)];
  let which = 0;
  let next: Promise<{ bytesRead: number; buffer: Buffer }> | null = null;
  // a long capture is cut in two once its kind is known: this stream reads up to the cut, a thread the rest
  const halved = new HalvedStream(stream, decoder, file, total, {
    name: opts.name ?? path.basename(file), ...(opts.halfWorker ? { worker: opts.halfWorker } : {}), ...(opts.context ? { context: opts.context } : {}),
    // bytes parsed by both threads, once the file is cut in two (the bytes read, before)
    ...(opts.onProgress ? { onProgress: (n: number) => opts.onProgress!(n, total) } : {}),
    split: opts.split !== false && st.isFile() && !pipe,
  });
  try {
    next = readPiece(bufs[0]!);
    for (;;) {
      let got;
      try { got = await next; } catch (e) { next = null; throw readProblem(e, label); }
      const { bytesRead, buffer } = got;
      next = null;
      if (bytesRead === 0) break;
      if (opts.signal?.aborted) throw new Error('cancelled');
      if (bytesRead === READ_BYTES && isAllZero(buffer)) { zeros = read; break; }
      which ^= 1;
      read += bytesRead;
      // (after `read` moved: a read up to `opts.bytes` asks for what is left)
      next = readPiece(bufs[which]!);
      if (halved.write(buffer.subarray(0, bytesRead))) break;
    }
  } catch (e) {
    halved.cancel();
    throw e;
  } finally {
    if (next) await next.catch(() => undefined);
    await input.close();
  }
  if (zeros >= 0) halved.cancel();
  const parsed = await halved.end();
  // the two halves do not join: read it again in one piece, as it always can be (the progress shown
  // waits where it was meanwhile, rather than going back)
  if (parsed === null) {
    const shown = halved.reported;
    const onProgress = opts.onProgress;
    return parseFile(file, { ...opts, split: false, ...(onProgress ? { onProgress: (n: number, t: number) => onProgress(Math.max(n, shown), t) } : {}) });
  }
  if (read < total) opts.onProgress?.(total, total);
  if (pipe && read === 0) parsed.warnings.push(`${label} is a named pipe that gave nothing: no program was writing to it`);
  if (zeros >= 0) parsed.warnings.push(`reading stopped at byte ${zeros}: 1 MiB of zero bytes follows (a sparse, binary or device file); the rest was not read`);
  return parsed;
}

export interface FoundFile {
  path: string;
  /** the file's name, with the folders below the one given when it came from a folder (run1/iostat.txt) */
  name: string;
}

export interface WalkProblem {
  /** the path of the entry that was not read */
  path: string;
  /** its name as a found file would have it: run1/fifo, or the base name of a path given */
  name: string;
  /** a TunebookError saying why, in a sentence (or the raw error of an unexpected failure) */
  error: unknown;
}

/** One entry of a walk, in order: a file to read, or one that was not read and why. */
export type WalkEntry = { file: FoundFile } | { problem: WalkProblem };

export interface WalkOptions {
  /**
   * A named pipe given by itself (not found in a folder) is read like a file: `tunebook parse
   * <(iostat -x 1 5)`. Off for imports, which read a file twice (hash, then store).
   */
  pipes?: boolean;
}

/**
 * Walk paths, in order: folders recursively (sorted, skipping dot-files), symbolic links followed.
 * A dangling link, a loop of links (a folder linking to one above it, by device and inode), a
 * folder that cannot be listed and a special file (pipe, socket, device) become a problem entry;
 * a folder reached twice by different links is read once.
 */
export function walkEntries(paths: readonly string[], opts: WalkOptions = {}): WalkEntry[] {
  const out: WalkEntry[] = [];
  const seen = new Set<string>();
  const problem = (p: string, name: string, error: unknown): void => { out.push({ problem: { path: p, name: name || path.basename(p), error } }); };
  // a folder given is the root of its files' names; a file given is named by its base name
  const walk = (p: string, name: string, above: readonly string[]): void => {
    const label = name || p;
    let st: Stats;
    try {
      st = statSync(p);
    } catch (error) {
      let target: string | null = null;
      try { if (lstatSync(p).isSymbolicLink()) target = readlinkSync(p); } catch { /* gone */ }
      const code = String((error as { code?: unknown }).code ?? '');
      if (target !== null && code === 'ENOENT') problem(p, name, new TunebookError('not-found', `${label} is a symbolic link to ${target}, which does not exist: not read.`));
      else problem(p, name, readProblem(error, label));
      return;
    }
    if (st.isDirectory()) {
      const key = `${st.dev}:${st.ino}`;
      if (above.includes(key)) {
        problem(p, name, new TunebookError('invalid', `${label} links back to a folder that holds it (a loop): not followed.`));
        return;
      }
      if (seen.has(key)) return; // the same folder by another link: its files are listed once
      seen.add(key);
      let children: string[];
      try { children = readdirSync(p).sort(); } catch (error) { problem(p, name, readProblem(error, `the folder ${label}`)); return; }
      for (const child of children) if (!child.startsWith('.')) walk(path.join(p, child), name ? `${name}/${child}` : child, [...above, key]);
    } else if (st.isFile() || (st.isFIFO() && opts.pipes && above.length === 0)) {
      out.push({ file: { path: p, name: name || path.basename(p) } });
    } else {
      problem(p, name, new TunebookError('invalid', `${label} is ${specialKind(st) ?? 'not a regular file'}, not a file: not read.`));
    }
  };
  for (const p of paths) walk(p, '', []);
  return out;
}

/**
 * Expand folders (recursively, skipping dot-files) into the files inside them, sorted. What cannot
 * be read (see walkEntries) is listed in `problems` instead of stopping the walk.
 */
export function walkPaths(paths: readonly string[], opts: WalkOptions = {}): { files: FoundFile[]; problems: WalkProblem[] } {
  const files: FoundFile[] = [];
  const problems: WalkProblem[] = [];
  for (const e of walkEntries(paths, opts)) if ('file' in e) files.push(e.file); else problems.push(e.problem);
  return { files, problems };
}

/** Expand folders into the files inside them, sorted; throws on the first path that cannot be read. */
export function expandPaths(paths: readonly string[]): string[] {
  const { files, problems } = walkPaths(paths);
  if (problems.length) throw problems[0]!.error;
  return files.map((f) => f.path);
}

/** Parse several files that belong together; findings see all of them (e.g. sysctl + ss). */
export async function parseFiles(files: readonly string[], opts: ParseFileOptions = {}): Promise<ParsedCapture[]> {
  const parsed: ParsedCapture[] = [];
  for (const f of files) parsed.push(await parseFile(f, opts));
  const findings = evaluateFindings(parsed);
  parsed.forEach((p, i) => { p.findings = findings[i]!; });
  return parsed;
}

/** A file of parsePaths: its capture, and when it could not be read, why (the capture is then empty). */
export interface ParsedPath {
  capture: ParsedCapture;
  /** set when the file was not read: the sentence, also the capture's only warning */
  skipped?: string;
}

/** The empty `text` capture standing for a file that was not read (`name` as a found file's: run1/fifo). */
export function unreadCapture(name: string, message: string): ParsedCapture {
  return { file: name, kind: 'text', confidence: 0, metrics: [], series: [], facts: {}, settings: {}, findings: [], warnings: [message] };
}

/**
 * Walk and parse paths (files and folders): one entry per file found, in order, and one per entry
 * that could not be read (`skipped`), so nothing bad in a folder stops the rest. Findings see all
 * the files read. Cancelling (opts.signal) still throws.
 */
export async function parsePaths(paths: readonly string[], opts: ParseFileOptions = {}): Promise<ParsedPath[]> {
  const out: ParsedPath[] = [];
  for (const e of walkEntries(paths, { pipes: true })) {
    if ('problem' in e) {
      const message = readProblem(e.problem.error, e.problem.name).message;
      out.push({ capture: unreadCapture(e.problem.name, message), skipped: message });
      continue;
    }
    try {
      out.push({ capture: await parseFile(e.file.path, { ...opts, name: e.file.name }) });
    } catch (err) {
      if (opts.signal?.aborted) throw err;
      if (!(err instanceof TunebookError)) throw err;
      out.push({ capture: unreadCapture(e.file.name, err.message), skipped: err.message });
    }
  }
  const read = out.filter((p) => p.skipped === undefined).map((p) => p.capture);
  const findings = evaluateFindings(read);
  read.forEach((p, i) => { p.findings = findings[i]!; });
  return out;
}
