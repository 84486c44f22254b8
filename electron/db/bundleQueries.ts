/**
 * The queries of bundle export and import: stable uids, and rows written with the times and uids a
 * bundle carries (so that an imported study exports as the same content). Like queries.ts: no
 * validation, no transactions here.
 */
import type { Db } from './connection';
import type { HardwareProfile, StudyView } from '../../shared/model';
import { getProfile, nextExperimentKey } from './queries';

type UidTable = 'study' | 'experiment' | 'profile';

/** The uids of rows of a table, by id. */
export function uidsOf(db: Db, table: UidTable, ids: readonly number[]): Map<number, string> {
  const out = new Map<number, string>();
  const get = db.prepare(`SELECT uid FROM ${table} WHERE id = ?`).pluck();
  for (const id of ids) {
    const uid = get.get(id) as string | null | undefined;
    if (uid) out.set(id, uid);
  }
  return out;
}

/** The row holding a uid, and whether it is in the trash. */
export function byUid(db: Db, table: UidTable, uid: string): { id: number; deleted: boolean } | undefined {
  const trash = table === 'profile' ? '0' : 'deleted_at IS NOT NULL';
  const r = db.prepare(`SELECT id, ${trash} AS deleted FROM ${table} WHERE uid = ?`).get(uid) as { id: number; deleted: number } | undefined;
  return r && { id: r.id, deleted: r.deleted === 1 };
}

export function profileWithUid(db: Db, id: number): (HardwareProfile & { uid: string }) | undefined {
  const p = getProfile(db, id);
  const uid = db.prepare(`SELECT uid FROM profile WHERE id = ?`).pluck().get(id) as string | undefined;
  return p && uid ? { ...p, uid } : undefined;
}

export function insertStudyRow(db: Db, s: { uid: string; title: string; goal: string; view: StudyView; createdAt: string; updatedAt: string }): number {
  return Number(db.prepare(`INSERT INTO study (uid, title, goal, view, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(s.uid, s.title, s.goal, JSON.stringify(s.view), s.createdAt, s.updatedAt).lastInsertRowid);
}

/** A study found in the trash by an import of it: back in the notebook. */
export function restoreStudyRow(db: Db, id: number): void {
  db.prepare(`UPDATE study SET deleted_at = NULL WHERE id = ?`).run(id);
}

export function setStudyView(db: Db, id: number, view: StudyView): void {
  db.prepare(`UPDATE study SET view = ? WHERE id = ?`).run(JSON.stringify(view), id);
}

export function insertProfileRow(db: Db, p: Omit<HardwareProfile, 'id' | 'usedBy'> & { uid: string }): number {
  const t = new Date().toISOString();
  return Number(db.prepare(`INSERT INTO profile (uid, name, cpu_model, cores, threads, memory_bytes, disks, os, kernel, cloud, software, notes, created_at, updated_at)
    VALUES (@uid, @name, @cpuModel, @cores, @threads, @memoryBytes, @disks, @os, @kernel, @cloud, @software, @notes, @t, @t)`)
    .run({ ...p, disks: JSON.stringify(p.disks), t }).lastInsertRowid);
}

export function insertExperimentRow(db: Db, studyId: number, e: {
  uid: string; title: string; profileId: number | null; date: string; notes: string; status: string; createdAt: string; updatedAt: string;
}): number {
  return Number(db.prepare(`INSERT INTO experiment (uid, study_id, position, title, profile_id, date, notes, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(e.uid, studyId, nextExperimentKey(db, studyId), e.title, e.profileId, e.date, e.notes, e.status, e.createdAt, e.updatedAt).lastInsertRowid);
}

/** A capture link as a bundle describes it: its name, note and the time it was added. */
export function insertLinkRow(db: Db, experimentId: number, captureId: number, l: { name: string; note: string; addedAt: string }): number {
  const position = (db.prepare(`SELECT coalesce(max(position) + 1, 0) AS p FROM experiment_capture WHERE experiment_id = ?`).get(experimentId) as { p: number }).p;
  return Number(db.prepare(`INSERT INTO experiment_capture (experiment_id, capture_id, position, name, note, created_at) VALUES (?, ?, ?, ?, ?, ?)`)
    .run(experimentId, captureId, position, l.name, l.note, l.addedAt).lastInsertRowid);
}
