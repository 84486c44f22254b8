/**
 * `tunebook parse` and `tunebook import` of a folder holding bad entries (issue 10): a dangling
 * link, a loop of links, a pipe, a socket, a device, a 100 GiB sparse file, and (as a non-root
 * user) a file without read permission. The good files are read or stored, each bad one is said
 * on one stderr line (and in the JSON: `skipped` for parse, `failed` for import), no stack trace,
 * exit status 1, and nothing hangs.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildBundles, seedPath } from '../helpers';

const SYSCTL = 'vm.swappiness = 10\nnet.core.somaxconn = 4096\nkernel.pid_max = 4194304\n';

let cli = '';
let dir = '';
let bad = '';
let server: net.Server | null = null;

beforeAll(async () => {
  cli = (await buildBundles()).cli;
  dir = mkdtempSync(path.join(tmpdir(), 'tunebook-cli-bad-'));
  bad = path.join(dir, 'bad');
  mkdirSync(path.join(bad, 'run1'), { recursive: true });
  copyFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt'), path.join(bad, 'run1', 'fio.txt'));
  writeFileSync(path.join(bad, 'sysctl.txt'), SYSCTL);
  symlinkSync('nothere.txt', path.join(bad, 'dangling.txt'));
  symlinkSync('..', path.join(bad, 'run1', 'up'));
  execFileSync('mkfifo', [path.join(bad, 'pipe')]);
  symlinkSync('/dev/zero', path.join(bad, 'zero'));
  writeFileSync(path.join(bad, 'huge.log'), '');
  truncateSync(path.join(bad, 'huge.log'), 100 * 2 ** 30);
  server = net.createServer();
  await new Promise<void>((resolve) => server!.listen(path.join(bad, 'sock'), resolve));
});
afterAll(async () => {
  await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  rmSync(dir, { recursive: true, force: true });
});

function run(args: string[], opts: { asNobody?: boolean } = {}) {
  const env = { ...process.env, TUNEBOOK_USER_DATA: path.join(dir, 'user-data') };
  const asRoot = opts.asNobody && process.getuid?.() === 0;
  const [cmd, ...rest] = asRoot ? ['setpriv', '--reuid=65534', '--regid=65534', '--clear-groups', process.execPath, cli, ...args] : [process.execPath, cli, ...args];
  const r = spawnSync(cmd!, rest, { env, encoding: 'utf8', timeout: 60_000 });
  return { status: r.status, out: r.stdout, err: r.stderr, lines: r.stderr.trim() ? r.stderr.trim().split('\n') : [] };
}

const SAID = {
  dangling: 'dangling.txt is a symbolic link to nothere.txt, which does not exist: not read.',
  huge: 'huge.log is a sparse file (100.0 GiB long, 0 bytes on disk, the rest zero bytes), not a capture: not read.',
  pipe: 'pipe is a named pipe (FIFO), not a file: not read.',
  loop: 'run1/up links back to a folder that holds it (a loop): not followed.',
  sock: 'sock is a socket, not a file: not read.',
  zero: 'zero is a character device, not a file: not read.',
};

describe('tunebook parse DIR with bad entries', () => {
  it('--json: the good files parsed, each bad one an entry with `skipped`, one stderr line each, status 1', () => {
    const r = run(['parse', '--json', bad]);
    expect(r.status).toBe(1);
    const out = JSON.parse(r.out) as { file: string; kind: string; confidence: number; warnings: string[]; skipped?: string; metrics: { name: string; value: number; labels?: Record<string, string> }[] }[];
    expect(out.map((c) => [c.file, c.kind, c.skipped ?? null])).toEqual([
      ['dangling.txt', 'text', SAID.dangling],
      ['huge.log', 'text', SAID.huge],
      ['pipe', 'text', SAID.pipe],
      ['run1/fio.txt', 'fio', null],
      ['run1/up', 'text', SAID.loop],
      ['sock', 'text', SAID.sock],
      ['sysctl.txt', 'sysctl', null],
      ['zero', 'text', SAID.zero],
    ]);
    for (const c of out.filter((x) => x.skipped)) expect(c).toMatchObject({ confidence: 0, metrics: [], warnings: [c.skipped] });
    expect(out[3]!.metrics.find((m) => m.name === 'iops' && m.labels?.direction === 'write')?.value).toBe(2197);
    expect(r.lines).toEqual([SAID.dangling, SAID.huge, SAID.pipe, SAID.loop, SAID.sock, SAID.zero].map((m) => `tunebook: skipped: ${m}`));
  });

  it('as text: only the files read on stdout, the skipped ones on stderr', () => {
    const r = run(['parse', bad]);
    expect(r.status).toBe(1);
    expect(r.out.split('\n').filter((l) => !l.startsWith(' ') && l).map((l) => l.replace(/ \(confidence [\d.]+\)$/, ''))).toEqual(['run1/fio.txt: fio', 'sysctl.txt: sysctl']);
    expect(r.lines).toHaveLength(6);
    expect(r.err).not.toMatch(/\n\s+at /);
  });

  it('a file without read permission is skipped, the rest read (run as uid 65534 when the tests run as root)', () => {
    const d = mkdtempSync(path.join(tmpdir(), 'tunebook-cli-perm-'));
    try {
      writeFileSync(path.join(d, 'ok.txt'), SYSCTL);
      writeFileSync(path.join(d, 'secret.txt'), SYSCTL);
      chmodSync(d, 0o755);
      chmodSync(path.join(d, 'ok.txt'), 0o644);
      chmodSync(path.join(d, 'secret.txt'), 0o000);
      const r = run(['parse', '--json', d], { asNobody: true });
      expect(r.lines).toEqual(['tunebook: skipped: secret.txt cannot be read: permission denied.']);
      expect(r.status).toBe(1);
      expect((JSON.parse(r.out) as { file: string; kind: string }[]).map((c) => [c.file, c.kind])).toEqual([['ok.txt', 'sysctl'], ['secret.txt', 'text']]);
      // given by itself: the same line, and the status says it was not read
      const one = run(['parse', path.join(d, 'secret.txt')], { asNobody: true });
      expect([one.status, one.out, one.lines]).toEqual([1, '', ['tunebook: skipped: secret.txt cannot be read: permission denied.']]);
    } finally {
      rmSync(d, { recursive: true, force: true });
    }
  });

  it('/proc/self/environ (0 bytes by stat) is read as text, not an internal error', () => {
    const r = run(['parse', '--json', '/proc/self/environ']);
    expect(r.err).toBe('');
    expect(r.status).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ file: 'environ', kind: 'text' });
  });
});

describe('tunebook import DIR with bad entries', () => {
  it('stores the good files and lists each bad one in `failed` with the same words, status 1', () => {
    const nb = path.join(dir, 'import.tunebook');
    const r = run(['import', '--notebook', nb, '--study', 'S', '--experiment', 'E', '--json', bad]);
    expect(r.status).toBe(1);
    const json = JSON.parse(r.out) as { imported: { name: string; kind: string }[]; failed: { name: string; message: string }[] };
    expect(json.imported.map((c) => [c.name, c.kind])).toEqual([['run1/fio.txt', 'fio'], ['sysctl.txt', 'sysctl']]);
    expect(json.failed).toEqual([
      { name: 'dangling.txt', message: SAID.dangling },
      { name: 'pipe', message: SAID.pipe },
      { name: 'run1/up', message: SAID.loop },
      { name: 'sock', message: SAID.sock },
      { name: 'zero', message: SAID.zero },
      { name: 'huge.log', message: SAID.huge },
    ]);
    expect(r.lines).toEqual(json.failed.map((f) => `tunebook: not imported: ${f.message}`));
  });
});
