/**
 * The trash (issue 10): deleted studies, experiments and unlinked captures are listed, restored,
 * removed one by one or all at once, through the Backend (the store worker really stores captures).
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { DataChange } from '../../shared/api';
import type { ImportResult } from '../../shared/model';
import { Backend, type BackendApi } from '../../electron/services/backend';
import { buildBundles, seedPath, useTempDir } from '../helpers';

let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

describe('the trash', () => {
  const tmp = useTempDir();
  let backend: Backend;
  let api: BackendApi;
  let notebook: string;

  beforeEach(() => {
    notebook = path.join(tmp(), 'nb.tunebook');
    backend = new Backend({ notebookPath: notebook, userDataDir: tmp(), ...workers });
    api = backend.api;
  });
  afterEach(() => backend.close());

  const importText = async (experimentId: number, name: string, text: string) =>
    (await (backend.call('importCaptures', [experimentId, [{ text, name }]]) as Promise<ImportResult>)).imported[0]!;
  const importSeed = async (experimentId: number) =>
    (await (backend.call('importCaptures', [experimentId, [{ path: seedPath('fio-randwrite-4k-qd64-j64.txt') }]]) as Promise<ImportResult>)).imported[0]!;
  /** deleted_at of a row, set by hand so that the order of deletions is certain */
  const stamp = (table: string, id: number, at: string) => {
    const db = new Database(notebook);
    db.prepare(`UPDATE ${table} SET deleted_at = ? WHERE id = ?`).run(at, id);
    db.close();
  };
  const captureCount = () => {
    const db = new Database(notebook, { readonly: true });
    const n = db.prepare(`SELECT count(*) FROM capture`).pluck().get() as number;
    db.close();
    return n;
  };

  async function notebookWithTrash() {
    const gone = api.createStudy({ title: 'abandoned study' });
    const g1 = api.createExperiment(gone.id, { title: 'g1' });
    const g2 = api.createExperiment(gone.id, { title: 'g2' });
    const live = api.createStudy({ title: 'live study' });
    const base = api.createExperiment(live.id, { title: 'baseline', notes: 'keep me' });
    const step = api.createExperiment(live.id, { title: 'step one' });
    const last = api.createExperiment(live.id, { title: 'step two' });
    api.addConfigChange(step.id, { key: 'vm.swappiness', before: '60', after: '10' });
    api.addResultMetric(step.id, { name: 'iops', value: 2197, unit: '1/s' });
    const onBase = await importText(base.id, 'vmstat-base.txt', 'only on the baseline\n');
    const shared = await importSeed(base.id);
    const sharedOnStep = await importSeed(step.id);
    const onGone = await importText(g2.id, 'gone.txt', 'only in the abandoned study\n');

    api.deleteExperiment(g1.id); // inside a study deleted later: comes back with it, not listed on its own
    api.deleteStudy(gone.id);
    api.deleteExperiment(step.id);
    api.detachCapture(onBase.linkId);
    api.detachCapture(shared.linkId);
    stamp('experiment', g1.id, '2026-01-01T00:00:00.000Z');
    stamp('study', gone.id, '2026-01-02T00:00:00.000Z');
    stamp('experiment', step.id, '2026-01-03T00:00:00.000Z');
    stamp('experiment_capture', onBase.linkId, '2026-01-04T00:00:00.000Z');
    stamp('experiment_capture', shared.linkId, '2026-01-05T00:00:00.000Z');
    return { gone, g1, g2, live, base, step, last, onBase, shared, sharedOnStep, onGone };
  }

  it('lists what was deleted, newest first, each thing once, with where it was', async () => {
    const t = await notebookWithTrash();
    expect(api.listTrash()).toEqual([
      { kind: 'capture', id: t.shared.linkId, name: t.shared.name, deletedAt: '2026-01-05T00:00:00.000Z', studyId: t.live.id, studyTitle: 'live study',
        experimentId: t.base.id, experimentTitle: 'baseline', captureId: t.shared.captureId, experimentCount: 0 },
      { kind: 'capture', id: t.onBase.linkId, name: 'vmstat-base.txt', deletedAt: '2026-01-04T00:00:00.000Z', studyId: t.live.id, studyTitle: 'live study',
        experimentId: t.base.id, experimentTitle: 'baseline', captureId: t.onBase.captureId, experimentCount: 0 },
      { kind: 'experiment', id: t.step.id, name: 'step one', deletedAt: '2026-01-03T00:00:00.000Z', studyId: t.live.id, studyTitle: 'live study',
        experimentId: null, experimentTitle: null, captureId: null, experimentCount: 0 },
      // g1 (deleted before its study) is not listed on its own; g2 comes back with the study
      { kind: 'study', id: t.gone.id, name: 'abandoned study', deletedAt: '2026-01-02T00:00:00.000Z', studyId: t.gone.id, studyTitle: 'abandoned study',
        experimentId: null, experimentTitle: null, captureId: null, experimentCount: 1 },
    ]);
    // a capture on a deleted experiment comes back with it: not listed on its own
    expect(api.listTrash().some((i) => i.id === t.sharedOnStep.linkId && i.kind === 'capture')).toBe(false);
  });

  it('restores from the trash: the experiment between the same neighbours, with its changes, results and captures', async () => {
    const t = await notebookWithTrash();
    const back = api.restoreExperiment(t.step.id);
    expect(back.position).toBe(1);
    expect(back.configChanges.map((c) => c.key)).toEqual(['vm.swappiness']);
    expect(back.metrics.map((m) => m.value)).toEqual([2197]);
    expect(back.captures.map((c) => c.linkId)).toEqual([t.sharedOnStep.linkId]);
    expect(api.listTrash().map((i) => i.kind)).toEqual(['capture', 'capture', 'study']);
    // the study comes back with the experiment that was live in it, not with the one deleted before it
    api.restoreStudy(t.gone.id);
    expect(api.getStudy(t.gone.id).experiments.map((e) => e.title)).toEqual(['g2']);
    expect(api.listTrash().find((i) => i.kind === 'experiment')).toMatchObject({ id: t.g1.id, studyTitle: 'abandoned study' });
    expect(api.restoreCaptureLink(t.onBase.linkId).name).toBe('vmstat-base.txt');
    expect(api.getExperiment(t.base.id).captures.map((c) => c.name)).toContain('vmstat-base.txt');
  });

  it('deletes one item for good, and the captures nothing else links; refuses what is not in the trash', async () => {
    const t = await notebookWithTrash();
    const before = captureCount();
    expect(() => api.deleteForever({ kind: 'experiment', id: t.base.id })).toThrow(/not in the trash/);
    expect(() => api.deleteForever({ kind: 'study', id: t.live.id })).toThrow(/not in the trash/);
    expect(() => api.deleteForever({ kind: 'capture', id: t.sharedOnStep.linkId })).toThrow(/not in the trash/);
    expect(() => api.deleteForever({ kind: 'study', id: 9999 })).toThrow(/does not exist/);
    expect(() => api.deleteForever({ kind: 'profile' as never, id: 1 })).toThrow(/kind must be one of/);

    // the seed capture is still linked from the deleted step: its unlinked copy on the baseline goes, the capture stays
    expect(api.deleteForever({ kind: 'capture', id: t.shared.linkId })).toEqual({ studies: 0, experiments: 0, captures: 0 });
    expect(() => api.restoreCaptureLink(t.shared.linkId)).toThrow(/does not exist/);
    expect(captureCount()).toBe(before);
    // the only link of the text capture: it leaves the notebook
    expect(api.deleteForever({ kind: 'capture', id: t.onBase.linkId })).toEqual({ studies: 0, experiments: 0, captures: 1 });
    expect(() => api.getCapture(t.onBase.captureId)).toThrow(/does not exist/);
    // the step held the last link of the seed capture
    expect(api.deleteForever({ kind: 'experiment', id: t.step.id })).toEqual({ studies: 0, experiments: 1, captures: 1 });
    expect(() => api.restoreExperiment(t.step.id)).toThrow(/does not exist/);
    expect(api.search('swappiness')).toEqual([]);
    // the study, with both its experiments (the one deleted before it too)
    expect(api.deleteForever({ kind: 'study', id: t.gone.id })).toEqual({ studies: 1, experiments: 2, captures: 1 });
    expect(() => api.restoreStudy(t.gone.id)).toThrow(/does not exist/);
    expect(api.search('abandoned')).toEqual([]);
    expect(captureCount()).toBe(before - 3);
    expect(api.listTrash()).toEqual([]);
    // the live study is as it was
    expect(api.getStudy(t.live.id).experiments.map((e) => e.title)).toEqual(['baseline', 'step two']);
    expect(api.getExperiment(t.base.id).notes).toBe('keep me');
  });

  it('empties the trash in one go and announces it once it is committed', async () => {
    const t = await notebookWithTrash();
    const before = captureCount();
    const seen: { change: DataChange; trash: number; studies: number }[] = [];
    const other = new Database(notebook, { readonly: true });
    backend.on('onDidChangeData', (change) => {
      // committed: another connection already sees the trash empty
      seen.push({
        change,
        trash: other.prepare(`SELECT (SELECT count(*) FROM study WHERE deleted_at IS NOT NULL) + (SELECT count(*) FROM experiment WHERE deleted_at IS NOT NULL)
          + (SELECT count(*) FROM experiment_capture WHERE deleted_at IS NOT NULL)`).pluck().get() as number,
        studies: other.prepare(`SELECT count(*) FROM study`).pluck().get() as number,
      });
    });
    const updatedAt = api.getStudy(t.live.id).study.updatedAt;
    // g1, g2 (the study's) and step; the text captures of the baseline and of g2, and the seed capture (the step held its last link)
    expect(api.emptyTrash()).toEqual({ studies: 1, experiments: 3, captures: 3 });
    other.close();
    expect(seen.map((s) => s.change).sort((a, b) => a.studyId! - b.studyId!)).toEqual([{ studyId: t.gone.id }, { studyId: t.live.id }]);
    expect(seen.every((s) => s.trash === 0 && s.studies === 1)).toBe(true);
    expect(api.listTrash()).toEqual([]);
    expect(captureCount()).toBe(before - 3);
    // what was live is untouched, and its study did not move in the list
    expect(api.getStudy(t.live.id).study.updatedAt).toBe(updatedAt);
    expect(api.getStudy(t.live.id).experiments.map((e) => e.title)).toEqual(['baseline', 'step two']);
    expect(api.listStudies().map((s) => s.title)).toEqual(['live study']);
    // nothing left to empty: nothing to announce
    seen.length = 0;
    expect(api.emptyTrash()).toEqual({ studies: 0, experiments: 0, captures: 0 });
    expect(seen).toEqual([]);
  });

  it('experiments in the trash do not hold a profile back: they keep no profile and come back without one', () => {
    const p = api.createProfile({ name: 'laptop' });
    const s = api.createStudy({ title: 's' });
    const inUse = api.createExperiment(s.id, { title: 'live on laptop', profileId: p.id });
    const trashed = api.createExperiment(s.id, { title: 'trashed on laptop', profileId: p.id });
    const other = api.createStudy({ title: 'deleted study' });
    const ofTrashedStudy = api.createExperiment(other.id, { title: 'in a deleted study', profileId: p.id });
    api.deleteExperiment(trashed.id);
    api.deleteStudy(other.id);
    expect(api.listProfiles()[0]!.usedBy).toBe(1);
    expect(() => api.deleteProfile(p.id)).toThrow(/"laptop" is used by 1 experiment; choose another profile for it first/);
    api.updateExperiment(inUse.id, { profileId: null });
    api.deleteProfile(p.id);
    expect(api.listProfiles()).toEqual([]);
    expect(api.restoreExperiment(trashed.id).profileId).toBeNull();
    api.restoreStudy(other.id);
    expect(api.getExperiment(ofTrashedStudy.id).profileId).toBeNull();
  });
});
