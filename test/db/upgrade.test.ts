/**
 * Upgrading a notebook (issue 10): a copy is taken before any migration runs, the migrations run in
 * one transaction so a failed (or killed) upgrade leaves the notebook as it was, and a full disk or
 * a read-only notebook is refused in words, with the file unchanged.
 */
import Database from 'better-sqlite3';
import { execFileSync, spawn } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readFileSync, statfsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it, type TestContext } from 'vitest';
import { TunebookError } from '../../shared/api';
import { openNotebookDb, schemaVersion } from '../../electron/db/connection';
import { LATEST_VERSION, MIGRATIONS } from '../../electron/db/migrations/index';
import { buildBundles, useTempDir } from '../helpers';

/** A notebook at schema 2 (before evidence, uids, the sparse order …) holding `n` experiments with notes. */
function oldNotebook(file: string, n: number, noteRepeat = 20): void {
  const db = openNotebookDb(file, { create: true, targetVersion: 2 });
  const now = '2019-03-01T10:00:00.000Z';
  db.transaction(() => {
    db.prepare(`INSERT INTO study (id, title, goal, created_at, updated_at) VALUES (1, 'Laravel to 286 req/s', 'QPS >= 250', ?, ?)`).run(now, now);
    const e = db.prepare(`INSERT INTO experiment (study_id, position, title, date, notes, created_at, updated_at) VALUES (1, ?, ?, '2019-03-01', ?, ?, ?)`);
    const m = db.prepare(`INSERT INTO result_metric (experiment_id, position, name, value, unit, better, is_primary) VALUES (?, 0, 'requests_per_second', ?, 'req/s', 'higher', 1)`);
    for (let i = 0; i < n; i++) {
      const id = e.run(i, `step ${i}`, `opcache and phpredis, attempt ${i}: ${'perf top showed time in send/ip/tcp. '.repeat(noteRepeat)}`, now, now).lastInsertRowid;
      m.run(id, 140 + i);
    }
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
}

function contents(file: string): { version: number; experiments: number; sum: number } {
  const db = new Database(file, { readonly: true });
  try {
    return {
      version: db.pragma('user_version', { simple: true }) as number,
      experiments: db.prepare('SELECT count(*) FROM experiment').pluck().get() as number,
      sum: db.prepare('SELECT total(value) FROM result_metric').pluck().get() as number,
    };
  } finally {
    db.close();
  }
}

describe('upgrading a notebook', () => {
  const tmp = useTempDir();

  it('takes a copy first and keeps it: the notebook as it was, beside it', () => {
    const file = path.join(tmp(), 'lab.tunebook');
    oldNotebook(file, 50);
    const before = contents(file);
    const db = openNotebookDb(file);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    db.close();
    const copy = `${file}.schema-2.bak`;
    expect(contents(copy)).toEqual(before);
    expect(contents(file)).toEqual({ ...before, version: LATEST_VERSION });
    expect(existsSync(`${copy}.partial`)).toBe(false);
    // a notebook already at the latest schema is opened without a copy
    const again = openNotebookDb(file);
    again.close();
    expect(existsSync(`${file}.schema-${LATEST_VERSION}.bak`)).toBe(false);
  });

  it('a failed migration leaves the notebook as it was, and says where the copy is', () => {
    const file = path.join(tmp(), 'lab.tunebook');
    oldNotebook(file, 20);
    const before = contents(file);
    // schema 3 succeeds, schema 4 fails half-way: nothing of either may remain
    const broken = [...MIGRATIONS.slice(0, 3), { version: 4, name: 'broken', up: `ALTER TABLE study ADD COLUMN x TEXT; INSERT INTO nope VALUES (1);` }];
    let err: unknown;
    try { openNotebookDb(file, { migrations: broken }); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(TunebookError);
    expect((err as Error).message).toMatch(/upgrading lab\.tunebook from notebook schema 2 to 4 failed \(no such table: nope\); it was left as it was, and the copy taken before the upgrade is at .*lab\.tunebook\.schema-2\.bak/);
    expect(contents(file)).toEqual(before);
    const db = new Database(file, { readonly: true });
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'capture'`).pluck().get()).toBe(0); // schema 3's table went too
    expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
    db.close();
    // the real migrations still upgrade it afterwards
    const ok = openNotebookDb(file);
    expect(schemaVersion(ok)).toBe(LATEST_VERSION);
    ok.close();
  });

  it('a killed upgrade leaves the notebook whole: at its old schema or at the new one, never between', async () => {
    const { cli } = await buildBundles();
    const results: number[] = [];
    const run = (file: string, dir: string) => {
      const child = spawn(process.execPath, [cli, 'show', '--notebook', file, '--json'], { stdio: 'ignore', env: { ...process.env, TUNEBOOK_USER_DATA: dir } });
      const exited = new Promise<void>((resolve, reject) => {
        const timer = setTimeout(() => { child.kill('SIGKILL'); reject(new Error(`tunebook show --notebook ${file} did not end within 30 s`)); }, 30_000);
        child.once('exit', () => { clearTimeout(timer); resolve(); });
      });
      return { child, exited };
    };
    // how long a whole run takes (start-up, the copy, the upgrade, the answer): the kills land across it
    const probe = path.join(tmp(), 'probe');
    mkdirSync(probe);
    oldNotebook(path.join(probe, 'lab.tunebook'), 4000);
    const started = Date.now();
    await run(path.join(probe, 'lab.tunebook'), probe).exited;
    const whole = Date.now() - started;
    expect(contents(path.join(probe, 'lab.tunebook')).version).toBe(LATEST_VERSION);
    for (let round = 0; round < 8; round++) {
      const dir = path.join(tmp(), `kill-${round}`);
      mkdirSync(dir);
      const file = path.join(dir, 'lab.tunebook');
      oldNotebook(file, 4000);
      const before = contents(file);
      const { child, exited } = run(file, dir);
      await new Promise((r) => setTimeout(r, Math.round(whole * (0.2 + round * 0.1))));
      child.kill('SIGKILL');
      await exited;
      const after = contents(file);
      expect([2, LATEST_VERSION]).toContain(after.version);
      expect({ experiments: after.experiments, sum: after.sum }).toEqual({ experiments: before.experiments, sum: before.sum });
      const db = new Database(file);
      expect(db.pragma('integrity_check', { simple: true })).toBe('ok');
      db.close();
      results.push(after.version);
      // and the next open finishes what was left
      const reopened = openNotebookDb(file);
      expect(schemaVersion(reopened)).toBe(LATEST_VERSION);
      reopened.close();
    }
    console.log(`killed upgrades (a whole run: ${whole} ms): ${results.filter((v) => v === 2).length} stopped before the commit, ${results.filter((v) => v !== 2).length} after`);
  }, 120_000);
});

describe('an upgrade on a full disk, a read-only notebook', () => {
  const tmp = useTempDir();
  const mnt = path.join('/tmp', `tunebook-upgrade-mnt-${process.pid}`);
  let whyNot = '';
  beforeAll(() => {
    try {
      mkdirSync(mnt, { recursive: true });
      execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=16m', 'tmpfs', mnt], { stdio: 'pipe' });
    } catch (e) {
      whyNot = e instanceof Error ? e.message.split('\n')[0]! : String(e);
    }
  });
  afterAll(() => {
    if (!whyNot) { try { execFileSync('umount', [mnt], { stdio: 'pipe' }); } catch { execFileSync('umount', ['-l', mnt], { stdio: 'pipe' }); } }
  });
  function requireMount(ctx: TestContext): void {
    if (!whyNot) return;
    const reason = `cannot mount a tmpfs here (${whyNot}): these tests need root or CAP_SYS_ADMIN`;
    console.log(`skipped: ${reason}`);
    ctx.skip(reason);
  }

  it('no room for the copy: refused in words, the notebook byte for byte unchanged', (ctx) => {
    requireMount(ctx);
    const file = path.join(mnt, 'full.tunebook');
    oldNotebook(file, 3000, 4);
    const bytes = readFileSync(file);
    // leave less free space than the copy needs
    const free = () => { const s = statfsSync(mnt); return s.bavail * s.bsize; };
    const filler = path.join(mnt, 'filler');
    try {
      writeFileSync(filler, Buffer.alloc(Math.max(0, free() - Math.floor(bytes.length / 3))));
      let err: unknown;
      try { openNotebookDb(file); } catch (e) { err = e; }
      expect((err as Error).message).toMatch(/full\.tunebook needs an upgrade, and a copy of it is taken first, but the disk is full\. Free about \d+ MiB and open it again; it was left unchanged\./);
      expect(readFileSync(file).equals(bytes)).toBe(true);
      expect(existsSync(`${file}.schema-2.bak`)).toBe(false);
      expect(existsSync(`${file}.schema-2.bak.partial`)).toBe(false);
    } finally {
      execFileSync('rm', ['-f', filler, file, `${file}-wal`, `${file}-shm`]);
    }
  });

  it('a read-only notebook is refused in words and left unchanged', (ctx) => {
    requireMount(ctx);
    const file = path.join(mnt, 'ro.tunebook');
    oldNotebook(file, 10);
    const bytes = readFileSync(file);
    execFileSync('mount', ['-o', 'remount,ro', mnt], { stdio: 'pipe' });
    try {
      let err: unknown;
      try { openNotebookDb(file); } catch (e) { err = e; }
      expect(err).toBeInstanceOf(TunebookError);
      expect((err as TunebookError).code).toBe('refused');
      expect((err as Error).message, String(err)).toMatch(/ro\.tunebook is read-only \(or its folder is\).*It was left unchanged\./);
      expect(readFileSync(file).equals(bytes)).toBe(true);
    } finally {
      execFileSync('mount', ['-o', 'remount,rw', mnt], { stdio: 'pipe' });
    }
  });

  it('as a user who may not write the file (chmod, not root)', (ctx) => {
    if (process.getuid?.() === 0) {
      console.log('skipped: root may write a file of mode 0444; the read-only mount above covers this case');
      ctx.skip('root may write a file of mode 0444');
    }
    const file = path.join(tmp(), 'mode.tunebook');
    oldNotebook(file, 5);
    chmodSync(file, 0o444);
    expect(() => openNotebookDb(file)).toThrow(/read-only/);
  });
});

