/**
 * `tunebook import`, `show --json`, `cat`, `reparse` and `vacuum` end to end on the built CLI:
 * case study C from its seed captures alone (2197 → 43.0k IOPS, +1857.2 %), the public JSON of a
 * study, stored bytes given back identical, and clear one-line errors for a user's mistakes.
 */
import { spawn, spawnSync } from 'node:child_process';
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import type { ShowStudyJson } from '../../shared/showJson';
import { Backend } from '../../electron/services/backend';
import { buildBundles, seedPath, useTempDir } from '../helpers';

let cli = '';
let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { const b = await buildBundles(); cli = b.cli; workers = { parseWorkerFile: b.parseWorkerFile, storeWorkerFile: b.storeWorkerFile }; });

describe('tunebook import / show / cat', () => {
  const tmp = useTempDir();
  const run = (...args: string[]) => {
    const r = spawnSync(process.execPath, [cli, ...args], { env: { ...process.env, TUNEBOOK_USER_DATA: tmp() } });
    return { status: r.status, stdout: r.stdout, out: r.stdout.toString('utf8'), err: r.stderr.toString('utf8') };
  };
  const nb = () => path.join(tmp(), 'c.tunebook');
  const importInto = (experiment: string, ...files: string[]) =>
    run('import', '--notebook', nb(), '--study', 'fio random vs sequential', '--experiment', experiment, ...files);

  it('tells case study C from its captures: results from the headline figures, the timeline, identical bytes', () => {
    const first = importInto('random writes', seedPath('fio-randwrite-4k-qd64-j64.txt'), seedPath('iostat-x-d-1-during-randwrite.txt'));
    expect(first.err).toBe('');
    expect(first.status).toBe(0);
    expect(first.out).toContain('fio random vs sequential › random writes');
    expect(first.out).toMatch(/stored: fio-randwrite-4k-qd64-j64\.txt {2}capture 1 {2}fio/);
    expect(first.out).toContain('result: iops = 2,197 IOPS (primary) from fio-randwrite-4k-qd64-j64.txt');
    const second = run('import', '--notebook', nb(), '--study', 'fio random vs sequential', '--experiment', 'sequential writes', '--json',
      seedPath('fio-write-4k-qd64-j64.txt'), seedPath('iostat-x-d-1-during-seqwrite.txt'));
    expect(second.status).toBe(0);
    const json = JSON.parse(second.out) as { experiment: { title: string }; imported: { kind: string; deduplicated: boolean }[]; result: { value: number; unit: string } };
    expect(json.experiment.title).toBe('sequential writes');
    expect(json.imported.map((c) => [c.kind, c.deduplicated])).toEqual([['fio', false], ['iostat', false]]);
    expect(json.result).toMatchObject({ value: 43000, unit: '1/s', primary: true });

    const show = run('show', '--notebook', nb(), '--json', 'fio random vs sequential');
    expect(show.status).toBe(0);
    const s = JSON.parse(show.out) as ShowStudyJson;
    expect(s.timeline.map((r) => [r.value, r.unit, r.stepChangePercent, r.cumulativeChangePercent])).toEqual([[2197, '1/s', null, null], [43000, '1/s', 1857.2, 1857.2]]);
    const [random, sequential] = s.experiments;
    expect(random!.results).toEqual([{
      name: 'iops', value: 2197, unit: '1/s', better: 'higher', primary: true,
      capture: { id: 1, name: 'fio-randwrite-4k-qd64-j64.txt', metric: 'iops', labels: { direction: 'write' }, lines: [9, 9] },
    }]);
    expect(random!.captures.map((c) => [c.id, c.name, c.kind, c.bytes])).toEqual([
      [1, 'fio-randwrite-4k-qd64-j64.txt', 'fio', readFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt')).length],
      [2, 'iostat-x-d-1-during-randwrite.txt', 'iostat', readFileSync(seedPath('iostat-x-d-1-during-randwrite.txt')).length],
    ]);
    expect(random!.captures[1]!.findings.map((f) => f.id)).toContain('io.random-writes');
    expect(random!.captures[0]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(sequential!.captures).toHaveLength(2);

    for (const c of [...random!.captures, ...sequential!.captures]) {
      const original = [
        'fio-randwrite-4k-qd64-j64.txt', 'iostat-x-d-1-during-randwrite.txt', 'fio-write-4k-qd64-j64.txt', 'iostat-x-d-1-during-seqwrite.txt',
      ].find((n) => n === c.name)! as Parameters<typeof seedPath>[0];
      const cat = run('cat', '--notebook', nb(), String(c.id));
      expect(cat.status).toBe(0);
      expect(cat.stdout.equals(readFileSync(seedPath(original))), c.name).toBe(true);
    }

    // every study, as an array; the human summary
    const all = JSON.parse(run('show', '--notebook', nb(), '--json').out) as ShowStudyJson[];
    expect(all.map((x) => x.title)).toEqual(['fio random vs sequential']);
    expect(run('show', '--notebook', nb()).out).toMatch(/1\. sequential writes \[kept\] {2}iops 43\.0k IOPS {2}step \+1,857\.2 %, total \+1,857\.2 % {2}2 captures/);

    // re-parse and vacuum change nothing a script sees
    expect(run('reparse', '--notebook', nb()).out).toMatch(/re-parsed 4 captures/);
    expect(run('vacuum', '--notebook', nb()).status).toBe(0);
    expect(JSON.parse(run('show', '--notebook', nb(), '--json', '1').out)).toEqual(s);
  });

  it('vacuum keeps what the trash holds; --empty-trash deletes it for good and gives its space back', async () => {
    const file = path.join(tmp(), 'v.tunebook');
    expect(run('import', '--notebook', file, '--study', 's', '--experiment', 'e', seedPath('fio-randwrite-4k-qd64-j64.txt')).status).toBe(0);
    // Remove in the app: the capture's link goes to the trash
    const backend = new Backend({ notebookPath: file, userDataDir: tmp(), ...workers });
    const e = backend.api.getStudy(backend.api.listStudies()[0]!.id).experiments[0]!;
    backend.api.detachCapture(backend.api.getExperiment(e.id).captures[0]!.linkId);
    backend.close();
    const kept = run('vacuum', '--notebook', file);
    expect(kept.out).not.toMatch(/removed captures deleted/);
    expect(kept.out).toMatch(/the trash still holds 1 deleted item; tunebook vacuum --empty-trash/);
    const emptied = run('vacuum', '--notebook', file, '--empty-trash');
    expect(emptied.status).toBe(0);
    expect(emptied.out).toMatch(/emptied the trash: 0 studies, 0 experiments, 1 removed capture/);
    expect(emptied.out).not.toMatch(/trash still holds/);
    expect(run('cat', '--notebook', file, '1').status).not.toBe(0);
  });

  it('Ctrl+C: the file being stored is left out, the study made for it removed again, the temporary files gone (exit 130)', async () => {
    const file = path.join(tmp(), 'i.tunebook');
    const big = path.join(tmp(), 'big-vmstat.txt');
    const line = ' 1  0      0 23843768  13664 635028    0    0  7049 20093  998 2798 19  9 72  1  0\n';
    writeFileSync(big, 'procs -----------memory---------- ---swap-- -----io---- -system-- ------cpu-----\n r  b   swpd   free   buff  cache   si   so    bi    bo   in   cs us sy id wa st\n' + line.repeat(2_500_000));
    const tmpdir = path.join(tmp(), 'tmpdir');
    mkdirSync(tmpdir);
    const child = spawn(process.execPath, [cli, 'import', '--notebook', file, '--study', 'stopped', '--experiment', 'e', big], {
      env: { ...process.env, TUNEBOOK_USER_DATA: tmp(), TMPDIR: tmpdir },
    });
    let err = '';
    child.stderr.on('data', (d: Buffer) => { err += d.toString('utf8'); });
    // under way (its staging file is being written): stop it
    const staging = (dir: string): boolean => readdirSync(dir, { withFileTypes: true, recursive: true }).some((e) => e.isFile() && e.name.startsWith('stage-'));
    const poll = setInterval(() => { if (!child.killed && staging(tmpdir)) child.kill('SIGINT'); }, 20);
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    clearInterval(poll);
    expect(err).toMatch(/stopping: the file being stored is left out/);
    expect(code).toBe(130);
    expect(readdirSync(tmpdir)).toEqual([]);
    const shown = run('show', '--notebook', file, '--json');
    expect(JSON.parse(shown.out)).toEqual([]);
  });

  it('an import that stores nothing (every file refused) leaves no study or experiment made for it', () => {
    const file = path.join(tmp(), 'refused.tunebook');
    const bad = path.join(tmp(), 'evil.tar.gz');
    writeFileSync(bad, Buffer.from([0x1f, 0x8b, 0x08, 0x00, 1, 2, 3, 4, 5, 6, 7, 8, 9]));
    const r = run('import', '--notebook', file, '--study', 'H', '--experiment', 'X', bad);
    expect(r.status).toBe(1);
    expect(r.err).toMatch(/not imported: .*evil\.tar\.gz/);
    expect(JSON.parse(run('show', '--notebook', file, '--json').out)).toEqual([]);
  });

  it('several runs of one benchmark imported together: the first is the primary result, the others its repeats', () => {
    const ab = (f: string) => path.join(__dirname, '..', 'fixtures', 'captures', 'ab', f);
    const r = run('import', '--notebook', path.join(tmp(), 'runs.tunebook'), '--study', 'ab', '--experiment', 'three runs', ab('plain.txt'), ab('keepalive.txt'), ab('post.txt'), '--json');
    expect(r.status).toBe(0);
    const out = JSON.parse(r.out) as { result: { name: string; primary: boolean }; runs: { name: string; primary: boolean; source: { captureName: string } }[] };
    expect(out.result).toMatchObject({ name: 'requests_per_second', primary: true });
    expect(out.runs.map((x) => [x.name, x.primary, x.source.captureName])).toEqual([
      ['requests_per_second', false, 'keepalive.txt'], ['requests_per_second', false, 'post.txt'],
    ]);
    const s = JSON.parse(run('show', '--notebook', path.join(tmp(), 'runs.tunebook'), '--json', 'ab').out) as ShowStudyJson;
    expect(s.experiments[0]!.results).toHaveLength(3);
  });

  it('--no-result stores the captures only; importing again links instead of storing twice', () => {
    const r = importInto('baseline', '--no-result', seedPath('fio-randwrite-4k-qd64-j64.txt'));
    expect(r.status).toBe(0);
    expect(r.out).not.toContain('result:');
    const again = importInto('repeat', seedPath('fio-randwrite-4k-qd64-j64.txt'));
    expect(again.out).toContain('linked (same bytes already stored)');
    const s = JSON.parse(run('show', '--notebook', nb(), '--json', 'fio random vs sequential').out) as ShowStudyJson;
    expect(s.experiments.map((e) => [e.title, e.results.length, e.captures[0]!.id])).toEqual([['baseline', 0, 1], ['repeat', 1, 1]]);
  });

  it('says what is wrong in one line, without a stack trace, and writes nothing', () => {
    for (const [args, message] of [
      [['import', '--notebook', nb(), '--experiment', 'x', seedPath('fdisk-l-vda.txt')], /name the study/],
      [['import', '--notebook', nb(), '--study', 's', '--experiment', 'x', path.join(tmp(), 'missing.txt')], /no such file or folder/],
      [['show', '--notebook', path.join(tmp(), 'none.tunebook')], /no notebook at/],
      [['cat', '--notebook', nb(), 'abc'], /give one capture id/],
    ] as const) {
      const r = run(...args);
      expect(r.status, args.join(' ')).toBe(2);
      expect(r.err).toMatch(message);
      expect(r.err.trim().split('\n')).toHaveLength(1);
      expect(r.err).not.toMatch(/\n\s+at /);
    }
    importInto('x', seedPath('fdisk-l-vda.txt'));
    const missing = run('cat', '--notebook', nb(), '99');
    expect(missing.status).toBe(2);
    expect(missing.err).toMatch(/capture 99 does not exist/);
    const unknown = run('show', '--notebook', nb(), 'no such study');
    expect(unknown.err).toMatch(/no study "no such study"/);
  });
});
