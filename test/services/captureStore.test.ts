/**
 * Captures stored on experiments, through the Backend (the store worker really runs): verbatim
 * bytes, deduplication, lines read back chunk by chunk, search, series, results taken from
 * captures, unlink with undo and purge, re-parse, proposals and units.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { TunebookError } from '../../shared/api';
import type { ApiMethods } from '../../shared/api';
import type { Experiment, ImportResult, Proposals, SeriesPoints, StoredCapture } from '../../shared/model';
import { Backend } from '../../electron/services/backend';
import { purgeDetached } from '../../electron/db/captureQueries';
import { openNotebookDb } from '../../electron/db/connection';
import { buildBundles, seedPath, useTempDir } from '../helpers';

const FIXTURES = path.join(__dirname, '..', 'fixtures', 'captures');

let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

/** The async contract methods, as the hosts see them. */
type AsyncApi = { [K in keyof ApiMethods]: (...a: Parameters<ApiMethods[K]>) => Promise<ReturnType<ApiMethods[K]>> };

describe('stored captures', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let api: AsyncApi;
  let notebook: string;
  let studyId: number;

  beforeEach(() => {
    notebook = path.join(tmp(), 'nb.tunebook');
    backend = new Backend({ notebookPath: notebook, userDataDir: tmp(), ...workers });
    api = new Proxy({}, { get: (_t, m: string) => async (...a: unknown[]) => backend.call(m, a) }) as AsyncApi;
  });
  afterEach(() => backend.close());

  async function experiment(title: string): Promise<Experiment> {
    studyId ??= 0;
    const studies = await api.listStudies();
    const study = studies[0] ?? await api.createStudy({ title: 'fio random vs sequential' });
    studyId = study.id;
    return api.createExperiment(study.id, { title });
  }
  const reload = async (id: number): Promise<Experiment> => (await api.getStudy(studyId)).experiments.find((e) => e.id === id)!;
  const bytesOf = (id: number): Buffer => Buffer.concat([...backend.captureBytes(id)]);

  it('stores a capture verbatim, once per content, and links it wherever it is dropped', async () => {
    const random = await experiment('random writes');
    const fio = seedPath('fio-randwrite-4k-qd64-j64.txt');
    const r = await api.importCaptures(random.id, [{ path: fio }, { path: seedPath('iostat-x-d-1-during-randwrite.txt') }]);
    expect(r.failed).toEqual([]);
    expect(r.imported.map((c) => [c.name, c.kind, c.deduplicated])).toEqual([
      ['fio-randwrite-4k-qd64-j64.txt', 'fio', false], ['iostat-x-d-1-during-randwrite.txt', 'iostat', false],
    ]);
    const stored = r.imported[0]!;
    expect(bytesOf(stored.captureId).equals(readFileSync(fio))).toBe(true);
    expect(stored.bytes).toBe(readFileSync(fio).length);

    const listed = (await reload(random.id)).captures;
    expect(listed.map((c) => c.kind)).toEqual(['fio', 'iostat']);
    // judged together: iostat's request size says random writes
    expect(listed[1]!.findings.map((f) => f.id)).toContain('io.random-writes');

    // the same bytes again: on the same experiment nothing new, on another one a second link
    const again = await api.importCaptures(random.id, [{ path: fio }]);
    expect(again.imported[0]).toMatchObject({ captureId: stored.captureId, deduplicated: true, alreadyLinked: true });
    const other = await experiment('sequential writes');
    const copy = path.join(tmp(), 'renamed.txt');
    writeFileSync(copy, readFileSync(fio));
    const linked = await api.importCaptures(other.id, [{ path: copy }]);
    expect(linked.imported[0]).toMatchObject({ captureId: stored.captureId, deduplicated: true, alreadyLinked: false, name: 'renamed.txt' });
    const db = openNotebookDb(notebook);
    expect(db.prepare('SELECT count(*) FROM capture').pluck().get()).toBe(2);
    expect(db.prepare('SELECT count(*) FROM experiment_capture').pluck().get()).toBe(3);
    db.close();
    const capture = await api.getCapture(stored.captureId);
    expect(capture.links.map((l) => l.experimentTitle)).toEqual(['random writes', 'sequential writes']);
    // an optional argument left out arrives as null over HTTP
    expect((await api.getCapture(stored.captureId, null as unknown as number)).id).toBe(stored.captureId);
    expect((await api.findInCapture(stored.captureId, 'IOPS=', null as unknown as number)).matches[0]!.line).toBe(9);
  });

  it('reads lines back as the parser numbers them, across chunk boundaries, CR progress lines and an overlong line', async () => {
    const e = await experiment('lines');
    // fio's glued progress lines end in a lone CR: line numbers must match the parser's evidence
    const fio = seedPath('fio-randwrite-4k-qd64-j64.txt');
    const [c] = (await api.importCaptures(e.id, [{ path: fio }])).imported;
    const text = readFileSync(fio, 'utf8');
    const expected = text.split(/\r\n|\r|\n/);
    if (expected[expected.length - 1] === '') expected.pop();
    const all = await api.captureLines(c!.captureId, 1, 2000);
    expect(all.total).toBe(expected.length);
    expect(all.lines).toEqual(expected);
    const iops = (await api.getCapture(c!.captureId)).parsed.metrics.find((m) => m.name === 'iops')!;
    const [line] = (await api.captureLines(c!.captureId, iops.lines![0], 1)).lines;
    expect(line).toContain('IOPS=2197');

    // ~3 MB: the iostat rows again and again, CRLF and lone-CR lines, and one line longer than a chunk
    const rows = readFileSync(seedPath('iostat-x-d-1-during-randwrite.txt'), 'utf8').split('\n').filter((l) => l.startsWith('vda'));
    const parts: string[] = [];
    for (let i = 0; i < 30_000; i++) parts.push(`${rows[i % rows.length]} #${i}`, i % 7 === 0 ? '\r\n' : i % 11 === 0 ? '\r' : '\n');
    parts.splice(40_000, 0, 'x'.repeat(1_300_000), '\n');
    const big = path.join(tmp(), 'big.txt');
    writeFileSync(big, parts.join(''));
    const bigLines = parts.join('').split(/\r\n|\r|\n/);
    bigLines.pop();
    const [b] = (await api.importCaptures(e.id, [{ path: big }])).imported;
    expect(b!.lines).toBe(bigLines.length);
    expect(bytesOf(b!.captureId).equals(readFileSync(big))).toBe(true);
    for (const first of [1, 2, 999, 5_000, 12_345, 19_999, 20_000, 20_001, 29_000, bigLines.length - 3]) {
      const got = await api.captureLines(b!.captureId, first, 5);
      const want = bigLines.slice(first - 1, first + 4).map((l) => (l.length > 10_000 ? `${l.slice(0, 10_000)}…` : l));
      expect(got.lines, `from line ${first}`).toEqual(want);
    }
    expect((await api.captureLines(b!.captureId, bigLines.length + 1, 5)).lines).toEqual([]);

    // search within: case-insensitive, with the line numbers of the view
    const found = await api.findInCapture(b!.captureId, '#12345', 10);
    expect(found.matches).toEqual([{ line: bigLines.findIndex((l) => l.endsWith('#12345')) + 1, text: bigLines.find((l) => l.endsWith('#12345')) }]);
    const many = await api.findInCapture(b!.captureId, 'VDA', 50);
    expect(many.matches).toHaveLength(50);
    expect(many.truncated).toBe(true);
    expect(many.matches[1]!.line).toBe(2);
  });

  it('keeps series points for charts, downsampled on request and refined within a range', async () => {
    const e = await experiment('series');
    const [c] = (await api.importCaptures(e.id, [{ path: seedPath('iostat-x-d-1-during-randwrite.txt') }])).imported;
    const stored = await api.getCapture(c!.captureId);
    const idx = stored.parsed.series.findIndex((s) => s.column === 'w/s' && s.labels?.device === 'vda');
    const all: SeriesPoints = await api.captureSeries(c!.captureId, idx);
    // the since-boot first report is left out: 20 interval samples
    expect(all.total).toBe(20);
    expect(all.y).toHaveLength(20);
    expect(Math.max(...all.y.map((v) => v ?? 0))).toBe(2270);
    expect(all.y[all.y.length - 1]).toBe(779);
    const few = await api.captureSeries(c!.captureId, idx, null, 4);
    expect(few.downsampled).toBe(true);
    expect(few.y).toContain(2270); // the peak survives
    const zoom = await api.captureSeries(c!.captureId, idx, { from: all.x[2]!, to: all.x[5]! });
    expect(zoom.y).toEqual(all.y.slice(2, 6));
  });

  it('turns a capture figure into a result that remembers where it came from, in base units', async () => {
    const random = await experiment('random writes');
    const seq = await experiment('sequential writes');
    await api.setRequirements(studyId, [{ metric: 'bandwidth_bytes_per_second', comparator: '>=', threshold: 100, unit: 'MiB/s', label: '' }]);
    for (const [e, file] of [[random, 'fio-randwrite-4k-qd64-j64.txt'], [seq, 'fio-write-4k-qd64-j64.txt']] as const) {
      const [c] = (await api.importCaptures(e.id, [{ path: seedPath(file) }])).imported;
      const bw = (await api.getCapture(c!.captureId)).parsed.metrics.find((m) => m.name === 'bandwidth_bytes_per_second')!;
      const result = await api.addResultMetric(e.id, {
        name: bw.name, value: bw.value, unit: bw.unit, better: 'higher', primary: true,
        source: { captureId: c!.captureId, metric: bw.name, labels: bw.labels!, lines: [bw.lines![0], bw.lines![1]] },
      });
      expect(result.source).toMatchObject({ captureId: c!.captureId, captureName: file, metric: 'bandwidth_bytes_per_second', lines: [bw.lines![0], bw.lines![1]] });
      const back: StoredCapture = await api.getCapture(c!.captureId);
      expect(back.results).toEqual([expect.objectContaining({ resultId: result.id, primary: true, metric: 'bandwidth_bytes_per_second' })]);
    }
    const rows = await api.timeline(studyId);
    expect(rows.map((r) => r.value)).toEqual([8788 * 1024, 168 * 2 ** 20]);
    expect(rows[1]!.stepChangePercent).toBe(1857.6);
    expect(rows.map((r) => r.meetsGoal)).toEqual([false, true]); // ≥ 100 MiB/s: 8.6 MiB/s fails

    // typed in other units: stored in the base unit; an incomparable unit is never a percentage
    const third = await experiment('typed');
    const typed = await api.addResultMetric(third.id, { name: 'bandwidth_bytes_per_second', value: 170, unit: 'MiB/s', better: 'higher', primary: true });
    expect(typed).toMatchObject({ value: 170 * 2 ** 20, unit: 'B/s' });
    await api.updateResultMetric(typed.id, { value: 43000, unit: '1/s' });
    const last = (await api.timeline(studyId))[2]!;
    expect(last).toMatchObject({ stepChangePercent: null, stepNotComparable: true, cumulativeNotComparable: true, meetsGoal: null });
  });

  it('unlinks with undo; a capture no experiment links is removed after the undo window', async () => {
    const e = await experiment('undo');
    const [c] = (await api.importCaptures(e.id, [{ path: seedPath('fio-write-4k-qd64-j64.txt') }], { acceptResult: true })).imported;
    const withResult = await reload(e.id);
    expect(withResult.metrics[0]).toMatchObject({ name: 'iops', value: 43000, primary: true });
    await api.detachCapture(c!.linkId);
    expect((await reload(e.id)).captures).toEqual([]);
    expect((await api.search('iops')).filter((h) => h.kind === 'capture')).toEqual([]);
    await api.restoreCaptureLink(c!.linkId);
    expect((await reload(e.id)).captures.map((x) => x.captureId)).toEqual([c!.captureId]);
    await api.detachCapture(c!.linkId);
    // the window is over (a purge with a cut-off in the future)
    const db = openNotebookDb(notebook);
    // as the Backend purges: only the captures of the links forgotten now
    expect(db.transaction(() => purgeDetached(db, '9999-01-01', false))()).toBe(1);
    expect(db.prepare('SELECT count(*) FROM capture_chunk').pluck().get()).toBe(0);
    expect(db.prepare('SELECT count(*) FROM capture_series').pluck().get()).toBe(0);
    db.close();
    const after = await reload(e.id);
    expect(after.metrics[0]!.source).toMatchObject({ captureId: null, captureName: 'fio-write-4k-qd64-j64.txt' });
    await expect(api.getCapture(c!.captureId)).rejects.toMatchObject({ code: 'not-found' });
    const compacted = await api.compactNotebook();
    expect(compacted.bytesAfter).toBeGreaterThan(0);
  });

  it('finds captures by name, kind, metric and value, and says which study', async () => {
    const e = await experiment('random writes');
    await api.importCaptures(e.id, [{ path: seedPath('fio-randwrite-4k-qd64-j64.txt') }]);
    for (const q of ['iops', '2197', 'fio', 'randwrite', 'latency-explodes']) {
      const hits = (await api.search(q)).filter((h) => h.kind === 'capture');
      expect(hits, q).toHaveLength(1);
      expect(hits[0]).toMatchObject({ studyTitle: 'fio random vs sequential', experimentId: e.id, title: 'random writes · fio-randwrite-4k-qd64-j64.txt' });
    }
  });

  it('re-parses stored captures, as another kind and back, changing nothing else', async () => {
    const e = await experiment('reparse');
    const [c] = (await api.importCaptures(e.id, [{ path: seedPath('fio-randwrite-4k-qd64-j64.txt') }], { acceptResult: true })).imported;
    const before = await reload(e.id);
    const asText = await api.setCaptureKind(c!.captureId, 'text');
    expect(asText).toMatchObject({ kind: 'text', forcedKind: 'text' });
    expect(asText.parsed.metrics).toEqual([]);
    expect((await api.reparseCaptures()).captures).toBe(1);
    expect((await api.getCapture(c!.captureId)).kind).toBe('text'); // the chosen kind stays chosen
    const back = await api.setCaptureKind(c!.captureId, null);
    expect(back).toMatchObject({ kind: 'fio', forcedKind: null });
    const after = await reload(e.id);
    expect(after.metrics).toEqual(before.metrics);
    expect(after.captures.map((x) => x.findings)).toEqual(before.captures.map((x) => x.findings));
    expect(bytesOf(c!.captureId).equals(readFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt')))).toBe(true);
  });

  it('proposes the primary result, the hardware profile and the config changes the captures show', async () => {
    const base = await experiment('baseline');
    const sysctl = readFileSync(path.join(FIXTURES, 'sysctl', 'sysctl-a.txt'), 'utf8');
    await api.importCaptures(base.id, [
      { path: seedPath('fio-randwrite-4k-qd64-j64.txt') }, { path: seedPath('fdisk-l-vda.txt') }, { path: seedPath('tune2fs-block-size.txt') },
      { text: sysctl, name: 'sysctl-a.txt' },
    ]);
    let p: Proposals = await api.experimentProposals(base.id);
    expect(p.result?.candidates.map((c) => c.name)).toEqual(['iops', 'bandwidth_bytes_per_second']);
    expect(p.result?.candidates[p.result.preferred]).toMatchObject({ name: 'iops', value: 2197, unit: '1/s', source: { lines: [9, 9] } });
    expect(p.profile?.profileId).toBeNull();
    expect(p.profile?.patch.disks).toEqual([expect.objectContaining({ name: 'vda', logicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' })]);
    expect(p.configChanges).toEqual([]); // nothing before it to compare with

    // the study's usual primary metric is bandwidth: the next fio run proposes bandwidth
    await api.addResultMetric(base.id, { name: 'bandwidth_bytes_per_second', value: 8788, unit: 'KiB/s', better: 'higher', primary: true });
    const tuned = await experiment('TIME_WAIT tuning');
    const changed = sysctl
      .replace(/^net\.ipv4\.ip_local_port_range = .*$/m, 'net.ipv4.ip_local_port_range = 1024\t65000')
      .replace(/^net\.ipv4\.tcp_tw_reuse = .*$/m, 'net.ipv4.tcp_tw_reuse = 1');
    await api.importCaptures(tuned.id, [{ text: changed, name: 'sysctl-a.txt' }, { path: seedPath('fio-write-4k-qd64-j64.txt') }]);
    p = await api.experimentProposals(tuned.id);
    expect(p.result?.candidates[p.result.preferred]).toMatchObject({ name: 'bandwidth_bytes_per_second', value: 168 * 2 ** 20 });
    expect(p.configChanges).toHaveLength(1);
    expect(p.configChanges[0]).toMatchObject({ kind: 'sysctl', scope: 'sysctl', beforeExperimentTitle: 'baseline' });
    expect(p.configChanges[0]!.changes.map((c) => [c.key, c.after])).toEqual([
      ['net.ipv4.ip_local_port_range', '1024\t65000'], ['net.ipv4.tcp_tw_reuse', '1'],
    ]);
    // once recorded, a difference is no longer proposed
    await api.addConfigChange(tuned.id, { scope: 'sysctl', key: 'net.ipv4.tcp_tw_reuse', before: '2', after: '1' });
    p = await api.experimentProposals(tuned.id);
    expect(p.configChanges[0]!.changes.map((c) => c.key)).toEqual(['net.ipv4.ip_local_port_range']);
  });

  it('proposes a second capture of the primary metric as another run, and the value becomes the median', async () => {
    const e = await experiment('two ab-like runs');
    await api.importCaptures(e.id, [{ path: seedPath('fio-randwrite-4k-qd64-j64.txt') }], { acceptResult: true });
    await api.importCaptures(e.id, [{ path: seedPath('fio-write-4k-qd64-j64.txt') }], { acceptResult: true }); // never accepted as a repeat
    expect((await reload(e.id)).metrics).toHaveLength(1);
    const p = await api.experimentProposals(e.id);
    expect(p.result).toMatchObject({ repeat: true, captureName: 'fio-write-4k-qd64-j64.txt' });
    const run = p.result!.candidates[p.result!.preferred]!;
    expect(run).toMatchObject({ name: 'iops', value: 43000 });
    await api.addResultMetric(e.id, { name: run.name, value: run.value, unit: run.unit, better: run.better, primary: false, source: run.source });
    expect((await api.experimentProposals(e.id)).result).toBeNull(); // both captures are used
    const [row] = await api.timeline(studyId);
    expect(row).toMatchObject({ runs: 2, value: (2197 + 43000) / 2, spread: { min: 2197, max: 43000 } });
  });

  it('reports what it could not import and stores the rest; a cancel leaves the file out entirely', async () => {
    const e = await experiment('failures');
    const r: ImportResult = await api.importCaptures(e.id, [{ path: path.join(tmp(), 'missing.txt') }, { text: 'free text', name: 'note.txt' }]);
    expect(r.failed).toEqual([{ name: 'missing.txt', message: expect.stringMatching(/does not exist/) }]);
    expect(r.imported.map((c) => [c.name, c.kind])).toEqual([['note.txt', 'text']]);
    await expect(api.importCaptures(e.id, [])).rejects.toBeInstanceOf(TunebookError);
    await expect(api.importCaptures(999, [{ text: 'x', name: 'x' }])).rejects.toMatchObject({ code: 'not-found' });

    const rows = readFileSync(seedPath('iostat-x-d-1-during-randwrite.txt'), 'utf8');
    const big = path.join(tmp(), 'big-iostat.txt');
    writeFileSync(big, rows + rows.split('\n').filter((l) => l.startsWith('vda')).join('\n').concat('\n').repeat(60_000));
    let cancelled = false;
    backend.on('onDidProgressStore', () => { if (!cancelled) { cancelled = true; void backend.call('cancelStoreTask', []); } });
    const c = await api.importCaptures(e.id, [{ path: big }]);
    expect(c).toMatchObject({ cancelled: true, imported: [], failed: [{ name: 'big-iostat.txt' }] });
    expect((await reload(e.id)).captures.map((x) => x.name)).toEqual(['note.txt']);
    // and the next import works (a fresh worker)
    expect((await api.importCaptures(e.id, [{ path: seedPath('tune2fs-block-size.txt') }])).imported).toHaveLength(1);
  });
});
