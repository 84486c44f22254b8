/**
 * `tunebook parse` end to end: the built CLI on the seed captures, the public JSON shape, and the
 * seed figures of case study C asserted exactly.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SEED_CAPTURES, seedPath as seed } from '../helpers';

let dir = '';
let cli = '';
/** a folder holding the six seed captures, as a user would drop it */
let seeds = '';
// the bundle lives in a temp folder: let it find better-sqlite3 in this checkout
const env = { ...process.env, NODE_PATH: path.join(__dirname, '..', '..', 'node_modules') };

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'tunebook-cli-'));
  seeds = path.join(dir, 'seed-captures');
  mkdirSync(seeds);
  for (const name of Object.keys(SEED_CAPTURES) as (keyof typeof SEED_CAPTURES)[]) copyFileSync(seed(name), path.join(seeds, name));
  cli = path.join(dir, 'cli.cjs');
  const { build } = await import('esbuild');
  await build({ entryPoints: [path.join(__dirname, '..', '..', 'electron', 'cli', 'main.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: cli, external: ['better-sqlite3', 'electron'], logLevel: 'silent' });
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

interface Json {
  file: string; kind: string; confidence: number; command?: string; toolVersion?: string;
  metrics: { name: string; value: number; unit: string; labels?: Record<string, string> }[];
  series: { name: string; column: string; labels?: Record<string, string>; count: number; min: number; max: number; mean: number; last: number; values?: number[] }[];
  facts: Record<string, unknown>; settings: Record<string, string>;
  findings: { id: string; severity: string; message: string }[]; warnings: string[];
}

function parse(...args: string[]): Json | Json[] {
  return JSON.parse(execFileSync(process.execPath, [cli, 'parse', '--json', ...args], { encoding: 'utf8', env: { ...env, TUNEBOOK_USER_DATA: dir } })) as Json | Json[];
}
const metric = (j: Json, name: string, labels: Record<string, string> = {}) =>
  j.metrics.find((m) => m.name === name && Object.entries(labels).every(([k, v]) => m.labels?.[k] === v));

describe('tunebook parse --json', () => {
  it('reads the random-write fio seed: IOPS 2197, 8788 KiB/s', () => {
    const j = parse(seed('fio-randwrite-4k-qd64-j64.txt')) as Json;
    expect(j).toMatchObject({ file: 'fio-randwrite-4k-qd64-j64.txt', kind: 'fio', toolVersion: 'fio-3.7' });
    expect(j.confidence).toBeGreaterThanOrEqual(0.9);
    expect(j.command).toMatch(/^fio -filename=\/home\/~\/testfile .*-rw=randwrite/);
    expect(metric(j, 'iops', { direction: 'write' })).toMatchObject({ value: 2197, unit: '1/s' });
    expect(metric(j, 'bandwidth_bytes_per_second', { direction: 'write' })).toMatchObject({ value: 8788 * 1024, unit: 'B/s' });
    expect(metric(j, 'latency_p99_seconds', { direction: 'write', phase: 'clat' })!.value).toBeCloseTo(4.799, 9);
  });

  it('reads the sequential-write fio seed: IOPS 43.0k, 168 MiB/s', () => {
    const j = parse(seed('fio-write-4k-qd64-j64.txt')) as Json;
    expect(metric(j, 'iops', { direction: 'write' })!.value).toBe(43000);
    expect(metric(j, 'bandwidth_bytes_per_second', { direction: 'write' })!.value).toBe(168 * 1024 * 1024);
  });

  it('reads the iostat seed: 21 samples, the since-boot one left out of the summary', () => {
    const j = parse(seed('iostat-x-d-1-during-randwrite.txt')) as Json;
    expect(j.kind).toBe('iostat');
    const ws = j.series.find((s) => s.column === 'w/s' && s.labels?.device === 'vda')!;
    expect(ws).toMatchObject({ name: 'writes_per_second', count: 21, min: 779, max: 2270, last: 779 });
    const seq = parse('--series', seed('iostat-x-d-1-during-seqwrite.txt')) as Json;
    const wkb = seq.series.find((s) => s.column === 'wkB/s')!;
    expect(wkb.values![1]).toBe(170552 * 1024);
  });

  it('reads hardware facts from the fdisk and tune2fs seeds', () => {
    const fdisk = parse(seed('fdisk-l-vda.txt')) as Json;
    expect(fdisk.kind).toBe('fdisk');
    expect(JSON.stringify(fdisk.facts)).toContain('53687091200');
    const tune = parse(seed('tune2fs-block-size.txt')) as Json;
    expect(tune.kind).toBe('tune2fs');
    expect(tune.facts.filesystem_block_bytes).toBe(4096);
  });

  it('parses a folder as one set: an array, and findings that see every file', () => {
    const all = parse(seeds) as Json[];
    expect(Array.isArray(all)).toBe(true);
    expect(all.map((j) => j.file)).toEqual(['fdisk-l-vda.txt', 'fio-randwrite-4k-qd64-j64.txt', 'fio-write-4k-qd64-j64.txt',
      'iostat-x-d-1-during-randwrite.txt', 'iostat-x-d-1-during-seqwrite.txt', 'tune2fs-block-size.txt']);
    const rand = all.find((j) => j.file === 'iostat-x-d-1-during-randwrite.txt')!;
    expect(rand.findings.map((f) => f.id)).toContain('io.random-writes');
    const seq = all.find((j) => j.file === 'iostat-x-d-1-during-seqwrite.txt')!;
    expect(seq.findings.map((f) => f.id)).toContain('io.sequential-writes');
  });

  it('keeps an unknown file as text with a warning, and summarizes series unless --series', () => {
    const f = path.join(dir, 'notes.txt');
    writeFileSync(f, 'we restarted php-fpm at 10:02\n');
    const j = parse(f) as Json;
    expect(j).toMatchObject({ kind: 'text', metrics: [], series: [] });
    expect(j.warnings[0]).toMatch(/kept as plain text/);
    const iostat = parse(seed('iostat-x-d-1-during-randwrite.txt')) as Json;
    expect(iostat.series[0]!.values).toBeUndefined();
  });

  it('fails clearly on a missing file or an unknown --kind', () => {
    const missing = spawnSync(process.execPath, [cli, 'parse', path.join(dir, 'nope.txt')], { encoding: 'utf8', env });
    expect(missing.status).toBe(2);
    expect(missing.stderr).toMatch(/no such file or folder/);
    const kind = spawnSync(process.execPath, [cli, 'parse', '--kind', 'bogus', seed('fdisk-l-vda.txt')], { encoding: 'utf8', env });
    expect(kind.status).toBe(2);
    expect(kind.stderr).toMatch(/unknown kind "bogus"/);
    const forced = parse('--kind', 'text', seed('fdisk-l-vda.txt')) as Json;
    expect(forced.kind).toBe('text');
  });

  it('prints a readable summary without --json', () => {
    const out = execFileSync(process.execPath, [cli, 'parse', seed('fio-write-4k-qd64-j64.txt')], { encoding: 'utf8', env });
    expect(out).toMatch(/fio-write-4k-qd64-j64.txt: fio/);
    expect(out).toMatch(/iops \{direction=write\} = 43,000 1\/s/);
  });
});

describe('tunebook diff', () => {
  it('turns two sysctl snapshots into config changes (case study B, step 4)', () => {
    const before = path.join(dir, 'sysctl-before.txt');
    const after = path.join(dir, 'sysctl-after.txt');
    writeFileSync(before, 'net.ipv4.tcp_max_tw_buckets = 262144\nnet.ipv4.ip_local_port_range = 32768\t60999\nnet.ipv4.tcp_tw_reuse = 0\nvm.swappiness = 30\n');
    writeFileSync(after, 'net.ipv4.tcp_max_tw_buckets = 6000\nnet.ipv4.ip_local_port_range = 1024\t65000\nnet.ipv4.tcp_tw_reuse = 1\nnet.ipv4.tcp_tw_recycle = 1\nvm.swappiness = 30\n');
    const out = JSON.parse(execFileSync(process.execPath, [cli, 'diff', '--json', before, after], { encoding: 'utf8', env })) as unknown[];
    expect(out).toEqual([
      { scope: 'sysctl', key: 'net.ipv4.ip_local_port_range', before: '32768\t60999', after: '1024\t65000' },
      { scope: 'sysctl', key: 'net.ipv4.tcp_max_tw_buckets', before: '262144', after: '6000' },
      { scope: 'sysctl', key: 'net.ipv4.tcp_tw_recycle', before: null, after: '1' },
      { scope: 'sysctl', key: 'net.ipv4.tcp_tw_reuse', before: '0', after: '1' },
    ]);
    const text = execFileSync(process.execPath, [cli, 'diff', before, after], { encoding: 'utf8', env });
    expect(text).toContain('net.ipv4.tcp_tw_recycle: (unset) → 1');
    const bad = spawnSync(process.execPath, [cli, 'diff', before, seed('fdisk-l-vda.txt')], { encoding: 'utf8', env });
    expect(bad.status).toBe(2);
    expect(bad.stderr).toMatch(/holds no settings/);
  });
});
