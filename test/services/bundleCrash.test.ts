/**
 * A bundle import killed at any moment (issue 10, "kills survived … bundle import"): the bundle is
 * checked whole and then written in one transaction, so a `tunebook import-bundle` killed with
 * SIGKILL leaves the notebook with nothing of the bundle or all of it — never a study without its
 * experiments or captures — and the next import finishes the job.
 */
import Database from 'better-sqlite3';
import { spawn } from 'node:child_process';
import { closeSync, mkdirSync, openSync, readFileSync, writeSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openNotebookDb } from '../../electron/db/connection';
import { Backend } from '../../electron/services/backend';
import type { ExportResult, ImportResult } from '../../shared/model';
import { buildBundles, seedPath, useTempDir } from '../helpers';

const MiB = 1 << 20;
let built: Awaited<ReturnType<typeof buildBundles>>;
beforeAll(async () => { built = await buildBundles(); });

/**
 * An iostat -x log of about `bytes`: the seed capture's header, then vda rows whose figures vary (a
 * pseudo-random walk, seeded), so the log does not compress to nothing and its bundle takes a while.
 */
function iostatLog(file: string, bytes: number): void {
  const seed = readFileSync(seedPath('iostat-x-d-1-during-randwrite.txt'), 'utf8').split('\n');
  const first = seed.findIndex((l) => l.startsWith('vda'));
  const row = seed[first]!.split(/\s+/);
  let x = 12345;
  const next = () => { x = (x * 1103515245 + 12345) % 2147483648; return x / 2147483648; };
  const fd = openSync(file, 'w');
  try {
    writeSync(fd, `${seed.slice(0, first).join('\n')}\n`);
    for (let n = 0; n < bytes;) {
      const lines: string[] = [];
      for (let i = 0; i < 5000; i++) lines.push(row.map((t, j) => (j === 0 ? t : (Number(t) * (0.5 + next())).toFixed(2))).join('    '));
      const b = Buffer.from(`${lines.join('\n')}\n`);
      writeSync(fd, b);
      n += b.length;
    }
  } finally {
    closeSync(fd);
  }
}

interface State { studies: number; experiments: number; captures: number; links: number; chunks: number }

function stateOf(file: string): State {
  const db = new Database(file, { readonly: true });
  try {
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    const n = (sql: string) => db.prepare(sql).pluck().get() as number;
    return {
      studies: n('SELECT count(*) FROM study'), experiments: n('SELECT count(*) FROM experiment'),
      captures: n('SELECT count(*) FROM capture'), links: n('SELECT count(*) FROM experiment_capture'), chunks: n('SELECT count(*) FROM capture_chunk'),
    };
  } finally {
    db.close();
  }
}

function run(args: string[], env: NodeJS.ProcessEnv, killAfterMs?: number): Promise<{ code: number | null; signal: string | null; ms: number }> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, [built.cli, ...args], { env, stdio: 'ignore' });
    const timer = killAfterMs === undefined ? null : setTimeout(() => child.kill('SIGKILL'), killAfterMs);
    const limit = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`tunebook ${args[0]} did not end within 60 s`)); }, 60_000);
    child.once('error', reject);
    child.once('close', (code, signal) => {
      if (timer) clearTimeout(timer);
      clearTimeout(limit);
      resolve({ code, signal, ms: performance.now() - t0 });
    });
  });
}

describe('a bundle import killed at any moment', () => {
  const tmp = useTempDir();

  it('leaves nothing of the bundle or all of it, and the next import completes it', async () => {
    // a study with three experiments, one holding a 24 MB log: its bundle takes a while to import
    const source = path.join(tmp(), 'source.tunebook');
    const backend = new Backend({ notebookPath: source, userDataDir: tmp(), parseWorkerFile: built.parseWorkerFile, storeWorkerFile: built.storeWorkerFile });
    const bundle = path.join(tmp(), 'study.eln');
    try {
      const study = backend.api.createStudy({ title: 'fio random vs sequential writes' });
      const log = path.join(tmp(), 'iostat-day.txt');
      iostatLog(log, 24 * MiB);
      for (const [title, files] of [['random writes', [seedPath('fio-randwrite-4k-qd64-j64.txt'), log]], ['sequential writes', [seedPath('fio-write-4k-qd64-j64.txt')]], ['planned', []]] as const) {
        const e = backend.api.createExperiment(study.id, { title });
        if (files.length) {
          const r: ImportResult = await backend.api.importCaptures(e.id, files.map((f) => ({ path: f })));
          expect(r.failed).toEqual([]);
        }
      }
      const exported: ExportResult = await backend.api.exportStudy(study.id, { format: 'eln', path: bundle });
      expect(exported.bytes).toBeGreaterThan(MiB);
    } finally {
      backend.close();
    }
    const whole = stateOf(source);

    const env = (dir: string) => ({ ...process.env, TUNEBOOK_USER_DATA: dir, TMPDIR: dir });
    // one uninterrupted import: how long it takes, and what a whole one holds
    const probeDir = path.join(tmp(), 'probe');
    mkdirSync(probeDir);
    const probe = path.join(probeDir, 'nb.tunebook');
    const full = await run(['import-bundle', '--notebook', probe, bundle], env(probeDir));
    expect(full.code).toBe(0);
    const imported = stateOf(probe);
    expect(imported).toEqual(whole);

    const outcomes: string[] = [];
    for (let round = 0; round < 6; round++) {
      const dir = path.join(tmp(), `kill-${round}`);
      mkdirSync(dir);
      const notebook = path.join(dir, 'nb.tunebook');
      // an empty notebook first, so every kill lands on the import itself
      openNotebookDb(notebook, { create: true }).close();
      const empty = stateOf(notebook);
      const r = await run(['import-bundle', '--notebook', notebook, bundle], env(dir), Math.round(full.ms * (0.2 + round * 0.14)));
      const after = stateOf(notebook);
      if (r.signal === 'SIGKILL') expect([JSON.stringify(empty), JSON.stringify(imported)]).toContain(JSON.stringify(after));
      else expect(after).toEqual(imported);
      outcomes.push(r.signal === 'SIGKILL' ? (after.studies ? 'killed after the commit' : 'killed before the commit') : 'finished');
      // the next import brings it to the whole study, once
      expect((await run(['import-bundle', '--notebook', notebook, bundle], env(dir))).code).toBe(0);
      expect(stateOf(notebook)).toEqual(imported);
    }
    const count = (s: string) => outcomes.filter((o) => o === s).length;
    console.log(`bundle import killed (a whole import: ${full.ms.toFixed(0)} ms): ${count('killed before the commit')} before the commit, ${count('killed after the commit')} after, ${count('finished')} finished first`);
    expect(count('killed before the commit')).toBeGreaterThan(0);
  }, 300_000);
});
