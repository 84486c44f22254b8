/**
 * Reading .tar, .tar.gz/.tgz and .zip archives a user imports, into a folder of plain files.
 *
 * Everything is streamed: a member's bytes go from the archive to its file a chunk at a time, so
 * no member is ever held whole in memory. The archive is not trusted: every name is checked
 * before anything is written (no path leaves the folder), links and special files are never
 * created, and limits stop zip bombs and huge members early, counting the bytes actually
 * unpacked (headers lie). A refused or damaged archive leaves nothing behind in the folder.
 *
 * tar is parsed by tar-stream (a parser only: it never touches the disk, so every path decision
 * is made here); gzip by node:zlib; zip by yauzl, whose raw entry bytes are inflated here so that
 * the compressed bytes behind each unpacked byte are known, and whose CRC-32s are checked here.
 */
import { createReadStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Transform, pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { extract as tarExtract } from 'tar-stream';
import yauzl from 'yauzl';
import { TunebookError } from '../../shared/api';
import { shown } from '../../shared/bundle/roCrate';

export type ArchiveKind = 'tar' | 'tar.gz' | 'zip';

export interface ArchiveLimits {
  /** members of any kind (files, folders, links…) */
  maxMembers: number;
  /** bytes written in all, counted as they are unpacked */
  maxTotalBytes: number;
  /** bytes of one member */
  maxMemberBytes: number;
  /** unpacked ÷ compressed bytes, checked once more than ratioFloorBytes are unpacked (a zip member; a whole .tar.gz) */
  maxRatio: number;
  ratioFloorBytes: number;
  /** UTF-8 bytes of a member's name (its whole path in the archive) */
  maxNameBytes: number;
  /** folders a member sits in */
  maxDepth: number;
  /** bytes that must stay free on the disk of the folder written to */
  minFreeBytes: number;
}

const KiB = 1024;
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;
export const DEFAULT_ARCHIVE_LIMITS: ArchiveLimits = {
  maxMembers: 10_000,
  maxTotalBytes: 4 * GiB,
  maxMemberBytes: 2 * GiB,
  // deflate peaks near 1032:1; tool logs compress 5–30:1 (the bundle reader uses 200 too)
  maxRatio: 200,
  ratioFloorBytes: MiB,
  maxNameBytes: 1024,
  maxDepth: 32,
  minFreeBytes: 256 * MiB,
};

export interface ExtractedFile {
  /** where it was written, under `into` */
  path: string;
  /** its name in the archive, normalized: "run1/iostat.txt" */
  name: string;
  bytes: number;
}

export interface SkippedMember {
  name: string;
  /** a sentence, e.g. `"logs/current" is a symbolic link; links are not imported.` */
  reason: string;
  /** hidden: dot-files and macOS metadata (not worth telling a user about); the rest: say why */
  kind: 'hidden' | 'link' | 'special' | 'unreadable' | 'conflict' | 'name';
}

export interface ExtractResult {
  kind: ArchiveKind;
  files: ExtractedFile[];
  skipped: SkippedMember[];
}

export interface ExtractOptions {
  /** the archive's name in messages (an upload's temporary file has none of its own); default: the file's base name */
  label?: string;
  limits?: Partial<ArchiveLimits>;
  signal?: AbortSignal;
  /** compressed bytes read so far, of `total` */
  onProgress?: (read: number, total: number) => void;
}

// ---------------------------------------------------------------------------------------------
// Recognizing an archive

const ARCHIVE_NAME = /\.(tar|tar\.gz|tgz|zip)$/i;

/** Whether a file's name says it is an archive Tunebook reads: .tar, .tar.gz, .tgz, .zip (any case). */
export function isArchiveName(name: string): boolean {
  return ARCHIVE_NAME.test(name);
}

/** The kind of archive the first bytes of a file say it is: zip (PK\3\4 or an empty zip's PK\5\6), gzip (1f 8b), tar ("ustar" at 257). */
export function sniffArchive(head: Uint8Array): ArchiveKind | null {
  if (head.length >= 4 && head[0] === 0x50 && head[1] === 0x4b && ((head[2] === 3 && head[3] === 4) || (head[2] === 5 && head[3] === 6))) return 'zip';
  if (head.length >= 2 && head[0] === 0x1f && head[1] === 0x8b) return 'tar.gz';
  if (head.length >= 262 && Buffer.from(head.subarray(257, 262)).toString('latin1') === 'ustar') return 'tar';
  return null;
}

/** The kind of archive a file is by its first bytes, else by its name; null when neither says it is one. */
export async function archiveKind(file: string, name = path.basename(file)): Promise<ArchiveKind | null> {
  const fh = await fsp.open(file, 'r');
  let head: Buffer;
  try {
    const buf = Buffer.alloc(512);
    const { bytesRead } = await fh.read(buf, 0, 512, 0);
    head = buf.subarray(0, bytesRead);
  } finally {
    await fh.close();
  }
  return sniffArchive(head) ?? kindByName(name);
}

function kindByName(name: string): ArchiveKind | null {
  const m = ARCHIVE_NAME.exec(name)?.[1]?.toLowerCase();
  if (m === undefined) return null;
  return m === 'tgz' || m === 'tar.gz' ? 'tar.gz' : (m as ArchiveKind);
}

// ---------------------------------------------------------------------------------------------
// Names

export type MemberName =
  | { ok: true; name: string; segments: string[] }
  /** words that follow `the member "…"`: the whole archive is refused */
  | { ok: false; refuse: string };

const WINDOWS_RESERVED = /^(con|prn|aux|nul|com[0-9¹²³]|lpt[0-9¹²³])(\..*)?$/i;

/**
 * A member's name checked and normalized: "\" read as a folder separator (as Windows tools write
 * and Windows reads it), "." and empty segments dropped ("./run1//a.txt" → "run1/a.txt"). A name
 * that would leave the folder (absolute, a drive letter, ".."), carries a control character or
 * passes a limit refuses the archive: no honest tool writes one, so the archive was made to attack.
 * `name` is "" for the archive's root folder ("./").
 */
export function checkMemberName(raw: string, limits: Pick<ArchiveLimits, 'maxNameBytes' | 'maxDepth'> = DEFAULT_ARCHIVE_LIMITS): MemberName {
  if (/[\u0000-\u001f\u007f]/.test(raw)) return { ok: false, refuse: 'has a control character in its name' };
  const p = raw.replace(/\\/g, '/');
  if (p.startsWith('/')) return { ok: false, refuse: 'has an absolute path, which points outside the archive' };
  if (/^[A-Za-z]:/.test(p)) return { ok: false, refuse: 'starts with a drive letter, which points outside the archive' };
  const segments = p.split('/').filter((s) => s !== '' && s !== '.');
  if (segments.includes('..')) return { ok: false, refuse: 'has ".." in its path, which points outside the archive' };
  if (Buffer.byteLength(p) > limits.maxNameBytes) return { ok: false, refuse: `has a name longer than the ${limits.maxNameBytes.toLocaleString('en')} bytes Tunebook accepts` };
  if (segments.length - 1 > limits.maxDepth) return { ok: false, refuse: `sits ${segments.length - 1} folders deep, more than the ${limits.maxDepth} Tunebook accepts` };
  if (segments.some((s) => Buffer.byteLength(s) > 255)) return { ok: false, refuse: 'has a file or folder name longer than 255 bytes, which no file system stores' };
  return { ok: true, name: segments.join('/'), segments };
}

/** Why a normalized name is not imported although it is safe, or null. */
export function memberSkipReason(segments: string[], platform: NodeJS.Platform): { kind: SkippedMember['kind']; why: string } | null {
  if (segments[0] === '__MACOSX') return { kind: 'hidden', why: 'is macOS metadata (__MACOSX)' };
  if (segments.some((s) => s.startsWith('.'))) return { kind: 'hidden', why: 'is a hidden file' };
  if (platform === 'win32') {
    const bad = segments.find((s) => /[<>:"|?*]/.test(s) || /[. ]$/.test(s) || WINDOWS_RESERVED.test(s));
    if (bad !== undefined) return { kind: 'name', why: `cannot be stored under its name on Windows ("${shown(bad)}")` };
  }
  return null;
}

// ---------------------------------------------------------------------------------------------
// Extracting

/**
 * Unpacks the archive `file` into `into` (an empty folder the caller owns and later removes; made
 * if missing) and lists the files written, with their names in the archive. Folders are made as
 * files need them; links, devices and pipes are never made (they are listed in `skipped`, as are
 * hidden files, macOS metadata and a second member of an existing name). Archives inside are kept
 * as files.
 *
 * Rejects with TunebookError, removing everything it wrote under `into`: 'invalid' for a damaged or
 * unreadable archive; 'refused' for one that breaks a rule (a name outside the archive) or a limit;
 * 'cancelled' when `signal` aborts.
 */
export async function extractArchive(file: string, into: string, opts: ExtractOptions = {}): Promise<ExtractResult> {
  const label = opts.label ?? path.basename(file);
  const L: ArchiveLimits = { ...DEFAULT_ARCHIVE_LIMITS, ...opts.limits };
  let kind: ArchiveKind | null;
  try {
    kind = await archiveKind(file, label);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new TunebookError('not-found', `"${shown(label)}" does not exist.`);
    if (code === 'EISDIR') throw new TunebookError('invalid', `"${shown(label)}" is a folder, not an archive.`);
    throw new TunebookError('refused', `"${shown(label)}" cannot be read (${(err as Error).message}).`);
  }
  if (kind === null) throw new TunebookError('invalid', `"${shown(label)}" is not an archive Tunebook reads (.tar, .tar.gz, .tgz or .zip).`);
  await fsp.mkdir(into, { recursive: true });
  if ((await fsp.readdir(into)).length > 0) throw new TunebookError('internal', `The folder an archive is unpacked into must be empty (${into}).`);
  const free = await freeBytes(into);
  const ctx = new Extraction(label, kind, into, L, free, opts);
  try {
    if (opts.signal?.aborted) throw ctx.cancelled();
    if (kind === 'zip') await extractZip(file, ctx);
    else await extractTar(file, kind === 'tar.gz', ctx);
    if (opts.signal?.aborted) throw ctx.cancelled();
  } catch (err) {
    await ctx.removeAll();
    if (opts.signal?.aborted) throw ctx.cancelled();
    throw ctx.explain(err);
  }
  return { kind, files: ctx.files, skipped: ctx.skipped };
}

async function freeBytes(dir: string): Promise<number> {
  try {
    const s = await fsp.statfs(dir);
    return s.bavail * s.bsize;
  } catch {
    return Number.POSITIVE_INFINITY;
  }
}

/** The state of one extraction: what was written, the running totals, the words of its errors. */
class Extraction {
  files: ExtractedFile[] = [];
  skipped: SkippedMember[] = [];
  members = 0;
  total = 0;
  /** the total bytes that may be written: the limit, or what the disk can spare */
  readonly budget: number;
  readonly budgetIsDisk: boolean;
  readonly platform = process.platform;

  constructor(
    readonly label: string, readonly kind: ArchiveKind, readonly into: string, readonly L: ArchiveLimits,
    readonly free: number, readonly opts: ExtractOptions,
  ) {
    const disk = free - L.minFreeBytes;
    this.budgetIsDisk = disk < L.maxTotalBytes;
    this.budget = Math.max(0, Math.min(L.maxTotalBytes, disk));
  }

  get q(): string { return `"${shown(this.label)}"`; }
  get kindName(): string { return `.${this.kind}`; }

  /** 'invalid': the archive cannot be read. */
  damaged(what: string): TunebookError {
    return new TunebookError('invalid', `${this.q} is not a readable ${this.kindName} archive: ${what}`);
  }

  /** 'refused': the archive breaks a rule or a limit. */
  refused(what: string): TunebookError {
    return new TunebookError('refused', `${this.q} was not imported: ${what}`);
  }

  cancelled(): TunebookError {
    return new TunebookError('cancelled', `Reading ${this.q} was cancelled; nothing of it was kept.`);
  }

  /** A TunebookError for any failure of the libraries underneath. */
  explain(err: unknown): TunebookError {
    if (err instanceof TunebookError) return err;
    const e = err as NodeJS.ErrnoException;
    if (e.code === 'ENOSPC' || e.code === 'EDQUOT') return this.refused('the disk is full. Free some space and try again.');
    if (e.code === 'EACCES' || e.code === 'EPERM') return new TunebookError('refused', `${this.q} cannot be read or unpacked: permission denied.`);
    const msg = e instanceof Error ? e.message : String(err);
    if (e.code === 'Z_BUF_ERROR' || /unexpected end of file/i.test(msg)) return this.damaged('it was cut short (its compressed data ends early).');
    if (/incorrect header check/.test(msg)) return this.damaged('it is not gzip-compressed.');
    if (typeof e.code === 'string' && e.code.startsWith('Z_')) return this.damaged(`its compressed data is damaged (${msg}).`);
    return this.damaged(`${msg}.`);
  }

  member(raw: string): MemberName & { ok: true } {
    this.members++;
    if (this.members > this.L.maxMembers) throw this.refused(`it holds more than ${this.L.maxMembers.toLocaleString('en')} members, the most Tunebook unpacks from one archive.`);
    const n = checkMemberName(raw, this.L);
    if (!n.ok) throw this.refused(`the member "${shown(raw)}" ${n.refuse}.`);
    return n;
  }

  skip(name: string, kind: SkippedMember['kind'], why: string): void {
    this.skipped.push({ name, kind, reason: `"${shown(name)}" ${why}.` });
  }

  /** Whether a file of this name is written; records why not. */
  wanted(n: { name: string; segments: string[] }): boolean {
    if (n.name === '') throw this.refused('a file member has an empty name.');
    const s = memberSkipReason(n.segments, this.platform);
    if (s) { this.skip(n.name, s.kind, s.why); return false; }
    return true;
  }

  /** Refuses a member whose size (declared or as unpacked so far) passes a limit. */
  checkSize(name: string, memberBytes: number, totalBytes: number): void {
    if (memberBytes > this.L.maxMemberBytes) throw this.refused(`the member "${shown(name)}" unpacks to more than ${bytes(this.L.maxMemberBytes)}, the most Tunebook accepts for one file.`);
    if (totalBytes > this.budget) {
      if (this.budgetIsDisk) throw this.refused(`unpacking it needs more than the ${bytes(this.budget)} the disk can spare (at "${shown(name)}"). Free some space and try again.`);
      throw this.refused(`its files unpack to more than ${bytes(this.L.maxTotalBytes)}, the most Tunebook accepts from one archive (at "${shown(name)}").`);
    }
  }

  checkRatio(what: string, unpacked: number, compressed: number): void {
    if (unpacked > this.L.ratioFloorBytes && unpacked > compressed * this.L.maxRatio) {
      throw this.refused(`${what} unpacks to more than ${this.L.maxRatio} times its compressed size (${bytes(unpacked)} from ${bytes(compressed)}), which is how a decompression bomb looks.`);
    }
  }

  /**
   * Writes one member from `chunks`; `onChunk` checks each chunk before it is written. Returns
   * false (and records why) when the name is taken by an earlier member.
   */
  async write(n: { name: string; segments: string[] }, chunks: AsyncIterable<Buffer>, onChunk: (c: Buffer) => void): Promise<boolean> {
    const target = path.join(this.into, ...n.segments);
    const rel = path.relative(this.into, target);
    // the name was checked; this guards the check
    if (rel === '' || rel.startsWith('..') || path.isAbsolute(rel)) throw this.refused(`the member "${shown(n.name)}" points outside the archive.`);
    let fh: fsp.FileHandle;
    try {
      await fsp.mkdir(path.dirname(target), { recursive: true });
      // "wx": never through an existing file or link, never over an earlier member
      fh = await fsp.open(target, 'wx', 0o644);
    } catch (err) {
      const code = (err as NodeJS.ErrnoException).code;
      if (code === 'EEXIST' || code === 'ENOTDIR' || code === 'EISDIR') {
        this.skip(n.name, 'conflict', 'has the name of an earlier member (or of a folder of one); the first was kept');
        for await (const _ of chunks) { /* drained */ }
        return false;
      }
      throw err;
    }
    let count = 0;
    try {
      for await (const chunk of chunks) {
        onChunk(chunk);
        count += chunk.length;
        this.total += chunk.length;
        this.checkSize(n.name, count, this.total);
        await fh.write(chunk);
      }
    } finally {
      await fh.close();
    }
    this.files.push({ path: target, name: n.name, bytes: count });
    return true;
  }

  /** Empties `into` (it was empty before). */
  async removeAll(): Promise<void> {
    let names: string[];
    try { names = await fsp.readdir(this.into); } catch { return; }
    await Promise.all(names.map((f) => fsp.rm(path.join(this.into, f), { recursive: true, force: true, maxRetries: 3 })));
    this.files = [];
  }

  progress(read: number, total: number): void {
    this.opts.onProgress?.(read, total);
  }
}

function bytes(n: number): string {
  if (n >= GiB) return `${+(n / GiB).toFixed(1)} GiB`;
  if (n >= MiB) return `${+(n / MiB).toFixed(1)} MiB`;
  if (n >= KiB) return `${+(n / KiB).toFixed(1)} KiB`;
  return `${n} bytes`;
}

/** Drains a stream of a member that is not written. */
async function drain(s: AsyncIterable<unknown>): Promise<void> {
  for await (const _ of s) { /* drained */ }
}

// ---------------------------------------------------------------------------------------------
// tar, tar.gz

async function extractTar(file: string, gzip: boolean, ctx: Extraction): Promise<void> {
  const size = (await fsp.stat(file)).size;
  let read = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      read += chunk.length;
      ctx.progress(read, size);
      done(null, chunk);
    },
  });
  const input: Readable = gzip
    ? pipeline(createReadStream(file), counter, zlib.createGunzip({ chunkSize: 64 * KiB }), () => { /* errors reach the reader of the last stream */ })
    : pipeline(createReadStream(file), counter, () => { /* errors reach the reader of the last stream */ });
  const extract = tarExtract();
  let failure: unknown = null;
  // the feeder waiting for the parser to drain; woken by a failure too (the parser may close before it waits)
  let wakeFeeder: (() => void) | null = null;
  const fail = (err: unknown): void => {
    failure ??= err;
    input.destroy();
    extract.destroy(err instanceof Error ? err : new Error(String(err)));
    wakeFeeder?.();
  };
  const onAbort = (): void => fail(ctx.cancelled());
  ctx.opts.signal?.addEventListener('abort', onAbort, { once: true });

  let unpacked = 0;
  const feed = async (): Promise<void> => {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      if (failure) return;
      if (gzip) {
        unpacked += chunk.length;
        ctx.checkRatio('it', unpacked, read);
      }
      if (!extract.write(chunk)) {
        if (extract.destroyed || extract.destroying) return;
        await new Promise<void>((resolve) => {
          const done = (): void => { extract.off('drain', done); extract.off('close', done); wakeFeeder = null; resolve(); };
          wakeFeeder = done;
          extract.on('drain', done);
          extract.on('close', done);
        });
      }
      if (failure || extract.destroyed || extract.destroying) return;
    }
    extract.end(undefined); // streamx types want an argument; undefined ends without writing
  };
  const consume = async (): Promise<void> => {
    for await (const entry of extract) {
      const h = entry.header;
      const n = ctx.member(h.name);
      switch (h.type) {
        case 'file':
        case 'contiguous-file': {
          if (!ctx.wanted(n)) { await drain(entry); break; }
          ctx.checkSize(n.name, h.size, ctx.total + h.size);
          await ctx.write(n, entry as AsyncIterable<Buffer>, () => {});
          break;
        }
        case 'directory':
          await drain(entry);
          break;
        case 'symlink':
          ctx.skip(n.name, 'link', `is a symbolic link (to "${shown(h.linkname ?? '')}"); links are not imported`);
          await drain(entry);
          break;
        case 'link':
          ctx.skip(n.name, 'link', `is a hard link (to "${shown(h.linkname ?? '')}"); links are not imported`);
          await drain(entry);
          break;
        case 'character-device':
        case 'block-device':
          ctx.skip(n.name, 'special', 'is a device; only plain files are imported');
          await drain(entry);
          break;
        case 'fifo':
          ctx.skip(n.name, 'special', 'is a named pipe (FIFO); only plain files are imported');
          await drain(entry);
          break;
        default:
          ctx.skip(n.name, 'unreadable', 'is a tar member of a kind Tunebook does not read (not a plain file)');
          await drain(entry);
      }
    }
  };
  try {
    await Promise.all([feed().catch(fail), consume().catch(fail)]);
  } finally {
    ctx.opts.signal?.removeEventListener('abort', onAbort);
    input.destroy();
  }
  if (failure) throw tarProblem(failure, ctx);
}

function tarProblem(err: unknown, ctx: Extraction): TunebookError {
  if (err instanceof TunebookError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  const notTar = ctx.kind === 'tar.gz' ? 'it is gzip-compressed, but what it holds is not a tar archive.' : 'it is not a tar archive.';
  const tarError = /Unexpected end of data|unknown format|Invalid tar header/.test(msg);
  // nothing read yet: the file is something else (a text file named .tar, a gzipped log named .tgz)
  if (tarError && ctx.members === 0) return ctx.damaged(notTar);
  if (/Unexpected end of data/.test(msg)) return ctx.damaged('it was cut short (it ends in the middle of a member).');
  if (/unknown format|Invalid tar header/.test(msg)) return ctx.damaged('a tar header is damaged (its checksum does not match).');
  if (/Header exceeds max size|Invalid header/.test(msg)) return ctx.damaged(`a tar header is damaged (${msg}).`);
  return ctx.explain(err);
}

// ---------------------------------------------------------------------------------------------
// zip

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const UNICODE_PATH_FIELD = 0x7075;
const UTF8_FLAG = 0x800;

// code page 437, bytes 0x80–0xff: the encoding of a zip name without the UTF-8 flag (APPNOTE, appendix D)
const CP437_HIGH =
  'ÇüéâäàåçêëèïîìÄÅÉæÆôöòûùÿÖÜ¢£¥₧ƒáíóúñÑªº¿⌐¬½¼¡«»░▒▓│┤╡╢╖╕╣║╗╝╜╛┐└┴┬├─┼╞╟╚╔╩╦╠═╬╧╨╤╥╙╘╒╓╫╪┘┌█▄▌▐▀αßΓπΣσµτΦΘΩδ∞φε∩≡±≥≤⌠⌡÷≈°∙·√ⁿ²■\u00a0';

/**
 * A zip entry's name: the Info-ZIP Unicode Path field when it matches the plain name's CRC; UTF-8
 * when flagged or when the bytes are valid UTF-8 (many tools write it unflagged); else CP437.
 */
export function zipEntryName(raw: Buffer, flags: number, extra: { id: number; data: Buffer }[] = []): string {
  const up = extra.find((f) => f.id === UNICODE_PATH_FIELD);
  if (up && up.data.length > 5 && up.data[0] === 1 && up.data.readUInt32LE(1) === zlib.crc32(raw)) {
    try { return new TextDecoder('utf-8', { fatal: true }).decode(up.data.subarray(5)); } catch { /* the plain name, then */ }
  }
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(raw);
  } catch {
    if (flags & UTF8_FLAG) return raw.toString('latin1');
    let s = '';
    for (const b of raw) s += b < 0x80 ? String.fromCharCode(b) : CP437_HIGH[b - 0x80];
    return s;
  }
}

interface ZipItem { entry: yauzl.Entry; n: { name: string; segments: string[] } }

async function extractZip(file: string, ctx: Extraction): Promise<void> {
  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: false });
  } catch (err) {
    throw ctx.damaged(zipProblem(err));
  }
  try {
    if (zip.entryCount > ctx.L.maxMembers) {
      throw ctx.refused(`it holds ${zip.entryCount.toLocaleString('en')} members, more than the ${ctx.L.maxMembers.toLocaleString('en')} Tunebook unpacks from one archive.`);
    }
    const entries: yauzl.Entry[] = [];
    try {
      for await (const entry of zip.eachEntry()) entries.push(entry);
    } catch (err) {
      throw ctx.damaged(zipProblem(err));
    }

    // Everything the central directory says is checked before a byte is inflated.
    const items: ZipItem[] = [];
    let declared = 0;
    for (const entry of entries) {
      const raw = zipEntryName(entry.fileNameRaw, entry.generalPurposeBitFlag, entry.extraFields);
      const n = ctx.member(raw);
      const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
      const dir = raw.endsWith('/') || raw.endsWith('\\') || type === S_IFDIR || (type === 0 && (entry.externalFileAttributes & 0x10) !== 0);
      if (dir) continue;
      if (type === S_IFLNK) { ctx.skip(n.name, 'link', 'is a symbolic link; links are not imported'); continue; }
      if (type !== 0 && type !== S_IFREG) { ctx.skip(n.name, 'special', 'is a special file (a device, pipe or socket); only plain files are imported'); continue; }
      if (!ctx.wanted(n)) continue;
      // bit 0: encrypted; bit 6: strong encryption
      if ((entry.generalPurposeBitFlag & 0x41) !== 0) { ctx.skip(n.name, 'unreadable', 'is encrypted; Tunebook reads only unencrypted archives'); continue; }
      if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
        ctx.skip(n.name, 'unreadable', `is compressed with a method Tunebook cannot read (zip method ${entry.compressionMethod}; stored and deflated members are read)`);
        continue;
      }
      declared += entry.uncompressedSize;
      ctx.checkSize(n.name, entry.uncompressedSize, declared);
      ctx.checkRatio(`the member "${shown(n.name)}"`, entry.uncompressedSize, entry.compressedSize);
      items.push({ entry, n });
    }

    // Members whose data overlap (several names for the same bytes) are how non-recursive zip bombs
    // multiply their size; each local record is at least its 30-byte header, its name and its data.
    const byOffset = [...items].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
    for (let k = 0; k < byOffset.length; k++) {
      const a = byOffset[k]!;
      const end = a.entry.relativeOffsetOfLocalHeader + 30 + a.entry.fileNameLength + a.entry.compressedSize;
      if (end > zip.fileSize) throw ctx.damaged(`the member "${shown(a.n.name)}" runs past the end of the file (it was cut short).`);
      const b = byOffset[k + 1];
      if (b && b.entry.relativeOffsetOfLocalHeader < end) {
        throw ctx.refused(`the members "${shown(a.n.name)}" and "${shown(b.n.name)}" share the same bytes, a trick zip bombs use.`);
      }
    }

    const total = Math.max(1, byOffset.reduce((s, i) => s + i.entry.compressedSize, 0));
    let read = 0;
    for (const item of byOffset) {
      if (ctx.opts.signal?.aborted) throw ctx.cancelled();
      read = await extractZipEntry(zip, item, ctx, read, total);
    }
    ctx.progress(total, total);
  } finally {
    zip.close();
  }
}

/** Streams one entry to its file: inflated here, so the compressed bytes behind the output are known. Returns the progress. */
async function extractZipEntry(zip: yauzl.ZipFile, { entry, n }: ZipItem, ctx: Extraction, readBefore: number, total: number): Promise<number> {
  const q = `the member "${shown(n.name)}"`;
  let raw: Readable;
  try {
    raw = await zip.openReadStreamPromise(entry, entry.compressionMethod === 8 ? { decompress: false } : {});
  } catch (err) {
    throw ctx.damaged(`${q} cannot be read (${zipProblem(err)})`);
  }
  let fed = 0;
  const counter = new Transform({
    transform(chunk: Buffer, _enc, done) {
      fed += chunk.length;
      ctx.progress(readBefore + fed, total);
      done(null, chunk);
    },
  });
  const deflated = entry.compressionMethod === 8;
  const data: Readable = deflated
    ? pipeline(raw, counter, zlib.createInflateRaw({ chunkSize: 64 * KiB }), () => { /* errors reach the reader */ })
    : pipeline(raw, counter, () => { /* errors reach the reader */ });
  const onAbort = (): void => { data.destroy(ctx.cancelled()); };
  ctx.opts.signal?.addEventListener('abort', onAbort, { once: true });
  let count = 0;
  let crc = 0;
  try {
    await ctx.write(n, data as AsyncIterable<Buffer>, (chunk) => {
      count += chunk.length;
      if (count > entry.uncompressedSize) throw ctx.damaged(`${q} holds more data than its zip entry declares (${entry.uncompressedSize.toLocaleString('en')} bytes); the archive is damaged or made to attack.`);
      if (deflated) ctx.checkRatio(q, count, fed);
      crc = zlib.crc32(chunk, crc);
    });
  } catch (err) {
    data.destroy();
    if (err instanceof TunebookError) throw err;
    const e = err as NodeJS.ErrnoException;
    if (typeof e.code === 'string' && (e.code.startsWith('E') && !e.code.startsWith('ERR_'))) throw err;
    throw ctx.damaged(`${q} cannot be unpacked (${e.message}).`);
  } finally {
    ctx.opts.signal?.removeEventListener('abort', onAbort);
  }
  if (count < entry.uncompressedSize) throw ctx.damaged(`${q} holds ${count.toLocaleString('en')} bytes, not the ${entry.uncompressedSize.toLocaleString('en')} its zip entry declares.`);
  if ((crc >>> 0) !== (entry.crc32 >>> 0)) throw ctx.damaged(`${q} does not match its CRC-32 checksum (its data is damaged).`);
  return readBefore + fed;
}

/** yauzl's reasons for refusing a zip, in words. */
function zipProblem(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/end of central directory record signature not found/i.test(msg)) return 'it is not a zip archive, or it was cut short (its zip directory is missing).';
  if (/unexpected EOF/i.test(msg)) return 'it was cut short.';
  if (/strong encryption/.test(msg)) return 'it is encrypted; Tunebook reads only unencrypted archives.';
  if (/multi-disk/.test(msg)) return 'it is split over several files (a multi-part zip), which Tunebook does not read.';
  if (/invalid local file header signature/.test(msg)) return 'its zip directory points at data that is not there (the file is damaged).';
  if (/overflows file bounds/.test(msg)) return 'it was cut short (its data runs past the end of the file).';
  return `its zip structure is damaged (${msg}).`;
}
