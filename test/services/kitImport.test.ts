/**
 * Dropping a capture kit's archive on experiments (issue 11), with two real kits taken on this
 * machine (test/fixtures/kits/README.md): every file stored with what the manifest says of it
 * (its command as the parser's hint, its times, a note on its link), the benchmark's result and the
 * hardware profile proposed, the monitors on the benchmark's clock with their figures during the run,
 * and the settings snapshots of the next kit proposed as config changes — without the kernel's
 * running counters (fs.file-nr, kernel.random.uuid …) that differ between any two snapshots.
 */
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { Backend } from '../../electron/services/backend';
import { kitContext, readKitManifest } from '../../electron/services/kit/manifest';
import { buildBundles, useTempDir } from '../helpers';

const KITS = path.join(__dirname, '..', 'fixtures', 'kits');
const AB_KIT = path.join(KITS, 'kit-ab.tar.gz');
const TUNED_KIT = path.join(KITS, 'kit-tuned.tar.gz');
const manifestOf = (tgz: string) => readKitManifest(execFileSync('tar', ['-xzOf', tgz, '--wildcards', '*/manifest.json'], { encoding: 'utf8' }))!;

let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

describe('the kit manifest', () => {
  it('is read into a context per file: command, times, the benchmark for monitors, a note', () => {
    const m = manifestOf(AB_KIT);
    expect(m.hostname).toBe('vm');
    expect(m.run?.command).toBe('ab -t 4 -n 1000000 -c 8 http://127.0.0.1:18181/');
    expect(m.run!.ended - m.run!.started).toBeGreaterThanOrEqual(4000);
    const vm = kitContext(m, 'monitors/vmstat-1.txt')!;
    expect(vm.context).toMatchObject({ command: 'vmstat 1', run: m.run });
    expect(vm.context!.started).toBeLessThan(m.run!.started);
    expect(vm.note).toMatch(/^vmstat 1 \(capture kit on vm, \d\d:\d\d:\d\d–\d\d:\d\d:\d\d UTC\) · vmstat from procps-ng 4\.0\.2 · recorded around: ab -t 4/);
    expect(kitContext(m, 'snapshots/free-m-start.txt')!.context).not.toHaveProperty('run');
    expect(kitContext(m, 'facts/tune2fs-l-dev-vda.txt')!.note).toMatch(/failed: exit status 1: tune2fs: Operation not permitted/);
    expect(kitContext(m, 'facts/tune2fs-l-dev-vda.err')).toEqual({ note: expect.stringMatching(/^stderr of tune2fs -l \/dev\/vda/) });
    expect(kitContext(m, 'no/such.txt')).toBeUndefined();
  });

  it('is not a kit manifest when its format is another\'s, and hostile fields are dropped', () => {
    expect(readKitManifest('{"format":"other","formatVersion":1,"entries":[]}')).toBeNull();
    expect(readKitManifest('not json')).toBeNull();
    const m = readKitManifest(JSON.stringify({
      format: 'tunebook-kit', formatVersion: 9, entries: [
        { file: 'a.txt', command: 'vmstat 1', startEpoch: 'soon', endEpoch: -5 },
        { file: 42, command: 'x' }, null, { file: 'b.txt', command: 'x'.repeat(5000) },
      ],
    }))!;
    expect(m.entries).toEqual([expect.objectContaining({ file: 'a.txt', startEpoch: null, endEpoch: null })]);
    expect(kitContext(m, 'a.txt')!.context).not.toHaveProperty('started');
  });
});

describe('dropping kits on consecutive experiments', () => {
  const tmp = useTempDir();

  it('stores each file with its context, proposes the result, the profile and the config changes, and aligns the monitors', async () => {
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    try {
      const api = backend.api;
      const study = api.createStudy({ title: 'kit' });
      const base = api.createExperiment(study.id, { title: 'baseline' });
      const tuned = api.createExperiment(study.id, { title: 'somaxconn 8192' });
      // the app proposes the result (accepted here as `tunebook import` does)
      expect((await api.importCaptures(base.id, [{ path: AB_KIT }])).result).toBeNull();
      expect(api.experimentProposals(base.id).result?.candidates[0]).toMatchObject({ name: 'requests_per_second', value: 3613.69 });
      const r = await api.importCaptures(base.id, [{ path: AB_KIT }], { acceptResult: true });
      expect(r.failed).toEqual([]);
      const byFile = new Map(r.imported.map((c) => [c.name.replace(/^.*tunebook-vm-[^/]+\//, ''), c]));
      expect(byFile.size).toBe(31);
      expect(byFile.get('command/stdout.txt')!.kind).toBe('ab');
      expect(byFile.get('snapshots/free-m-start.txt')!.kind).toBe('free');
      expect(byFile.get('facts/proc-self-limits.txt')!.kind).toBe('ulimit');
      expect(byFile.get('manifest.json')!.kind).toBe('text');

      // the benchmark's figure became the primary result
      expect(r.result).toMatchObject({ name: 'requests_per_second', value: 3613.69, primary: true });

      // free -m read as MiB because the manifest said so: no guess, no warning
      const free = api.getCapture(byFile.get('snapshots/free-m-start.txt')!.captureId, base.id);
      expect(free.parsed.command).toBe('free -m');
      expect(free.parsed.warnings).toEqual([]);
      expect(free.parsed.metrics.find((m) => m.name === 'memory_total_bytes')?.value).toBe(24105 * 2 ** 20);

      // the link says what ran and when
      const links = api.getExperiment(base.id).captures;
      expect(links.find((l) => l.name.endsWith('monitors/vmstat-1.txt'))!.note).toMatch(/^vmstat 1 \(capture kit on vm,/);

      // monitors on the benchmark's clock: vmstat had no times of its own; its figures during the run beside the whole
      const manifest = manifestOf(AB_KIT);
      const vm = api.getCapture(byFile.get('monitors/vmstat-1.txt')!.captureId, base.id);
      expect(vm.parsed.context?.run).toEqual(manifest.run);
      const us = vm.parsed.series.find((s) => s.column === 'us')!;
      expect(us.run!.count).toBeGreaterThanOrEqual(3);
      expect(us.run!.count).toBeLessThan(us.count);
      const pts = api.captureSeries(vm.id, vm.parsed.series.indexOf(us), null, 1000);
      expect(pts.xIsTime).toBe(true);
      // sample 0 (since boot, at the start) is left out of the chart: the next one is an interval later
      expect(pts.x[0]).toBe(kitContext(manifest, 'monitors/vmstat-1.txt')!.context!.started! + 1000);
      expect(pts.x[1]! - pts.x[0]!).toBe(1000);
      // "during the run" is exactly the samples whose time falls within the benchmark's
      const inRun = pts.y.filter((_, i) => pts.x[i]! >= manifest.run!.started && pts.x[i]! <= manifest.run!.ended) as number[];
      expect(us.run!.count).toBe(inRun.length);
      expect(us.run!.mean).toBeCloseTo(inRun.reduce((a, b) => a + b, 0) / inRun.length, 5);
      // sar printed times of day (UTC on this machine): they stay where they were, within the recording
      const sar = api.getCapture(byFile.get('monitors/sar-n-DEV-1.txt')!.captureId, base.id);
      const sarPts = api.captureSeries(sar.id, 0, null, 1000);
      expect(sarPts.x[0]).toBeGreaterThanOrEqual(manifest.entries.find((e) => e.file === 'monitors/sar-n-DEV-1.txt')!.startEpoch! * 1000);
      expect(sar.parsed.series[0]!.run).toBeDefined();

      // the hardware profile proposed from the kit's facts
      const p = api.experimentProposals(base.id);
      expect(p.profile?.patch).toMatchObject({ cores: expect.any(Number), memoryBytes: expect.any(Number) });
      expect(p.profile!.patch.disks?.map((d) => d.name)).toContain('vda');
      expect(p.configChanges).toEqual([]); // nothing before it

      // the next kit: its settings snapshots against the baseline's are the config changes
      const r2 = await api.importCaptures(tuned.id, [{ path: TUNED_KIT }]);
      expect(r2.failed).toEqual([]);
      const proposals = api.experimentProposals(tuned.id).configChanges;
      const sysctl = proposals.find((x) => x.kind === 'sysctl')!;
      expect(sysctl.beforeExperimentTitle).toBe('baseline');
      const changed = new Map(sysctl.changes.map((c) => [c.key, c]));
      expect(changed.get('net.core.somaxconn')).toMatchObject({ before: '4096', after: '8192' });
      expect(changed.get('net.ipv4.tcp_tw_reuse')).toMatchObject({ before: '2', after: '1' });
      for (const counter of ['fs.file-nr', 'fs.dentry-state', 'fs.inode-nr', 'kernel.ns_last_pid', 'kernel.random.uuid']) expect(changed.has(counter)).toBe(false);
      const ulimit = proposals.filter((x) => x.kind === 'ulimit');
      expect(ulimit.flatMap((x) => x.changes).some((c) => /open files|nofile/i.test(c.key) && c.after === '4096')).toBe(true);
      // each snapshot against the earlier kit's file of the same name (ulimit -a counts memlock in KiB,
      // /proc/self/limits in bytes: compared across, 8192 → 8388608 would be a change nobody made)
      for (const x of proposals) expect(x.beforeName.split('/').pop()).toBe(x.afterName.split('/').pop());
      expect(ulimit.flatMap((x) => x.changes).filter((c) => /memlock|stack/.test(c.key))).toEqual([]);
      // only values that changed: a key one snapshot lacks (the namespace's missing interfaces) is not proposed
      expect(proposals.flatMap((x) => x.changes).filter((c) => c.before === null || c.after === null)).toEqual([]);
      // a kit in duration mode has no benchmark: no run window
      const tunedVm = api.getExperiment(tuned.id).captures.find((l) => l.name.endsWith('monitors/vmstat-1.txt'))!;
      expect(api.getCapture(tunedVm.captureId, tuned.id).parsed.context).not.toHaveProperty('run');

      // a re-parse reads each capture with the context it was stored with
      await api.reparseCaptures();
      const again = api.getCapture(byFile.get('snapshots/free-m-start.txt')!.captureId, base.id);
      expect(again.parsed.warnings).toEqual([]);
      expect(again.parsed.command).toBe('free -m');
      expect(api.getCapture(vm.id, base.id).parsed.series.find((s) => s.column === 'us')!.run).toEqual(us.run);
    } finally {
      backend.close();
    }
  });

  it('keeps the context through a bundle: exported, imported into another notebook, the same figures', async () => {
    const a = new Backend({ notebookPath: path.join(tmp(), 'a.tunebook'), userDataDir: tmp(), ...workers });
    const b = new Backend({ notebookPath: path.join(tmp(), 'b.tunebook'), userDataDir: tmp(), ...workers });
    try {
      const study = a.api.createStudy({ title: 'kit' });
      const e = a.api.createExperiment(study.id, { title: 'baseline' });
      await a.api.importCaptures(e.id, [{ path: AB_KIT }]);
      const out = path.join(tmp(), 'kit.eln');
      await a.api.exportStudy(study.id, { format: 'eln', path: out });
      await b.api.importBundle({ path: out });
      const cap = (api: Backend['api']) => {
        const s = api.listStudies()[0]!;
        const x = api.getStudy(s.id).experiments[0]!;
        const link = api.getExperiment(x.id).captures.find((l) => l.name.endsWith('free-m-start.txt'))!;
        return api.getCapture(link.captureId, x.id).parsed;
      };
      expect(cap(b.api).context).toEqual(cap(a.api).context);
      expect(cap(b.api).warnings).toEqual([]);
      expect(readFileSync(out).length).toBeGreaterThan(0);
    } finally {
      a.close();
      b.close();
    }
  });
});
