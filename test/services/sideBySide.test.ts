/**
 * Two experiments side by side: metric deltas in units (medians of repeated runs, never across
 * units that differ), config changes and hardware field by field, and — through the Backend — the
 * settings snapshots and series they share (case study C's fio and iostat runs).
 */
import path from 'node:path';
import { readFileSync } from 'node:fs';
import { beforeAll, describe, expect, it } from 'vitest';
import type { Experiment, HardwareProfile } from '../../shared/model';
import { configDiff, metricDeltas, profileDiff } from '../../shared/sideBySide';
import { Backend } from '../../electron/services/backend';
import { buildBundles, seedPath, useTempDir } from '../helpers';

let nextId = 1;
function exp(title: string, metrics: [string, number, string][], changes: [string, string, string, string][] = []): Experiment {
  return {
    id: nextId++, studyId: 1, position: 0, title, profileId: null, date: '2026-11-30', notes: '', status: 'kept', createdAt: '', updatedAt: '', captures: [],
    metrics: metrics.map(([name, value, unit], i) => ({ id: nextId++, name, value, unit, better: 'higher', primary: i === 0, source: null })),
    configChanges: changes.map(([scope, key, before, after]) => ({ id: nextId++, scope, key, before, after, why: '' })),
  };
}

describe('side by side (pure)', () => {
  it('gives deltas in units and percent, on medians, and refuses units that differ', () => {
    const a = exp('random', [['iops', 2197, '1/s'], ['bandwidth_bytes_per_second', 8788 * 1024, 'B/s'], ['latency_mean_seconds', 1.7, 's']]);
    const b = exp('sequential', [['iops', 43000, '1/s'], ['iops', 42000, '1/s'], ['iops', 44000, '1/s'], ['bandwidth_bytes_per_second', 168, '1/s'], ['util_percent', 100, '%']]);
    const d = metricDeltas(a, b);
    expect(d.map((x) => x.name)).toEqual(['iops', 'bandwidth_bytes_per_second', 'latency_mean_seconds', 'util_percent']);
    expect(d[0]).toMatchObject({ a: 2197, b: 43000, bRuns: 3, delta: 40803, deltaPercent: 1857.2, comparable: true });
    expect(d[1]).toMatchObject({ a: 8788 * 1024, b: null, delta: null, deltaPercent: null, comparable: false });
    expect(d[2]).toMatchObject({ a: 1.7, b: null, comparable: true });
    expect(d[3]).toMatchObject({ a: null, b: 100, unit: '%' });
  });

  it('lines up config changes by scope and key, and profiles field by field', () => {
    const a = exp('ulimit', [], [['ulimit', 'nofile', '65535', '100001']]);
    const b = exp('sysctl', [], [['ulimit', 'nofile', '65535', '100001'], ['sysctl', 'net.ipv4.tcp_tw_reuse', '0', '1']]);
    expect(configDiff(a, b)).toEqual([
      { key: 'ulimit\u0000nofile', label: 'ulimit · nofile', a: '65535 → 100001', b: '65535 → 100001', same: true },
      { key: 'sysctl\u0000net.ipv4.tcp_tw_reuse', label: 'sysctl · net.ipv4.tcp_tw_reuse', a: null, b: '0 → 1', same: false },
    ]);
    const vm = (name: string, cores: number, memory: number): HardwareProfile => ({
      id: nextId++, name, cpuModel: 'Intel Xeon', cores, threads: cores, memoryBytes: memory, os: 'CentOS 7.5', kernel: '', cloud: '', software: '', notes: '', usedBy: 1,
      disks: [{ name: 'vda', sizeBytes: 53687091200, logicalSectorBytes: 512, physicalSectorBytes: 512, blockBytes: 4096, kind: 'virtual' }],
    });
    const rows = profileDiff(vm('2C', 2, 4 * 2 ** 30), vm('4C/8G', 4, 8 * 2 ** 30));
    const row = (key: string) => rows.find((r) => r.key === key)!;
    expect(row('cores')).toMatchObject({ a: '2 / 2', b: '4 / 4', same: false });
    expect(row('memoryBytes')).toMatchObject({ a: '4 GiB', b: '8 GiB', same: false });
    expect(row('disks')).toMatchObject({ a: 'vda, 50 GiB, 512 B sectors, 4 KiB blocks, virtual', same: true });
    expect(profileDiff(null, null).every((r) => r.same && r.a === null)).toBe(true);
  });
});

describe('side by side through the Backend', () => {
  const tmp = useTempDir();
  let workers: { parseWorkerFile: string; storeWorkerFile: string };
  beforeAll(async () => { workers = await buildBundles(); });

  it('pairs the captures both experiments hold: series of the same kind, settings of the same tool', async () => {
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    try {
      const api = backend.api;
      const s = api.createStudy({ title: 'C' });
      const other = api.createStudy({ title: 'another study' });
      const a = api.createExperiment(s.id, { title: 'random' });
      const b = api.createExperiment(other.id, { title: 'sequential' });
      const sysctl = readFileSync(path.join(__dirname, '..', 'fixtures', 'captures', 'sysctl', 'sysctl-a.txt'), 'utf8');
      await (backend.call('importCaptures', [a.id, [{ path: seedPath('fio-randwrite-4k-qd64-j64.txt') }, { path: seedPath('iostat-x-d-1-during-randwrite.txt') }, { text: sysctl, name: 'sysctl-a.txt' }], { acceptResult: true }]) as Promise<unknown>);
      await (backend.call('importCaptures', [b.id, [{ path: seedPath('fio-write-4k-qd64-j64.txt') }, { path: seedPath('iostat-x-d-1-during-seqwrite.txt') }, { text: sysctl.replace(/^vm\.swappiness = .*$/m, 'vm.swappiness = 1'), name: 'sysctl-a.txt' }], { acceptResult: true }]) as Promise<unknown>);
      const c = api.compareExperiments(a.id, b.id);
      expect(c.a.studyTitle).toBe('C');
      expect(c.b.studyTitle).toBe('another study');
      expect(c.metrics[0]).toMatchObject({ name: 'iops', a: 2197, b: 43000, deltaPercent: 1857.2 });
      expect(c.series.map((x) => [x.kind, x.a.name, x.b.name])).toEqual([['iostat', 'iostat-x-d-1-during-randwrite.txt', 'iostat-x-d-1-during-seqwrite.txt']]);
      expect(c.settings).toHaveLength(1);
      expect(c.settings[0]!.changes.map((x) => [x.key, x.after])).toEqual([['vm.swappiness', '1']]);
      expect(api.experimentIndex().map((x) => [x.studyTitle, x.title])).toEqual([['another study', 'sequential'], ['C', 'random']]);
      expect(() => api.compareExperiments(a.id, 999)).toThrow(/experiment 999 does not exist/);
    } finally {
      backend.close();
    }
  });
});
