/**
 * Bundles (.eln) through the Backend, the store worker really running: the three case studies
 * exported, imported into an empty notebook and exported again give the same content (raw captures
 * byte for byte); importing twice adds nothing; and hostile or broken bundles are rejected whole,
 * with a clear message and the notebook exactly as it was.
 */
import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { ApiMethods } from '../../shared/api';
import { BUNDLE_JSON_PATH } from '../../shared/bundle/format';
import type { BundleJson } from '../../shared/bundle/format';
import { buildRoCrate } from '../../shared/bundle/roCrate';
import type { BundleImportResult, ExportResult } from '../../shared/model';
import { Backend } from '../../electron/services/backend';
import { writeArchive } from '../../electron/services/bundle/elnZip';
import { openNotebookDb } from '../../electron/db/connection';
import { unzip } from '../fixtures/unzip';
import { buildCaseA, buildCaseB, buildCaseC } from '../fixtures/caseStudies';
import type { AnyApi } from '../fixtures/caseStudies';
import { buildBundles, seedPath, useTempDir } from '../helpers';

let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

type AsyncApi = { [K in keyof ApiMethods]: (...a: Parameters<ApiMethods[K]>) => Promise<ReturnType<ApiMethods[K]>> };

const sha = (b: Buffer | string): string => createHash('sha256').update(b).digest('hex');

/** What a notebook holds, table by table (ids left out where they are only numbering). */
function dump(file: string): Record<string, unknown[]> {
  const db = openNotebookDb(file);
  try {
    const all = (sql: string) => db.prepare(sql).all();
    return {
      study: all('SELECT uid, title, goal, view, created_at, updated_at, deleted_at FROM study ORDER BY uid'),
      requirement: all('SELECT s.uid, r.position, r.metric, r.comparator, r.threshold, r.unit, r.label FROM requirement r JOIN study s ON s.id = r.study_id ORDER BY s.uid, r.position'),
      profile: all('SELECT uid, name, cpu_model, cores, threads, memory_bytes, disks, os, kernel, cloud, software, notes FROM profile ORDER BY uid'),
      experiment: all('SELECT e.uid, s.uid AS study, e.position, e.title, p.uid AS profile, e.date, e.notes, e.status, e.created_at, e.updated_at FROM experiment e JOIN study s ON s.id = e.study_id LEFT JOIN profile p ON p.id = e.profile_id ORDER BY e.uid'),
      config: all('SELECT e.uid, c.position, c.scope, c.key, c.before, c.after, c.why FROM config_change c JOIN experiment e ON e.id = c.experiment_id ORDER BY e.uid, c.position'),
      result: all('SELECT e.uid, m.position, m.name, m.value, m.unit, m.better, m.is_primary, c.sha256, m.source FROM result_metric m JOIN experiment e ON e.id = m.experiment_id LEFT JOIN capture c ON c.id = m.capture_id ORDER BY e.uid, m.position'),
      link: all('SELECT e.uid, c.sha256, l.position, l.name, l.note, l.created_at, l.findings FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id JOIN capture c ON c.id = l.capture_id ORDER BY e.uid, l.position'),
      capture: all('SELECT sha256, size, line_count, kind, forced_kind FROM capture ORDER BY sha256'),
      chunks: all('SELECT c.sha256, count(*) AS n, sum(k.size) AS bytes FROM capture_chunk k JOIN capture c ON c.id = k.capture_id GROUP BY c.sha256 ORDER BY c.sha256'),
    };
  } finally {
    db.close();
  }
}

describe('bundles', () => {
  const tmp = useTempDir();
  const open: Backend[] = [];
  const notebook = (name: string): { backend: Backend; api: AsyncApi; file: string } => {
    const file = path.join(tmp(), `${name}.tunebook`);
    const backend = new Backend({ notebookPath: file, userDataDir: path.join(tmp(), `${name}-data`), ...workers });
    open.push(backend);
    return { backend, file, api: new Proxy({}, { get: (_t, m: string) => async (...a: unknown[]) => backend.call(m, a) }) as AsyncApi };
  };
  let source: ReturnType<typeof notebook>;
  let ids: { a: number; b: number; c: number };
  beforeEach(async () => {
    source = notebook('source');
    const api = source.api as unknown as AnyApi;
    ids = { a: await buildCaseA(api), b: await buildCaseB(api), c: await buildCaseC(api) };
  });
  afterEach(() => { for (const b of open.splice(0)) b.close(); });

  const exportTo = async (nb: ReturnType<typeof notebook>, studyId: number, name: string, experimentIds?: number[]) =>
    nb.api.exportStudy(studyId, { format: 'eln', path: path.join(tmp(), name), ...(experimentIds ? { experimentIds } : {}) }) as Promise<ExportResult>;

  it('round trip: export, import into an empty notebook, export again — the same content, captures byte for byte', async () => {
    const first = await Promise.all([exportTo(source, ids.a, 'a.eln'), exportTo(source, ids.b, 'b.eln'), exportTo(source, ids.c, 'c.eln')]);
    const target = notebook('target');
    const results: BundleImportResult[] = [];
    for (const r of first) results.push(await target.api.importBundle({ path: r.path! }));
    expect(results.map((r) => r.studies.map((s) => [s.title, s.created, s.experimentsAdded]))).toEqual([
      [['PHP health-check API: 140 → 286 req/s', true, 3]], [['Python service to 50k QPS', true, 5]], [['fio random vs sequential writes', true, 2]],
    ]);
    expect(results[2]).toMatchObject({ capturesAdded: 4, capturesAlreadyHere: 0, profilesAdded: 1 });

    // the notebooks hold the same (ids aside), the captures' chunks too
    expect(dump(target.file)).toEqual(dump(source.file));

    const studies = await target.api.listStudies();
    const again: ExportResult[] = [];
    for (const t of ['PHP health-check API: 140 → 286 req/s', 'Python service to 50k QPS', 'fio random vs sequential writes']) {
      again.push(await exportTo(target, studies.find((s) => s.title === t)!.id, `again-${again.length}.eln`));
    }
    for (const [i, r] of again.entries()) {
      const before = await unzip(first[i]!.path!);
      const after = await unzip(r.path!);
      expect([...after.keys()].sort()).toEqual([...before.keys()].sort());
      for (const [name, bytes] of before) {
        if (name.endsWith(BUNDLE_JSON_PATH)) {
          const strip = (b: Buffer) => ({ ...(JSON.parse(b.toString('utf8')) as BundleJson), exportedAt: '' });
          expect(strip(after.get(name)!), name).toEqual(strip(bytes));
        } else if (!name.endsWith('ro-crate-metadata.json')) {
          expect(after.get(name)!.equals(bytes), name).toBe(true);
        }
      }
    }
    // the raw captures are the seed files, byte for byte
    const c = await unzip(first[2]!.path!);
    const fio = readFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt'));
    expect([...c.values()].some((b) => b.equals(fio))).toBe(true);
  });

  it('importing the same bundle twice adds nothing; a later bundle of the study adds only its new experiments', async () => {
    const part = await exportTo(source, ids.a, 'part.eln', (await source.api.getStudy(ids.a)).experiments.slice(0, 2).map((e) => e.id));
    const whole = await exportTo(source, ids.a, 'whole.eln');
    const target = notebook('target');
    expect((await target.api.importBundle({ path: part.path! })).studies[0]).toMatchObject({ created: true, experimentsAdded: 2 });
    const once = dump(target.file);
    expect((await target.api.importBundle({ path: part.path! })).studies[0]).toMatchObject({ created: false, restored: false, experimentsAdded: 0, experimentsAlreadyHere: 2 });
    expect(dump(target.file)).toEqual(once);
    const r = await target.api.importBundle({ path: whole.path! });
    expect(r.studies[0]).toMatchObject({ created: false, experimentsAdded: 1, experimentsAlreadyHere: 2 });
    expect(r.profilesAdded).toBe(0);
    const s = (await target.api.getStudy(r.studies[0]!.id)).experiments.map((e) => [e.title, e.metrics[0]!.value]);
    expect(s).toEqual([['Baseline', 140], ['opcache: stop revalidating timestamps', 205], ['phpredis instead of predis', 286]]);
    // the study deleted, its bundle brings it back from the trash (and says so)
    await target.api.deleteStudy(r.studies[0]!.id);
    expect((await target.api.importBundle({ path: whole.path! })).studies[0]).toMatchObject({ created: false, restored: true, experimentsAdded: 0, experimentsAlreadyHere: 3 });
    expect((await target.api.listStudies()).map((x) => x.id)).toEqual([r.studies[0]!.id]);
  });

  describe('rejects a broken or hostile bundle whole, and writes nothing', () => {
    /**
     * The case C export with one thing changed: bundle.json and the files as `change` leaves them,
     * under the RO-Crate metadata of the export as it was (with the new bundle.json's checksum, and
     * any checksum `change` says to list instead of the real one).
     */
    async function tampered(name: string, change: (b: BundleJson, files: Map<string, Buffer>) => { listed?: Map<string, string> } | void): Promise<string> {
      const good = await exportTo(source, ids.c, 'good.eln');
      const entries = await unzip(good.path!);
      const root = [...entries.keys()][0]!.split('/')[0]!;
      const files = new Map([...entries].filter(([k]) => !k.endsWith('ro-crate-metadata.json')).map(([k, v]) => [k.slice(root.length + 1), v]));
      const original = JSON.parse(files.get(BUNDLE_JSON_PATH)!.toString('utf8')) as BundleJson;
      const bundle = structuredClone(original);
      const lie = change(bundle, files);
      const json = Buffer.from(JSON.stringify(bundle));
      const listedFiles = new Map(entries);
      const crate = buildRoCrate(original, [...listedFiles].filter(([k]) => !k.endsWith('ro-crate-metadata.json')).map(([k, b]) => {
        const p = k.slice(root.length + 1);
        const bytes = p === BUNDLE_JSON_PATH ? json : b;
        return { path: p, size: bytes.length, sha256: lie?.listed?.get(p) ?? sha(bytes), encodingFormat: p.endsWith('.json') ? 'application/json' : 'text/plain', name: path.basename(p) };
      }));
      files.set(BUNDLE_JSON_PATH, json);
      const out = path.join(tmp(), name);
      await writeArchive(out, root, [...files].map(([p, b]) => ({ path: p, size: b.length, source: () => b })), crate);
      return out;
    }

    const cases: [string, (b: BundleJson, files: Map<string, Buffer>) => { listed?: Map<string, string> } | void, RegExp][] = [
      ['from a newer Tunebook', (b) => { b.version = 99; }, /newer Tunebook \(bundle format 99/],
      ['not a Tunebook bundle', (b) => { (b as { format: string }).format = 'something-else'; }, /not a Tunebook bundle/],
      ['a capture whose bytes are not what the crate says', (_b, files) => {
        const [p, bytes] = [...files].find(([k]) => k.endsWith('.txt'))!;
        const listed = new Map([[p, sha(bytes)]]);
        files.set(p, Buffer.concat([bytes.subarray(0, bytes.length - 1), Buffer.from('X')]));
        return { listed };
      }, /SHA-256|checksum/i],
      ['a capture file missing from the archive', (b, files) => { files.delete(b.captures[0]!.path); }, /missing|not in the archive/i],
      ['a capture path leaving the archive', (b) => { b.captures[0]!.path = '../../etc/passwd'; }, /not a plain path inside the bundle/],
      ['a link to a capture it does not carry', (b) => { b.studies[0]!.experiments[0]!.captures[0]!.sha256 = 'f'.repeat(64); }, /links a capture the bundle does not carry/],
      ['an experiment in an unknown state', (b) => { (b.studies[0]!.experiments[0] as { status: string }).status = 'exploded'; }, /status must be one of/],
      ['two experiments with one uid', (b) => { b.studies[0]!.experiments[1]!.uid = b.studies[0]!.experiments[0]!.uid; }, /appears twice/],
      ['a title of a megabyte', (b) => { b.studies[0]!.title = 'x'.repeat(1_000_000); }, /too long/],
    ];
    it.each(cases)('%s', async (name, change, message) => {
      const target = notebook('target');
      await target.api.importBundle({ path: (await exportTo(source, ids.a, 'a.eln')).path! });
      const before = dump(target.file);
      const file = await tampered(`${name.replace(/\W+/g, '-')}.eln`, change);
      await expect(target.api.importBundle({ path: file })).rejects.toThrow(message);
      expect(dump(target.file)).toEqual(before);
    });

    it('an upload (browser mode) is named in the message by the file the user chose, not by its staging name', async () => {
      const target = notebook('target');
      const file = await tampered('staged-9f3a1c.tmp', (b) => { b.version = 99; });
      const id = target.backend.registerUpload(file, 'case-c.eln');
      const err = await target.api.importBundle({ upload: id }).then(() => null, (e: Error) => e);
      expect(err?.message).toMatch(/^"case-c\.eln" cannot be imported: this bundle was made by a newer Tunebook/);
      expect(err?.message).not.toMatch(/staged|\.\./);
    });

    it('a file that is not a zip at all', async () => {
      const target = notebook('target');
      const before = dump(target.file);
      await expect(target.api.importBundle({ path: seedPath('fio-write-4k-qd64-j64.txt') })).rejects.toThrow(/zip|not a .*bundle/i);
      expect(dump(target.file)).toEqual(before);
    });
  });
});
