/**
 * Folders with bad entries (issue 10): a dangling link, a loop of links, a pipe, a socket, a device,
 * a sparse file, a file that vanishes between the walk and its reading. Each is reported in a
 * sentence and the rest of the folder is read — by parsePaths (the CLI and the app's preview) and
 * by walkPaths (import).
 */
import { execFileSync, spawn } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, truncateSync, unlinkSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../electron/services/backend';
import { parseFile, parsePaths, walkPaths } from '../../electron/services/captureFiles';
import { buildBundles, seedPath } from '../helpers';

/** a settings snapshot (sysctl -a): read as kind sysctl */
const SYSCTL = 'vm.swappiness = 10\nnet.core.somaxconn = 4096\nkernel.pid_max = 4194304\n';

let dir = '';
let bad = '';
let server: net.Server | null = null;

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tunebook-badpaths-'));
  bad = path.join(dir, 'bad');
  mkdirSync(path.join(bad, 'run1'), { recursive: true });
  mkdirSync(path.join(bad, 'run2'));
  copyFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt'), path.join(bad, 'run1', 'fio.txt'));
  writeFileSync(path.join(bad, 'sysctl.txt'), SYSCTL);
  symlinkSync('../run1/fio.txt', path.join(bad, 'run2', 'fio-link.txt')); // a link to a file of the folder: followed
  symlinkSync('../run1', path.join(bad, 'run2', 'again')); // the same folder by another link: read once
  symlinkSync('nothere.txt', path.join(bad, 'dangling.txt'));
  symlinkSync('..', path.join(bad, 'run1', 'up')); // a loop: run1/up/run1/up/…
  execFileSync('mkfifo', [path.join(bad, 'pipe')]);
  symlinkSync('/dev/zero', path.join(bad, 'zero'));
  writeFileSync(path.join(bad, 'huge.log'), '');
  truncateSync(path.join(bad, 'huge.log'), 100 * 2 ** 30); // 100 GiB of holes
  server = net.createServer();
  await new Promise<void>((resolve) => server!.listen(path.join(bad, 'sock'), resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

const byName = (list: { name: string }[]) => list.map((x) => x.name).sort();

describe('walkPaths (import)', () => {
  it('lists the good files, follows links to files, reads a folder once, and names each bad entry', () => {
    const { files, problems } = walkPaths([bad]);
    // the sparse file is a regular file to the walk: import refuses it when it comes to read it (test/cli/badPaths)
    expect(byName(files)).toEqual(['huge.log', 'run1/fio.txt', 'run2/fio-link.txt', 'sysctl.txt']);
    const said = Object.fromEntries(problems.map((p) => [p.name, (p.error as Error).message]));
    expect(Object.keys(said).sort()).toEqual(['dangling.txt', 'pipe', 'run1/up', 'sock', 'zero']);
    expect(said['dangling.txt']).toBe('dangling.txt is a symbolic link to nothere.txt, which does not exist: not read.');
    expect(said['run1/up']).toBe('run1/up links back to a folder that holds it (a loop): not followed.');
    expect(said.pipe).toBe('pipe is a named pipe (FIFO), not a file: not read.');
    expect(said.sock).toBe('sock is a socket, not a file: not read.');
    expect(said.zero).toBe('zero is a character device, not a file: not read.');
  });

  it('a pipe given by itself is refused for import (it would be read twice), a missing path is a problem', () => {
    const { files, problems } = walkPaths([path.join(bad, 'pipe'), path.join(dir, 'missing')]);
    expect(files).toEqual([]);
    expect(problems.map((p) => (p.error as Error).message)).toEqual([
      `${path.join(bad, 'pipe')} is a named pipe (FIFO), not a file: not read.`,
      `${path.join(dir, 'missing')} does not exist (it may have been moved or deleted).`,
    ]);
  });
});

describe('parsePaths (tunebook parse, the Captures view)', () => {
  it('parses the good files and stands an unread text capture with the reason for each bad one, in order, quickly', async () => {
    const t0 = Date.now();
    const out = await parsePaths([bad]);
    expect(Date.now() - t0).toBeLessThan(10_000); // no pipe waited on, no 100 GiB read
    const rows = out.map((p) => [p.capture.file, p.capture.kind, p.skipped ?? null]);
    expect(rows).toEqual([
      ['dangling.txt', 'text', 'dangling.txt is a symbolic link to nothere.txt, which does not exist: not read.'],
      ['huge.log', 'text', 'huge.log is a sparse file (100.0 GiB long, 0 bytes on disk, the rest zero bytes), not a capture: not read.'],
      ['pipe', 'text', 'pipe is a named pipe (FIFO), not a file: not read.'],
      ['run1/fio.txt', 'fio', null],
      ['run1/up', 'text', 'run1/up links back to a folder that holds it (a loop): not followed.'],
      ['run2/fio-link.txt', 'fio', null],
      ['sock', 'text', 'sock is a socket, not a file: not read.'],
      ['sysctl.txt', 'sysctl', null],
      ['zero', 'text', 'zero is a character device, not a file: not read.'],
    ]);
    for (const p of out.filter((x) => x.skipped)) {
      expect(p.capture).toMatchObject({ confidence: 0, metrics: [], series: [], findings: [], warnings: [p.skipped] });
    }
    const fio = out.find((p) => p.capture.kind === 'fio')!.capture;
    expect(fio.metrics.find((m) => m.name === 'iops' && m.labels?.direction === 'write')?.value).toBe(2197);
  });

  it('a file that vanishes between the walk and its reading is reported, the others are read', async () => {
    const d = path.join(dir, 'vanish');
    mkdirSync(d);
    writeFileSync(path.join(d, 'a-sysctl.txt'), SYSCTL);
    copyFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt'), path.join(d, 'b-fio.txt'));
    copyFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt'), path.join(d, 'c-fio.txt'));
    // the first file's reading deletes the second: after the walk listed it, before it is opened
    const out = await parsePaths([d], { onProgress: () => { try { unlinkSync(path.join(d, 'b-fio.txt')); } catch { /* already */ } } });
    expect(out.map((p) => [p.capture.file, p.capture.kind, p.skipped ?? null])).toEqual([
      ['a-sysctl.txt', 'sysctl', null],
      ['b-fio.txt', 'text', 'b-fio.txt does not exist (it may have been moved or deleted).'],
      ['c-fio.txt', 'fio', null],
    ]);
  });

  it('a file that cannot be read (permission denied) is reported, the rest is read (as a non-root user)', async () => {
    // root reads a chmod 000 file: when this runs as root the check runs in a child under uid 65534 (nobody)
    const d = mkdtempSync(path.join(tmpdir(), 'tunebook-perm-'));
    try {
      const data = path.join(d, 'data');
      mkdirSync(data);
      writeFileSync(path.join(data, 'ok.txt'), SYSCTL);
      writeFileSync(path.join(data, 'secret.txt'), SYSCTL, { mode: 0o000 });
      // a bundle of captureFiles, so the child needs no TypeScript loader
      const { build } = await import('esbuild');
      await build({ entryPoints: [path.join(__dirname, '..', '..', 'electron', 'services', 'captureFiles.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: path.join(d, 'cf.cjs'), logLevel: 'silent' });
      const script = path.join(d, 'run.cjs');
      writeFileSync(script, `require('./cf.cjs').parsePaths([${JSON.stringify(data)}]).then((o) => console.log(JSON.stringify(o.map((p) => [p.capture.file, p.capture.kind, p.skipped ?? null]))));`);
      execFileSync('chmod', ['-R', 'a+rX', d]);
      execFileSync('chmod', ['000', path.join(data, 'secret.txt')]);
      const cmd = process.getuid?.() === 0 ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, script] : [process.execPath, script];
      const rows = JSON.parse(execFileSync(cmd[0]!, cmd.slice(1), { encoding: 'utf8' })) as unknown[];
      expect(rows).toEqual([
        ['ok.txt', 'sysctl', null],
        ['secret.txt', 'text', 'secret.txt cannot be read: permission denied.'],
      ]);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });
});

describe("the app's parseCaptureFiles (the parse worker)", () => {
  it('gives the same entries: the good files parsed, each bad one a text capture with `skipped` and its warning', async () => {
    const { parseWorkerFile, storeWorkerFile } = await buildBundles();
    const backend = new Backend({ notebookPath: path.join(dir, 'nb.tunebook'), userDataDir: dir, parseWorkerFile, storeWorkerFile });
    try {
      const out = (await backend.call('parseCaptureFiles', [[bad]])) as { file: string; kind: string; warnings: string[]; skipped?: string }[];
      expect(out.map((c) => [c.file, c.kind, c.skipped ?? null])).toEqual((await parsePaths([bad])).map((p) => [p.capture.file, p.capture.kind, p.skipped ?? null]));
      expect(out.filter((c) => c.skipped).map((c) => c.file)).toEqual(['dangling.txt', 'huge.log', 'pipe', 'run1/up', 'sock', 'zero']);
      for (const c of out.filter((x) => x.skipped)) expect(c.warnings).toEqual([c.skipped]);
    } finally {
      backend.close();
    }
  });
});

describe('parseFile on special paths given by themselves', () => {
  it('/proc/self/environ (0 bytes by stat, content when read) is read as text, not an error', async () => {
    const c = await parseFile('/proc/self/environ');
    expect(c.kind).toBe('text');
    expect(c.file).toBe('environ');
    expect(readFileSync('/proc/self/environ').length).toBeGreaterThan(0);
    expect(c.warnings.join(' ')).toMatch(/kept as plain text \(1 lines\)/);
  });

  it('/dev/zero is refused at once', async () => {
    await expect(parseFile('/dev/zero')).rejects.toThrow('/dev/zero is a character device, not a file: not read.');
  });

  it('a named pipe with no writer reads as empty instead of hanging; with a writer it is read to its end', async () => {
    const fifo = path.join(dir, 'lonely');
    execFileSync('mkfifo', [fifo]);
    const empty = await parseFile(fifo);
    expect(empty.warnings).toContain(`${fifo} is a named pipe that gave nothing: no program was writing to it`);
    const fed = path.join(dir, 'fed');
    execFileSync('mkfifo', [fed]);
    // the writer opens the pipe and writes slowly: the reader waits for it while it is open
    const writer = spawn('sh', ['-c', `exec 3>"${fed}"; sleep 0.3; printf '${SYSCTL.replace(/\n/g, '\\n')}' >&3; sleep 0.3; exec 3>&-`]);
    const exited = new Promise((r) => writer.on('exit', r));
    await new Promise((r) => setTimeout(r, 100));
    const c = await parseFile(fed);
    await exited;
    expect(c.kind).toBe('sysctl');
    expect(c.settings).toEqual({ 'vm.swappiness': '10', 'net.core.somaxconn': '4096', 'kernel.pid_max': '4194304' });
  });

  it('a UTF-16 file (PowerShell\'s >) is read as UTF-16, as the store reads it', async () => {
    const f = path.join(dir, 'sysctl-utf16.txt');
    writeFileSync(f, Buffer.from(`\ufeff${`${SYSCTL}kernel.hostname = büro-1\n`.replace(/\n/g, '\r\n')}`, 'utf16le'));
    const c = await parseFile(f);
    expect(c.kind).toBe('sysctl');
    // read as UTF-8 it would lose the ü (U+FFFD) and warn that the file looks like UTF-16
    expect(c.settings).toEqual({ 'vm.swappiness': '10', 'net.core.somaxconn': '4096', 'kernel.pid_max': '4194304', 'kernel.hostname': 'büro-1' });
    expect(c.warnings.filter((w) => /UTF-16/.test(w))).toEqual([]);
  });

  it('reading stops at a run of 1 MiB of zero bytes, with a warning', async () => {
    const f = path.join(dir, 'zeros-after-text.txt');
    writeFileSync(f, Buffer.concat([Buffer.from(SYSCTL), Buffer.alloc(3 * 2 ** 20)]));
    const c = await parseFile(f);
    expect(c.kind).toBe('sysctl');
    expect(c.settings['vm.swappiness']).toBe('10');
    expect(c.warnings).toContain('reading stopped at byte 1048576: 1 MiB of zero bytes follows (a sparse, binary or device file); the rest was not read');
  });
});
