/**
 * The archive layer of an exported bundle: a .eln file, i.e. a zip with one root folder holding
 * `ro-crate-metadata.json` (shared/bundle/roCrate.ts) and the bundle's files. Written with yazl,
 * streamed and atomically; read with yauzl, which never trusts the archive: everything is checked
 * from the zip's central directory before a byte of data is inflated, and the data is checked again
 * (sizes while inflating, SHA-256s at the end) as it is read. Nothing is ever extracted to disk, so
 * names are checked to keep the archive portable and honest rather than to protect a folder.
 */
import { createHash, randomBytes } from 'node:crypto';
import { createWriteStream, promises as fsp } from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import yauzl from 'yauzl';
import yazl from 'yazl';
import { TunebookError } from '../../../shared/api';
import {
  CRATE_COMPANION_FILES, METADATA_FILE, archivePathProblem, crateFolders, readCrateFiles, shown,
} from '../../../shared/bundle/roCrate';
import { formatQuantity } from '../../../shared/units';

// ---------------------------------------------------------------------------------------------
// Writing

export interface ArchiveEntry {
  /** relative to the root folder, posix */
  path: string;
  /** exact: the archive fails rather than store a file that changed size while it was read */
  size: number;
  /** called when the entry's turn comes, so only one source is open at a time */
  source: () => NodeJS.ReadableStream | Buffer | Promise<NodeJS.ReadableStream>;
}

export interface WriteArchiveOptions {
  onProgress?(bytesDone: number, bytesTotal: number): void;
  signal?: AbortSignal;
  /** whether to deflate an entry (default: every one) */
  compress?: (path: string) => boolean;
}

/**
 * Writes `<root>/…` entries and `<root>/ro-crate-metadata.json` to outPath atomically (a temporary
 * file beside it, renamed at the end; removed on error or abort). Every folder the entries sit in,
 * and every folder the crate describes as a Dataset, gets a folder entry: RO-Crate wants each
 * Dataset to exist in the payload, even an experiment without files.
 */
export async function writeArchive(
  outPath: string, root: string, entries: ArchiveEntry[], metadata: object, opts: WriteArchiveOptions = {},
): Promise<{ bytes: number }> {
  const rootProblem = archivePathProblem(root);
  if (rootProblem !== null || root.includes('/')) {
    throw new TunebookError('invalid', `The archive's root folder "${shown(root)}" ${rootProblem ?? 'must be one folder name'}.`);
  }
  const filePaths = new Set<string>();
  for (const e of entries) {
    const problem = archivePathProblem(e.path);
    if (problem !== null || e.path.endsWith('/')) throw new TunebookError('invalid', `The archive entry "${shown(e.path)}" ${problem ?? 'is named like a folder'}.`);
    if (e.path === METADATA_FILE) throw new TunebookError('invalid', `The archive entry "${METADATA_FILE}" is written from the metadata.`);
    if (filePaths.has(e.path)) throw new TunebookError('invalid', `The archive entry "${shown(e.path)}" is given twice.`);
    if (!Number.isSafeInteger(e.size) || e.size < 0) throw new TunebookError('invalid', `The archive entry "${shown(e.path)}" has no valid size.`);
    filePaths.add(e.path);
  }
  const folders = new Set<string>();
  const addFolders = (p: string): void => {
    const parts = p.split('/').filter(Boolean);
    for (let i = 1; i <= parts.length; i++) folders.add(parts.slice(0, i).join('/'));
  };
  for (const e of entries) addFolders(path.posix.dirname(e.path) === '.' ? '' : path.posix.dirname(e.path));
  for (const f of crateFolders(metadata)) {
    const problem = archivePathProblem(f);
    if (problem !== null) throw new TunebookError('invalid', `The crate's folder "${shown(f)}" ${problem}.`);
    addFolders(f);
  }
  for (const f of folders) {
    if (filePaths.has(f) || f === METADATA_FILE) throw new TunebookError('invalid', `"${shown(f)}" would be both a file and a folder in the archive.`);
  }
  if (opts.signal?.aborted) throw cancelled();

  const tmp = path.join(path.dirname(outPath), `.${path.basename(outPath)}.${randomBytes(6).toString('hex')}.part`);
  const zip = new yazl.ZipFile();
  const mtime = new Date();
  const bytesTotal = entries.reduce((n, e) => n + e.size, 0);
  let bytesDone = 0;
  // sources opened so far: destroyed on failure so no file stays open
  const sources = new Set<Readable>();
  const output = zip.outputStream as Readable;
  // yazl reports its own errors (a source that fails to open, a size mismatch) on the ZipFile
  zip.on('error', (err: Error) => output.destroy(err));

  zip.addEmptyDirectory(`${root}/`, { mtime, mode: 0o40755 });
  for (const f of [...folders].sort()) zip.addEmptyDirectory(`${root}/${f}/`, { mtime, mode: 0o40755 });
  zip.addBuffer(Buffer.from(`${JSON.stringify(metadata, null, 2)}\n`), `${root}/${METADATA_FILE}`, { mtime, mode: 0o100644 });
  for (const e of entries) {
    zip.addReadStreamLazy(`${root}/${e.path}`, { mtime, mode: 0o100644, size: e.size, compress: opts.compress?.(e.path) ?? true }, (cb) => {
      Promise.resolve().then(e.source).then((src) => {
        const input = Buffer.isBuffer(src) ? Readable.from([src], { objectMode: false }) : src instanceof Readable ? src : new Readable().wrap(src);
        sources.add(input);
        let count = 0;
        // counts progress, and names the entry if its source delivers another size than promised
        const counter = new Transform({
          transform(chunk: Buffer, _enc, done) {
            count += chunk.length;
            if (count > e.size) return done(changedSize(e, count));
            bytesDone += chunk.length;
            opts.onProgress?.(bytesDone, bytesTotal);
            done(null, chunk);
          },
          flush(done) {
            done(count === e.size ? null : changedSize(e, count));
          },
        });
        input.once('error', (err) => counter.destroy(err));
        // yazl (3.3) does not listen for errors of a lazily given stream: end the output with them
        counter.once('error', (err) => output.destroy(err));
        input.pipe(counter);
        cb(null, counter);
      }, (err: unknown) => (cb as (err: Error) => void)(err instanceof Error ? err : new Error(String(err))));
    });
  }
  zip.end();

  try {
    await pipeline(output, createWriteStream(tmp, { flags: 'wx' }), opts.signal ? { signal: opts.signal } : {});
    if (opts.signal?.aborted) throw cancelled();
    // on disk before the rename makes it the export: a crash leaves the old file or the whole new one
    const fh = await fsp.open(tmp, 'r+');
    try { await fh.sync(); } finally { await fh.close(); }
    await fsp.rename(tmp, outPath);
  } catch (err) {
    for (const s of sources) s.destroy();
    await fsp.rm(tmp, { force: true });
    if (opts.signal?.aborted) throw cancelled();
    throw err;
  }
  return { bytes: (await fsp.stat(outPath)).size };
}

function changedSize(e: ArchiveEntry, got: number): TunebookError {
  const read = got > e.size ? `more than ${e.size} bytes were read` : `${got} of its ${e.size} bytes were read`;
  return new TunebookError('invalid', `"${shown(e.path)}" changed while it was being exported: ${read}.`);
}

function cancelled(): TunebookError {
  return new TunebookError('cancelled', 'The export was cancelled.');
}

// ---------------------------------------------------------------------------------------------
// Reading

export interface ArchiveLimits {
  maxEntries: number;
  /** the sum of the declared (uncompressed) sizes */
  maxTotalBytes: number;
  maxEntryBytes: number;
  /** uncompressed ÷ compressed, for entries above RATIO_FLOOR_BYTES */
  maxRatio: number;
  maxJsonBytes: number;
}

const GiB = 1024 ** 3;
export const DEFAULT_LIMITS: ArchiveLimits = {
  maxEntries: 100_000,
  maxTotalBytes: 64 * GiB,
  maxEntryBytes: 32 * GiB,
  // deflate peaks near 1032:1; tool logs compress 5–30:1, so 200:1 is already suspicious
  maxRatio: 200,
  maxJsonBytes: 256 * 1024 ** 2,
};
/** Small entries may compress any amount (a few KiB of zeros are harmless). */
export const RATIO_FLOOR_BYTES = 1024 ** 2;

export interface OpenedArchive {
  /** the root folder name */
  root: string;
  /** parsed ro-crate-metadata.json */
  metadata: unknown;
  /** every file, relative to root, as the crate lists it */
  files: Map<string, { size: number; sha256: string }>;
  /** a JSON entry (ro-crate-metadata.json or a listed file, whose SHA-256 is checked), at most maxJsonBytes */
  readJson(path: string): Promise<unknown>;
  /** one listed file's bytes; the stream fails if they exceed what the zip declares or miss the SHA-256 */
  open(path: string): Promise<NodeJS.ReadableStream>;
  /** streams every listed file once and checks its size and SHA-256 against the crate */
  verify(onProgress?: (bytesDone: number, bytesTotal: number) => void, signal?: AbortSignal): Promise<void>;
  close(): Promise<void>;
}

interface Item {
  entry: yauzl.Entry;
  /** relative to the root folder, without a folder's trailing "/" */
  rel: string;
  dir: boolean;
}

const S_IFMT = 0o170000;
const S_IFREG = 0o100000;
const S_IFDIR = 0o040000;
const S_IFLNK = 0o120000;
const UNICODE_PATH_FIELD = 0x7075;

/**
 * Opens a .eln archive after checking all of it that can be checked without inflating: the zip
 * structure, each entry's name, kind, encryption and declared sizes, then the crate's list of files
 * against the archive's. Rejects with TunebookError('invalid') naming the file and the problem.
 */
export async function openArchive(file: string, limits: Partial<ArchiveLimits> = {}, name?: string): Promise<OpenedArchive> {
  const L: ArchiveLimits = { ...DEFAULT_LIMITS, ...limits };
  // messages name the file as the user knows it (an upload is staged under another name)
  const label = name ?? path.basename(file);
  const notBundle = (what: string): TunebookError => new TunebookError('invalid', `"${label}" is not a Tunebook bundle: ${what}`);
  const damaged = (what: string): TunebookError => new TunebookError('invalid', `"${label}" is damaged: ${what}`);

  let zip: yauzl.ZipFile;
  try {
    zip = await yauzl.openPromise(file, { lazyEntries: true, autoClose: false, decodeStrings: false, validateEntrySizes: true });
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') throw new TunebookError('not-found', `"${label}" does not exist.`);
    if (code === 'EISDIR') throw notBundle('it is a folder, not a file.');
    throw notBundle(zipProblem(err));
  }

  try {
    if (zip.entryCount > L.maxEntries) {
      throw notBundle(`it holds ${zip.entryCount.toLocaleString('en')} entries, more than the ${L.maxEntries.toLocaleString('en')} Tunebook opens.`);
    }
    const items = await listEntries(zip, L, notBundle, damaged);
    const root = items.root;
    const byRel = new Map(items.list.filter((i) => !i.dir).map((i) => [i.rel, i]));

    const metaItem = byRel.get(METADATA_FILE);
    if (!metaItem) throw notBundle(`it has no ${METADATA_FILE} in its folder "${shown(root)}", so it is not an .eln file.`);
    if (metaItem.entry.uncompressedSize > L.maxJsonBytes) {
      throw notBundle(`its ${METADATA_FILE} is ${bytes(metaItem.entry.uncompressedSize)}, more than the ${bytes(L.maxJsonBytes)} Tunebook reads.`);
    }
    const metaBytes = await readAll(await rawStream(zip, metaItem, label)).catch((err: unknown) => { throw dataProblem(err, metaItem, label); });
    const metadata = parseJson(metaBytes, METADATA_FILE, notBundle);
    let listed: Map<string, { sha256: string; size: number | null }>;
    try {
      listed = readCrateFiles(metadata);
    } catch (err) {
      if (err instanceof TunebookError) throw notBundle(err.message);
      throw err;
    }

    // The crate and the zip must agree file for file: nothing unlisted rides along, nothing is missing.
    const files = new Map<string, { size: number; sha256: string }>();
    for (const rel of byRel.keys()) {
      if (rel === METADATA_FILE || CRATE_COMPANION_FILES.includes(rel)) continue;
      if (!listed.has(rel)) throw notBundle(`the file "${shown(rel)}" is in the archive but ${METADATA_FILE} does not list it with a SHA-256 checksum.`);
    }
    for (const [rel, want] of listed) {
      const item = byRel.get(rel);
      if (!item) throw notBundle(`${METADATA_FILE} lists the file "${shown(rel)}", which is missing from the archive.`);
      if (want.size !== null && want.size !== item.entry.uncompressedSize) {
        throw damaged(`the file "${shown(rel)}" holds ${item.entry.uncompressedSize} bytes by its zip entry but ${want.size} by ${METADATA_FILE}.`);
      }
      files.set(rel, { size: item.entry.uncompressedSize, sha256: want.sha256 });
    }

    let closed = false;
    const listedItem = (rel: string): Item => {
      if (closed) throw new TunebookError('invalid', `"${label}" is already closed.`);
      const item = files.has(rel) ? byRel.get(rel) : undefined;
      if (!item) throw new TunebookError('not-found', `"${label}" has no file "${shown(rel)}".`);
      return item;
    };

    return {
      root,
      metadata,
      files,
      async readJson(rel) {
        if (rel === METADATA_FILE) return metadata;
        const item = listedItem(rel);
        if (item.entry.uncompressedSize > L.maxJsonBytes) {
          throw notBundle(`"${shown(rel)}" is ${bytes(item.entry.uncompressedSize)}, more than the ${bytes(L.maxJsonBytes)} Tunebook reads.`);
        }
        return parseJson(await readAll(await checkedStream(zip, item, files.get(rel)!.sha256, label)), rel, (what) => damaged(what));
      },
      async open(rel) {
        return checkedStream(zip, listedItem(rel), files.get(rel)!.sha256, label);
      },
      async verify(onProgress, signal) {
        const order = [...files.keys()].map(listedItem).sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
        const total = order.reduce((n, i) => n + i.entry.uncompressedSize, 0);
        let done = 0;
        for (const item of order) {
          if (signal?.aborted) throw new TunebookError('cancelled', 'The check of the bundle was cancelled.');
          const stream = await checkedStream(zip, item, files.get(item.rel)!.sha256, label);
          const stop = (): void => { stream.destroy(new TunebookError('cancelled', 'The check of the bundle was cancelled.')); };
          signal?.addEventListener('abort', stop, { once: true });
          try {
            for await (const chunk of stream) {
              done += (chunk as Buffer).length;
              onProgress?.(done, total);
            }
          } finally {
            signal?.removeEventListener('abort', stop);
          }
        }
      },
      async close() {
        if (closed) return;
        closed = true;
        zip.close();
      },
    };
  } catch (err) {
    zip.close();
    throw err;
  }
}

/** Reads the central directory, checking every entry before anything is inflated. */
async function listEntries(
  zip: yauzl.ZipFile, L: ArchiveLimits, notBundle: (what: string) => TunebookError, damaged: (what: string) => TunebookError,
): Promise<{ root: string; list: Item[] }> {
  const list: Item[] = [];
  const names = new Set<string>();
  let root: string | null = null;
  let total = 0;
  const utf8 = new TextDecoder('utf-8', { fatal: true });

  const entries: yauzl.Entry[] = [];
  try {
    for await (const entry of zip.eachEntry()) entries.push(entry);
  } catch (err) {
    throw notBundle(zipProblem(err));
  }

  for (const entry of entries) {
    // names are decoded here, not by yauzl: it would silently turn "\" into "/" and prefer the
    // Info-ZIP Unicode Path field, and a message should quote what the archive really says
    let name: string;
    try {
      name = utf8.decode(entry.fileNameRaw);
    } catch {
      throw notBundle(`an entry's name is not UTF-8 text ("${shown(entry.fileNameRaw.toString('latin1'))}").`);
    }
    const q = `the entry "${shown(name)}"`;
    const unicodePath = entry.extraFields.find((f) => f.id === UNICODE_PATH_FIELD);
    // version (1 byte), CRC-32 of the name (4), then the name in UTF-8: other tools use that one
    if (unicodePath && unicodePath.data.length > 5 && unicodePath.data.subarray(5).toString('utf8') !== name) {
      throw notBundle(`${q} carries a second, different name for other zip tools.`);
    }
    const problem = archivePathProblem(name);
    if (problem !== null) throw notBundle(`${q} ${problem}.`);

    const dir = name.endsWith('/');
    const parts = (dir ? name.slice(0, -1) : name).split('/');
    const top = parts[0]!;
    if (parts.length === 1 && !dir) throw notBundle(`${q} is not inside the archive's root folder (an .eln file keeps everything in one folder).`);
    if (root === null) root = top;
    else if (top !== root) throw notBundle(`it has more than one top-level folder ("${shown(root)}" and "${shown(top)}"); an .eln file has exactly one.`);
    const rel = parts.slice(1).join('/');

    const key = dir ? name.slice(0, -1) : name;
    if (names.has(key)) throw notBundle(`${q} appears twice.`);
    names.add(key);

    // the unix file type sits in the high 16 bits of the external attributes (0 when not given)
    const type = (entry.externalFileAttributes >>> 16) & S_IFMT;
    if (type === S_IFLNK) throw notBundle(`${q} is a symbolic link; a Tunebook bundle holds only plain files and folders.`);
    if (type !== 0 && type !== S_IFREG && type !== S_IFDIR) throw notBundle(`${q} is a special file (a device, pipe or socket); a Tunebook bundle holds only plain files and folders.`);
    // a folder by its attributes (unix type, or the MS-DOS directory bit) must be named as one
    const folderByAttributes = type === S_IFDIR || (type === 0 && (entry.externalFileAttributes & 0x10) !== 0);
    if (folderByAttributes && !dir) throw notBundle(`${q} is marked as a folder but named like a file.`);
    if (dir && entry.uncompressedSize > 0) throw notBundle(`${q} is a folder that holds data.`);

    // bit 0: encrypted; bit 6: strong encryption; bit 13: encrypted central directory
    if ((entry.generalPurposeBitFlag & 0x2041) !== 0) throw notBundle(`${q} is encrypted; Tunebook opens only unencrypted bundles.`);
    if (entry.compressionMethod !== 0 && entry.compressionMethod !== 8) {
      throw notBundle(`${q} is compressed with a method Tunebook cannot read (zip method ${entry.compressionMethod}; only stored and deflated entries are read).`);
    }

    const size = entry.uncompressedSize;
    if (size > L.maxEntryBytes) throw notBundle(`${q} would unpack to ${bytes(size)}, more than the ${bytes(L.maxEntryBytes)} Tunebook accepts for one file.`);
    total += size;
    if (total > L.maxTotalBytes) throw notBundle(`its entries would unpack to more than the ${bytes(L.maxTotalBytes)} Tunebook accepts in all.`);
    if (size > RATIO_FLOOR_BYTES && size > entry.compressedSize * L.maxRatio) {
      const ratio = entry.compressedSize > 0 ? `${Math.round(size / entry.compressedSize).toLocaleString('en')} times` : 'infinitely many times';
      throw notBundle(`${q} would unpack to ${bytes(size)} from ${bytes(entry.compressedSize)} (${ratio} its size), which is how a zip bomb looks.`);
    }
    list.push({ entry, rel, dir });
  }
  if (root === null) throw notBundle('it is an empty zip archive.');

  // a file and a folder of one name; a file under a file
  const filesSet = new Set(list.filter((i) => !i.dir).map((i) => i.rel));
  for (const i of list) {
    const parts = i.rel.split('/');
    for (let k = 1; k < parts.length; k++) {
      const prefix = parts.slice(0, k).join('/');
      if (filesSet.has(prefix)) throw notBundle(`"${shown(`${root}/${prefix}`)}" is both a file and a folder.`);
    }
    if (i.dir && filesSet.has(i.rel)) throw notBundle(`"${shown(`${root}/${i.rel}`)}" is both a file and a folder.`);
  }

  // Entries whose data overlap (several names for the same bytes) are how non-recursive zip bombs
  // multiply their size; each local record is at least its 30-byte header, its name and its data.
  const byOffset = [...list].sort((a, b) => a.entry.relativeOffsetOfLocalHeader - b.entry.relativeOffsetOfLocalHeader);
  for (let k = 0; k < byOffset.length; k++) {
    const a = byOffset[k]!.entry;
    const end = a.relativeOffsetOfLocalHeader + 30 + a.fileNameLength + a.compressedSize;
    if (end > zip.fileSize) throw damaged(`the entry "${shown(utf8.decode(a.fileNameRaw))}" runs past the end of the file (it was cut short).`);
    const b = byOffset[k + 1]?.entry;
    if (b && b.relativeOffsetOfLocalHeader < end) {
      throw notBundle(`the entries "${shown(utf8.decode(a.fileNameRaw))}" and "${shown(utf8.decode(b.fileNameRaw))}" share the same bytes, a trick zip bombs use.`);
    }
  }
  return { root, list };
}

/** An entry's bytes as yauzl gives them, its errors in words a user understands. */
async function rawStream(zip: yauzl.ZipFile, item: Item, label: string): Promise<Readable> {
  try {
    return await zip.openReadStreamPromise(item.entry);
  } catch (err) {
    throw dataProblem(err, item, label);
  }
}

/**
 * An entry's bytes, failing (with a TunebookError) as soon as they run past the declared size
 * (yauzl stops inflating there), fall short of it, or end with another SHA-256 than `sha256`.
 */
async function checkedStream(zip: yauzl.ZipFile, item: Item, sha256: string, label: string): Promise<Readable> {
  const raw = await rawStream(zip, item, label);
  const hash = createHash('sha256');
  const declared = item.entry.uncompressedSize;
  let count = 0;
  const checked = new Transform({
    transform(chunk: Buffer, _enc, done) {
      count += chunk.length;
      if (count > declared) return done(tooLong(item, label));
      hash.update(chunk);
      done(null, chunk);
    },
    flush(done) {
      if (count !== declared) return done(new TunebookError('invalid', `"${label}" is damaged: the file "${shown(item.rel)}" holds ${count} bytes, not the ${declared} its zip entry declares.`));
      if (hash.digest('hex') !== sha256) return done(new TunebookError('invalid', `"${label}" is damaged: the file "${shown(item.rel)}" does not match its SHA-256 checksum.`));
      done();
    },
  });
  raw.once('error', (err) => checked.destroy(dataProblem(err, item, label)));
  // stop reading (and inflating) as soon as the consumer or a check ends the stream
  checked.once('close', () => raw.destroy());
  raw.pipe(checked);
  return checked;
}

function tooLong(item: Item, label: string): TunebookError {
  return new TunebookError('invalid', `"${label}" is damaged or malicious: the file "${shown(item.rel)}" holds more data than its zip entry declares (${item.entry.uncompressedSize} bytes).`);
}

function dataProblem(err: unknown, item: Item, label: string): TunebookError {
  if (err instanceof TunebookError) return err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/too many bytes/.test(msg)) return tooLong(item, label);
  if (/not enough bytes/.test(msg)) return new TunebookError('invalid', `"${label}" is damaged: the file "${shown(item.rel)}" holds less data than its zip entry declares.`);
  if (/unexpected EOF/.test(msg)) return new TunebookError('invalid', `"${label}" is damaged: it ends in the middle of the file "${shown(item.rel)}" (it was cut short).`);
  if (/signature/.test(msg)) return new TunebookError('invalid', `"${label}" is damaged: the zip record of "${shown(item.rel)}" is not where its directory says.`);
  return new TunebookError('invalid', `"${label}" is damaged: the file "${shown(item.rel)}" cannot be unpacked (${msg}).`);
}

/** yauzl's reasons for refusing a zip, as the end of "is not a Tunebook bundle: …". */
function zipProblem(err: unknown): string {
  const msg = err instanceof Error ? err.message : String(err);
  if (/end of central directory record signature not found/i.test(msg)) return 'it is not a zip archive, or it was cut short (its zip directory is missing).';
  if (/unexpected EOF/.test(msg)) return 'it was cut short (it ends in the middle of its zip directory).';
  if (/strong encryption/.test(msg)) return 'it is encrypted; Tunebook opens only unencrypted bundles.';
  if (/multi-disk/.test(msg)) return 'it is split over several files (a multi-part zip), which Tunebook does not open.';
  if (/size mismatch for stored file/.test(msg)) return `its zip directory contradicts itself (${msg}).`;
  return `its zip structure is damaged (${msg}).`;
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

function parseJson(buf: Buffer, name: string, fail: (what: string) => TunebookError): unknown {
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf);
  } catch {
    throw fail(`its ${name} is not UTF-8 text.`);
  }
  try {
    return JSON.parse(text);
  } catch (err) {
    throw fail(`its ${name} is not valid JSON (${err instanceof Error ? err.message : String(err)}).`);
  }
}

function bytes(n: number): string {
  return formatQuantity(n, 'B');
}
