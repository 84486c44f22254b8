/**
 * A long capture parsed in two threads (electron/services/halfParse.ts, the built half worker): the
 * same parse as one thread gives, through parseFile and through the built CLI; one whose halves do
 * not join is read again in one piece; short files, and kinds that cannot be cut, are not cut.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseFile } from '../../electron/services/captureFiles';
import { stageCapture } from '../../electron/services/captureStore';
import { HalvedStream, spawnHalfWorker, startSecondHalf, splitMinBytes } from '../../electron/services/halfParse';
import { captureDecoder } from '../../shared/capture/decode';
import { CaptureStream } from '../../shared/capture/registry';
import { toCaptureJson } from '../../shared/capture/json';
import { SplitMismatch, joinHalves } from '../../shared/capture/split';
import type { ParsedCapture } from '../../shared/capture/types';
import { buildBundles } from '../helpers';
import type { Worker } from 'node:worker_threads';

const FIX = path.join(__dirname, '..', 'fixtures', 'captures');
const fixture = (f: string): string => readFileSync(path.join(FIX, f), 'utf8');
const json = (c: ParsedCapture): string => JSON.stringify(toCaptureJson(c, { series: true, tables: true }));

let tmp = '';
let worker = '';
let cli = '';
const files: Record<string, string> = {};

/** the rows of a vmstat capture under its header, again and again (`lead`: lines before the header) */
function vmLog(f: string, rows: number, lead = ''): string {
  const lines = fixture(f).trimEnd().split('\n');
  const header = lines.findIndex((l) => /^\s*r\s+b\s/.test(l));
  const body = lines.slice(header + 1);
  const out = [lead + lines.slice(0, header + 1).join('\n')];
  for (let i = 0; i < rows; i++) out.push(body[i % body.length]!);
  return out.join('\n') + '\n';
}

/** an iostat capture's reports after its banner, again and again */
function iostatLog(f: string, times: number): string {
  const lines = fixture(f).split('\n');
  const banner = lines.findIndex((l) => l.startsWith('Linux '));
  return lines.slice(0, banner + 1).join('\n') + '\n' + lines.slice(banner + 1).join('\n').replace(/\n*$/, '\n').repeat(times);
}

beforeAll(async () => {
  tmp = mkdtempSync(path.join(os.tmpdir(), 'tb-half-'));
  const b = await buildBundles();
  worker = path.join(b.dir, 'halfWorker.cjs');
  cli = b.cli;
  const write = (name: string, text: string): void => { files[name] = path.join(tmp, name); writeFileSync(files[name]!, text); };
  // 70,000 rows: more than a series keeps (50,000 points), so every series is thinned
  write('vmstat.log', vmLog('vmstat/plain-1-30.txt', 70_000, '$ vmstat 1\n'));
  // the others 3–5 MB: cut past the hosts' first 1 MiB read (the kind is known after it)
  write('vmstat-t.log', vmLog('vmstat/t-1-3.txt', 30_000));
  write('iostat-x-t.log', iostatLog('iostat/x-t-1-3.txt', 3_000));
  write('iostat-d.log', iostatLog('iostat/d-k-1-2.txt', 8_000));
  // no command line: each half guesses the memory unit from its first row, and says so: they do not join
  write('vmstat-SM.log', vmLog('vmstat/SM-1-3.txt', 40_000));
  write('pidstat.log', fixture('pidstat/urd-1-2.txt').repeat(200));
  write('iostat-p-all.log', iostatLog('iostat/x-p-all-1-2.txt', 400));
  // more series than an import cuts in two (SPLIT_MAX_SERIES, 256): -p ALL's loop devices again as nbd0–7, 402 series
  write('iostat-many.log', iostatLog('iostat/x-p-all-1-2.txt', 400).replace(/^loop(\d)( +)(.*)$/gm, (l, n: string, sp: string, rest: string) => `${l}\nnbd${n} ${sp}${rest}`));
}, 120_000);

afterAll(() => { if (tmp) rmSync(tmp, { recursive: true, force: true }); });

describe('a long capture in two threads', () => {
  it.each(['vmstat.log', 'vmstat-t.log', 'iostat-x-t.log', 'iostat-d.log', 'vmstat-SM.log'])('%s: the same parse as one thread', async (name) => {
    const file = files[name]!;
    const whole = await parseFile(file, { split: false });
    expect(whole.warnings.filter((w) => !w.includes('MiB'))).toEqual([]);
    process.env.TUNEBOOK_SPLIT_MIN_BYTES = '1';
    try {
      const seen: number[] = [];
      const halves = await parseFile(file, { halfWorker: worker, onProgress: (read, total) => { expect(total).toBe(statSync(file).size); seen.push(read); } });
      expect(json(halves)).toBe(json(whole));
      // bytes parsed by both threads: never back, up to the whole file
      expect(seen.every((x, i) => i === 0 || x >= seen[i - 1]!)).toBe(true);
      expect(seen.at(-1)).toBe(statSync(file).size);
    } finally {
      delete process.env.TUNEBOOK_SPLIT_MIN_BYTES;
    }
  }, 60_000);

  it('cuts about half way, counts the samples before the cut, and sends the rest back joined', async () => {
    const file = files['vmstat.log']!;
    const size = statSync(file).size;
    const totals: number[] = [];
    const afters: number[] = [];
    const half = startSecondHalf(file, size, 'vmstat', { name: 'vmstat.log', worker, minBytes: 1, onAfter: (n) => afters.push(n), onTotal: (n) => totals.push(n) })!;
    expect(half).not.toBeNull();
    expect(Math.abs(half.at - size / 2)).toBeLessThan(1000);
    const second = await half.result();
    // the rows before the cut (the capture repeats its two header lines every screenful)
    const rows = (text: string): number => text.split('\n').filter((l) => /^\s*\d/.test(l)).length;
    const text = readFileSync(file, 'latin1');
    const rowsBefore = rows(text.slice(0, half.at));
    expect(rowsBefore).toBeGreaterThan(30_000);
    expect(second.base).toBe(rowsBefore);
    // and every row of the file, told the host once, before the half came back
    expect(totals).toEqual([rows(text)]);
    // and, before that, the rows after the cut counted so far (every 16 MiB): never more than there are
    expect(afters.length).toBeGreaterThan(0);
    for (const n of afters) expect(n).toBeLessThan(rows(text) - rowsBefore);
    expect(second.total).toBe(rows(text));
    expect(second.out.series.length).toBe(17);
    expect(second.out.series[0]!.stride).toBe(2);
    expect(second.out.series[0]!.values).toBeInstanceOf(Float64Array);
  }, 60_000);

  it.each([['vmstat.log', true], ['iostat-x-t.log', true], ['iostat-d.log', true], ['vmstat-SM.log', false]] as const)('%s: the host stream reads to the cut and joins the rest (%s)', async (name, joins) => {
    const file = files[name]!;
    const bytes = readFileSync(file);
    const stream = new CaptureStream({ file: name });
    const halved = new HalvedStream(stream, captureDecoder(), file, bytes.length, { name, split: true, worker });
    process.env.TUNEBOOK_SPLIT_MIN_BYTES = '1';
    let stopped = -1;
    try {
      for (let o = 0; o < bytes.length; o += 1 << 16) if (halved.write(bytes.subarray(o, o + (1 << 16)))) { stopped = o; break; }
    } finally {
      delete process.env.TUNEBOOK_SPLIT_MIN_BYTES;
    }
    expect(stopped).toBeGreaterThan(bytes.length / 2 - (1 << 17));
    const joined = await halved.end();
    if (joins) expect(json(joined!)).toBe(json(await parseFile(file, { split: false })));
    else expect(joined).toBeNull();
  }, 60_000);

  it('gives its job to the worker started ahead, or to a new one when that one has stopped', async () => {
    const file = files['vmstat.log']!;
    const size = statSync(file).size;
    const whole = json(await parseFile(file, { split: false }));
    const joined = async (warm: Worker): Promise<string> => {
      const half = startSecondHalf(file, size, 'vmstat', { name: 'vmstat.log', worker, minBytes: 1, warm })!;
      const second = await half.result();
      const stream = new CaptureStream({ file: 'vmstat.log' });
      stream.write(readFileSync(file, 'latin1').slice(0, half.at));
      return json(stream.end((out, at) => joinHalves(out, at, second)));
    };
    const warm = spawnHalfWorker(worker)!;
    const id = warm.threadId;
    expect(await joined(warm)).toBe(whole);
    // the host stops it once its half is back
    await new Promise((resolve) => warm.once('exit', resolve));
    expect(id).toBeGreaterThan(0);
    const stopped = spawnHalfWorker(worker)!;
    await stopped.terminate();
    expect(stopped.threadId).toBe(-1);
    expect(await joined(stopped)).toBe(whole);
  }, 60_000);

  it('parses in one piece when no thread can be started', async () => {
    const file = files['vmstat.log']!;
    // a path Node refuses before any thread starts (relative, without ./)
    const refused = 'dist/halfWorker.cjs';
    expect(spawnHalfWorker(refused)).toBeNull();
    expect(startSecondHalf(file, statSync(file).size, 'vmstat', { name: 'vmstat.log', worker: refused, minBytes: 1 })).toBeNull();
    process.env.TUNEBOOK_SPLIT_MIN_BYTES = '1';
    try {
      expect(json(await parseFile(file, { halfWorker: refused }))).toBe(json(await parseFile(file, { split: false })));
    } finally {
      delete process.env.TUNEBOOK_SPLIT_MIN_BYTES;
    }
  }, 60_000);

  it.runIf(process.platform === 'linux')('stops the worker it started ahead when the capture is not cut', async () => {
    const threads = (): number => readdirSync('/proc/self/task').length;
    const settle = async (want: number): Promise<number> => {
      for (let i = 0; i < 100 && threads() > want; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      return threads();
    };
    const before = threads();
    process.env.TUNEBOOK_SPLIT_MIN_BYTES = '1';
    try {
      // a kind without a cut: the worker started as the stream began is not needed
      const file = files['pidstat.log']!;
      const stream = new CaptureStream({ file: 'pidstat.log' });
      const halved = new HalvedStream(stream, captureDecoder(), file, statSync(file).size, { name: 'pidstat.log', split: true, worker });
      expect(threads()).toBeGreaterThan(before);
      halved.write(readFileSync(file));
      expect(halved.cut).toBe(false);
      expect((await halved.end())!.kind).toBe('pidstat');
    } finally {
      delete process.env.TUNEBOOK_SPLIT_MIN_BYTES;
    }
    expect(await settle(before)).toBe(before);
  }, 60_000);

  it('says when the halves cannot join, and the host reads the file whole', async () => {
    const file = files['vmstat-SM.log']!;
    const half = startSecondHalf(file, statSync(file).size, 'vmstat', { name: 'vmstat-SM.log', worker, minBytes: 1 })!;
    // the second half guesses MiB too and warns: its parse alone cannot tell it joins
    const second = await half.result();
    expect(second.out.warnings.join(' ')).toMatch(/MiB/);
  }, 60_000);

  it('leaves whole what it cannot cut: short files, kinds without a cut, an unknown worker', () => {
    const size = statSync(files['vmstat.log']!).size;
    expect(startSecondHalf(files['vmstat.log']!, size, 'vmstat', { name: 'v', worker, minBytes: size + 1 })).toBeNull();
    expect(startSecondHalf(files['pidstat.log']!, statSync(files['pidstat.log']!).size, 'pidstat', { name: 'p', worker, minBytes: 1 })).toBeNull();
    expect(startSecondHalf(files['vmstat.log']!, size, 'vmstat', { name: 'v', worker: null, minBytes: 1 })).toBeNull();
    expect(splitMinBytes({ TUNEBOOK_SPLIT_MIN_BYTES: 'off' })).toBe(Infinity);
    expect(splitMinBytes({ TUNEBOOK_SPLIT_MIN_BYTES: '1000' })).toBe(1000);
    expect(splitMinBytes({})).toBe(32 * 1024 * 1024);
    expect(new SplitMismatch('x').message).toMatch(/do not join: x/);
  });

  it('an import stages the same parse in two threads when the capture has few series, in one when it has many', async () => {
    process.env.TUNEBOOK_SPLIT_MIN_BYTES = '1';
    try {
      for (const [name, threads] of [['vmstat.log', 2], ['iostat-x-t.log', 2], ['iostat-d.log', 2], ['vmstat-SM.log', 1], ['iostat-p-all.log', 2], ['iostat-many.log', 1]] as const) {
        const file = files[name]!;
        const staged = await stageCapture(file, name, { stagingDir: path.join(tmp, 'staging'), halfWorker: worker });
        rmSync(staged.stagingFile, { force: true });
        expect(staged.threads, name).toBe(threads);
        if (name === 'iostat-many.log') expect(staged.parsed.series.length).toBe(402);
        expect(json(staged.parsed), name).toBe(json({ ...(await parseFile(file, { split: false })), findings: staged.parsed.findings }));
      }
    } finally {
      delete process.env.TUNEBOOK_SPLIT_MIN_BYTES;
    }
  }, 120_000);

  it('the built CLI prints the same JSON cut in two or not', () => {
    const run = (min: string): string => {
      const r = spawnSync(process.execPath, [cli, 'parse', '--json', '--series', files['iostat-x-t.log']!], { encoding: 'utf8', env: { ...process.env, TUNEBOOK_SPLIT_MIN_BYTES: min }, maxBuffer: 1 << 28 });
      expect(r.status, r.stderr).toBe(0);
      return r.stdout;
    };
    expect(run('1')).toBe(run('off'));
  }, 60_000);
});
