import Database from 'better-sqlite3';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { TunebookError } from '../../shared/api';
import { migrate, openNotebookDb, schemaVersion } from '../../electron/db/connection';
import { checkMigrations, LATEST_VERSION, MIGRATIONS } from '../../electron/db/migrations/index';
import { NotebookService } from '../../electron/services/notebookService';
import { useTempDir } from '../helpers';

describe('migrations', () => {
  const tmp = useTempDir();

  it('are numbered 1..n in order, and the check catches a gap', () => {
    expect(MIGRATIONS.map((m) => m.version)).toEqual(MIGRATIONS.map((_, i) => i + 1));
    expect(() => checkMigrations([MIGRATIONS[1]!])).toThrow(/out of order/);
  });

  it('create a new notebook at the latest version with WAL, foreign keys and STRICT tables', () => {
    const db = openNotebookDb(path.join(tmp(), 'a.tunebook'), { create: true });
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    expect(db.pragma('foreign_keys', { simple: true })).toBe(1);
    const strict = db.prepare(`SELECT name, sql FROM sqlite_schema WHERE type = 'table' AND sql NOT LIKE 'CREATE VIRTUAL%' AND name NOT LIKE 'search_index%'`).all() as { name: string; sql: string }[];
    expect(strict.length).toBeGreaterThanOrEqual(7);
    for (const t of strict) expect(t.sql, t.name).toMatch(/\)\s*STRICT$/);
    // STRICT really rejects a wrong type
    expect(() => db.prepare(`INSERT INTO study (title, goal, created_at, updated_at) VALUES (1, x'00', 'a', 'b')`).run()).toThrow();
    db.close();
  });

  it.each(MIGRATIONS.slice(0, -1).map((m) => m.version))('upgrade a notebook from schema %i with its data intact', (from) => {
    const file = path.join(tmp(), `from-${from}.tunebook`);
    const old = openNotebookDb(file, { create: true, targetVersion: from });
    expect(schemaVersion(old)).toBe(from);
    old.prepare(`INSERT INTO study (title, goal, created_at, updated_at) VALUES ('opcache study', 'reach 300 req/s', 'a', 'b')`).run();
    old.prepare(`INSERT INTO experiment (study_id, position, title, date, notes, status, created_at, updated_at) VALUES (1, 0, 'baseline', '2019-01-01', 'ab -n 100000', 'kept', 'a', 'b')`).run();
    old.close();
    const db = openNotebookDb(file);
    expect(schemaVersion(db)).toBe(LATEST_VERSION);
    expect(db.prepare(`SELECT title FROM study`).pluck().all()).toEqual(['opcache study']);
    // rows written before the search migration are searchable after it
    expect(db.prepare(`SELECT kind FROM search_index WHERE search_index MATCH '"opcache"*'`).pluck().all()).toEqual(['study']);
    db.close();
  });

  it('schema 3 moves results and requirements in known units to base units and keeps unknown units', () => {
    const file = path.join(tmp(), 'units.tunebook');
    const old = openNotebookDb(file, { create: true, targetVersion: 2 });
    old.prepare(`INSERT INTO study (title, goal, created_at, updated_at) VALUES ('fio', '', 'a', 'b')`).run();
    old.prepare(`INSERT INTO experiment (study_id, position, title, date, status, created_at, updated_at) VALUES (1, 0, 'random', '2019-01-01', 'kept', 'a', 'b')`).run();
    const add = old.prepare(`INSERT INTO result_metric (experiment_id, position, name, value, unit, is_primary) VALUES (1, ?, ?, ?, ?, ?)`);
    add.run(0, 'bandwidth', 8788, 'KiB/s', 1);
    add.run(1, 'latency_mean_seconds', 207, 'ms', 0);
    add.run(2, 'requests_per_second', 140, 'req/s', 0);
    add.run(3, 'iops', 2197, '1/s', 0);
    add.run(4, 'connections', 6000, 'connections', 0);
    old.prepare(`INSERT INTO requirement (study_id, position, metric, comparator, threshold, unit) VALUES (1, 0, 'bandwidth', '>=', 100, 'MiB/s')`).run();
    old.close();
    const db = openNotebookDb(file);
    expect(db.prepare(`SELECT name, value, unit FROM result_metric ORDER BY position`).all()).toEqual([
      { name: 'bandwidth', value: 8788 * 1024, unit: 'B/s' },
      { name: 'latency_mean_seconds', value: 0.207, unit: 's' },
      { name: 'requests_per_second', value: 140, unit: '1/s' },
      { name: 'iops', value: 2197, unit: '1/s' },
      { name: 'connections', value: 6000, unit: 'connections' },
    ]);
    expect(db.prepare(`SELECT threshold, unit FROM requirement`).get()).toEqual({ threshold: 100 * 2 ** 20, unit: 'B/s' });
    db.close();
  });

  it('schema 5 gives every study, experiment and profile a uid, also rows inserted later without one', () => {
    const file = path.join(tmp(), 'uids.tunebook');
    const old = openNotebookDb(file, { create: true, targetVersion: 4 });
    old.prepare(`INSERT INTO study (title, goal, created_at, updated_at) VALUES ('a', '', 'a', 'b'), ('b', '', 'a', 'b')`).run();
    old.prepare(`INSERT INTO profile (name, created_at, updated_at) VALUES ('vm', 'a', 'b')`).run();
    old.close();
    const db = openNotebookDb(file);
    db.prepare(`INSERT INTO experiment (study_id, position, title, date, status, created_at, updated_at) VALUES (1, 0, 'x', '2019-01-01', 'kept', 'a', 'b')`).run();
    db.prepare(`INSERT INTO study (title, goal, created_at, updated_at, uid) VALUES ('c', '', 'a', 'b', 'feedface00000000')`).run();
    const uids = db.prepare(`SELECT uid FROM study UNION ALL SELECT uid FROM experiment UNION ALL SELECT uid FROM profile`).pluck().all() as string[];
    expect(uids).toHaveLength(5);
    for (const u of uids) expect(u).toMatch(/^[0-9a-f]{16,32}$/);
    expect(new Set(uids).size).toBe(5);
    expect(uids).toContain('feedface00000000');
    // one uid names one row
    expect(() => db.prepare(`UPDATE study SET uid = 'feedface00000000' WHERE id = 1`).run()).toThrow(/UNIQUE/);
    db.close();
  });

  it('schemas 6 and 7: the order and the trash survive, one move writes one row and the search index follows edits only', () => {
    const file = path.join(tmp(), 'order.tunebook');
    const old = openNotebookDb(file, { create: true, targetVersion: 5 });
    old.prepare(`INSERT INTO study (title, goal, created_at, updated_at) VALUES ('s', '', 'a', 'b')`).run();
    const add = old.prepare(`INSERT INTO experiment (study_id, position, title, date, notes, status, created_at, updated_at, deleted_at)
      VALUES (1, ?, ?, '2019-01-01', ?, 'kept', 'a', 'b', ?)`);
    // live a b c d at 0..3; x was deleted at place 2 (before c), y at place 0
    for (const [pos, title, deleted] of [[0, 'a', null], [1, 'b', null], [2, 'c', null], [3, 'd', null], [2, 'x', 'z'], [0, 'y', 'z']] as const) {
      add.run(pos, title, `notes of ${title}`, deleted);
    }
    old.close();
    const db = openNotebookDb(file);
    const api = new NotebookService(db);
    const titles = () => api.getStudy(1).experiments.map((e) => `${e.position}${e.title}`).join(' ');
    expect(titles()).toBe('0a 1b 2c 3d');
    expect(api.restoreExperiment(5).position).toBe(2);
    expect(api.restoreExperiment(6).position).toBe(0);
    expect(titles()).toBe('0y 1a 2b 3x 4c 5d');
    // a move writes the moved row and the study's updated_at, nothing else (the index neither)
    const changes = db.prepare(`SELECT total_changes()`).pluck();
    const before = changes.get() as number;
    api.moveExperiment(4, 0);
    expect((changes.get() as number) - before).toBe(2);
    expect(titles()).toBe('0d 1y 2a 3b 4x 5c');
    // edits are still indexed, once each
    api.updateExperiment(4, { notes: 'raised pm.max_children' });
    expect(api.search('max_children').map((h) => h.experimentId)).toEqual([4]);
    expect(api.search('"notes of d"')).toEqual([]);
    expect(db.prepare(`SELECT count(*) FROM search_index WHERE kind = 'experiment'`).pluck().get()).toBe(6);
    db.close();
  });

  it('a failing migration rolls back and leaves the version where it was', () => {
    const file = path.join(tmp(), 'broken.tunebook');
    const db = openNotebookDb(file, { create: true, targetVersion: 1 });
    const bad = [...MIGRATIONS.slice(0, 1), { version: 2, name: 'bad', up: `CREATE TABLE x (a INTEGER) STRICT; INSERT INTO nope VALUES (1);` }];
    expect(() => migrate(db, bad)).toThrow();
    expect(schemaVersion(db)).toBe(1);
    expect(db.prepare(`SELECT count(*) FROM sqlite_schema WHERE name = 'x'`).pluck().get()).toBe(0);
    db.close();
  });

  it('refuse a notebook written by a newer Tunebook and leave the file byte-for-byte untouched', () => {
    const file = path.join(tmp(), 'newer.tunebook');
    const db = openNotebookDb(file, { create: true });
    db.pragma(`user_version = ${LATEST_VERSION + 1}`);
    db.pragma('journal_mode = DELETE');
    db.close();
    const before = readFileSync(file);
    let err: unknown;
    try { openNotebookDb(file); } catch (e) { err = e; }
    expect(err).toBeInstanceOf(TunebookError);
    expect((err as TunebookError).code).toBe('refused');
    expect((err as Error).message).toMatch(new RegExp(`newer version of Tunebook.*schema ${LATEST_VERSION + 1}.*up to ${LATEST_VERSION}`));
    expect(readFileSync(file).equals(before)).toBe(true);
    expect(existsSync(file + '-wal')).toBe(false);
  });

  it('refuse a file that is not a notebook, and another application\'s database, untouched', () => {
    const text = path.join(tmp(), 'notes.txt');
    writeFileSync(text, 'hello, not a database');
    expect(() => openNotebookDb(text)).toThrow(/not a Tunebook notebook/);
    expect(readFileSync(text, 'utf8')).toBe('hello, not a database');
    const other = path.join(tmp(), 'other.sqlite');
    const o = new Database(other);
    o.exec(`CREATE TABLE songs (id INTEGER PRIMARY KEY)`);
    o.close();
    expect(() => openNotebookDb(other)).toThrow(/another application/);
  });

  it('a missing file is an error unless asked to create it', () => {
    expect(() => openNotebookDb(path.join(tmp(), 'missing.tunebook'))).toThrow(/no notebook at/);
  });
});
