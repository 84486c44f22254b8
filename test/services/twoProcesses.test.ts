/**
 * Two processes on one notebook (the desktop app and `tunebook serve`, or two windows): every
 * write of both lands — transactions take the write lock first (IMMEDIATE) and wait for the other
 * — and a host that serves a window hears of the other process's commits (data_version).
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import type { DataChange } from '../../shared/api';
import { Backend } from '../../electron/services/backend';
import { useTempDir } from '../helpers';

let bundle: string;
beforeAll(async () => {
  const { build } = await import('esbuild');
  // inside the repository, so the bundle finds better-sqlite3 in node_modules
  const dir = path.join(__dirname, '../../.cache', `two-writers-${process.pid}`);
  bundle = path.join(dir, 'backend.cjs');
  process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
  await build({
    entryPoints: [path.join(__dirname, '../../electron/services/backend.ts')], bundle: true, platform: 'node', format: 'cjs',
    target: 'node20', outfile: bundle, external: ['better-sqlite3'], logLevel: 'silent',
  });
});

/** A process that makes `n` experiments with a result each, reordering as it goes; prints how many writes failed. */
function writer(notebook: string, userData: string, studyId: number, n: number, tag: string): Promise<{ failed: number; done: number }> {
  const script = `
    const { Backend } = require(${JSON.stringify(bundle)});
    const b = new Backend({ notebookPath: ${JSON.stringify(notebook)}, userDataDir: ${JSON.stringify(userData)} });
    let failed = 0, done = 0;
    for (let i = 0; i < ${n}; i++) {
      try {
        const e = b.api.createExperiment(${studyId}, { title: '${tag} ' + i });
        b.api.addResultMetric(e.id, { name: 'requests_per_second', value: 100 + i, unit: '1/s' });
        if (i % 10 === 0) b.api.moveExperiment(e.id, 0);
        b.api.updateStudy(${studyId}, { goal: '${tag} ' + i });
        done++;
      } catch (err) { failed++; console.error(String(err)); }
    }
    b.close();
    process.stdout.write(JSON.stringify({ failed, done }));`;
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => { out += String(d); });
    child.on('exit', (code) => (code === 0 ? resolve(JSON.parse(out) as { failed: number; done: number }) : reject(new Error(`writer ${tag} exited ${code}`))));
  });
}

describe('two processes on one notebook', () => {
  const tmp = useTempDir();

  it('lose no write, keep the order whole, and a watching host hears of the other\'s commits', async () => {
    const notebook = path.join(tmp(), 'shared.tunebook');
    const host = new Backend({ notebookPath: notebook, userDataDir: tmp(), watchOtherWriters: true });
    try {
      const study = host.api.createStudy({ title: 'two writers' });
      const heard: DataChange[] = [];
      host.on('onDidChangeData', (c) => heard.push(c));
      const [a, b] = await Promise.all([writer(notebook, tmp(), study.id, 150, 'a'), writer(notebook, tmp(), study.id, 150, 'b')]);
      expect([a, b]).toEqual([{ failed: 0, done: 150 }, { failed: 0, done: 150 }]);

      const experiments = host.api.getStudy(study.id).experiments;
      expect(experiments).toHaveLength(300);
      expect(experiments.map((e) => e.position)).toEqual(experiments.map((_, i) => i));
      expect(new Set(experiments.map((e) => e.title)).size).toBe(300);
      expect(experiments.every((e) => e.metrics.length === 1)).toBe(true);

      // the watching host announced the other processes' commits (within a second of them)
      await new Promise((r) => setTimeout(r, 1500));
      expect(heard).toContainEqual({ studyId: null, all: true });
      // and its own writes are not taken for another process's
      heard.length = 0;
      host.api.updateStudy(study.id, { goal: 'mine' });
      await new Promise((r) => setTimeout(r, 1500));
      expect(heard).toEqual([{ studyId: study.id }]);

      const db = new Database(notebook, { readonly: true });
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
    } finally {
      host.close();
    }
  }, 120_000);
});
