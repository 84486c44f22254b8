/**
 * Importing an archive (issue 11): a .tar.gz or .zip dropped on an experiment stores each file in
 * it as a capture named by the archive and its folders, says which members it left out and why,
 * and a hostile or damaged archive is refused whole with nothing stored.
 */
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { archiveMemberName } from '../../electron/services/storeWorker';
import { Backend } from '../../electron/services/backend';
import type { ImportResult } from '../../shared/model';
import { buildBundles, seedPath, useTempDir } from '../helpers';

const VMSTAT = path.join(__dirname, '..', 'fixtures', 'captures', 'vmstat', 'D.txt');
let workers: { parseWorkerFile: string; storeWorkerFile: string };
beforeAll(async () => { workers = await buildBundles(); });

describe('importing an archive', () => {
  const tmp = useTempDir();

  function kitFolder(): string {
    const root = path.join(tmp(), 'src', 'tunebook-web1-20261130T2200Z');
    mkdirSync(path.join(root, 'monitors'), { recursive: true });
    mkdirSync(path.join(root, 'command'), { recursive: true });
    copyFileSync(VMSTAT, path.join(root, 'monitors', 'vmstat-1.txt'));
    copyFileSync(seedPath('fio-randwrite-4k-qd64-j64.txt'), path.join(root, 'command', 'stdout.txt'));
    writeFileSync(path.join(root, '.DS_Store'), 'junk');
    symlinkSync('/etc/passwd', path.join(root, 'monitors', 'passwd-link'));
    return root;
  }

  it('stores every file of a .tar.gz and a .zip as a capture, named by the archive, and says what it left out', async () => {
    const root = kitFolder();
    const tgz = path.join(tmp(), 'tunebook-web1-20261130T2200Z.tar.gz');
    execFileSync('tar', ['-czf', tgz, '-C', path.dirname(root), path.basename(root)]);
    const zip = path.join(tmp(), 'run2.zip');
    execFileSync('zip', ['-qry', zip, '.'], { cwd: root }); // -y: the link is stored as a link
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    try {
      const study = backend.api.createStudy({ title: 'kit' });
      const e = backend.api.createExperiment(study.id, { title: 'baseline' });
      const e2 = backend.api.createExperiment(study.id, { title: 'second run' });
      const r: ImportResult = await backend.api.importCaptures(e.id, [{ path: tgz }]);
      const r2: ImportResult = await backend.api.importCaptures(e2.id, [{ path: zip }]);
      expect([...r.imported, ...r2.imported].map((c) => [c.name, c.kind]).sort()).toEqual([
        ['run2/command/stdout.txt', 'fio'],
        ['run2/monitors/vmstat-1.txt', 'vmstat'],
        ['tunebook-web1-20261130T2200Z/command/stdout.txt', 'fio'],
        ['tunebook-web1-20261130T2200Z/monitors/vmstat-1.txt', 'vmstat'],
      ]);
      // the same bytes in both archives: stored once, linked on each experiment
      expect(r2.imported.every((c) => c.deduplicated)).toBe(true);
      expect([...r.failed, ...r2.failed].map((f) => f.name).sort()).toEqual(['run2/monitors/passwd-link', 'tunebook-web1-20261130T2200Z/monitors/passwd-link']);
      expect(r.failed[0]!.message).toMatch(/link/);
      const vm = r.imported.find((c) => c.name.endsWith('vmstat-1.txt'))!;
      expect(Buffer.concat([...backend.captureBytes(vm.captureId)]).equals(readFileSync(VMSTAT))).toBe(true);
    } finally {
      backend.close();
    }
  });

  it('refuses an archive whose names leave it, and a damaged one, storing nothing of them', async () => {
    const evil = path.join(tmp(), 'evil.tar');
    const inside = path.join(tmp(), 'inside');
    mkdirSync(inside);
    copyFileSync(VMSTAT, path.join(inside, 'vmstat.txt'));
    // -P keeps the leading ../ that GNU tar would otherwise strip
    execFileSync('tar', ['-cPf', evil, '--transform', 's,^,../../,', '-C', inside, 'vmstat.txt']);
    const cut = path.join(tmp(), 'cut.tar.gz');
    execFileSync('tar', ['-czf', cut, '-C', inside, 'vmstat.txt']);
    writeFileSync(cut, readFileSync(cut).subarray(0, 60));
    const backend = new Backend({ notebookPath: path.join(tmp(), 'nb.tunebook'), userDataDir: tmp(), ...workers });
    try {
      const study = backend.api.createStudy({ title: 'kit' });
      const e = backend.api.createExperiment(study.id, { title: 'baseline' });
      const r: ImportResult = await backend.api.importCaptures(e.id, [{ path: evil }, { path: cut }, { path: VMSTAT }]);
      expect(r.imported.map((c) => c.name)).toEqual(['D.txt']);
      expect(r.failed.map((f) => f.name)).toEqual(['evil.tar', 'cut.tar.gz']);
      expect(r.failed[0]!.message).toMatch(/\.\./);
      expect(r.failed[1]!.message).toMatch(/not a readable \.tar\.gz archive/);
      expect(backend.api.getExperiment(e.id).captures).toHaveLength(1);
    } finally {
      backend.close();
    }
  });

  it('names members after the archive, without nesting its own top folder twice', () => {
    expect(archiveMemberName('kit.tar.gz', 'monitors/vmstat.txt')).toBe('kit/monitors/vmstat.txt');
    expect(archiveMemberName('tunebook-h-1.tgz', 'tunebook-h-1/facts/lscpu.txt')).toBe('tunebook-h-1/facts/lscpu.txt');
    expect(archiveMemberName('day2/tunebook-h-1.TAR.GZ', 'tunebook-h-1/facts/lscpu.txt')).toBe('day2/tunebook-h-1/facts/lscpu.txt');
    expect(archiveMemberName('logs.zip', 'a.txt')).toBe('logs/a.txt');
  });
});
