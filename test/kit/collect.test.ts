/**
 * The capture kit (electron/services/kit/collect.sh) run for real on this machine: with dash and
 * with bash, around a real load generator (ab against a local server), with tools missing from
 * PATH, as an unprivileged user, with bad arguments, and stopped with Ctrl+C. Its archive is read
 * back with tar and its files with the CLI's parsers.
 *
 * Needs the Debian packages dash bash sysstat procps util-linux iproute2 apache2-utils (and
 * runuser, from util-linux, when run as root).
 */
import { spawn, spawnSync } from 'node:child_process';
import { chmodSync, copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { KIT_VERSION, kitScript } from '../../electron/services/kit/kit';
import { buildBundles } from '../helpers';

const SCRIPT = path.join(__dirname, '../../electron/services/kit/collect.sh');
const ISO = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/;
const NEEDED = ['dash', 'bash', 'tar', 'vmstat', 'mpstat', 'pidstat', 'iostat', 'sar', 'top', 'ss', 'lscpu', 'free', 'ab', 'ps', 'fdisk', 'tune2fs'];

interface Run { code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string; ms: number; pgid: number }

interface Entry {
  file: string | null; stderrFile: string | null; phase: string; tool: string; path: string | null; command: string;
  argv?: string[]; version: string | null; start: string | null; startEpoch: number | null; end: string | null; endEpoch: number | null;
  exitStatus: number | null; stoppedByKit: boolean; status: 'ok' | 'failed' | 'skipped'; reason: string | null; bytes: number | null; note: string | null;
}
interface Manifest {
  format: string; formatVersion: number; kitVersion: string; hostname: string; user: string; uid: number; shell: string | null;
  mode: string; durationSeconds: number | null; tailSeconds: number | null; started: string; startedEpoch: number; ended: string; endedEpoch: number;
  entries: Entry[];
}

function which(tool: string): string | null {
  const r = spawnSync('sh', ['-c', `command -v ${tool}`], { encoding: 'utf8' });
  return r.status === 0 ? r.stdout.trim() : null;
}

/** Runs the kit in its own process group (as a terminal would run a job); onStart sees the child. */
function runKit(argv: string[], opts: { cwd: string; env?: NodeJS.ProcessEnv; timeoutMs?: number; onStart?: (pid: number, stderr: () => string, closeStderr: () => void) => void }): Promise<Run> {
  const t0 = Date.now();
  const child = spawn(argv[0]!, argv.slice(1), { cwd: opts.cwd, env: opts.env ?? process.env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  let stdout = '', stderr = '';
  child.stdout.on('data', (d: Buffer) => { stdout += d.toString(); });
  child.stderr.on('data', (d: Buffer) => { stderr += d.toString(); });
  const timer = setTimeout(() => { try { process.kill(-child.pid!, 'SIGKILL'); } catch { /* gone */ } }, opts.timeoutMs ?? 30_000);
  opts.onStart?.(child.pid!, () => stderr, () => child.stderr.destroy());
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => { clearTimeout(timer); resolve({ code, signal, stdout, stderr, ms: Date.now() - t0, pgid: child.pid! }); });
  });
}

/** The live (not zombie) processes of a process group. */
function groupProcesses(pgid: number): string[] {
  const r = spawnSync('ps', ['-e', '-o', 'pgid=,pid=,stat=,comm='], { encoding: 'utf8' });
  return r.stdout.split('\n').map((l) => l.trim().split(/\s+/)).filter((f) => f.length >= 4 && Number(f[0]) === pgid && !f[2]!.startsWith('Z')).map((f) => `${f[1]} ${f[3]}`);
}

function extract(archive: string, into: string): { top: string; manifest: Manifest; files: string[] } {
  const list = spawnSync('tar', ['-tzf', archive], { encoding: 'utf8' });
  expect(list.status).toBe(0);
  const files = list.stdout.split('\n').filter((l) => l && !l.endsWith('/'));
  mkdirSync(into, { recursive: true });
  expect(spawnSync('tar', ['-xzf', archive, '-C', into]).status).toBe(0);
  const tops = readdirSync(into);
  expect(tops).toHaveLength(1);
  const top = path.join(into, tops[0]!);
  const manifest = JSON.parse(readFileSync(path.join(top, 'manifest.json'), 'utf8')) as Manifest;
  return { top, manifest, files: files.map((f) => f.slice(tops[0]!.length + 1)) };
}

function entry(m: Manifest, file: string): Entry {
  const e = m.entries.find((x) => x.file === file);
  if (!e) throw new Error(`no manifest entry for ${file}`);
  return e;
}

function expectTimes(e: Entry): void {
  expect(e.start).toMatch(ISO);
  expect(e.end).toMatch(ISO);
  expect(e.startEpoch).toBeGreaterThan(1_600_000_000);
  expect(e.endEpoch).toBeGreaterThanOrEqual(e.startEpoch!);
  expect(new Date(e.start!).getTime() / 1000).toBe(e.startEpoch);
}

const MONITORS = ['monitors/vmstat-1.txt', 'monitors/mpstat-P-ALL-1.txt', 'monitors/pidstat-1.txt', 'monitors/iostat-xz-1.txt',
  'monitors/sar-n-DEV-1.txt', 'monitors/sar-n-TCP,ETCP-1.txt', 'monitors/top-b-d-1.txt'];
const SNAPSHOTS = ['uptime', 'free-m', 'ss-s', 'proc-interrupts'].flatMap((s) => [`snapshots/${s}-start.txt`, `snapshots/${s}-end.txt`]);
const FACTS = ['lscpu', 'proc-cpuinfo', 'free', 'proc-meminfo', 'lsblk', 'fdisk-l', 'uname-a', 'os-release', 'sysctl-a', 'ulimit-a', 'proc-self-limits'].map((f) => `facts/${f}.txt`);

/** What the parsers must recognise each kit file as (files not listed here have no parser yet). */
const KINDS: Record<string, string> = {
  'facts/lscpu.txt': 'lscpu', 'facts/proc-cpuinfo.txt': 'proc-cpuinfo', 'facts/free.txt': 'free', 'facts/proc-meminfo.txt': 'proc-meminfo',
  'facts/uname-a.txt': 'uname', 'facts/os-release.txt': 'os-release', 'facts/sysctl-a.txt': 'sysctl', 'facts/ulimit-a.txt': 'ulimit',
  'facts/proc-self-limits.txt': 'ulimit',
  'monitors/vmstat-1.txt': 'vmstat', 'monitors/mpstat-P-ALL-1.txt': 'mpstat', 'monitors/pidstat-1.txt': 'pidstat', 'monitors/iostat-xz-1.txt': 'iostat',
  'monitors/sar-n-DEV-1.txt': 'sar', 'monitors/sar-n-TCP,ETCP-1.txt': 'sar', 'monitors/top-b-d-1.txt': 'top',
  'snapshots/free-m-start.txt': 'free', 'snapshots/free-m-end.txt': 'free', 'snapshots/ss-s-start.txt': 'ss', 'snapshots/ss-s-end.txt': 'ss',
  'snapshots/proc-interrupts-start.txt': 'proc-interrupts', 'snapshots/proc-interrupts-end.txt': 'proc-interrupts',
};

/** The kind of each file of an extracted kit (by its path in the kit), as `tunebook parse --json DIR` says. */
async function parsedKinds(top: string, files: readonly string[]): Promise<Map<string, string>> {
  const { cli } = await buildBundles();
  const r = spawnSync(process.execPath, [cli, 'parse', '--json', top], { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  expect(r.stderr).toBe('');
  const out = JSON.parse(r.stdout) as { file: string; kind: string }[];
  expect(out).toHaveLength(files.length);
  const byName = new Map(out.map((c) => [c.file, c.kind]));
  expect(byName.size).toBe(files.length);
  return new Map(files.map((f) => [f, byName.get(f) ?? '(no entry)']));
}

let work = '';
beforeAll(() => {
  const missing = NEEDED.filter((t) => !which(t));
  if (missing.length) throw new Error(`the kit tests need ${missing.join(', ')} (Debian: apt-get install dash sysstat procps util-linux fdisk e2fsprogs iproute2 apache2-utils)`);
  work = mkdtempSync(path.join(tmpdir(), 'tunebook-kit-test-'));
});
afterAll(() => { if (work) rmSync(work, { recursive: true, force: true }); });

function dir(name: string): string {
  const d = path.join(work, name);
  mkdirSync(d, { recursive: true });
  return d;
}

describe('kit.ts', () => {
  test('kitScript() is collect.sh (collectScript.ts is regenerated), and KIT_VERSION is the script\'s', () => {
    expect(kitScript()).toBe(readFileSync(SCRIPT, 'utf8'));
    expect(KIT_VERSION).toMatch(/^\d+\.\d+\.\d+$/);
    expect(kitScript()).toContain(`\nKIT_VERSION=${KIT_VERSION}\n`);
  });

  test('the script is valid sh for dash and bash, and shellcheck -s sh finds nothing', () => {
    for (const sh of ['dash', 'bash']) {
      const r = spawnSync(sh, ['-n', SCRIPT], { encoding: 'utf8' });
      expect(r.stderr).toBe('');
      expect(r.status).toBe(0);
    }
    if (which('shellcheck')) {
      const r = spawnSync('shellcheck', ['-s', 'sh', SCRIPT], { encoding: 'utf8' });
      expect(r.stdout).toBe('');
      expect(r.status).toBe(0);
    }
  });
});

describe('collect.sh', () => {
  test('dash, -d 2: facts, snapshots and monitors with samples in one archive, with a manifest; the parsers know the files', async () => {
    const cwd = dir('dash-duration');
    const tmp = dir('dash-duration-tmp');
    const r = await runKit(['dash', SCRIPT, '-d', '2', '-o', 'out.tar.gz'], { cwd, env: { ...process.env, TMPDIR: tmp } });
    expect(r.stderr).toContain('wrote ' + path.join(cwd, 'out.tar.gz'));
    expect(r.code).toBe(0);
    expect(r.ms).toBeLessThan(20_000);
    expect(readdirSync(tmp)).toEqual([]); // its temporary folder is gone
    expect(groupProcesses(r.pgid)).toEqual([]);
    expect(statSync(path.join(cwd, 'out.tar.gz')).mode & 0o777).toBe(0o600);

    const { top, manifest: m, files } = extract(path.join(cwd, 'out.tar.gz'), dir('dash-duration-x'));
    expect(files).toEqual(expect.arrayContaining(['manifest.json', ...FACTS, ...MONITORS, ...SNAPSHOTS]));
    expect(m).toMatchObject({ format: 'tunebook-kit', formatVersion: 1, kitVersion: KIT_VERSION, mode: 'duration', durationSeconds: 2, tailSeconds: null });
    expect(m.hostname).toBe(spawnSync('hostname', { encoding: 'utf8' }).stdout.trim());
    expect(m.uid).toBe(process.getuid!());
    expect(m.shell).toMatch(/dash$/);
    expect(m.started).toMatch(ISO);
    expect(m.endedEpoch - m.startedEpoch).toBeGreaterThanOrEqual(2);
    expect(path.basename(top)).toMatch(/^tunebook-[A-Za-z0-9._-]+-\d{8}T\d{6}Z$/);
    // every entry's file is in the archive; the monitors ran with a count and ended by themselves
    for (const e of m.entries) if (e.file) expect(files).toContain(e.file);
    for (const f of MONITORS) {
      const e = entry(m, f);
      expect(e).toMatchObject({ phase: 'monitor', status: 'ok', exitStatus: 0, stoppedByKit: false, reason: null });
      expect(e.version).toMatch(/\d+\.\d+/);
      expect(e.command).toMatch(/ 2$/);
      expectTimes(e);
      expect(e.bytes).toBe(statSync(path.join(top, f)).size);
    }
    expect(entry(m, 'monitors/vmstat-1.txt').command).toBe('vmstat 1 2');
    expect(entry(m, 'monitors/sar-n-TCP,ETCP-1.txt').command).toBe('sar -n TCP,ETCP 1 2');
    expect(entry(m, 'facts/lscpu.txt')).toMatchObject({ phase: 'facts', status: 'ok', exitStatus: 0, command: 'lscpu' });
    expect(entry(m, 'facts/lscpu.txt').version).toMatch(/^lscpu from util-linux /);
    expect(entry(m, 'facts/proc-cpuinfo.txt')).toMatchObject({ tool: '/proc/cpuinfo', command: 'cat /proc/cpuinfo', status: 'ok' });
    expect(entry(m, 'facts/ulimit-a.txt')).toMatchObject({ tool: 'ulimit', status: 'ok' });
    // samples, not just headers: vmstat 1 2 prints two lines of numbers, mpstat has the "all" rows
    const vmstat = readFileSync(path.join(top, 'monitors/vmstat-1.txt'), 'utf8').split('\n').filter((l) => /^\s*\d+(\s+\d+){15,}\s*$/.test(l));
    expect(vmstat).toHaveLength(2);
    expect(readFileSync(path.join(top, 'monitors/mpstat-P-ALL-1.txt'), 'utf8')).toMatch(/^Average:\s+all\s/m);
    expect(readFileSync(path.join(top, 'monitors/top-b-d-1.txt'), 'utf8').match(/^top - /gm)).toHaveLength(2);
    expect(readFileSync(path.join(top, 'snapshots/proc-interrupts-end.txt'), 'utf8')).toMatch(/^\s+CPU0/);
    // LC_ALL=C: decimal points, not commas
    expect(readFileSync(path.join(top, 'monitors/iostat-xz-1.txt'), 'utf8')).toMatch(/\d\.\d\d/);

    const kinds = await parsedKinds(top, files);
    const wrong = Object.entries(KINDS).filter(([f, kind]) => kinds.get(f) !== kind).map(([f, kind]) => `${f}: ${kinds.get(f)} (want ${kind})`);
    expect(wrong).toEqual([]);
  });

  test('bash, around ab against a local server: the command\'s output shown and kept, its status, monitors stopped after it', async () => {
    let requests = 0;
    const server = createServer((req, res) => { requests++; res.end('kit test\n'); });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/kit?a=1`;
    const cwd = dir('bash-ab');
    try {
      const r = await runKit(['bash', SCRIPT, '-o', 'ab.tar.gz', '--', 'ab', '-n', '200', '-c', '10', url], { cwd });
      expect(r.code).toBe(0);
      expect(requests).toBe(200);
      expect(r.ms).toBeLessThan(25_000);
      expect(r.stdout).toMatch(/Complete requests:\s+200/); // shown (tee) ...
      expect(groupProcesses(r.pgid)).toEqual([]);
      const { top, manifest: m, files } = extract(path.join(cwd, 'ab.tar.gz'), dir('bash-ab-x'));
      expect(files).toEqual(expect.arrayContaining(['command/stdout.txt', 'command/stderr.txt', ...MONITORS]));
      const stdout = readFileSync(path.join(top, 'command/stdout.txt'), 'utf8');
      expect(stdout).toMatch(/Complete requests:\s+200/); // ... and kept
      expect(stdout).toBe(r.stdout);
      expect(m).toMatchObject({ mode: 'command', durationSeconds: null, tailSeconds: 3 });
      expect(m.shell).toMatch(/bash$/);
      const cmd = entry(m, 'command/stdout.txt');
      expect(cmd).toMatchObject({ phase: 'command', tool: 'ab', exitStatus: 0, status: 'ok', stderrFile: 'command/stderr.txt', argv: ['ab', '-n', '200', '-c', '10', url] });
      expect(cmd.command).toBe(`ab -n 200 -c 10 '${url}'`);
      expect(cmd.version).toMatch(/^This is ApacheBench, Version /);
      expectTimes(cmd);
      for (const f of MONITORS) {
        const e = entry(m, f);
        expect(e).toMatchObject({ stoppedByKit: true, status: 'ok' });
        expect(e.command).not.toMatch(/ \d+ \d+$|-n \d+$/); // no count: they ran until stopped
        // started before the command, ended after it
        expect(e.startEpoch!).toBeLessThanOrEqual(cmd.startEpoch!);
        expect(e.endEpoch!).toBeGreaterThanOrEqual(cmd.endEpoch! + 3);
      }
      expect(readFileSync(path.join(top, 'monitors/vmstat-1.txt'), 'utf8').split('\n').filter((l) => /^\s*\d+(\s+\d+){15,}\s*$/.test(l)).length).toBeGreaterThanOrEqual(4);
      const kinds = await parsedKinds(top, files);
      expect(kinds.get('command/stdout.txt')).toBe('ab');
      expect(kinds.get('facts/ulimit-a.txt')).toBe('ulimit'); // bash's ulimit -a, not dash's
      expect(kinds.get('monitors/sar-n-DEV-1.txt')).toBe('sar');
    } finally {
      server.close();
    }
  });

  test('dash, a failing command with awkward arguments: status, stderr and argv recorded exactly', async () => {
    const cwd = dir('dash-fail');
    const odd = 'quote" back\\slash\ttab\nnewline \'single\' $HOME';
    const r = await runKit(['dash', SCRIPT, '-o', 'f.tar.gz', '--', 'sh', '-c', 'printf "%s\\n" "$1"; echo oops >&2; exit 3', 'x', odd], { cwd });
    expect(r.code).toBe(0);
    expect(r.stdout).toBe(`${odd}\n`);
    expect(r.stderr).toContain('oops\n');
    const { top, manifest: m } = extract(path.join(cwd, 'f.tar.gz'), dir('dash-fail-x'));
    const cmd = entry(m, 'command/stdout.txt');
    expect(cmd).toMatchObject({ exitStatus: 3, status: 'failed', reason: 'exit status 3: oops', argv: ['sh', '-c', 'printf "%s\\n" "$1"; echo oops >&2; exit 3', 'x', odd] });
    expect(readFileSync(path.join(top, 'command/stdout.txt'), 'utf8')).toBe(`${odd}\n`);
    expect(readFileSync(path.join(top, 'command/stderr.txt'), 'utf8')).toBe('oops\n');
    // the quoted command line, run by a shell, gives back the same arguments
    const echo = spawnSync('sh', ['-c', `set -- ${cmd.command}; printf '%s\\0' "$@"`], { encoding: 'utf8' });
    expect(echo.stdout.split('\0').slice(0, -1)).toEqual(cmd.argv);
  });

  test('tools missing from PATH are skipped and said so; the run still succeeds', async () => {
    const bin = dir('some-bin');
    // no sysstat (mpstat, pidstat, iostat, sar) and no lsblk
    for (const tool of ['awk', 'sed', 'tar', 'gzip', 'date', 'mkdir', 'rm', 'cat', 'tee', 'sleep', 'mktemp', 'hostname', 'uname', 'id', 'wc', 'readlink',
      'vmstat', 'top', 'free', 'uptime', 'ss', 'lscpu']) {
      symlinkSync(which(tool)!, path.join(bin, tool));
    }
    const cwd = dir('missing');
    const r = await runKit([which('dash')!, SCRIPT, '-d', '1', '-o', 'm.tar.gz'], { cwd, env: { ...process.env, PATH: bin } });
    expect(r.code).toBe(0);
    for (const tool of ['mpstat', 'pidstat', 'iostat', 'sar', 'lsblk']) expect(r.stderr).toMatch(new RegExp(`^collect\\.sh: skipped ${tool}\\b.*\\b${tool} not found in PATH`, 'm'));
    const { manifest: m, files } = extract(path.join(cwd, 'm.tar.gz'), dir('missing-x'));
    const removed = ['mpstat', 'pidstat', 'iostat', 'sar', 'lsblk'];
    const skipped = m.entries.filter((e) => e.status === 'skipped' && removed.includes(e.tool));
    expect(m.entries.filter((e) => e.status === 'skipped' && e.phase !== 'facts').map((e) => e.tool).sort()).toEqual(['iostat', 'mpstat', 'pidstat', 'sar', 'sar']);
    expect(skipped.map((e) => e.command).sort()).toEqual(['iostat -xz 1 1', 'lsblk', 'mpstat -P ALL 1 1', 'pidstat 1 1', 'sar -n DEV 1 1', 'sar -n TCP,ETCP 1 1']);
    for (const e of skipped) {
      expect(e.file).toBeNull();
      expect(e.reason).toMatch(new RegExp(`^${e.tool} not found in PATH \\(package: `));
    }
    expect(entry(m, 'monitors/vmstat-1.txt').status).toBe('ok');
    expect(files).not.toContain('monitors/mpstat-P-ALL-1.txt');
  });

  test.skipIf(!which('busybox'))('busybox sh with busybox awk, sed, tar, date …: the same archive and manifest', async () => {
    const bin = dir('busybox-bin');
    for (const tool of ['sh', 'awk', 'sed', 'tar', 'gzip', 'date', 'mkdir', 'rm', 'cat', 'tee', 'sleep', 'mktemp', 'hostname', 'uname', 'id', 'wc', 'readlink', 'free', 'uptime']) {
      symlinkSync(which('busybox')!, path.join(bin, tool));
    }
    const cwd = dir('busybox');
    const r = await runKit([path.join(bin, 'sh'), SCRIPT, '-d', '1', '-o', 'b.tar.gz'], { cwd, env: { ...process.env, PATH: `${bin}:/usr/bin:/bin` } });
    expect(r.stderr).toContain('wrote ');
    expect(r.code).toBe(0);
    const { manifest: m, files } = extract(path.join(cwd, 'b.tar.gz'), dir('busybox-x'));
    expect(m.shell).toMatch(/busybox$/);
    expect(entry(m, 'facts/free.txt')).toMatchObject({ path: path.join(bin, 'free'), status: 'ok' });
    expect(entry(m, 'monitors/vmstat-1.txt')).toMatchObject({ status: 'ok', exitStatus: 0 });
    expect(files).toEqual(expect.arrayContaining(['manifest.json', ...MONITORS]));
  });

  test('as an unprivileged user, in a world-writable folder: fdisk and tune2fs fail and are recorded, the rest is there', async () => {
    const cwd = dir('nobody');
    chmodSync(cwd, 0o1777);
    chmodSync(work, 0o755);
    const script = path.join(cwd, 'collect.sh');
    copyFileSync(SCRIPT, script);
    chmodSync(script, 0o644);
    const root = process.getuid!() === 0;
    const argv = [...(root ? ['runuser', '-u', 'nobody', '--'] : []), 'dash', script, '-d', '1', '-o', 'n.tar.gz'];
    const r = await runKit(argv, { cwd });
    expect(r.stderr).toContain('wrote ');
    expect(r.code).toBe(0);
    const archive = path.join(cwd, 'n.tar.gz');
    if (root) expect(statSync(archive).uid).toBe(65534);
    const { manifest: m } = extract(archive, dir('nobody-x'));
    expect(m.uid).not.toBe(0);
    const fdisk = entry(m, 'facts/fdisk-l.txt');
    // unprivileged fdisk -l opens no disk: it exits 1, or 0 having said only "Permission denied"
    expect(fdisk.status).toBe('failed');
    expect(fdisk.reason).toBeTruthy();
    const tune2fs = m.entries.filter((e) => e.tool === 'tune2fs');
    expect(tune2fs.length).toBeGreaterThan(0);
    for (const e of tune2fs) {
      expect(['failed', 'skipped']).toContain(e.status);
      expect(e.reason).toBeTruthy();
    }
    const sysctl = entry(m, 'facts/sysctl-a.txt');
    expect(sysctl.status).toBe('ok');
    expect(sysctl.bytes).toBeGreaterThan(1000);
    // keys only root may read are said, not fatal (kernel.cad_pid … on Linux)
    if (sysctl.stderrFile) expect(sysctl.note).toMatch(/^\d+ keys not readable \(permission denied\), listed in facts\/sysctl-a\.err$/);
    expect(entry(m, 'monitors/vmstat-1.txt').status).toBe('ok');
  });

  test('bad arguments: exit 2 with the usage; -h prints it and exits 0', async () => {
    const cwd = dir('args');
    writeFileSync(path.join(cwd, 'there.tar.gz'), 'not mine');
    for (const sh of ['dash', 'bash']) {
      for (const args of [['-d', 'abc'], ['-d', '0'], ['-d', '1.5'], ['-d', ''], ['-d'], ['-x'], ['-o', 'there.tar.gz'], ['-o', 'no/such/dir/x.tar.gz'], ['--', 'no-such-command-kit-test']]) {
        const r = spawnSync(sh, [SCRIPT, ...args], { cwd, encoding: 'utf8', timeout: 10_000 });
        expect(r.status, `${sh} ${args.join(' ')}`).toBe(2);
        expect(r.stderr).toMatch(/^collect\.sh: .+\nUsage: sh collect\.sh \[-d SECONDS\] \[-o FILE\.tar\.gz\] \[-- COMMAND ARGS\.\.\.\]\n/);
        expect(r.stdout).toBe('');
      }
      const h = spawnSync(sh, [SCRIPT, '-h'], { cwd, encoding: 'utf8' });
      expect(h.status).toBe(0);
      expect(h.stdout).toMatch(/^Usage: sh collect\.sh/);
    }
    expect(readFileSync(path.join(cwd, 'there.tar.gz'), 'utf8')).toBe('not mine');
    expect(readdirSync(cwd)).toEqual(['there.tar.gz']);
  });

  test('SIGTERM with its stderr already closed (a reader that went away) still stops the monitors and cleans up', async () => {
    const cwd = dir('term');
    const tmp = dir('term-tmp');
    const r = await runKit(['dash', SCRIPT, '-d', '30', '-o', 't.tar.gz'], {
      cwd, env: { ...process.env, TMPDIR: tmp }, timeoutMs: 20_000,
      onStart: (pid, stderr, closeStderr) => {
        const poll = setInterval(() => {
          if (!stderr().includes('monitoring for')) return;
          clearInterval(poll);
          setTimeout(() => { closeStderr(); process.kill(pid, 'SIGTERM'); }, 1000);
        }, 50);
      },
    });
    expect(r.signal === 'SIGTERM' || r.code === 143).toBe(true);
    expect(groupProcesses(r.pgid)).toEqual([]);
    expect(readdirSync(tmp)).toEqual([]);
    expect(existsSync(path.join(cwd, 't.tar.gz'))).toBe(false);
  });

  /** Ctrl+C (SIGINT to the whole group) `delayMs` after the kit says it is monitoring. */
  async function ctrlC(sh: string, name: string, delayMs: number): Promise<{ r: Run; during: string[]; tmp: string; cwd: string; what: string }> {
    const cwd = dir(`int-${name}`);
    const tmp = dir(`int-${name}-tmp`);
    let during: string[] = [];
    const r = await runKit([sh, SCRIPT, '-d', '30', '-o', 'i.tar.gz'], {
      cwd, env: { ...process.env, TMPDIR: tmp }, timeoutMs: 25_000,
      onStart: (pid, stderr) => {
        const poll = setInterval(() => {
          if (!stderr().includes('monitoring for')) return;
          clearInterval(poll);
          setTimeout(() => { during = groupProcesses(pid); process.kill(-pid, 'SIGINT'); }, delayMs);
        }, 20);
      },
    });
    const what = `${sh}, Ctrl+C ${delayMs} ms in: code ${r.code}, signal ${r.signal}, ${r.ms} ms, stderr ${JSON.stringify(r.stderr.slice(-300))}`;
    return { r, during, tmp, cwd, what };
  }

  /** What any Ctrl+C must leave: the kit killed by SIGINT, in bounded time, and nothing behind. */
  function expectStopped({ r, tmp, cwd, what }: { r: Run; tmp: string; cwd: string; what: string }): void {
    expect(r.signal === 'SIGINT' || r.code === 130, what).toBe(true);
    expect(r.ms, what).toBeLessThan(15_000);
    expect(r.stderr, what).toContain('no archive written');
    expect(groupProcesses(r.pgid), what).toEqual([]);
    expect(readdirSync(tmp), what).toEqual([]);
    expect(existsSync(path.join(cwd, 'i.tar.gz')), what).toBe(false);
  }

  for (const sh of ['dash', 'bash']) {
    test(`${sh}: Ctrl+C stops every monitor, removes the temporary folder and writes no archive`, async () => {
      // let the monitors (and sar's sadc) start, then Ctrl+C
      const run = await ctrlC(sh, sh, 1500);
      expect(run.during.join(' '), run.what).toMatch(/vmstat/);
      expect(run.during.join(' '), run.what).toMatch(/sadc/);
      expectStopped(run);
    });

    // A Ctrl+C while the monitors are being forked: one listed after its fork could be left running
    // (the kit then waited for it), and one whose subshell died could make the kit wait for its pid.
    test(`${sh}: Ctrl+C while the monitors are being started stops them all and leaves nothing behind`, async () => {
      for (const delayMs of [0, 120, 240]) expectStopped(await ctrlC(sh, `${sh}-${delayMs}`, delayMs));
    });
  }
});
