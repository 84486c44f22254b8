import { appendFileSync, existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { TunebookError } from '../../shared/api';
import fc from 'fast-check';
import { beforeEach, describe, expect, it } from 'vitest';
import { Backend, type BackendApi } from '../../electron/services/backend';
import { showStudyJson } from '../../shared/showJson';
import type { DataChange } from '../../shared/api';
import Database from 'better-sqlite3';
import { JsonText } from '../../electron/services/workerReads';
import { NotebookService } from '../../electron/services/notebookService';
import { summarize } from '../../shared/outline';
import { openNotebookDb } from '../../electron/db/connection';
import { readWorkerFile, seedPath, useTempDir } from '../helpers';

/** Case study A (product.md) through the contract: 140 → 205 → 286 req/s. */
function enterCaseStudyA(api: BackendApi) {
  const study = api.createStudy({ title: 'health-check QPS', goal: 'Find why the health-check API only reaches 140 req/s under ab -c 1000' });
  const profile = api.createProfile({
    name: 'Aliyun 4C8G', cpuModel: 'Intel Xeon', cores: 4, threads: 4, memoryBytes: 8 * 1024 ** 3, os: 'CentOS 7.5 (BBR)',
    cloud: 'Alibaba Cloud ECS 4C8G', software: 'nginx 1.15, PHP-FPM + Laravel 5.7 (opcache on), MySQL 5.7, Redis 5, docker-compose',
    disks: [{ name: 'vda', sizeBytes: 53687091200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }],
  });
  const base = api.createExperiment(study.id, { title: 'Baseline: ab -n 100000 -c 1000', profileId: profile.id, date: '2019-03-01', notes: 'top: CPU 100 %, 80 % user' });
  api.addResultMetric(base.id, { name: 'requests_per_second', value: 140, unit: '1/s', better: 'higher' });
  const c1 = api.createExperiment(study.id, { title: 'opcache: stop revalidating timestamps', profileId: profile.id, date: '2019-03-02' });
  api.addConfigChange(c1.id, { scope: 'php.ini', key: 'opcache.validate_timestamps', before: '1', after: '0', why: 'strace: most calls are stat() from opcache revalidation' });
  api.addConfigChange(c1.id, { scope: 'php.ini', key: 'opcache.revalidate_freq', before: '2', after: '0', why: 'no revalidation' });
  api.addResultMetric(c1.id, { name: 'requests_per_second', value: 205, unit: '1/s', better: 'higher' });
  const c2 = api.createExperiment(study.id, { title: 'phpredis instead of predis', profileId: profile.id, date: '2019-03-03' });
  api.addConfigChange(c2.id, { scope: 'app config', key: 'config/database.php redis.client', before: 'predis', after: 'phpredis', why: 'perf: time in send/ip/tcp paths of pure-PHP predis' });
  api.addResultMetric(c2.id, { name: 'requests_per_second', value: 286, unit: '1/s', better: 'higher' });
  return { study, profile, base, c1, c2 };
}

describe('NotebookService through the Backend', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let api: BackendApi;
  beforeEach(() => {
    backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp() });
    api = backend.api;
    return () => backend.close();
  });

  it('tells case study A with the right percentages', () => {
    const { study } = enterCaseStudyA(api);
    const rows = api.timeline(study.id);
    expect(rows.map((r) => r.value)).toEqual([140, 205, 286]);
    expect(rows.map((r) => r.stepChangePercent)).toEqual([null, 46.4, 39.5]);
    expect(rows.map((r) => r.cumulativeChangePercent)).toEqual([null, 46.4, 104.3]);
    expect(api.listStudies()[0]).toMatchObject({ title: 'health-check QPS', experimentCount: 3, createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });
  });

  it('evaluates requirements against the primary metric', () => {
    const { study } = enterCaseStudyA(api);
    api.setRequirements(study.id, [{ metric: 'requests_per_second', comparator: '>=', threshold: 250, unit: '1/s', label: 'target' }]);
    expect(api.timeline(study.id).map((r) => r.meetsGoal)).toEqual([false, false, true]);
    expect(api.getStudy(study.id).study.requirements).toMatchObject([{ metric: 'requests_per_second', comparator: '>=', threshold: 250 }]);
    expect(() => api.setRequirements(study.id, [{ metric: 'x', comparator: '=>' as never, threshold: 1, unit: '', label: '' }])).toThrow(/comparator must be one of/);
  });

  it('a planned step becomes kept once a result is measured on it, and the comparison judges it', () => {
    const study = api.createStudy({ title: 'B' });
    api.setRequirements(study.id, [
      { metric: 'requests_per_second', comparator: '>=', threshold: 30000, unit: '1/s', label: 'QPS' },
      { metric: 'cpu_util_percent', comparator: '<=', threshold: 70, unit: '%', label: 'server load' },
    ]);
    const e = api.createExperiment(study.id, { title: 'cache configs', status: 'planned' });
    const later = api.createExperiment(study.id, { title: 'not run yet', status: 'planned' });
    api.addResultMetric(e.id, { name: 'requests_per_second', value: 50000, unit: '1/s', better: 'higher' });
    api.addResultMetric(e.id, { name: 'cpu_util_percent', value: 85, unit: '%', better: 'lower', primary: false });
    expect(api.getStudy(study.id).experiments.map((x) => x.status)).toEqual(['kept', 'planned']);
    const c = api.comparison(study.id);
    expect(c.rows[0]).toMatchObject({ meetsGoal: false, inChain: true });
    expect(c.rows[0]!.requirements.map((r) => r.met)).toEqual([true, false]);
    expect(c.rows[1]).toMatchObject({ experimentId: later.id, meetsGoal: null, inChain: false });
    expect(c.metrics.map((m) => m.name)).toEqual(['requests_per_second', 'cpu_util_percent']);
    expect(c.firstMeetingAll).toBeNull();
    // tunebook show --json: the requirement verdicts per timeline row
    const json = showStudyJson(api.getStudy(study.id), api.timeline(study.id), api.listProfiles());
    expect(json.timeline[0]!.requirements).toEqual([
      { metric: 'requests_per_second', comparator: '>=', threshold: 30000, unit: '1/s', value: 50000, met: true },
      { metric: 'cpu_util_percent', comparator: '<=', threshold: 70, unit: '%', value: 85, met: false },
    ]);
    expect(json.timeline[1]!.requirements.map((r) => r.met)).toEqual([null, null]);
  });

  it('reorders experiments and keeps positions dense', () => {
    const { study, c2 } = enterCaseStudyA(api);
    expect(api.moveExperiment(c2.id, 0)).toMatchObject({ id: c2.id, position: 0 });
    const order = api.getStudy(study.id).experiments;
    expect(order.map((e) => e.title)).toEqual(['phpredis instead of predis', 'Baseline: ab -n 100000 -c 1000', 'opcache: stop revalidating timestamps']);
    expect(order.map((e) => e.position)).toEqual([0, 1, 2]);
    expect(api.timeline(study.id).map((r) => r.value)).toEqual([286, 140, 205]);
    // and back down past the end (clamped), the others closing up
    expect(api.moveExperiment(c2.id, 99)).toMatchObject({ position: 2 });
    expect(api.getStudy(study.id).experiments.map((e) => [e.title, e.position])).toEqual([
      ['Baseline: ab -n 100000 -c 1000', 0], ['opcache: stop revalidating timestamps', 1], ['phpredis instead of predis', 2],
    ]);
  });

  it('any sequence of moves, deletes and restores keeps the order a user expects, positions dense', () => {
    const study = api.createStudy({ title: 'order' });
    const ids = Array.from({ length: 7 }, (_, i) => api.createExperiment(study.id, { title: `e${i}` }).id);
    const order = () => api.getStudy(study.id).experiments.map((e) => e.id);
    fc.assert(fc.property(fc.array(fc.tuple(fc.constantFrom('move', 'delete', 'restore'), fc.nat(6), fc.nat(9)), { maxLength: 40 }), (ops) => {
      // a model: the live order, and each deleted one's neighbours when it was deleted (while nothing has moved since)
      const live = order();
      const trash = new Map<number, [number | undefined, number | undefined] | null>();
      for (const [op, k, pos] of ops) {
        const id = ids[k]!;
        if (op === 'move' && live.includes(id)) {
          live.splice(live.indexOf(id), 1);
          live.splice(Math.min(pos, live.length), 0, id);
          expect(api.moveExperiment(id, pos).position).toBe(live.indexOf(id));
          for (const t of trash.keys()) trash.set(t, null); // a moved neighbour may now sit on either side of it
        } else if (op === 'delete' && live.includes(id)) {
          const at = live.indexOf(id);
          trash.set(id, [live[at - 1], live[at + 1]]);
          live.splice(at, 1);
          api.deleteExperiment(id);
        } else if (op === 'restore' && trash.has(id)) {
          const neighbours = trash.get(id)!;
          trash.delete(id);
          const back = api.restoreExperiment(id);
          const now = order();
          // nothing else moved
          expect(now.filter((x) => x !== id)).toEqual(live);
          // with no move since, back between its old neighbours when they are still next to each other (or it was first or last)
          if (neighbours) {
            const [prev, next] = neighbours;
            const p = prev === undefined ? -1 : live.indexOf(prev);
            const n = next === undefined ? live.length : live.indexOf(next);
            if ((prev === undefined || p >= 0) && (next === undefined || n >= 0) && n === p + 1) expect(back.position).toBe(p + 1);
          }
          live.splice(now.indexOf(id), 0, id);
        }
        // after every step the API's positions are the places 0..n−1
        expect(api.getStudy(study.id).experiments.map((e) => e.position)).toEqual(live.map((_, i) => i));
      }
      expect(order()).toEqual(live);
      for (const id of trash.keys()) api.restoreExperiment(id); // every run starts with all of them live
    }), { numRuns: 80 });
  });

  it('moving into the same gap again and again renumbers the study once keys run out, keeping the order', () => {
    const study = api.createStudy({ title: 'gap' });
    const ids = Array.from({ length: 4 }, (_, i) => api.createExperiment(study.id, { title: `e${i}` }).id);
    // alternately move the last two into place 1: each halves the gap between e0 and what follows
    const expected = [...ids];
    for (let i = 0; i < 60; i++) {
      const id = expected[3]!;
      expected.splice(3, 1);
      expected.splice(1, 0, id);
      api.moveExperiment(id, 1);
      expect(api.getStudy(study.id).experiments.map((e) => e.id)).toEqual(expected);
    }
    api.deleteExperiment(expected[2]!);
    expect(api.restoreExperiment(expected[2]!).position).toBe(2);
  });

  it('deletes and restores studies and experiments (undo)', () => {
    const { study, c1 } = enterCaseStudyA(api);
    api.deleteExperiment(c1.id);
    expect(api.getStudy(study.id).experiments.map((e) => e.position)).toEqual([0, 1]);
    expect(api.search('revalidate')).toEqual([]);
    api.restoreExperiment(c1.id);
    expect(api.getStudy(study.id).experiments.map((e) => e.title)[1]).toBe('opcache: stop revalidating timestamps');
    api.deleteStudy(study.id);
    expect(api.listStudies()).toEqual([]);
    expect(() => api.getStudy(study.id)).toThrow(/does not exist/);
    api.restoreStudy(study.id);
    expect(api.timeline(study.id).map((r) => r.value)).toEqual([140, 205, 286]);
  });

  it('keeps one primary metric per experiment', () => {
    const { base } = enterCaseStudyA(api);
    const lat = api.addResultMetric(base.id, { name: 'latency_mean_seconds', value: 7.1, unit: 's', better: 'lower', primary: true });
    const metrics = api.getStudy(base.studyId).experiments[0]!.metrics;
    expect(metrics.filter((m) => m.primary).map((m) => m.id)).toEqual([lat.id]);
  });

  it('refuses to delete a profile in use, and reuses profiles across studies', () => {
    const { profile } = enterCaseStudyA(api);
    expect(() => api.deleteProfile(profile.id)).toThrow(/used by 3 experiments/);
    const other = api.createStudy({ title: 'second study' });
    const e = api.createExperiment(other.id, { title: 'x', profileId: profile.id });
    expect(e.profileId).toBe(profile.id);
    expect(api.listProfiles()[0]!.usedBy).toBe(4);
    expect(api.listProfiles()[0]!.disks[0]).toMatchObject({ name: 'vda', logicalSectorBytes: 512 });
  });

  it('finds config changes, notes and profiles with full-text search', () => {
    const { c1, study } = enterCaseStudyA(api);
    const hits = api.search('validate_timestamps');
    expect(hits[0]).toMatchObject({ kind: 'config', experimentId: c1.id, studyId: study.id });
    expect(hits[0]!.snippet).toContain('\u0002');
    expect(api.search('phpredis').some((h) => h.kind === 'experiment')).toBe(true);
    expect(api.search('CentOS')[0]).toMatchObject({ kind: 'profile' });
    expect(api.search('"); DROP TABLE study; --')).toEqual([]);
    expect(api.search('  ')).toEqual([]);
  });

  it('rejects bad input with clear messages and writes nothing', () => {
    expect(() => api.createStudy({ title: '   ' })).toThrow(/title must not be empty/);
    expect(() => api.createStudy(null as never)).toThrow(/must be an object/);
    const s = api.createStudy({ title: 'ok' });
    expect(() => api.createExperiment(s.id, { title: 'x', date: '29/11/2026' })).toThrow(/date must be a date/);
    for (const day of ['2026-02-30', '2026-02-29', '2026-04-31', '2026-13-01', '2026-00-10', '2026-01-00']) {
      expect(() => api.createExperiment(s.id, { title: 'x', date: day }), day).toThrow(/is not a day of the calendar|must be a date/);
    }
    expect(api.createExperiment(s.id, { title: 'leap day', date: '2028-02-29' }).date).toBe('2028-02-29');
    // half a UTF-16 pair cannot be stored as UTF-8: refused, not turned into U+FFFD; whole pairs are kept
    expect(() => api.createExperiment(s.id, { title: 'cut \uD83D here' })).toThrow(/title holds a broken character \(half of a UTF-16 pair, at character 5\)/);
    expect(() => api.updateStudy(s.id, { goal: '\uDE00' })).toThrow(/broken character/);
    expect(api.updateStudy(s.id, { goal: 'reach 300 req/s 🚀' }).goal).toBe('reach 300 req/s 🚀');
    api.deleteExperiment(api.getStudy(s.id).experiments[0]!.id);
    expect(() => api.createExperiment(s.id, { title: 'x', status: 'great' as never })).toThrow(/status must be one of/);
    expect(() => api.getStudy(999)).toThrow(/study 999 does not exist/);
    expect(() => backend.call('dropEverything', [])).toThrow(/unknown method/);
    expect(api.getStudy(s.id).experiments).toEqual([]);
  });

  it('announces each write once, after it is committed, saying whether one experiment or the study changed', () => {
    const { study, c1 } = enterCaseStudyA(api);
    const seen: DataChange[] = [];
    const other = new Database(path.join(tmp(), 'nb.tunebook'), { readonly: true });
    const title = other.prepare(`SELECT title FROM experiment WHERE id = ?`).pluck();
    backend.on('onDidChangeData', (c) => {
      // committed: another connection already reads it
      expect(backend.api.notebookInfo()).toBeTruthy();
      seen.push({ ...c, title: title.get(c1.id) } as DataChange);
    });
    api.updateExperiment(c1.id, { title: 'opcache off' });
    api.addResultMetric(c1.id, { name: 'latency_mean_seconds', value: 0.2, unit: 's', better: 'lower' });
    api.moveExperiment(c1.id, 0);
    api.setRequirements(study.id, [{ metric: 'requests_per_second', comparator: '>=', threshold: 300, unit: '1/s', label: 'QPS' }]);
    api.createProfile({ name: 'laptop' });
    expect(() => api.addConfigChange(c1.id, { key: '' })).toThrow();
    expect(seen).toEqual([
      { studyId: study.id, experimentId: c1.id, title: 'opcache off' },
      { studyId: study.id, experimentId: c1.id, title: 'opcache off' },
      { studyId: study.id, title: 'opcache off' },
      { studyId: study.id, title: 'opcache off' },
      { studyId: null, title: 'opcache off' },
    ]);
    other.close();
  });

  it('the outline of a study is its experiments without notes and captures, in the same order as the full study', () => {
    const { study, c1 } = enterCaseStudyA(api);
    api.moveExperiment(c1.id, 0);
    const full = api.getStudy(study.id);
    const outline = api.studyOutline(study.id);
    expect(outline.study).toEqual(full.study);
    expect(outline.experiments).toEqual(full.experiments.map(summarize));
    expect(outline.experiments[0]).not.toHaveProperty('notes');
    expect(api.getExperiment(c1.id)).toEqual(full.experiments[0]);
    expect(() => api.getExperiment(999)).toThrow(/experiment 999 does not exist/);
  });

  it('switches notebooks and remembers recent ones; refuses a newer one and stays on the current', () => {
    enterCaseStudyA(api);
    const other = path.join(tmp(), 'second.tunebook');
    const info = api.openNotebook(other, true);
    expect(info.path).toBe(other);
    expect(api.listStudies()).toEqual([]);
    expect(api.recentNotebooks().slice(0, 2)).toEqual([other, path.join(tmp(), 'nb.tunebook')]);
    expect(() => api.openNotebook(path.join(tmp(), 'nope.tunebook'), false)).toThrow(/no notebook at/);
    expect(api.notebookInfo().path).toBe(other);
    // an empty file is not a notebook unless one is being created there
    const empty = path.join(tmp(), 'notes.txt');
    writeFileSync(empty, '');
    expect(() => api.openNotebook(empty, false)).toThrow(expect.objectContaining({ code: 'refused', message: expect.stringMatching(/is empty, not a Tunebook notebook; it was left untouched/) }));
    expect(readFileSync(empty, 'utf8')).toBe('');
    // a new notebook is a .tunebook file, and nothing is made for any other name
    const evil = path.join(tmp(), 'new', 'deep', 'evil.sh');
    expect(() => api.openNotebook(evil, true)).toThrow(expect.objectContaining({ code: 'invalid', message: expect.stringMatching(/ending in \.tunebook/) }));
    expect(existsSync(path.join(tmp(), 'new'))).toBe(false);
    // an existing notebook of another name still opens, "create" ticked or not
    const renamed = path.join(tmp(), 'perf.db');
    writeFileSync(renamed, readFileSync(path.join(tmp(), 'nb.tunebook')));
    expect(api.openNotebook(renamed, true).path).toBe(renamed);
    api.openNotebook(other, false);
    if (existsSync('/proc/self/environ')) {
      expect(() => api.openNotebook('/proc/self/environ', false)).toThrow(expect.objectContaining({ code: 'refused' }));
      expect(() => api.openNotebook('/proc/self/environ', true)).toThrow(expect.objectContaining({ code: 'invalid' }));
    }
    expect(api.notebookInfo().path).toBe(other);
  });
});

describe('reads in a worker thread (the hosts of a window)', () => {
  const tmp = useTempDir();
  it('answer what the same call answers on the main thread, as JSON text, and follow writes and notebook switches', async () => {
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), readWorkerFile: await readWorkerFile() });
    try {
      const { study, c2 } = enterCaseStudyA(backend.api);
      const viaWorker = async (method: string, ...args: unknown[]) => {
        const r = await (backend.call(method, args) as Promise<unknown>);
        expect(r).toBeInstanceOf(JsonText);
        return JSON.parse((r as JsonText).json) as unknown;
      };
      // the same calls on this thread, on a connection of the test's own
      const direct = new NotebookService(openNotebookDb(path.join(tmp(), 'nb.tunebook')));
      for (const [method, args] of [['studyOutline', [study.id]], ['getStudy', [study.id]], ['comparison', [study.id]], ['timeline', [study.id]],
        ['search', ['opcache']], ['experimentIndex', []], ['getExperiment', [c2.id]]] as const) {
        expect(await viaWorker(method, ...args), method).toEqual(JSON.parse(JSON.stringify((direct[method] as (...a: unknown[]) => unknown).apply(direct, [...args]))));
      }
      direct.db.close();
      // answers are kept while nothing changes (the same text again) …
      const first = await (backend.call('comparison', [study.id]) as Promise<JsonText>);
      expect((await (backend.call('comparison', [study.id]) as Promise<JsonText>)).json).toBe(first.json);
      // … and a write on the main thread is seen by the next read
      backend.api.moveExperiment(c2.id, 0);
      expect(((await viaWorker('studyOutline', study.id)) as { experiments: { id: number }[] }).experiments[0]!.id).toBe(c2.id);
      const before = await viaWorker('comparison', study.id);
      backend.api.addResultMetric(c2.id, { name: 'requests_per_second', value: 300, unit: '1/s', primary: true });
      const after = await viaWorker('comparison', study.id);
      expect(after).not.toEqual(before);
      const fresh = new NotebookService(openNotebookDb(path.join(tmp(), 'nb.tunebook')));
      expect(after).toEqual(JSON.parse(JSON.stringify(fresh.comparison(study.id))));
      fresh.db.close();
      // errors keep their code
      await expect(backend.call('getExperiment', [999]) as Promise<unknown>).rejects.toMatchObject({ code: 'not-found' });
      // another notebook: the worker reads that one
      backend.api.openNotebook(path.join(tmp(), 'other.tunebook'), true);
      expect(await viaWorker('experimentIndex')).toEqual([]);
      // writes stay on the main thread
      expect(backend.call('createStudy', [{ title: 'x' }])).toMatchObject({ title: 'x' });
    } finally {
      backend.close();
    }
  });
});

describe('capture parsing off the main thread', () => {
  const tmp = useTempDir();
  it('parses the seed fio capture and pasted text in a worker thread', async () => {
    const { build } = await import('esbuild');
    const workerFile = path.join(tmp(), 'parseWorker.cjs');
    await build({ entryPoints: [path.join(__dirname, '../../electron/services/parseWorker.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: workerFile, logLevel: 'silent' });
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), parseWorkerFile: workerFile });
    try {
      const seed = seedPath('fio-randwrite-4k-qd64-j64.txt');
      const [fio] = (await backend.call('parseCaptureFiles', [[seed]])) as { kind: string; metrics: { name: string; value: number }[] }[];
      expect(fio!.kind).toBe('fio');
      expect(fio!.metrics.find((m) => m.name === 'iops')!.value).toBe(2197);
      const [text] = (await backend.call('parseCaptureText', ['notes.txt', 'just some words'])) as { kind: string; warnings: string[] }[];
      expect(text!.kind).toBe('text');
      expect(text!.warnings[0]).toMatch(/kept as plain text/);
      expect(() => backend.call('parseCaptureText', ['x', 'y', 'no-such-kind'])).toThrow(/unknown capture kind/);
      expect((backend.call('captureKinds', []) as { id: string }[]).some((k) => k.id === 'fio')).toBe(true);
    } finally {
      backend.close();
    }
  });

  it('reports progress on a large file and can be cancelled, then parses again', async () => {
    const { build } = await import('esbuild');
    const workerFile = path.join(tmp(), 'parseWorker.cjs');
    await build({ entryPoints: [path.join(__dirname, '../../electron/services/parseWorker.ts')], bundle: true, platform: 'node', format: 'cjs', outfile: workerFile, logLevel: 'silent' });
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), parseWorkerFile: workerFile });
    try {
      // a ~100 MB iostat log: the seed's rows over and over
      const seed = readFileSync(seedPath('iostat-x-d-1-during-randwrite.txt'), 'utf8');
      const rows = seed.split('\n').filter((l) => l.startsWith('vda')).join('\n') + '\n';
      const big = path.join(tmp(), 'big-iostat.txt');
      writeFileSync(big, seed);
      const chunk = rows.repeat(Math.ceil((4 << 20) / rows.length));
      for (let i = 0; i < 25; i++) appendFileSync(big, chunk);
      const progress: { read: number; total: number }[] = [];
      let cancelled = false;
      backend.on('onDidProgressParse', (p) => {
        progress.push(p);
        if (!cancelled) { cancelled = true; void backend.call('cancelCaptureParsing', []); }
      });
      const err = await (backend.call('parseCaptureFiles', [[big]]) as Promise<unknown>).then(() => null, (e: unknown) => e);
      expect(err).toBeInstanceOf(TunebookError);
      expect((err as TunebookError).code).toBe('cancelled');
      expect(progress.length).toBeGreaterThan(0);
      expect(progress[0]!.read).toBeLessThan(progress[0]!.total);
      // a fresh worker takes the next job
      const [again] = (await backend.call('parseCaptureFiles', [[seedPath('fio-write-4k-qd64-j64.txt')]])) as { kind: string }[];
      expect(again!.kind).toBe('fio');
    } finally {
      backend.close();
    }
  });
});
