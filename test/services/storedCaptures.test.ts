/**
 * The notebook's list of stored captures (the Captures view, issue 6): newest first, paged, each
 * with the live experiments that link it; a capture only the trash still holds is not listed.
 */
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../electron/services/backend';
import { buildBundles, seedPath, useTempDir } from '../helpers';

let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

describe('listStoredCaptures', () => {
  const tmp = useTempDir();

  it('lists what live experiments link, newest first, with where each is linked, in pages', async () => {
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    try {
      const api = backend.api;
      expect(api.listStoredCaptures()).toEqual({ total: 0, items: [] });
      const study = api.createStudy({ title: 'fio random vs sequential' });
      const a = api.createExperiment(study.id, { title: 'random writes' });
      const b = api.createExperiment(study.id, { title: 'sequential writes' });
      await api.importCaptures(a.id, [{ path: seedPath('fio-randwrite-4k-qd64-j64.txt') }, { path: seedPath('iostat-x-d-1-during-randwrite.txt') }]);
      await api.importCaptures(b.id, [{ path: seedPath('fio-write-4k-qd64-j64.txt') }, { path: seedPath('fio-randwrite-4k-qd64-j64.txt') }]);
      const all = api.listStoredCaptures();
      expect(all.total).toBe(3);
      expect(all.items.map((c) => [c.name, c.kind])).toEqual([
        ['fio-write-4k-qd64-j64.txt', 'fio'], ['iostat-x-d-1-during-randwrite.txt', 'iostat'], ['fio-randwrite-4k-qd64-j64.txt', 'fio'],
      ]);
      // the same bytes on both experiments: one capture, two links
      expect(all.items[2]!.links.map((l) => l.experimentTitle)).toEqual(['random writes', 'sequential writes']);
      expect(all.items[2]!.links[0]).toMatchObject({ studyId: study.id, studyTitle: 'fio random vs sequential' });
      expect(api.listStoredCaptures(1, 1).items.map((c) => c.name)).toEqual(['iostat-x-d-1-during-randwrite.txt']);
      // removed from its only experiment: in the trash, not in the list
      const iostat = api.getExperiment(a.id).captures.find((l) => l.kind === 'iostat')!;
      api.detachCapture(iostat.linkId);
      expect(api.listStoredCaptures().items.map((c) => c.kind)).toEqual(['fio', 'fio']);
      expect(() => api.listStoredCaptures(-1)).toThrow(/offset/);
    } finally {
      backend.close();
    }
  });
});
