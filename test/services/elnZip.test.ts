import { execFileSync } from 'node:child_process';
import { createHash, randomBytes } from 'node:crypto';
import { createReadStream, mkdirSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import yazl from 'yazl';
import { TunebookError } from '../../shared/api';
import type { BundleJson } from '../../shared/bundle/format';
import { BUNDLE_FORMAT, BUNDLE_JSON_PATH, BUNDLE_VERSION } from '../../shared/bundle/format';
import type { CrateFile } from '../../shared/bundle/roCrate';
import { RO_CRATE_CONTEXT, RO_CRATE_SPEC, buildRoCrate } from '../../shared/bundle/roCrate';
import type { ArchiveEntry, ArchiveLimits } from '../../electron/services/bundle/elnZip';
import { openArchive, writeArchive } from '../../electron/services/bundle/elnZip';
import { useTempDir } from '../helpers';

const tmp = useTempDir();
const sha = (data: Buffer | string): string => createHash('sha256').update(data).digest('hex');
const MiB = 1024 ** 2;

async function readStream(s: NodeJS.ReadableStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of s) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}

/** The error a promise rejects with (fails the test if it resolves). */
async function rejectionOf(p: Promise<unknown>): Promise<TunebookError> {
  const err = await p.then(() => null, (e: unknown) => e);
  expect(err, 'rejects').toBeInstanceOf(TunebookError);
  return err as TunebookError;
}

/** openArchive must refuse `file` as invalid, naming the file. */
async function refused(file: string, limits?: Partial<ArchiveLimits>): Promise<string> {
  const err = await rejectionOf(openArchive(file, limits).then(async (a) => { await a.close(); }));
  expect(err.code).toBe('invalid');
  expect(err.message).toContain(`"${path.basename(file)}" is`);
  return err.message;
}

/** A minimal RO-Crate listing `files` (path → bytes, or a stated sha256/size). */
function crate(files: Record<string, Buffer | { sha256: string; size?: number }>): object {
  return {
    '@context': RO_CRATE_CONTEXT,
    '@graph': [
      { '@id': 'ro-crate-metadata.json', '@type': 'CreativeWork', about: { '@id': './' }, conformsTo: { '@id': RO_CRATE_SPEC } },
      { '@id': './', '@type': 'Dataset', name: 'x', hasPart: Object.keys(files).map((p) => ({ '@id': `./${p}` })) },
      ...Object.entries(files).map(([p, v]) => ({
        '@id': `./${p}`, '@type': 'File', name: path.posix.basename(p),
        sha256: Buffer.isBuffer(v) ? sha(v) : v.sha256,
        ...(Buffer.isBuffer(v) ? { contentSize: String(v.length) } : v.size !== undefined ? { contentSize: String(v.size) } : {}),
      })),
    ],
  };
}

const bufferEntries = (files: Record<string, Buffer>): ArchiveEntry[] =>
  Object.entries(files).map(([p, data]) => ({ path: p, size: data.length, source: () => data }));

/** A zip written by Python's zipfile; entries are names with data (base64), optional unix mode. */
function pyZip(out: string, entries: { name: string; data?: Buffer | string; mode?: number }[]): string {
  const spec = entries.map((e) => ({ name: e.name, data: Buffer.from(e.data ?? '').toString('base64'), mode: e.mode }));
  execFileSync('python3', ['-W', 'ignore', '-c', `
import sys, json, base64, zipfile
out, spec = sys.argv[1], json.loads(sys.argv[2])
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    for e in spec:
        info = zipfile.ZipInfo(e['name'], date_time=(2026, 11, 29, 12, 0, 0))
        info.compress_type = zipfile.ZIP_DEFLATED
        if e.get('mode') is not None:
            info.create_system = 3
            info.external_attr = e['mode'] << 16
        z.writestr(info, base64.b64decode(e['data']))
`, out, JSON.stringify(spec)]);
  return out;
}

/**
 * A zip holding `metadata` and `name` = `mib` MiB of zeros, written by Python's zipfile. zlib would
 * take seconds to deflate a GiB, so each MiB is given the same full-flushed deflate block (a valid
 * stream: a full flush resets the dictionary); zipfile still writes honest sizes and CRC-32. With
 * `lie`, the entry's declared size (local header and central directory) is then patched to `lie`.
 */
function zerosZip(out: string, metadata: object | null, name: string, mib: number, lie?: number): string {
  execFileSync('python3', ['-c', `
import sys, json, struct, zipfile, zlib
out, meta, name, mib, lie = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4]), int(sys.argv[5])
c = zlib.compressobj(9, zlib.DEFLATED, -15)
piece = c.compress(bytes(1 << 20)) + c.flush(zlib.Z_FULL_FLUSH)
class Precomputed:
    def compress(self, data):
        assert len(data) == 1 << 20
        return piece
    def flush(self):
        return zlib.compressobj(9, zlib.DEFLATED, -15).flush()
real = zipfile._get_compressor
with zipfile.ZipFile(out, 'w', zipfile.ZIP_DEFLATED) as z:
    if meta != 'null':
        z.writestr('bundle/ro-crate-metadata.json', meta)
    zipfile._get_compressor = lambda *a, **k: Precomputed()
    with z.open(name, 'w') as f:
        chunk = bytes(1 << 20)
        for _ in range(mib):
            f.write(chunk)
    zipfile._get_compressor = real
if lie >= 0:
    data = bytearray(open(out, 'rb').read())
    cd_size, cd_offset = struct.unpack_from('<II', data, len(data) - 22 + 12)
    p = cd_offset
    while p < cd_offset + cd_size:
        n, m, k = struct.unpack_from('<HHH', data, p + 28)
        if data[p + 46:p + 46 + n].decode() == name:
            struct.pack_into('<I', data, p + 24, lie)
            local = struct.unpack_from('<I', data, p + 42)[0]
            struct.pack_into('<I', data, local + 22, lie)
        p += 46 + n + m + k
    open(out, 'wb').write(bytes(data))
`, out, JSON.stringify(metadata), name, String(mib), String(lie ?? -1)]);
  return out;
}

/** A zip written by yazl into memory, with `patches` applied to its bytes (to craft names yazl refuses). */
async function yazlZip(out: string, entries: { name: string; data: Buffer }[], patches: [string, string][] = []): Promise<string> {
  const zip = new yazl.ZipFile();
  for (const e of entries) zip.addBuffer(e.data, e.name, { mtime: new Date('2026-11-29T12:00:00Z') });
  zip.end();
  let bytes = await readStream(zip.outputStream);
  for (const [from, to] of patches) {
    expect(Buffer.byteLength(from)).toBe(Buffer.byteLength(to));
    let at = bytes.indexOf(from);
    expect(at).toBeGreaterThanOrEqual(0);
    bytes = Buffer.from(bytes);
    for (; at >= 0; at = bytes.indexOf(from, at + 1)) bytes.write(to, at, 'latin1');
  }
  writeFileSync(out, bytes);
  return out;
}

function sampleBundle(files: CrateFile[]): BundleJson {
  const capture = (f: CrateFile) => ({ sha256: f.sha256, path: f.path, size: f.size, lines: 0, forcedKind: null, kind: 'text', encodingFormat: f.encodingFormat });
  const captures = files.filter((f) => f.path !== BUNDLE_JSON_PATH);
  return {
    format: BUNDLE_FORMAT, version: BUNDLE_VERSION, exportedAt: '2026-11-29T12:00:00.000Z', app: { name: 'Tunebook', version: '0.1.0' },
    profiles: [],
    studies: [{
      uid: 's-1', title: 'Disk tuning', goal: 'More IOPS', requirements: [], view: {}, createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z',
      experiments: [
        {
          uid: 'e-1', title: 'fio baseline', date: '2026-11-01', notes: '', status: 'kept', profile: null, configChanges: [],
          metrics: [{ name: 'iops', value: 2197, unit: '1/s', better: 'higher', primary: true, source: null }],
          captures: captures.map((f) => ({ sha256: f.sha256, name: f.name, note: '', addedAt: '2026-11-01T00:00:00.000Z' })),
          createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z', folder: 'disk/01-baseline/',
        },
        {
          uid: 'e-2', title: 'planned: noop scheduler', date: '2026-11-02', notes: 'next', status: 'planned', profile: null, configChanges: [],
          metrics: [], captures: [], createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z', folder: 'disk/02-noop/',
        },
      ],
    }],
    captures: captures.map(capture),
  };
}

/**
 * A real bundle: a 3 MiB incompressible capture read from disk, a compressible one, an empty one
 * and bundle.json, with the crate buildRoCrate makes of them.
 */
async function writeSample(dir: string): Promise<{ file: string; contents: Map<string, Buffer>; metadata: object; bundle: BundleJson; bytes: number }> {
  const big = randomBytes(3 * MiB + 17);
  const bigOnDisk = path.join(dir, 'fio-source.bin');
  writeFileSync(bigOnDisk, big);
  const contents = new Map<string, Buffer>([
    ['disk/01-baseline/fio-randwrite.txt', big],
    ['disk/01-baseline/iostat-x-1.txt', Buffer.from('Device r/s w/s rkB/s wkB/s\nvda 0.00 2197.00 0.00 8788.00\n'.repeat(4000))],
    ['disk/01-baseline/empty.txt', Buffer.alloc(0)],
  ]);
  const files: CrateFile[] = [...contents].map(([p, data]) => ({ path: p, size: data.length, sha256: sha(data), encodingFormat: 'text/plain', name: path.posix.basename(p) }));
  const bundleWithoutSelf = sampleBundle(files);
  const bundleJson = Buffer.from(JSON.stringify(bundleWithoutSelf));
  contents.set(BUNDLE_JSON_PATH, bundleJson);
  files.push({ path: BUNDLE_JSON_PATH, size: bundleJson.length, sha256: sha(bundleJson), encodingFormat: 'application/json', name: 'bundle.json' });
  const metadata = buildRoCrate(bundleWithoutSelf, files);
  const entries: ArchiveEntry[] = files.map((f) => ({
    path: f.path,
    size: f.size,
    source: f.path.endsWith('fio-randwrite.txt') ? () => createReadStream(bigOnDisk) : () => contents.get(f.path)!,
  }));
  const file = path.join(dir, 'disk-tuning.eln');
  const { bytes } = await writeArchive(file, 'disk-tuning', entries, metadata, { compress: (p) => !p.endsWith('.bin') });
  return { file, contents, metadata, bundle: bundleWithoutSelf, bytes };
}

describe('writeArchive and openArchive: round trip', () => {
  it('writes a .eln that zip tools accept and reads every byte back identical', async () => {
    const dir = tmp();
    const progress: [number, number][] = [];
    const { file, contents, metadata, bundle } = await writeSample(dir);
    // the writer again, watching progress this time
    const again = path.join(dir, 'again.eln');
    const entries: ArchiveEntry[] = [...contents].map(([p, data]) => ({ path: p, size: data.length, source: () => Readable.from([data]) }));
    const { bytes } = await writeArchive(again, 'again', entries, metadata, { onProgress: (d, t) => progress.push([d, t]) });
    const total = [...contents.values()].reduce((n, b) => n + b.length, 0);
    expect(progress.at(-1)).toEqual([total, total]);
    expect(progress.every(([d], i) => i === 0 || d >= progress[i - 1]![0])).toBe(true);
    expect(bytes).toBe(readFileSync(again).length);

    // Info-ZIP and Python read it, CRCs included
    execFileSync('unzip', ['-tq', file]);
    execFileSync('python3', ['-c', 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); assert z.testzip() is None', file]);
    const names = execFileSync('unzip', ['-Z1', file], { encoding: 'utf8' }).trim().split('\n');
    expect(names).toEqual(expect.arrayContaining([
      'disk-tuning/', 'disk-tuning/ro-crate-metadata.json', 'disk-tuning/tunebook/bundle.json',
      'disk-tuning/disk/', 'disk-tuning/disk/01-baseline/', 'disk-tuning/disk/01-baseline/empty.txt',
      // an experiment without files still has its folder: RO-Crate wants every Dataset in the payload
      'disk-tuning/disk/02-noop/',
    ]));
    expect(names.every((n) => n.startsWith('disk-tuning/'))).toBe(true);

    const archive = await openArchive(file);
    try {
      expect(archive.root).toBe('disk-tuning');
      expect(archive.metadata).toEqual(metadata);
      expect([...archive.files.keys()].sort()).toEqual([...contents.keys()].sort());
      for (const [p, data] of contents) expect(archive.files.get(p)).toEqual({ size: data.length, sha256: sha(data) });
      const seen: number[] = [];
      await archive.verify((d, t) => { seen.push(d); expect(t).toBe(total); });
      expect(seen.at(-1)).toBe(total);
      for (const [p, data] of contents) {
        const back = await readStream(await archive.open(p));
        expect(back.length).toBe(data.length);
        expect(back.equals(data)).toBe(true);
      }
      expect(await archive.readJson(BUNDLE_JSON_PATH)).toEqual(bundle);
      expect(await archive.readJson('ro-crate-metadata.json')).toEqual(metadata);
      expect((await rejectionOf(archive.open('disk/nope.txt'))).code).toBe('not-found');
    } finally {
      await archive.close();
    }
    // no temporary file left beside the outputs
    expect(readdirSync(dir).filter((n) => n.endsWith('.part'))).toEqual([]);
  });

  it('leaves nothing behind when cancelled, when a source fails or when a file changes size', async () => {
    const dir = tmp();
    const big = randomBytes(4 * MiB);
    const out = path.join(dir, 'x.eln');
    const meta = crate({ 'a.bin': big, 'b.txt': Buffer.from('b') });
    const abort = new AbortController();
    const cancelled = await rejectionOf(writeArchive(out, 'x', bufferEntries({ 'a.bin': big, 'b.txt': Buffer.from('b') }), meta, {
      signal: abort.signal, onProgress: () => abort.abort(),
    }));
    expect(cancelled.code).toBe('cancelled');

    const failing = await writeArchive(out, 'x', [{
      path: 'a.bin', size: 10, source: () => new Readable({ read() { this.destroy(new Error('disk read error')); } }),
    }], meta).then(() => null, (e: unknown) => e as Error);
    expect(failing?.message).toBe('disk read error');
    const gone = await writeArchive(out, 'x', [{ path: 'a.bin', size: 1, source: () => Promise.reject(new Error('capture gone')) }], meta)
      .then(() => null, (e: unknown) => e as Error);
    expect(gone?.message).toBe('capture gone');

    const changed = await rejectionOf(writeArchive(out, 'x', [{ path: 'a.bin', size: 10, source: () => Buffer.from('12345') }], meta));
    expect(changed.message).toBe('"a.bin" changed while it was being exported: 5 of its 10 bytes were read.');
    const grew = await rejectionOf(writeArchive(out, 'x', [{ path: 'a.bin', size: 3, source: () => Buffer.from('12345') }], meta));
    expect(grew.message).toMatch(/more than 3 bytes were read/);

    const unsafe = await rejectionOf(writeArchive(out, 'x', [{ path: '../a.bin', size: 1, source: () => Buffer.from('1') }], meta));
    expect(unsafe.message).toBe('The archive entry "../a.bin" points outside the archive.');
    expect(readdirSync(dir)).toEqual([]);
  });

  it('stops verifying when cancelled', async () => {
    const { file } = await writeSample(tmp());
    const archive = await openArchive(file);
    const abort = new AbortController();
    const err = await rejectionOf(archive.verify(() => abort.abort(), abort.signal));
    expect(err.code).toBe('cancelled');
    await archive.close();
  });
});

describe('openArchive refuses malicious and broken archives', () => {
  it('path traversal: ../ in a name, written by Python and by yazl', async () => {
    const dir = tmp();
    const py = pyZip(path.join(dir, 'py.eln'), [{ name: 'bundle/ro-crate-metadata.json', data: '{}' }, { name: 'bundle/../../x', data: 'evil' }]);
    expect(await refused(py)).toBe('"py.eln" is not a Tunebook bundle: the entry "bundle/../../x" points outside the archive.');
    const yz = await yazlZip(path.join(dir, 'yazl.eln'), [{ name: 'bundle/XX/XX/etc/passwd', data: Buffer.from('evil') }], [['bundle/XX/XX/', 'bundle/../../']]);
    expect(await refused(yz)).toBe('"yazl.eln" is not a Tunebook bundle: the entry "bundle/../../etc/passwd" points outside the archive.');
  });

  it('absolute paths, drive letters, backslashes and NUL bytes in names', async () => {
    const dir = tmp();
    expect(await refused(pyZip(path.join(dir, 'abs.eln'), [{ name: '/etc/x', data: 'evil' }])))
      .toBe('"abs.eln" is not a Tunebook bundle: the entry "/etc/x" points outside the archive (it is an absolute path).');
    expect(await refused(pyZip(path.join(dir, 'drive.eln'), [{ name: 'C:\\x', data: 'evil' }])))
      .toMatch(/the entry "C:\\x" points outside the archive \(it starts with a drive letter\)\.$/);
    expect(await refused(pyZip(path.join(dir, 'bs.eln'), [{ name: 'bundle\\..\\evil.txt', data: 'evil' }])))
      .toMatch(/the entry "bundle\\\.\.\\evil\.txt" has a backslash in its name/);
    const nul = await yazlZip(path.join(dir, 'nul.eln'), [{ name: 'bundle/aXb.txt', data: Buffer.from('x') }], [['bundle/aXb.txt', 'bundle/a\0b.txt']]);
    expect(await refused(nul)).toMatch(/the entry "bundle\/a\\u0000b\.txt" has a control character in its name\.$/);
  });

  it('entries outside the single root folder', async () => {
    const dir = tmp();
    expect(await refused(pyZip(path.join(dir, 'two.eln'), [{ name: 'a/ro-crate-metadata.json', data: '{}' }, { name: 'b/x.txt', data: 'x' }])))
      .toBe('"two.eln" is not a Tunebook bundle: it has more than one top-level folder ("a" and "b"); an .eln file has exactly one.');
    expect(await refused(pyZip(path.join(dir, 'top.eln'), [{ name: 'ro-crate-metadata.json', data: '{}' }])))
      .toMatch(/the entry "ro-crate-metadata\.json" is not inside the archive's root folder/);
    expect(await refused(pyZip(path.join(dir, 'empty.eln'), []))).toMatch(/it is an empty zip archive/);
  });

  it('symbolic links (Debian zip --symlinks, and Python) and special files', async () => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'bundle'));
    writeFileSync(path.join(dir, 'bundle', 'ro-crate-metadata.json'), JSON.stringify(crate({})));
    symlinkSync('/etc/passwd', path.join(dir, 'bundle', 'passwd.txt'));
    execFileSync('zip', ['-q', '-r', '--symlinks', 'link.eln', 'bundle'], { cwd: dir });
    expect(await refused(path.join(dir, 'link.eln')))
      .toBe('"link.eln" is not a Tunebook bundle: the entry "bundle/passwd.txt" is a symbolic link; a Tunebook bundle holds only plain files and folders.');
    expect(await refused(pyZip(path.join(dir, 'pylink.eln'), [{ name: 'bundle/x', data: '../../../etc/shadow', mode: 0o120777 }])))
      .toMatch(/the entry "bundle\/x" is a symbolic link/);
    expect(await refused(pyZip(path.join(dir, 'fifo.eln'), [{ name: 'bundle/fifo', mode: 0o010644 }])))
      .toMatch(/the entry "bundle\/fifo" is a special file/);
    expect(await refused(pyZip(path.join(dir, 'dirfile.eln'), [{ name: 'bundle/d', mode: 0o040755 }])))
      .toMatch(/the entry "bundle\/d" is marked as a folder but named like a file/);
  });

  it('duplicate names, and a name that is both a file and a folder', async () => {
    const dir = tmp();
    expect(await refused(pyZip(path.join(dir, 'dup.eln'), [{ name: 'bundle/a.txt', data: 'one' }, { name: 'bundle/a.txt', data: 'two' }])))
      .toBe('"dup.eln" is not a Tunebook bundle: the entry "bundle/a.txt" appears twice.');
    expect(await refused(pyZip(path.join(dir, 'both.eln'), [{ name: 'bundle/a', data: 'one' }, { name: 'bundle/a/b.txt', data: 'two' }])))
      .toMatch(/"bundle\/a" is both a file and a folder/);
  });

  it('encrypted entries (Debian zip -P)', async () => {
    const dir = tmp();
    mkdirSync(path.join(dir, 'bundle'));
    writeFileSync(path.join(dir, 'bundle', 'secret.txt'), 'secret');
    execFileSync('zip', ['-q', '-r', '-P', 'hunter2', 'enc.eln', 'bundle'], { cwd: dir });
    expect(await refused(path.join(dir, 'enc.eln')))
      .toBe('"enc.eln" is not a Tunebook bundle: the entry "bundle/secret.txt" is encrypted; Tunebook opens only unencrypted bundles.');
  });

  it('a zip bomb declared honestly (1 GiB of zeros in 1 MiB) is refused from its directory alone, at once', async () => {
    const dir = tmp();
    const bomb = zerosZip(path.join(dir, 'bomb.eln'), null, 'bundle/zeros.bin', 1024);
    const started = Date.now();
    expect(await refused(bomb)).toMatch(/^"bomb\.eln" is not a Tunebook bundle: the entry "bundle\/zeros\.bin" would unpack to 1 GiB from 1(\.\d+)? MiB \(1,0\d\d times its size\), which is how a zip bomb looks\.$/);
    // from the central directory alone: inflating 1 GiB would take seconds
    expect(Date.now() - started).toBeLessThan(2000);
    // the size limits catch it too, whatever the ratio
    expect(await refused(bomb, { maxRatio: 10_000, maxEntryBytes: 512 * MiB }))
      .toMatch(/would unpack to 1 GiB, more than the 512 MiB Tunebook accepts for one file\.$/);
    expect(await refused(bomb, { maxRatio: 10_000, maxTotalBytes: 256 * MiB }))
      .toMatch(/its entries would unpack to more than the 256 MiB Tunebook accepts in all\.$/);
  });

  it('a zip bomb whose headers lie about its size: inflating stops at the declared size', async () => {
    const dir = tmp();
    const lie = 1000;
    const meta = crate({ 'zeros.txt': { sha256: sha(Buffer.alloc(lie)), size: lie } });
    const bomb = zerosZip(path.join(dir, 'liar.eln'), meta, 'bundle/zeros.txt', 1024, lie);
    // nothing in its directory gives it away
    const archive = await openArchive(bomb);
    try {
      const err = await rejectionOf(archive.verify());
      expect(err.message).toBe('"liar.eln" is damaged or malicious: the file "zeros.txt" holds more data than its zip entry declares (1000 bytes).');
      let delivered = 0;
      const stream = await archive.open('zeros.txt');
      const err2 = await rejectionOf((async () => { for await (const c of stream) delivered += (c as Buffer).length; })());
      expect(err2.message).toMatch(/holds more data than its zip entry declares/);
      // the consumer never sees a byte past the declared size: yauzl stops inflating there
      expect(delivered).toBeLessThanOrEqual(lie);
    } finally {
      await archive.close();
    }
  });

  it('entries that share their bytes (a non-recursive zip bomb)', async () => {
    const dir = tmp();
    const file = pyZip(path.join(dir, 'overlap.eln'), [{ name: 'bundle/a.txt', data: 'x'.repeat(1000) }]);
    // a second central-directory record pointing at the same local header, under another name
    execFileSync('python3', ['-c', `
import sys, struct
data = bytearray(open(sys.argv[1], 'rb').read())
eocd = len(data) - 22
count, cd_size, cd_offset = struct.unpack_from('<HII', data, eocd + 10)
record = bytearray(data[cd_offset:cd_offset + cd_size])
record[46:46 + 12] = b'bundle/b.txt'
new = data[:cd_offset + cd_size] + record + data[eocd:]
struct.pack_into('<HHII', new, len(new) - 22 + 8, count + 1, count + 1, cd_size * 2, cd_offset)
open(sys.argv[1], 'wb').write(bytes(new))
`, file]);
    expect(await refused(file)).toBe('"overlap.eln" is not a Tunebook bundle: the entries "bundle/a.txt" and "bundle/b.txt" share the same bytes, a trick zip bombs use.');
  });

  it('too many entries, or declared sizes over the limits', async () => {
    const { file } = await writeSample(tmp());
    expect(await refused(file, { maxEntries: 3 })).toMatch(/it holds \d+ entries, more than the 3 Tunebook opens\.$/);
    expect(await refused(file, { maxEntryBytes: MiB })).toMatch(/the entry "disk-tuning\/disk\/01-baseline\/fio-randwrite\.txt" would unpack to 3 MiB, more than the 1 MiB/);
    expect(await refused(file, { maxJsonBytes: 100 })).toMatch(/its ro-crate-metadata\.json is \d.* more than the 100 B Tunebook reads\.$/);
  });

  it('a truncated or corrupt zip, and damaged data inside one', async () => {
    const dir = tmp();
    const { file } = await writeSample(dir);
    const whole = readFileSync(file);

    const truncated = path.join(dir, 'truncated.eln');
    writeFileSync(truncated, whole.subarray(0, Math.floor(whole.length / 2)));
    expect(await refused(truncated)).toBe('"truncated.eln" is not a Tunebook bundle: it is not a zip archive, or it was cut short (its zip directory is missing).');

    const corruptDir = Buffer.from(whole);
    const cd = corruptDir.readUInt32LE(corruptDir.length - 22 + 16);
    corruptDir.write('XXXX', cd, 'latin1');
    writeFileSync(path.join(dir, 'corrupt.eln'), corruptDir);
    expect(await refused(path.join(dir, 'corrupt.eln'))).toMatch(/^"corrupt\.eln" is not a Tunebook bundle: its zip structure is damaged \(invalid central directory file header signature/);

    // flip bytes in the middle of the 3 MiB capture: the directory is fine, the data is not
    const corruptData = Buffer.from(whole);
    const at = corruptData.indexOf('fio-randwrite.txt') + 2 * MiB;
    for (let i = 0; i < 64; i++) corruptData[at + i] = corruptData[at + i]! ^ 0xff;
    writeFileSync(path.join(dir, 'bitrot.eln'), corruptData);
    const archive = await openArchive(path.join(dir, 'bitrot.eln'));
    try {
      const err = await rejectionOf(archive.verify());
      expect(err.message).toBe('"bitrot.eln" is damaged: the file "disk/01-baseline/fio-randwrite.txt" does not match its SHA-256 checksum.');
      const err2 = await rejectionOf(archive.open('disk/01-baseline/fio-randwrite.txt').then(readStream));
      expect(err2.message).toMatch(/does not match its SHA-256 checksum/);
    } finally {
      await archive.close();
    }
  });

  it('a file whose SHA-256 does not match the crate', async () => {
    const dir = tmp();
    const out = path.join(dir, 'sha.eln');
    const a = Buffer.from('{"hello": "world"}');
    await writeArchive(out, 'sha', bufferEntries({ 'a.json': a }), crate({ 'a.json': { sha256: sha('something else'), size: a.length } }));
    const archive = await openArchive(out);
    try {
      expect((await rejectionOf(archive.verify())).message).toBe('"sha.eln" is damaged: the file "a.json" does not match its SHA-256 checksum.');
      expect((await rejectionOf(archive.open('a.json').then(readStream))).message).toMatch(/does not match its SHA-256 checksum/);
      expect((await rejectionOf(archive.readJson('a.json'))).message).toMatch(/does not match its SHA-256 checksum/);
    } finally {
      await archive.close();
    }
  });

  it('a file the crate does not list, a listed file that is missing, a size that disagrees', async () => {
    const dir = tmp();
    const a = Buffer.from('a');
    const b = Buffer.from('bb');
    const unlisted = path.join(dir, 'unlisted.eln');
    await writeArchive(unlisted, 'u', bufferEntries({ 'a.txt': a, 'extra/b.txt': b }), crate({ 'a.txt': a }));
    expect(await refused(unlisted)).toBe('"unlisted.eln" is not a Tunebook bundle: the file "extra/b.txt" is in the archive but ro-crate-metadata.json does not list it with a SHA-256 checksum.');

    const missing = path.join(dir, 'missing.eln');
    await writeArchive(missing, 'm', bufferEntries({ 'a.txt': a }), crate({ 'a.txt': a, 'b.txt': b }));
    expect(await refused(missing)).toBe('"missing.eln" is not a Tunebook bundle: ro-crate-metadata.json lists the file "b.txt", which is missing from the archive.');

    const noSha = path.join(dir, 'nosha.eln');
    const meta = crate({ 'a.txt': a }) as { '@graph': Record<string, unknown>[] };
    delete meta['@graph'][2]!['sha256'];
    await writeArchive(noSha, 'n', bufferEntries({ 'a.txt': a }), meta);
    expect(await refused(noSha)).toBe('"nosha.eln" is not a Tunebook bundle: ro-crate-metadata.json lists the file "a.txt" without a SHA-256 checksum.');

    const size = path.join(dir, 'size.eln');
    await writeArchive(size, 's', bufferEntries({ 'a.txt': a }), crate({ 'a.txt': { sha256: sha(a), size: 5 } }));
    expect(await refused(size)).toBe('"size.eln" is damaged: the file "a.txt" holds 1 bytes by its zip entry but 5 by ro-crate-metadata.json.');
  });

  it('a zip without ro-crate-metadata.json, or with one that is not an RO-Crate', async () => {
    const dir = tmp();
    expect(await refused(pyZip(path.join(dir, 'plain.eln'), [{ name: 'bundle/a.txt', data: 'a' }])))
      .toBe('"plain.eln" is not a Tunebook bundle: it has no ro-crate-metadata.json in its folder "bundle", so it is not an .eln file.');
    expect(await refused(pyZip(path.join(dir, 'notjson.eln'), [{ name: 'bundle/ro-crate-metadata.json', data: '{"@context": ' }])))
      .toMatch(/^"notjson\.eln" is not a Tunebook bundle: its ro-crate-metadata\.json is not valid JSON/);
    expect(await refused(pyZip(path.join(dir, 'schema.eln'), [{ name: 'bundle/ro-crate-metadata.json', data: JSON.stringify({ '@context': 'https://schema.org', '@graph': [] }) }])))
      .toBe('"schema.eln" is not a Tunebook bundle: ro-crate-metadata.json is not an RO-Crate: its @context is not RO-Crate\'s (https://w3id.org/ro/crate/1.1/context).');
  });

  it('files that are not zips at all', async () => {
    const dir = tmp();
    writeFileSync(path.join(dir, 'notes.eln'), 'just some text, not a zip\n'.repeat(10));
    expect(await refused(path.join(dir, 'notes.eln'))).toBe('"notes.eln" is not a Tunebook bundle: it is not a zip archive, or it was cut short (its zip directory is missing).');
    writeFileSync(path.join(dir, 'empty.eln'), '');
    expect(await refused(path.join(dir, 'empty.eln'))).toMatch(/it is not a zip archive/);
    expect((await rejectionOf(openArchive(path.join(dir, 'absent.eln')))).code).toBe('not-found');
  });
});
