/**
 * Query functions: each takes the database first and does one thing. No validation here (the
 * services check input); no transactions here (callers group writes).
 */
import type { Db } from './connection';
import type {
  ConfigChange, Disk, Experiment, ExperimentCapture, ExperimentStatus, HardwareProfile, Requirement, ResultMetric, ResultSource,
  ExperimentRef, ExperimentSummary, SearchHit, Study, StudySummary, StudyView, TrashItem,
} from '../../shared/model';
import { experimentLinks, publicLink, studyLinks } from './captureQueries';
import type { MeasuredExperiment } from '../../shared/timeline';

export const now = (): string => new Date().toISOString();

// ---- studies ---------------------------------------------------------------------------------

interface StudyRow { id: number; title: string; goal: string; view: string; created_at: string; updated_at: string }

export function listStudies(db: Db): StudySummary[] {
  return (db.prepare(`
    SELECT s.id, s.title, s.goal, s.created_at AS createdAt, s.updated_at AS updatedAt,
           (SELECT count(*) FROM experiment e WHERE e.study_id = s.id AND e.deleted_at IS NULL) AS experimentCount
    FROM study s WHERE s.deleted_at IS NULL ORDER BY s.updated_at DESC, s.id DESC`).all() as StudySummary[]);
}

export function getStudy(db: Db, id: number, includeDeleted = false): Study | undefined {
  const row = db.prepare(`SELECT id, title, goal, view, created_at, updated_at FROM study WHERE id = ? ${includeDeleted ? '' : 'AND deleted_at IS NULL'}`).get(id) as StudyRow | undefined;
  if (!row) return undefined;
  return {
    id: row.id, title: row.title, goal: row.goal, requirements: listRequirements(db, id), view: JSON.parse(row.view) as StudyView,
    createdAt: row.created_at, updatedAt: row.updated_at,
  };
}

export function insertStudy(db: Db, title: string, goal: string): number {
  const t = now();
  return Number(db.prepare(`INSERT INTO study (title, goal, created_at, updated_at) VALUES (?, ?, ?, ?)`).run(title, goal, t, t).lastInsertRowid);
}

export function updateStudy(db: Db, id: number, patch: { title?: string | undefined; goal?: string | undefined; view?: StudyView | undefined }): void {
  db.prepare(`UPDATE study SET title = coalesce(?, title), goal = coalesce(?, goal), view = coalesce(?, view), updated_at = ? WHERE id = ?`)
    .run(patch.title ?? null, patch.goal ?? null, patch.view ? JSON.stringify(patch.view) : null, now(), id);
}

export function touchStudy(db: Db, id: number): void {
  db.prepare(`UPDATE study SET updated_at = ? WHERE id = ?`).run(now(), id);
}

export function setStudyDeleted(db: Db, id: number, deleted: boolean): number {
  return db.prepare(`UPDATE study SET deleted_at = ? WHERE id = ? AND (deleted_at IS NULL) = ?`).run(deleted ? now() : null, id, deleted ? 1 : 0).changes;
}

export function listRequirements(db: Db, studyId: number): Requirement[] {
  return db.prepare(`SELECT id, metric, comparator, threshold, unit, label FROM requirement WHERE study_id = ? ORDER BY position`).all(studyId) as Requirement[];
}

export function replaceRequirements(db: Db, studyId: number, reqs: readonly Omit<Requirement, 'id'>[]): void {
  db.prepare(`DELETE FROM requirement WHERE study_id = ?`).run(studyId);
  const ins = db.prepare(`INSERT INTO requirement (study_id, position, metric, comparator, threshold, unit, label) VALUES (?, ?, ?, ?, ?, ?, ?)`);
  reqs.forEach((r, i) => ins.run(studyId, i, r.metric, r.comparator, r.threshold, r.unit, r.label));
}

// ---- profiles --------------------------------------------------------------------------------

interface ProfileRow {
  id: number; name: string; cpu_model: string; cores: number | null; threads: number | null; memory_bytes: number | null;
  disks: string; os: string; kernel: string; cloud: string; software: string; notes: string; used_by: number;
}

/** used_by: the experiments outside the trash (neither they nor their study deleted) */
const PROFILE_SELECT = `SELECT p.*, (SELECT count(*) FROM experiment e JOIN study s ON s.id = e.study_id
  WHERE e.profile_id = p.id AND e.deleted_at IS NULL AND s.deleted_at IS NULL) AS used_by FROM profile p`;

function toProfile(r: ProfileRow): HardwareProfile {
  return {
    id: r.id, name: r.name, cpuModel: r.cpu_model, cores: r.cores, threads: r.threads, memoryBytes: r.memory_bytes,
    disks: JSON.parse(r.disks) as Disk[], os: r.os, kernel: r.kernel, cloud: r.cloud, software: r.software, notes: r.notes, usedBy: r.used_by,
  };
}

export function listProfiles(db: Db): HardwareProfile[] {
  return (db.prepare(`${PROFILE_SELECT} ORDER BY p.name COLLATE NOCASE, p.id`).all() as ProfileRow[]).map(toProfile);
}

export function getProfile(db: Db, id: number): HardwareProfile | undefined {
  const r = db.prepare(`${PROFILE_SELECT} WHERE p.id = ?`).get(id) as ProfileRow | undefined;
  return r && toProfile(r);
}

export type ProfileColumns = Omit<HardwareProfile, 'id' | 'usedBy'>;

export function insertProfile(db: Db, p: ProfileColumns): number {
  const t = now();
  return Number(db.prepare(`INSERT INTO profile (name, cpu_model, cores, threads, memory_bytes, disks, os, kernel, cloud, software, notes, created_at, updated_at)
    VALUES (@name, @cpuModel, @cores, @threads, @memoryBytes, @disks, @os, @kernel, @cloud, @software, @notes, @t, @t)`)
    .run({ ...p, disks: JSON.stringify(p.disks), t }).lastInsertRowid);
}

export function updateProfile(db: Db, id: number, p: ProfileColumns): void {
  db.prepare(`UPDATE profile SET name = @name, cpu_model = @cpuModel, cores = @cores, threads = @threads, memory_bytes = @memoryBytes,
    disks = @disks, os = @os, kernel = @kernel, cloud = @cloud, software = @software, notes = @notes, updated_at = @t WHERE id = @id`)
    .run({ ...p, disks: JSON.stringify(p.disks), t: now(), id });
}

export function profileUse(db: Db, id: number): number {
  return (db.prepare(`SELECT count(*) AS n FROM experiment WHERE profile_id = ?`).get(id) as { n: number }).n;
}

/** How many experiments outside the trash use the profile (neither they nor their study deleted). */
export function profileLiveUse(db: Db, id: number): number {
  return (db.prepare(`SELECT count(*) AS n FROM experiment e JOIN study s ON s.id = e.study_id
    WHERE e.profile_id = ? AND e.deleted_at IS NULL AND s.deleted_at IS NULL`).get(id) as { n: number }).n;
}

/** The experiments in the trash (or of a study in it) that use the profile keep no profile. Returns how many. */
export function unsetProfileInTrash(db: Db, id: number): number {
  return db.prepare(`UPDATE experiment SET profile_id = NULL WHERE profile_id = ?
    AND (deleted_at IS NOT NULL OR study_id IN (SELECT id FROM study WHERE deleted_at IS NOT NULL))`).run(id).changes;
}

export function deleteProfile(db: Db, id: number): void {
  db.prepare(`DELETE FROM profile WHERE id = ?`).run(id);
}

// ---- experiments -----------------------------------------------------------------------------

interface ExperimentRow {
  id: number; study_id: number; position: number; title: string; profile_id: number | null; date: string; notes: string;
  status: ExperimentStatus; created_at: string; updated_at: string;
}

/** `position`: the experiment's 0-based place among the study's live ones (the row's own is only a sort key). */
function toExperiment(r: ExperimentRow, position: number, changes: ConfigChange[], metrics: ResultMetric[], captures: ExperimentCapture[]): Experiment {
  return {
    id: r.id, studyId: r.study_id, position, title: r.title, profileId: r.profile_id, date: r.date, notes: r.notes,
    status: r.status, configChanges: changes, metrics, captures, createdAt: r.created_at, updatedAt: r.updated_at,
  };
}

interface MetricRow {
  id: number; experiment_id: number; name: string; value: number; unit: string; better: 'higher' | 'lower'; is_primary: number;
  capture_id: number | null; source: string | null;
}
interface ChangeRow extends ConfigChange { experiment_id: number }

/** A result's source as stored (JSON without the capture) and its capture column. */
function toSource(source: string | null, captureId: number | null): ResultSource | null {
  if (source === null) return null;
  const s = JSON.parse(source) as Omit<ResultSource, 'captureId'>;
  return { ...s, captureId };
}

const toMetric = (m: MetricRow): ResultMetric => ({
  id: m.id, name: m.name, value: m.value, unit: m.unit, better: m.better, primary: m.is_primary === 1, source: toSource(m.source, m.capture_id),
});
const toChange = (c: ChangeRow): ConfigChange => ({ id: c.id, scope: c.scope, key: c.key, before: c.before, after: c.after, why: c.why });

function push<T>(m: Map<number, T[]>, k: number, x: T): void {
  const l = m.get(k);
  if (l) l.push(x); else m.set(k, [x]);
}

/**
 * The live experiments of a study, in order, with their results: one query walked in index order
 * (experiment_list, then result_metric_list: no sorting), read as arrays (no row objects).
 * `columns` adds columns of the experiment `e`; `make` builds each experiment from them.
 */
function walkExperiments<E extends { metrics: ResultMetric[] }>(db: Db, studyId: number, columns: readonly string[], make: (r: unknown[], place: number) => E): E[] {
  const rows = db.prepare(`SELECT e.id, ${columns.join(', ')},
      m.id, m.name, m.value, m.unit, m.better, m.is_primary, m.capture_id, m.source
    FROM experiment e LEFT JOIN result_metric m ON m.experiment_id = e.id
    WHERE e.study_id = ? AND e.deleted_at IS NULL ORDER BY e.position, e.id, m.position, m.id`).raw().all(studyId) as unknown[][];
  const at = columns.length + 1; // where the metric's columns start
  const out: E[] = [];
  let current: E | undefined;
  let currentId = -1;
  for (const r of rows) {
    const id = r[0] as number;
    if (currentId !== id) {
      current = make(r, out.length);
      currentId = id;
      out.push(current);
    }
    if (r[at] === null) continue; // no results
    current!.metrics.push({
      id: r[at] as number, name: r[at + 1] as string, value: r[at + 2] as number, unit: r[at + 3] as string,
      better: r[at + 4] as 'higher' | 'lower', primary: r[at + 5] === 1,
      source: toSource(r[at + 7] as string | null, r[at + 6] as number | null),
    });
  }
  return out;
}

/** The config changes of a study's live experiments, by experiment, in order (one query for the study, not N). */
function studyChanges(db: Db, studyId: number): Map<number, ConfigChange[]> {
  const rows = db.prepare(`SELECT c.experiment_id, c.id, c.scope, c.key, c.before, c.after, c.why
    FROM experiment e JOIN config_change c ON c.experiment_id = e.id
    WHERE e.study_id = ? AND e.deleted_at IS NULL ORDER BY e.position, e.id, c.position, c.id`).raw().all(studyId) as unknown[][];
  const changesOf = new Map<number, ConfigChange[]>();
  for (const c of rows) {
    push(changesOf, c[0] as number, { id: c[1] as number, scope: c[2] as string, key: c[3] as string, before: c[4] as string, after: c[5] as string, why: c[6] as string });
  }
  return changesOf;
}

/** The live experiments of a study, in order, with their changes, metrics and captures (four queries, not N+1). */
export function listExperiments(db: Db, studyId: number): Experiment[] {
  const changesOf = studyChanges(db, studyId);
  const linksOf = new Map<number, ExperimentCapture[]>();
  for (const l of studyLinks(db, studyId)) push(linksOf, l.experimentId, publicLink(l));
  return walkExperiments(db, studyId, ['e.title', 'e.profile_id', 'e.date', 'e.notes', 'e.status', 'e.created_at', 'e.updated_at'],
    (r, position) => {
      const id = r[0] as number;
      return {
        id, studyId, position, title: r[1] as string, profileId: r[2] as number | null, date: r[3] as string, notes: r[4] as string,
        status: r[5] as ExperimentStatus, configChanges: changesOf.get(id) ?? [], metrics: [], captures: linksOf.get(id) ?? [],
        createdAt: r[6] as string, updatedAt: r[7] as string,
      };
    });
}

/** The live experiments of a study, in order, without their notes and captures (how many it links instead). */
export function listExperimentSummaries(db: Db, studyId: number): ExperimentSummary[] {
  const changesOf = studyChanges(db, studyId);
  return walkExperiments(db, studyId,
    ['e.title', 'e.profile_id', 'e.date', 'e.status',
      '(SELECT count(*) FROM experiment_capture l WHERE l.experiment_id = e.id AND l.deleted_at IS NULL)'],
    (r, position) => {
      const id = r[0] as number;
      return {
        id, studyId, position, title: r[1] as string, profileId: r[2] as number | null, date: r[3] as string,
        status: r[4] as ExperimentStatus, configChanges: changesOf.get(id) ?? [], metrics: [], captureCount: r[5] as number,
      };
    });
}

/** The live experiments of a study with only what the timeline reads: order, title, status and results. */
export function listMeasuredExperiments(db: Db, studyId: number): MeasuredExperiment[] {
  return walkExperiments(db, studyId, ['e.title', 'e.status'],
    (r, position) => ({ id: r[0] as number, position, title: r[1] as string, status: r[2] as ExperimentStatus, metrics: [] }));
}

export function getExperiment(db: Db, id: number, includeDeleted = false): Experiment | undefined {
  const r = db.prepare(`SELECT * FROM experiment WHERE id = ? ${includeDeleted ? '' : 'AND deleted_at IS NULL'}`).get(id) as ExperimentRow | undefined;
  if (!r) return undefined;
  const changes = (db.prepare(`SELECT * FROM config_change WHERE experiment_id = ? ORDER BY position, id`).all(id) as ChangeRow[]).map(toChange);
  const metrics = (db.prepare(`SELECT * FROM result_metric WHERE experiment_id = ? ORDER BY position, id`).all(id) as MetricRow[]).map(toMetric);
  return toExperiment(r, livePlace(db, r.study_id, r.position, r.id), changes, metrics, experimentLinks(db, id).map(publicLink));
}

export function nextPosition(db: Db, table: 'config_change' | 'result_metric', parentColumn: string, parentId: number): number {
  return (db.prepare(`SELECT coalesce(max(position) + 1, 0) AS p FROM ${table} WHERE ${parentColumn} = ?`).get(parentId) as { p: number }).p;
}

/*
 * The order of a study's experiments (issue 9). `experiment.position` is a sparse sort key, not an
 * index: new experiments go ORDER_GAP after the last one, a moved one takes the midpoint of its new
 * neighbours, a deleted one keeps its key (Undo puts it back between the same neighbours), so a
 * move, delete or restore writes one row whatever the study's size. Ties are ordered by id. Only
 * when two neighbours have no key left between them (20 moves into the same gap) is the study
 * renumbered. The API's `position` is the 0-based place among the live experiments, counted on read.
 */
export const ORDER_GAP = 1 << 20;

/** How many live experiments of the study come before the sort key (key, id). */
function livePlace(db: Db, studyId: number, key: number, id: number): number {
  return (db.prepare(`SELECT count(*) AS n FROM experiment WHERE study_id = ? AND deleted_at IS NULL
    AND (position < ? OR (position = ? AND id < ?))`).get(studyId, key, key, id) as { n: number }).n;
}

/** The sort key of a new experiment at the study's end (after every one, the trashed included). */
export function nextExperimentKey(db: Db, studyId: number): number {
  return (db.prepare(`SELECT coalesce(max(position) + ${ORDER_GAP}, 0) AS p FROM experiment WHERE study_id = ?`).get(studyId) as { p: number }).p;
}

export type ExperimentColumns = Pick<Experiment, 'title' | 'profileId' | 'date' | 'notes' | 'status'>;

export function insertExperiment(db: Db, studyId: number, e: ExperimentColumns): number {
  const t = now();
  return Number(db.prepare(`INSERT INTO experiment (study_id, position, title, profile_id, date, notes, status, created_at, updated_at)
    VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(studyId, nextExperimentKey(db, studyId), e.title, e.profileId, e.date, e.notes, e.status, t, t).lastInsertRowid);
}

export function updateExperiment(db: Db, id: number, e: ExperimentColumns): void {
  db.prepare(`UPDATE experiment SET title = ?, profile_id = ?, date = ?, notes = ?, status = ?, updated_at = ? WHERE id = ?`)
    .run(e.title, e.profileId, e.date, e.notes, e.status, now(), id);
}

export function setExperimentDeleted(db: Db, id: number, deleted: boolean): void {
  db.prepare(`UPDATE experiment SET deleted_at = ? WHERE id = ?`).run(deleted ? now() : null, id);
}

/** Give the study's experiments fresh keys, ORDER_GAP apart, in their present order (the trashed too: each keeps its place). */
function renumberExperiments(db: Db, studyId: number): void {
  db.prepare(`WITH ranked AS (SELECT id, row_number() OVER (ORDER BY position, id) AS r FROM experiment WHERE study_id = ?)
    UPDATE experiment SET position = ranked.r * ${ORDER_GAP} FROM ranked WHERE ranked.id = experiment.id`).run(studyId);
}

/**
 * Move a live experiment to `position`, its 0-based place among the study's live experiments
 * (clamped to the end); the ones between shift by one. Returns the place it took.
 */
export function placeExperiment(db: Db, studyId: number, id: number, position: number): number {
  const n = (db.prepare(`SELECT count(*) AS n FROM experiment WHERE study_id = ? AND deleted_at IS NULL AND id != ?`).get(studyId, id) as { n: number }).n;
  const to = Math.max(0, Math.min(position, n));
  // its new neighbours: the live experiments (without it) at places to − 1 and to
  const neighbours = db.prepare(`SELECT position AS key FROM experiment WHERE study_id = ? AND deleted_at IS NULL AND id != ?
    ORDER BY position, id LIMIT ? OFFSET ?`).pluck();
  for (let attempt = 0; attempt < 2; attempt++) {
    const [before, after] = to === 0
      ? [undefined, neighbours.get(studyId, id, 1, 0) as number | undefined]
      : (neighbours.all(studyId, id, 2, to - 1) as number[]);
    let key: number | undefined;
    if (before === undefined) key = after === undefined ? 0 : after - ORDER_GAP;
    else if (after === undefined) key = before + ORDER_GAP;
    else if (after - before >= 2) key = before + Math.floor((after - before) / 2);
    if (key !== undefined) {
      db.prepare(`UPDATE experiment SET position = ? WHERE id = ?`).run(key, id);
      return to;
    }
    renumberExperiments(db, studyId); // no key left between the two: rare, and then never twice
  }
  throw new Error(`no place for experiment ${id} at ${to}`);
}

// ---- config changes and metrics ----------------------------------------------------------------

export function getConfigChange(db: Db, id: number): (ConfigChange & { experimentId: number }) | undefined {
  const r = db.prepare(`SELECT * FROM config_change WHERE id = ?`).get(id) as ChangeRow | undefined;
  return r && { ...toChange(r), experimentId: r.experiment_id };
}

export function insertConfigChange(db: Db, experimentId: number, c: Omit<ConfigChange, 'id'>): number {
  return Number(db.prepare(`INSERT INTO config_change (experiment_id, position, scope, key, before, after, why) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    .run(experimentId, nextPosition(db, 'config_change', 'experiment_id', experimentId), c.scope, c.key, c.before, c.after, c.why).lastInsertRowid);
}

export function updateConfigChange(db: Db, id: number, c: Omit<ConfigChange, 'id'>): void {
  db.prepare(`UPDATE config_change SET scope = ?, key = ?, before = ?, after = ?, why = ? WHERE id = ?`).run(c.scope, c.key, c.before, c.after, c.why, id);
}

export function deleteConfigChange(db: Db, id: number): void {
  db.prepare(`DELETE FROM config_change WHERE id = ?`).run(id);
}

export function getResultMetric(db: Db, id: number): (ResultMetric & { experimentId: number }) | undefined {
  const r = db.prepare(`SELECT * FROM result_metric WHERE id = ?`).get(id) as MetricRow | undefined;
  return r && { ...toMetric(r), experimentId: r.experiment_id };
}

export function clearPrimary(db: Db, experimentId: number): void {
  db.prepare(`UPDATE result_metric SET is_primary = 0 WHERE experiment_id = ?`).run(experimentId);
}

export type ResultColumns = Omit<ResultMetric, 'id'>;

const sourceJson = (s: ResultSource | null): string | null => {
  if (!s) return null;
  const { captureId: _c, ...rest } = s;
  return JSON.stringify(rest);
};

export function insertResultMetric(db: Db, experimentId: number, m: ResultColumns): number {
  return Number(db.prepare(`INSERT INTO result_metric (experiment_id, position, name, value, unit, better, is_primary, capture_id, source) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`)
    .run(experimentId, nextPosition(db, 'result_metric', 'experiment_id', experimentId), m.name, m.value, m.unit, m.better, m.primary ? 1 : 0,
      m.source?.captureId ?? null, sourceJson(m.source)).lastInsertRowid);
}

export function updateResultMetric(db: Db, id: number, m: ResultColumns): void {
  db.prepare(`UPDATE result_metric SET name = ?, value = ?, unit = ?, better = ?, is_primary = ?, capture_id = ?, source = ? WHERE id = ?`)
    .run(m.name, m.value, m.unit, m.better, m.primary ? 1 : 0, m.source?.captureId ?? null, sourceJson(m.source), id);
}

export function hasPrimaryResult(db: Db, experimentId: number): boolean {
  return db.prepare(`SELECT 1 FROM result_metric WHERE experiment_id = ? AND is_primary = 1`).get(experimentId) !== undefined;
}

export function deleteResultMetric(db: Db, id: number): void {
  db.prepare(`DELETE FROM result_metric WHERE id = ?`).run(id);
}

// ---- search ------------------------------------------------------------------------------------

/** Turn what a user typed into a safe FTS5 query: every word a quoted prefix term, all required. */
export function ftsQuery(input: string): string | null {
  const words = input.normalize('NFKC').match(/[\p{L}\p{N}_]+/gu);
  if (!words || words.length === 0) return null;
  return words.slice(0, 16).map((w) => `"${w}"*`).join(' ');
}

export function search(db: Db, input: string, limit = 50): SearchHit[] {
  const q = ftsQuery(input);
  if (!q) return [];
  const rows = db.prepare(`
    SELECT si.kind, si.study_id AS studyId, si.experiment_id AS experimentId, si.profile_id AS profileId,
           l.capture_id AS captureId, s.title AS studyTitle,
           CASE WHEN si.kind IN ('config', 'capture') THEN coalesce(e.title, '') || ' · ' || si.title ELSE si.title END AS title,
           snippet(search_index, -1, char(2), char(3), '…', 12) AS snippet
    FROM search_index si
    LEFT JOIN study s ON s.id = si.study_id
    LEFT JOIN experiment e ON e.id = si.experiment_id
    LEFT JOIN experiment_capture l ON si.kind = 'capture' AND l.id = si.ref_id
    WHERE search_index MATCH ?
      AND (si.study_id IS NULL OR s.deleted_at IS NULL)
      AND (si.experiment_id IS NULL OR e.deleted_at IS NULL)
      AND (si.kind <> 'capture' OR l.deleted_at IS NULL)
    ORDER BY rank
    LIMIT ?`).all(q, limit) as SearchHit[];
  return rows;
}

/** Every live experiment of every live study, by study title, in order. */
export function experimentIndex(db: Db): ExperimentRef[] {
  return db.prepare(`SELECT e.id, e.title, row_number() OVER (PARTITION BY e.study_id ORDER BY e.position, e.id) - 1 AS position,
      s.id AS studyId, s.title AS studyTitle
    FROM experiment e JOIN study s ON s.id = e.study_id
    WHERE e.deleted_at IS NULL AND s.deleted_at IS NULL ORDER BY s.title COLLATE NOCASE, s.id, e.position, e.id`).all() as ExperimentRef[];
}

// ---- trash -------------------------------------------------------------------------------------

/**
 * What the trash holds, newest first: the deleted studies, the deleted experiments of live studies,
 * the unlinked captures of live experiments (an experiment of a deleted study comes back with it, and
 * so does a capture of a deleted experiment: they are not listed on their own).
 */
export function listTrash(db: Db): TrashItem[] {
  return db.prepare(`
    SELECT 'study' AS kind, s.id, s.title AS name, s.deleted_at AS deletedAt, s.id AS studyId, s.title AS studyTitle,
           NULL AS experimentId, NULL AS experimentTitle, NULL AS captureId,
           (SELECT count(*) FROM experiment e WHERE e.study_id = s.id AND e.deleted_at IS NULL) AS experimentCount
    FROM study s WHERE s.deleted_at IS NOT NULL
    UNION ALL
    SELECT 'experiment', e.id, e.title, e.deleted_at, s.id, s.title, NULL, NULL, NULL, 0
    FROM experiment e JOIN study s ON s.id = e.study_id WHERE e.deleted_at IS NOT NULL AND s.deleted_at IS NULL
    UNION ALL
    SELECT 'capture', l.id, l.name, l.deleted_at, s.id, s.title, e.id, e.title, l.capture_id, 0
    FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id JOIN study s ON s.id = e.study_id
    WHERE l.deleted_at IS NOT NULL AND e.deleted_at IS NULL AND s.deleted_at IS NULL
    ORDER BY deletedAt DESC, id DESC`).all() as TrashItem[];
}

/** A study's or experiment's trash time: null when it is live, undefined when there is no such row. */
export function deletedAt(db: Db, table: 'study' | 'experiment', id: number): string | null | undefined {
  const r = db.prepare(`SELECT deleted_at AS d FROM ${table} WHERE id = ?`).get(id) as { d: string | null } | undefined;
  return r?.d;
}

/** How many experiments go with a removal of the study, or of the whole trash. */
export function experimentsWithin(db: Db, where: { studyId: number } | 'trash'): number {
  if (where === 'trash') {
    return (db.prepare(`SELECT count(*) AS n FROM experiment WHERE deleted_at IS NOT NULL
      OR study_id IN (SELECT id FROM study WHERE deleted_at IS NOT NULL)`).get() as { n: number }).n;
  }
  return (db.prepare(`SELECT count(*) AS n FROM experiment WHERE study_id = ?`).get(where.studyId) as { n: number }).n;
}

/** The live studies whose trashed experiments or unlinked captures an emptying removes (their views change). */
export function studiesWithTrash(db: Db): number[] {
  return db.prepare(`SELECT e.study_id FROM experiment e JOIN study s ON s.id = e.study_id WHERE e.deleted_at IS NOT NULL AND s.deleted_at IS NULL
    UNION SELECT e.study_id FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id JOIN study s ON s.id = e.study_id
      WHERE l.deleted_at IS NOT NULL AND e.deleted_at IS NULL AND s.deleted_at IS NULL`).pluck().all() as number[];
}

export function trashedStudyIds(db: Db): number[] {
  return db.prepare(`SELECT id FROM study WHERE deleted_at IS NOT NULL`).pluck().all() as number[];
}

/**
 * Remove for good (their requirements, experiments, changes, results and capture links go with
 * them: ON DELETE CASCADE). The stored captures are left to cq.removeOrphans.
 */
export function deleteStudyRow(db: Db, id: number): void {
  db.prepare(`DELETE FROM study WHERE id = ?`).run(id);
}

export function deleteExperimentRow(db: Db, id: number): void {
  db.prepare(`DELETE FROM experiment WHERE id = ?`).run(id);
}

/** Remove everything in the trash for good: unlinked captures' links, deleted experiments, deleted studies. */
export function deleteTrash(db: Db): void {
  db.prepare(`DELETE FROM experiment_capture WHERE deleted_at IS NOT NULL`).run();
  db.prepare(`DELETE FROM experiment WHERE deleted_at IS NOT NULL`).run();
  db.prepare(`DELETE FROM study WHERE deleted_at IS NOT NULL`).run();
}
