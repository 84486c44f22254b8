import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { createWriteStream, existsSync, lstatSync, mkdirSync, readFileSync, readdirSync, statSync, symlinkSync, linkSync, truncateSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import v8 from 'node:v8';
import vm from 'node:vm';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import { pack as tarPack, type Header } from 'tar-stream';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { TunebookError } from '../../shared/api';
import type { ArchiveLimits, ExtractOptions, ExtractResult } from '../../electron/services/archive';
import { checkMemberName, extractArchive, isArchiveName, memberSkipReason, sniffArchive, zipEntryName } from '../../electron/services/archive';
import { useTempDir } from '../helpers';

const tmp = useTempDir();
const MiB = 1024 ** 2;
const GiB = 1024 ** 3;

/** A full garbage collection (gc() made reachable at run time), so a memory baseline holds no earlier test's garbage. */
async function collectGarbage(): Promise<void> {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc') as () => void;
  // twice, a moment apart: Buffers' memory is given back after the collection that finds them
  gc();
  await new Promise((resolve) => setTimeout(resolve, 50));
  gc();
}

function flip(buf: Buffer, at: number): void {
  buf.writeUInt8(buf.readUInt8(at) ^ 0x5a, at);
}

function sha256(file: string): string {
  return execFileSync('sha256sum', [file]).toString().split(' ')[0]!;
}

function run(cmd: string, args: string[], cwd: string): void {
  execFileSync(cmd, args, { cwd, stdio: 'pipe' });
}

/** A fresh, empty folder to unpack into. */
function intoDir(name = 'into'): string {
  const d = path.join(tmp(), name);
  mkdirSync(d);
  return d;
}

/** Every file under `dir` (posix names, sorted), folders left out. */
function listFiles(dir: string): string[] {
  return (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => lstatSync(path.join(dir, f)).isFile())
    .map((f) => f.split(path.sep).join('/'))
    .sort();
}

/** The error a promise rejects with (fails the test if it resolves). */
async function rejectionOf(p: Promise<unknown>): Promise<TunebookError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err, 'rejects').toBeInstanceOf(TunebookError);
  return err as TunebookError;
}

/** extractArchive must fail with `code`, leaving `into` empty; returns the message. */
async function fails(file: string, code: TunebookError['code'], opts: ExtractOptions = {}): Promise<string> {
  const into = intoDir(`into-${randomBytes(3).toString('hex')}`);
  const err = await rejectionOf(extractArchive(file, into, opts));
  expect(err.code).toBe(code);
  expect(readdirSync(into), 'nothing is left under into').toEqual([]);
  return err.message;
}

/** A source tree with nested folders, binary content, and junk that is not imported. */
function sourceTree(): { dir: string; files: Record<string, Buffer> } {
  const dir = path.join(tmp(), 'src');
  const files: Record<string, Buffer> = {
    'top.txt': Buffer.from('top line\n'),
    'run1/iostat.txt': Buffer.from('Device r/s w/s\nsda 1.0 2.0\n'),
    'run1/deep/er/vmstat.bin': randomBytes(70_000),
    'run2/empty.log': Buffer.alloc(0),
    'run2/ünïcode naïve.txt': Buffer.from('accents\n'),
  };
  for (const [name, data] of Object.entries(files)) {
    mkdirSync(path.dirname(path.join(dir, name)), { recursive: true });
    writeFileSync(path.join(dir, name), data);
  }
  writeFileSync(path.join(dir, '.DS_Store'), 'junk');
  writeFileSync(path.join(dir, 'run1', '._iostat.txt'), 'apple double');
  return { dir, files };
}

function expectExtracted(res: ExtractResult, into: string, files: Record<string, Buffer>): void {
  const want = Object.keys(files).sort();
  expect(res.files.map((f) => f.name).sort()).toEqual(want);
  expect(listFiles(into)).toEqual(want);
  for (const f of res.files) {
    expect(f.path).toBe(path.join(into, ...f.name.split('/')));
    expect(readFileSync(f.path).equals(files[f.name]!), `${f.name} is byte-identical`).toBe(true);
    expect(f.bytes).toBe(files[f.name]!.length);
  }
}

/** A tar written header by header with tar-stream (names and types no honest tool writes). */
async function packTar(file: string, members: (Partial<Header> & { name: string; data?: Buffer })[]): Promise<void> {
  const p = tarPack();
  const out = pipeline(p as unknown as NodeJS.ReadableStream, createWriteStream(file));
  for (const m of members) {
    const { data, ...header } = m;
    await new Promise<void>((resolve, reject) => {
      p.entry({ ...header, size: data?.length ?? header.size ?? 0 }, data ?? Buffer.alloc(0), (err) => (err ? reject(err) : resolve()));
    });
  }
  p.finalize();
  await out;
}

async function yazlZip(file: string, add: (z: yazl.ZipFile) => void): Promise<void> {
  const z = new yazl.ZipFile();
  add(z);
  z.end();
  await pipeline(z.outputStream, createWriteStream(file));
}

interface RawEntry {
  name: string | Buffer;
  data: Buffer;
  method?: 0 | 8;
  crc?: number;
  /** declared uncompressed size (default: the real one, for stored data) */
  size?: number;
  mode?: number;
  flags?: number;
}

/** A zip written byte by byte, so its central directory can say anything (sizes that lie, bombs). */
function rawZip(entries: RawEntry[]): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const e of entries) {
    const name = typeof e.name === 'string' ? Buffer.from(e.name) : e.name;
    const method = e.method ?? 0;
    const size = e.size ?? e.data.length;
    const crc = e.crc ?? zlib.crc32(e.data);
    const lh = Buffer.alloc(30);
    lh.writeUInt32LE(0x04034b50, 0); lh.writeUInt16LE(20, 4); lh.writeUInt16LE(e.flags ?? 0, 6); lh.writeUInt16LE(method, 8);
    lh.writeUInt16LE(0, 10); lh.writeUInt16LE(0x21, 12); lh.writeUInt32LE(crc >>> 0, 14); lh.writeUInt32LE(e.data.length, 18);
    lh.writeUInt32LE(size, 22); lh.writeUInt16LE(name.length, 26); lh.writeUInt16LE(0, 28);
    const ch = Buffer.alloc(46);
    ch.writeUInt32LE(0x02014b50, 0); ch.writeUInt16LE((3 << 8) | 20, 4); ch.writeUInt16LE(20, 6); ch.writeUInt16LE(e.flags ?? 0, 8);
    ch.writeUInt16LE(method, 10); ch.writeUInt16LE(0, 12); ch.writeUInt16LE(0x21, 14); ch.writeUInt32LE(crc >>> 0, 16);
    ch.writeUInt32LE(e.data.length, 20); ch.writeUInt32LE(size, 24); ch.writeUInt16LE(name.length, 28);
    ch.writeUInt32LE(((e.mode ?? 0o100644) << 16) >>> 0, 38); ch.writeUInt32LE(offset, 42);
    locals.push(lh, name, e.data);
    centrals.push(ch, name);
    offset += 30 + name.length + e.data.length;
  }
  const cd = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0); end.writeUInt16LE(entries.length, 8); end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(cd.length, 12); end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, cd, end]);
}

/** Raw deflate of `mib` MiB of zeros (about 1 KiB per MiB), made in milliseconds: sync-flushed blocks repeated. */
function deflatedZeros(mib: number): Buffer {
  const block = zlib.deflateRawSync(Buffer.alloc(MiB), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  return Buffer.concat([...Array.from({ length: mib }, () => block), Buffer.from([0x03, 0x00])]);
}

/** Bytes in files under `dir` now. */
function bytesUnder(dir: string): number {
  return (readdirSync(dir, { recursive: true }) as string[]).reduce((n, f) => {
    try { const st = lstatSync(path.join(dir, f)); return st.isFile() ? n + st.size : n; } catch { return n; }
  }, 0);
}

describe('recognizing archives', () => {
  it('knows archives by name and by their first bytes', async () => {
    for (const n of ['a.tar', 'a.TAR.GZ', 'x/y.tgz', 'b.Zip']) expect(isArchiveName(n), n).toBe(true);
    for (const n of ['a.gz', 'a.tar.bz2', 'tar', 'a.zip.txt', 'zip']) expect(isArchiveName(n), n).toBe(false);
    expect(sniffArchive(Buffer.from('PK\u0003\u0004rest'))).toBe('zip');
    expect(sniffArchive(Buffer.from([0x1f, 0x8b, 8, 0]))).toBe('tar.gz');
    const tarHead = Buffer.alloc(512);
    tarHead.write('ustar', 257);
    expect(sniffArchive(tarHead)).toBe('tar');
    expect(sniffArchive(Buffer.from('Device r/s w/s\n'))).toBeNull();

    // a tar.gz named .zip is read as what it is
    const { dir, files } = sourceTree();
    const file = path.join(tmp(), 'misnamed.zip');
    run('tar', ['-czf', file, '-C', dir, '.'], dir);
    const into = intoDir();
    const res = await extractArchive(file, into);
    expect(res.kind).toBe('tar.gz');
    expectExtracted(res, into, files);
  });

  it('checks names: normalized, or refused when they leave the archive', () => {
    expect(checkMemberName('./run1//a.txt')).toEqual({ ok: true, name: 'run1/a.txt', segments: ['run1', 'a.txt'] });
    expect(checkMemberName('run1\\sub\\a.txt')).toMatchObject({ ok: true, name: 'run1/sub/a.txt' });
    expect(checkMemberName('./')).toMatchObject({ ok: true, name: '' });
    for (const bad of ['../evil', '/etc/x', 'a/../../b', 'a/..', '..\\evil', 'C:/x', 'c:x', '\\\\server\\share\\x', 'a\u0000b', 'a\nb']) {
      expect(checkMemberName(bad), bad).toMatchObject({ ok: false });
    }
    expect(checkMemberName(`${'d/'.repeat(40)}f`)).toMatchObject({ ok: false, refuse: expect.stringContaining('folders deep') });
    expect(checkMemberName('x'.repeat(300))).toMatchObject({ ok: false });
    expect(checkMemberName(`${'abcdefgh/'.repeat(120)}f`)).toMatchObject({ ok: false, refuse: expect.stringContaining('longer than') });
  });

  it('skips hidden files and macOS metadata everywhere, and names Windows cannot store on Windows', () => {
    expect(memberSkipReason(['__MACOSX', 'run1', '._a.txt'], 'linux')?.kind).toBe('hidden');
    expect(memberSkipReason(['run1', '.DS_Store'], 'darwin')?.kind).toBe('hidden');
    expect(memberSkipReason(['.git', 'config'], 'linux')?.kind).toBe('hidden');
    expect(memberSkipReason(['run1', 'iostat 12:00.txt'], 'linux')).toBeNull();
    expect(memberSkipReason(['run1', 'iostat 12:00.txt'], 'win32')?.kind).toBe('name');
    expect(memberSkipReason(['aux.txt'], 'win32')?.kind).toBe('name');
    expect(memberSkipReason(['trailing.'], 'win32')?.kind).toBe('name');
    expect(memberSkipReason(['auxiliary.txt'], 'win32')).toBeNull();
  });

  it('decodes zip names: UTF-8 flagged or not, CP437 otherwise, the Unicode Path field when it matches', () => {
    expect(zipEntryName(Buffer.from('naïve/é.txt'), 0)).toBe('naïve/é.txt');
    expect(zipEntryName(Buffer.from([0x80, 0x81, 0xe1, 0xff]), 0)).toBe('Çüß\u00a0');
    const raw = Buffer.from([0x63, 0x61, 0x66, 0x82]); // "café" in CP437
    const up = Buffer.concat([Buffer.from([1]), Buffer.alloc(4), Buffer.from('café-unicode')]);
    up.writeUInt32LE(zlib.crc32(raw), 1);
    expect(zipEntryName(raw, 0, [{ id: 0x7075, data: up }])).toBe('café-unicode');
    up.writeUInt32LE(0, 1); // stale: the field belongs to another name
    expect(zipEntryName(raw, 0, [{ id: 0x7075, data: up }])).toBe('café');
  });
});

describe('extracting good archives', () => {
  it.each([
    ['tar', 'good.tar', ['-cf']],
    ['tar.gz', 'good.tar.gz', ['-czf']],
    ['tgz', 'good.TGZ', ['-czf']],
  ])('a %s made by tar: every file byte-identical, names with their folders, junk skipped', async (_k, fileName, flags) => {
    const { dir, files } = sourceTree();
    const file = path.join(tmp(), fileName);
    run('tar', [...flags, file, '-C', dir, '.'], dir);
    const into = intoDir();
    const progress: [number, number][] = [];
    const res = await extractArchive(file, into, { onProgress: (r, t) => progress.push([r, t]) });
    expectExtracted(res, into, files);
    expect(res.skipped.map((s) => [s.name, s.kind]).sort()).toEqual([['.DS_Store', 'hidden'], ['run1/._iostat.txt', 'hidden']]);
    const size = statSync(file).size;
    expect(progress.at(-1)).toEqual([size, size]);
  });

  it('a zip made by zip, and one made by yazl with __MACOSX and folder entries', async () => {
    const { dir, files } = sourceTree();
    const file = path.join(tmp(), 'good.zip');
    run('zip', ['-qr', file, '.'], dir);
    const into = intoDir();
    const res = await extractArchive(file, into);
    expect(res.kind).toBe('zip');
    expectExtracted(res, into, files);

    const file2 = path.join(tmp(), 'yazl.zip');
    await yazlZip(file2, (z) => {
      z.addEmptyDirectory('run1/');
      for (const [name, data] of Object.entries(files)) z.addBuffer(data, name, { compress: name !== 'top.txt' });
      z.addBuffer(Buffer.from('resource fork'), '__MACOSX/run1/._iostat.txt');
    });
    const into2 = intoDir('into2');
    const res2 = await extractArchive(file2, into2, { label: 'dropped.zip' });
    expectExtracted(res2, into2, files);
    expect(res2.skipped).toEqual([{ name: '__MACOSX/run1/._iostat.txt', kind: 'hidden', reason: expect.stringContaining('macOS') }]);
  });

  it('keeps archives inside as files, and skips a second member of a name already written', async () => {
    const inner = Buffer.from(zlib.gzipSync(Buffer.from('inner')));
    const file = path.join(tmp(), 'nested.tar');
    await packTar(file, [
      { name: 'logs/inner.tar.gz', data: inner },
      { name: 'a', data: Buffer.from('file a') },
      { name: 'a/b', data: Buffer.from('under a file') },
      { name: 'logs/inner.tar.gz', data: Buffer.from('again') },
    ]);
    const into = intoDir();
    const res = await extractArchive(file, into);
    expect(res.files.map((f) => f.name)).toEqual(['logs/inner.tar.gz', 'a']);
    expect(readFileSync(path.join(into, 'logs', 'inner.tar.gz')).equals(inner)).toBe(true);
    expect(res.skipped.map((s) => [s.name, s.kind])).toEqual([['a/b', 'conflict'], ['logs/inner.tar.gz', 'conflict']]);
    expect(readFileSync(path.join(into, 'a'), 'utf8')).toBe('file a');
  });
});

describe('no path leaves the archive', () => {
  it.each(['../evil', '/etc/x', 'a/../../b', 'ok/..\\..\\evil', 'C:\\evil'])('a tar member named %s refuses the archive, and what came before is removed', async (bad) => {
    const file = path.join(tmp(), 'evil.tar');
    await packTar(file, [{ name: 'fine.txt', data: Buffer.from('fine') }, { name: bad, data: Buffer.from('pwned') }]);
    const msg = await fails(file, 'refused');
    expect(msg).toContain('"evil.tar"');
    expect(msg).toContain(`"${bad}"`);
    expect(msg).toMatch(/outside the archive/);
    expect(existsSync(path.join(tmp(), 'evil')), 'nothing written beside the folder').toBe(false);
    expect(existsSync(path.join(tmp(), 'b'))).toBe(false);
  });

  it('GNU tar -P with an absolute and a ../ name is refused', async () => {
    const src = path.join(tmp(), 'abs.txt');
    writeFileSync(src, 'x');
    const file = path.join(tmp(), 'abs.tar');
    run('tar', ['-P', '-cf', file, src], tmp());
    expect(await fails(file, 'refused')).toMatch(/absolute path/);
    const file2 = path.join(tmp(), 'dotdot.tar');
    run('tar', ['-P', '--transform', 's,^,../,', '-cf', file2, 'abs.txt'], tmp());
    expect(await fails(file2, 'refused')).toMatch(/"\.\.\/abs\.txt" has "\.\."/);
  });

  it.each(['../evil', '/etc/x', 'a/../../b', '..\\evil', 'C:/evil'])('a zip member named %s (written by python) refuses the archive', async (bad) => {
    const file = path.join(tmp(), 'evil.zip');
    run('python3', ['-c', 'import sys, zipfile\nwith zipfile.ZipFile(sys.argv[1], "w") as z:\n  z.writestr("fine.txt", "fine")\n  z.writestr(zipfile.ZipInfo(sys.argv[2]), "pwned")', file, bad], tmp());
    const msg = await fails(file, 'refused');
    expect(msg).toMatch(/outside the archive/);
    expect(existsSync(path.join(tmp(), 'evil'))).toBe(false);
  });

  it('symbolic and hard links made by tar are skipped, never created; their targets stay files', async () => {
    const dir = path.join(tmp(), 'links');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'AAA');
    symlinkSync('/etc/passwd', path.join(dir, 'passwd'));
    symlinkSync('a.txt', path.join(dir, 'rel'));
    linkSync(path.join(dir, 'a.txt'), path.join(dir, 'hard.txt'));
    const file = path.join(tmp(), 'links.tar');
    run('tar', ['-cf', file, '-C', dir, 'a.txt', 'passwd', 'rel', 'hard.txt'], dir);
    const into = intoDir();
    const res = await extractArchive(file, into);
    expect(res.files.map((f) => f.name)).toEqual(['a.txt']);
    expect(res.skipped.map((s) => [s.name, s.kind]).sort()).toEqual([['hard.txt', 'link'], ['passwd', 'link'], ['rel', 'link']]);
    expect(res.skipped.find((s) => s.name === 'passwd')!.reason).toContain('/etc/passwd');
    expect(readdirSync(into).sort()).toEqual(['a.txt']);
  });

  it('a file written "through" a symbolic link member lands inside, as a plain file', async () => {
    const outside = path.join(tmp(), 'outside');
    mkdirSync(outside);
    const file = path.join(tmp(), 'through.tar');
    await packTar(file, [
      { name: 'dir', type: 'symlink', linkname: outside },
      { name: 'dir/pwned.txt', data: Buffer.from('pwned') },
      { name: 'up', type: 'symlink', linkname: '..' },
      { name: 'up/pwned2.txt', data: Buffer.from('pwned') },
    ]);
    const into = intoDir();
    const res = await extractArchive(file, into);
    expect(readdirSync(outside)).toEqual([]);
    expect(existsSync(path.join(tmp(), 'pwned2.txt'))).toBe(false);
    expect(res.files.map((f) => f.name)).toEqual(['dir/pwned.txt', 'up/pwned2.txt']);
    expect(lstatSync(path.join(into, 'dir')).isDirectory()).toBe(true);
    expect(lstatSync(path.join(into, 'up')).isDirectory()).toBe(true);
  });

  it('devices and pipes in a tar, and symbolic links in a zip, are skipped', async () => {
    const file = path.join(tmp(), 'special.tar');
    await packTar(file, [
      { name: 'null', type: 'character-device', devmajor: 1, devminor: 3 },
      { name: 'sda', type: 'block-device', devmajor: 8, devminor: 0 },
      { name: 'pipe', type: 'fifo' },
      { name: 'ok.txt', data: Buffer.from('ok') },
    ]);
    const into = intoDir();
    const res = await extractArchive(file, into);
    expect(res.files.map((f) => f.name)).toEqual(['ok.txt']);
    expect(res.skipped.map((s) => s.kind)).toEqual(['special', 'special', 'special']);
    expect(readdirSync(into)).toEqual(['ok.txt']);

    const dir = path.join(tmp(), 'zl');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'real.txt'), 'real');
    symlinkSync('/etc/passwd', path.join(dir, 'link'));
    const zfile = path.join(tmp(), 'links.zip');
    run('zip', ['-qy', zfile, 'real.txt', 'link'], dir);
    const into2 = intoDir('into2');
    const res2 = await extractArchive(zfile, into2);
    expect(res2.files.map((f) => f.name)).toEqual(['real.txt']);
    expect(res2.skipped).toEqual([expect.objectContaining({ name: 'link', kind: 'link' })]);
    expect(readdirSync(into2)).toEqual(['real.txt']);
  });
});

describe('limits', () => {
  it('a zip bomb that says what it is (1 GiB of zeros in 1 MB) is refused before anything is written', async () => {
    const file = path.join(tmp(), 'bomb.zip');
    writeFileSync(file, rawZip([{ name: 'readme.txt', data: Buffer.from('hi') }, { name: 'zeros.bin', data: deflatedZeros(1024), method: 8, size: GiB, crc: 0 }]));
    const into = intoDir();
    let progressed = 0;
    const err = await rejectionOf(extractArchive(file, into, { onProgress: (r) => { progressed = Math.max(progressed, r); } }));
    expect(err.code).toBe('refused');
    expect(err.message).toContain('"zeros.bin"');
    expect(err.message).toMatch(/decompression bomb/);
    expect(progressed, 'not a byte of data was read').toBe(0);
    expect(readdirSync(into)).toEqual([]);
  });

  it('a zip bomb whose header lies is stopped by the bytes actually inflated, having written little', async () => {
    const file = path.join(tmp(), 'liar.zip');
    // declares 150 MiB from 1 MB (150:1, under the limit), holds 1 GiB
    writeFileSync(file, rawZip([{ name: 'zeros.bin', data: deflatedZeros(1024), method: 8, size: 150 * MiB, crc: 0 }]));
    const into = intoDir();
    let written = 0;
    const t = Date.now();
    const err = await rejectionOf(extractArchive(file, into, { onProgress: () => { written = Math.max(written, bytesUnder(into)); } }));
    expect(err.code).toBe('refused');
    expect(err.message).toMatch(/"zeros.bin" unpacks to more than 200 times/);
    expect(written, 'stopped within a few MiB').toBeLessThan(32 * MiB);
    expect(Date.now() - t).toBeLessThan(10_000);
    expect(readdirSync(into)).toEqual([]);
  });

  it('a zip member with more data than it declares is refused as damaged', async () => {
    const file = path.join(tmp(), 'more.zip');
    writeFileSync(file, rawZip([{ name: 'zeros.bin', data: deflatedZeros(4), method: 8, size: MiB, crc: 0 }]));
    expect(await fails(file, 'invalid')).toMatch(/"zeros.bin" holds more data than its zip entry declares/);
  });

  it('a .tar.gz bomb is stopped by the ratio of the whole stream', async () => {
    const dir = path.join(tmp(), 'z');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'a');
    truncateSync(path.join(dir, 'a.txt'), 0);
    writeFileSync(path.join(dir, 'zeros.bin'), Buffer.alloc(64 * MiB));
    const file = path.join(tmp(), 'bomb.tgz');
    run('tar', ['-czf', file, '-C', dir, 'a.txt', 'zeros.bin'], dir);
    expect(await fails(file, 'refused')).toMatch(/"bomb.tgz" was not imported: it unpacks to more than 200 times its compressed size/);
  });

  it('too many members: a zip is refused from its directory, a tar as it is read', async () => {
    const file = path.join(tmp(), 'many.zip');
    await yazlZip(file, (z) => { for (let i = 0; i <= 10_000; i++) z.addBuffer(Buffer.alloc(0), `f/${i}.txt`, { compress: false }); });
    expect(await fails(file, 'refused')).toMatch(/10,001 members, more than the 10,000/);

    const dir = path.join(tmp(), 'many');
    mkdirSync(dir);
    for (let i = 0; i < 30; i++) writeFileSync(path.join(dir, `${i}.txt`), String(i));
    const tfile = path.join(tmp(), 'many.tar');
    run('tar', ['-cf', tfile, '-C', dir, '.'], dir);
    expect(await fails(tfile, 'refused', { limits: { maxMembers: 20 } })).toMatch(/more than 20 members/);
  });

  it('a member, or all members, larger than allowed; more than the disk can spare', async () => {
    const { dir } = sourceTree();
    writeFileSync(path.join(dir, 'big.bin'), randomBytes(3 * MiB));
    const file = path.join(tmp(), 'big.tar.gz');
    run('tar', ['-czf', file, '-C', dir, '.'], dir);
    const limits = (l: Partial<ArchiveLimits>): ExtractOptions => ({ limits: l });
    expect(await fails(file, 'refused', limits({ maxMemberBytes: 2 * MiB }))).toMatch(/the member "big.bin" unpacks to more than 2 MiB, the most Tunebook accepts for one file/);
    expect(await fails(file, 'refused', limits({ maxTotalBytes: 3 * MiB }))).toMatch(/its files unpack to more than 3 MiB/);
    expect(await fails(file, 'refused', limits({ minFreeBytes: Number.MAX_SAFE_INTEGER }))).toMatch(/the disk can spare/);

    const zfile = path.join(tmp(), 'big.zip');
    run('zip', ['-qr', zfile, '.'], dir);
    expect(await fails(zfile, 'refused', limits({ maxMemberBytes: 2 * MiB }))).toMatch(/"big.bin" unpacks to more than 2 MiB/);
    expect(await fails(zfile, 'refused', limits({ maxTotalBytes: 3 * MiB }))).toMatch(/its files unpack to more than 3 MiB/);
  });

  it.each([
    ['tar.gz', ['sh', '-c', 'tar -cf - huge.bin | gzip -1 > "$0"']],
    ['zip', ['zip', '-q1']],
  ])('a 200 MB member of a %s streams to disk with little memory', async (ext, cmd) => {
    const dir = path.join(tmp(), 'huge');
    mkdirSync(dir);
    const big = path.join(dir, 'huge.bin');
    // a random start, then zeros (quick to pack; the ratio limit is raised for them)
    writeFileSync(big, randomBytes(MiB));
    truncateSync(big, 200 * MiB);
    const file = path.join(tmp(), `huge.${ext}`);
    run(cmd[0]!, [...cmd.slice(1), file, ...(ext === 'zip' ? ['huge.bin'] : [])], dir);
    const into = intoDir();
    // rss stays high after an earlier test freed memory; what JS and Buffers hold right now does not
    const used = (): number => { const m = process.memoryUsage(); return m.heapUsed + m.external; };
    await collectGarbage();
    const before = used();
    let peak = before;
    const sample = (): void => { peak = Math.max(peak, used()); };
    const sampler = setInterval(sample, 5);
    const res = await extractArchive(file, into, { limits: { maxRatio: 10_000 }, onProgress: sample }).finally(() => clearInterval(sampler));
    sample();
    expect(res.files).toEqual([{ path: path.join(into, 'huge.bin'), name: 'huge.bin', bytes: 200 * MiB }]);
    expect(sha256(path.join(into, 'huge.bin'))).toBe(sha256(big));
    expect(peak - before, 'memory growth well under the member size').toBeLessThan(100 * MiB);
  }, 60_000);
});

describe('damaged archives are refused with nothing stored', () => {
  it('a truncated .tar.gz, and a truncated tar', async () => {
    const { dir } = sourceTree();
    writeFileSync(path.join(dir, 'rand.bin'), randomBytes(MiB));
    const file = path.join(tmp(), 'cut.tar.gz');
    run('tar', ['-czf', file, '-C', dir, '.'], dir);
    truncateSync(file, Math.floor(statSync(file).size / 2));
    expect(await fails(file, 'invalid')).toMatch(/^"cut.tar.gz" is not a readable \.tar\.gz archive: it was cut short/);

    const tfile = path.join(tmp(), 'cut.tar');
    run('tar', ['-cf', tfile, '-C', dir, 'rand.bin', 'top.txt'], dir);
    truncateSync(tfile, 512 + 300_000);
    expect(await fails(tfile, 'invalid')).toMatch(/^"cut.tar" is not a readable \.tar archive: it was cut short/);
  });

  it('a tar with a damaged header', async () => {
    const { dir } = sourceTree();
    const file = path.join(tmp(), 'bad.tar');
    run('tar', ['-cf', file, '-C', dir, 'top.txt', 'run1'], dir);
    const buf = readFileSync(file);
    flip(buf, 1024 + 10); // the second header's name
    writeFileSync(file, buf);
    expect(await fails(file, 'invalid')).toMatch(/a tar header is damaged/);
  });

  it('a zip whose data is corrupt (CRC-32 or deflate error), and one cut short', async () => {
    const dir = path.join(tmp(), 'zsrc');
    mkdirSync(dir);
    writeFileSync(path.join(dir, 'a.txt'), 'first file\n');
    writeFileSync(path.join(dir, 'log.txt'), Array.from({ length: 20_000 }, (_, i) => `line ${i} ${i * i}\n`).join(''));
    const file = path.join(tmp(), 'corrupt.zip');
    run('zip', ['-q', file, 'a.txt', 'log.txt'], dir);
    const buf = readFileSync(file);
    const at = buf.indexOf('log.txt') + 'log.txt'.length + 2000;
    for (let i = 0; i < 16; i++) flip(buf, at + i);
    writeFileSync(file, buf);
    expect(await fails(file, 'invalid')).toMatch(/^"corrupt.zip" is not a readable \.zip archive: the member "log.txt" (does not match its CRC-32|cannot be unpacked|holds)/);

    const stored = path.join(tmp(), 'crc.zip');
    writeFileSync(stored, rawZip([{ name: 'a.txt', data: Buffer.from('hello'), crc: 12345 }]));
    expect(await fails(stored, 'invalid')).toMatch(/"a.txt" does not match its CRC-32/);

    const cut = path.join(tmp(), 'cut.zip');
    run('zip', ['-q', cut, 'a.txt', 'log.txt'], dir);
    truncateSync(cut, statSync(cut).size - 40);
    expect(await fails(cut, 'invalid')).toMatch(/not a zip archive, or it was cut short/);
  });

  it('files that are not archives', async () => {
    const text = path.join(tmp(), 'notes.zip');
    writeFileSync(text, 'Device r/s w/s\nsda 1 2\n'.repeat(100));
    expect(await fails(text, 'invalid')).toMatch(/^"notes.zip" is not a readable \.zip archive: it is not a zip archive/);
    const t2 = path.join(tmp(), 'notes.tar');
    writeFileSync(t2, 'Device r/s w/s\nsda 1 2\n'.repeat(100));
    expect(await fails(t2, 'invalid')).toMatch(/^"notes.tar" is not a readable \.tar archive: it is not a tar archive/);
    const t3 = path.join(tmp(), 'notes.tgz');
    writeFileSync(t3, 'Device r/s w/s\nsda 1 2\n'.repeat(100));
    expect(await fails(t3, 'invalid')).toMatch(/^"notes.tgz" is not a readable \.tar\.gz archive: it is not gzip-compressed/);
    const t4 = path.join(tmp(), 'log.tgz');
    writeFileSync(t4, zlib.gzipSync(Buffer.from('Device r/s w/s\nsda 1 2\n'.repeat(100))));
    expect(await fails(t4, 'invalid')).toMatch(/gzip-compressed, but what it holds is not a tar archive/);
    const t5 = path.join(tmp(), 'notes.txt');
    writeFileSync(t5, 'hello');
    expect(await fails(t5, 'invalid')).toMatch(/not an archive Tunebook reads/);
  });

  it('a cancelled read stops and leaves nothing', async () => {
    const { dir } = sourceTree();
    writeFileSync(path.join(dir, 'rand.bin'), randomBytes(8 * MiB));
    const file = path.join(tmp(), 'cancel.tar');
    run('tar', ['-cf', file, '-C', dir, '.'], dir);
    const ac = new AbortController();
    let calls = 0;
    const msg = await fails(file, 'cancelled', { signal: ac.signal, onProgress: () => { if (++calls === 2) ac.abort(); } });
    expect(msg).toContain('"cancel.tar"');
    const zfile = path.join(tmp(), 'cancel.zip');
    run('zip', ['-qr0', zfile, '.'], dir);
    const ac2 = new AbortController();
    let calls2 = 0;
    await fails(zfile, 'cancelled', { signal: ac2.signal, onProgress: () => { if (++calls2 === 2) ac2.abort(); } });
  });
});
