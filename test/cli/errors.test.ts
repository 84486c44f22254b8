/**
 * Every command of the built CLI on a user's mistakes (issue 10): one clear line on stderr, no
 * stack frame, a non-zero status, nothing on stdout. Among them the notebooks that cannot be
 * opened: /proc/self/environ (0 bytes by stat), a file that is not a notebook, a notebook locked
 * by another process, and (as uid 65534 when the tests run as root) a read-only one.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles, seedPath } from '../helpers';

let cli = '';
let dir = '';
let nb = '';
const fio = seedPath('fio-randwrite-4k-qd64-j64.txt');

function run(args: string[], opts: { asNobody?: boolean; env?: Record<string, string> } = {}) {
  const env = { ...process.env, TUNEBOOK_USER_DATA: path.join(dir, 'user-data'), ...opts.env };
  const asRoot = opts.asNobody && process.getuid?.() === 0;
  const [cmd, ...rest] = asRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, cli, ...args] : [process.execPath, cli, ...args];
  const r = spawnSync(cmd!, rest, { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr };
}

/** The shape every mistake must have: one line naming what is wrong, no stack, the status, nothing on stdout. */
function expectOneLine(r: ReturnType<typeof run>, message: RegExp, status = 2, what = ''): void {
  expect(r.err, what).toMatch(/^tunebook: [^\n]+\n$/);
  expect(r.err, what).toMatch(message);
  expect(r.err, what).not.toMatch(/\bat .+:\d+:\d+\)?$/m); // a stack frame: "at fn (file.js:12:34)"
  expect(r.err, what).not.toMatch(/internal error/);
  expect(r.status, what).toBe(status);
  expect(r.out, what).toBe('');
}

beforeAll(async () => {
  cli = (await buildBundles()).cli;
  dir = mkdtempSync(path.join(tmpdir(), 'tunebook-cli-errors-'));
  chmodSync(dir, 0o755);
  nb = path.join(dir, 'n.tunebook');
  const r = run(['import', '--notebook', nb, '--study', 'S', '--experiment', 'E', fio]);
  expect(r.status).toBe(0);
  writeFileSync(path.join(dir, 'notes.txt'), 'not a notebook\n');
  mkdirSync(path.join(dir, 'folder'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('one line, no stack trace, a non-zero status', () => {
  it('bad commands, options and arguments', () => {
    const missing = path.join(dir, 'missing.txt');
    const cases: [string[], RegExp][] = [
      [['frob'], /^tunebook: unknown command "frob" \(see tunebook --help\)$/m],
      [['parse'], /give one or more capture files or folders/],
      [['parse', '--bogus', fio], /Unknown option '--bogus'.* \(see tunebook --help\)$/m],
      [['parse', '--kind'], /Option '--kind <value>' argument missing/],
      [['parse', '--kind', 'nope', fio], /unknown kind "nope"; see tunebook parse --kinds/],
      [['parse', missing], /no such file or folder: .*missing\.txt/],
      [['diff', fio], /give two settings snapshots/],
      [['diff', path.join(dir, 'folder'), fio], /folder is a folder, not a file\./],
      [['diff', '/dev/zero', fio], /\/dev\/zero is a character device, not a file: not read\./],
      [['diff', fio, fio, '--kind', 'nope'], /unknown kind "nope"/],
      [['import', '--notebook', nb, '--study', 'S', '--experiment', 'E', '--kind', 'nope', fio], /unknown kind "nope"/],
      [['import', '--notebook', nb, '--study', 'S', '--experiment', 'E', missing], /no such file or folder/],
      [['import', '--study', 'S', fio], /name the experiment/],
      [['show', '--notebook', nb, 'a', 'b'], /give at most one study/],
      [['show', '--notebook', nb, 'no such study'], /no study "no such study"/],
      [['show', '--notebook', path.join(dir, 'none.tunebook')], /no notebook at .*none\.tunebook/],
      [['cat', '--notebook', nb, 'x'], /give one capture id/],
      [['cat', '--notebook', nb, '999'], /capture 999 does not exist/],
      [['report', 'S', '--notebook', nb, '-o', path.join(dir, 'r.html')], /--format must be one of/],
      [['report', 'S', '--notebook', nb, '--format', 'html'], /say where to write it/],
      [['report', 'S', '--notebook', nb, '--format', 'html', '-o', path.join(dir, 'r.html'), '--experiments', 'a,b'], /--experiments takes experiment ids/],
      [['report', 'S', '--notebook', nb, '--format', 'html', '-o', path.join(dir, 'no', 'such', 'r.html')], /cannot be written: its folder does not exist/],
      [['report', 'nope', '--notebook', nb, '--format', 'html', '-o', path.join(dir, 'r.html')], /no study "nope"/],
      [['import-bundle', '--notebook', nb, path.join(dir, 'notes.txt')], /is not a Tunebook bundle/],
      [['import-bundle', '--notebook', nb, missing], /no such file/],
      [['reparse', '--notebook', path.join(dir, 'none.tunebook')], /no notebook at/],
      [['vacuum', '--notebook', nb, 'extra'], /Unexpected argument 'extra'/],
      [['serve', '--port', 'abc', '--notebook', nb], /--port must be a number from 0 to 65535/],
      [['serve', '--max-upload', 'lots', '--notebook', nb], /--max-upload takes a size/],
    ];
    for (const [args, message] of cases) expectOneLine(run(args), message, 2, args.join(' '));
  }, 180_000);

  it('a file that is not a notebook, or cannot be one (/proc/self/environ), for every command that opens one', () => {
    for (const file of [path.join(dir, 'notes.txt'), '/proc/self/environ', path.join(dir, 'folder')]) {
      for (const args of [
        ['show', '--notebook', file],
        ['cat', '--notebook', file, '1'],
        ['report', 'S', '--notebook', file, '--format', 'md', '-o', path.join(dir, 'r.md')],
        ['reparse', '--notebook', file],
        ['vacuum', '--notebook', file],
        ['import', '--notebook', file, '--study', 'S', '--experiment', 'E', fio],
        ['import-bundle', '--notebook', file, fio],
      ]) {
        expectOneLine(run(args), new RegExp(`${file.replace(/[/.]/g, '\\$&')} (is not a Tunebook notebook|could not be opened as a notebook|is a file of the kernel, not a Tunebook notebook|is not a file)`), 2, args.join(' '));
      }
    }
  }, 180_000);

  it('a notebook locked by another process', async () => {
    const locked = path.join(dir, 'locked.tunebook');
    copyFileSync(nb, locked);
    // a process holding the notebook's write lock (exclusive locking mode keeps it until it exits)
    const holder: ChildProcess = spawn(process.execPath, ['-e', `
      const Database = require('better-sqlite3');
      const db = new Database(${JSON.stringify(locked)});
      db.pragma('locking_mode = EXCLUSIVE');
      db.exec('BEGIN EXCLUSIVE');
      db.exec('CREATE TABLE lock_holder (x)');
      console.log('locked');
      setTimeout(() => {}, 60000);`], { env: { ...process.env, NODE_PATH: path.join(__dirname, '..', '..', 'node_modules') }, stdio: ['ignore', 'pipe', 'inherit'] });
    try {
      await new Promise<void>((resolve) => holder.stdout!.once('data', () => resolve()));
      expectOneLine(run(['show', '--notebook', locked]), /locked/);
    } finally {
      holder.kill();
    }
  }, 30_000);

  it('a read-only notebook (as uid 65534 when the tests run as root)', () => {
    const ro = path.join(dir, 'ro');
    mkdirSync(ro);
    copyFileSync(nb, path.join(ro, 'n.tunebook'));
    chmodSync(path.join(ro, 'n.tunebook'), 0o444);
    chmodSync(ro, 0o555);
    expectOneLine(run(['import', '--notebook', path.join(ro, 'n.tunebook'), '--study', 'S', '--experiment', 'E', fio], { asNobody: true }), /readonly|read-only|cannot be opened for writing/);
    chmodSync(ro, 0o755);
  });

  it('a port in use', async () => {
    const busy = net.createServer();
    await new Promise<void>((resolve) => busy.listen(0, '127.0.0.1', resolve));
    try {
      const port = (busy.address() as net.AddressInfo).port;
      expectOneLine(run(['serve', '--port', String(port), '--notebook', nb]), new RegExp(`cannot listen on 127\\.0\\.0\\.1:${port}: the port is in use`));
    } finally {
      busy.close();
    }
  });

  it('an internal error (a notebook missing a table): one line with the TUNEBOOK_DEBUG hint, status 1; the stack only with it', () => {
    const broken = path.join(dir, 'broken.tunebook');
    copyFileSync(nb, broken);
    spawnSync(process.execPath, ['-e', `const D = require('better-sqlite3'); const db = new D(${JSON.stringify(broken)}); db.exec('DROP TABLE capture_chunk'); db.close();`],
      { env: { ...process.env, NODE_PATH: path.join(__dirname, '..', '..', 'node_modules') } });
    const r = run(['cat', '--notebook', broken, '1']);
    expect([r.status, r.out, r.err]).toEqual([1, '', 'tunebook: internal error: no such table: capture_chunk (run with TUNEBOOK_DEBUG=1 for details)\n']);
    const debug = run(['cat', '--notebook', broken, '1'], { env: { TUNEBOOK_DEBUG: '1' } });
    expect(debug.status).toBe(1);
    expect(debug.err.split('\n')[0]).toBe(r.err.trim());
    expect(debug.err).toMatch(/^SqliteError: no such table: capture_chunk\n\s+at .+:\d+:\d+\)?$/m);
  });

  it('TUNEBOOK_DEBUG=1 adds the stack; without it a mistake is one line', () => {
    const plain = run(['show', '--notebook', '/proc/self/environ']);
    expect(plain.err.split('\n').filter(Boolean)).toHaveLength(1);
    const debug = run(['show', '--notebook', '/proc/self/environ'], { env: { TUNEBOOK_DEBUG: '1' } });
    expect(debug.status).toBe(2);
    expect(debug.err.split('\n')[0]).toBe(plain.err.trim());
    expect(debug.err).toMatch(/\n\s+at .+:\d+:\d+\)?$/m);
  });
});
