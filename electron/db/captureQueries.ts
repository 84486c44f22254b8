/**
 * Query functions for stored captures (migration 0003): the content-addressed capture rows, their
 * compressed chunks and series, and the links that put them on experiments. As in queries.ts: the
 * database first, one job each, no validation and no transactions (callers group writes).
 */
import type { Db } from './connection';
import type { ExperimentCapture } from '../../shared/model';
import type { Finding } from '../../shared/capture/types';
import { now } from './queries';

// ---- captures ----------------------------------------------------------------------------------

export interface CaptureRow {
  id: number; sha256: string; name: string; size: number; line_count: number; kind: string; forced_kind: string | null;
  confidence: number; parser_version: number; parsed: string; tables: Buffer | null; search_text: string;
  created_at: string; updated_at: string;
}

export interface CaptureParseColumns {
  kind: string;
  forcedKind: string | null;
  confidence: number;
  parserVersion: number;
  /** CaptureJson without points and findings */
  parsed: string;
  /** deflated JSON of the parser's tables, or null */
  tables: Buffer | null;
  searchText: string;
}

export function captureIdBySha(db: Db, sha256: string): number | undefined {
  return (db.prepare(`SELECT id FROM capture WHERE sha256 = ?`).get(sha256) as { id: number } | undefined)?.id;
}

/** Whether some stored capture has exactly this many bytes (then a file may be one already stored). */
export function hasCaptureOfSize(db: Db, size: number): boolean {
  return db.prepare(`SELECT 1 FROM capture WHERE size = ? LIMIT 1`).get(size) !== undefined;
}

export function getCaptureRow(db: Db, id: number): CaptureRow | undefined {
  return db.prepare(`SELECT * FROM capture WHERE id = ?`).get(id) as CaptureRow | undefined;
}

export function insertCapture(db: Db, c: { sha256: string; name: string; size: number; lineCount: number } & CaptureParseColumns): number {
  const t = now();
  return Number(db.prepare(`INSERT INTO capture (sha256, name, size, line_count, kind, forced_kind, confidence, parser_version, parsed, tables, search_text, created_at, updated_at)
    VALUES (@sha256, @name, @size, @lineCount, @kind, @forcedKind, @confidence, @parserVersion, @parsed, @tables, @searchText, @t, @t)`)
    .run({ ...c, t }).lastInsertRowid);
}

export function updateCaptureParse(db: Db, id: number, c: CaptureParseColumns): void {
  db.prepare(`UPDATE capture SET kind = @kind, forced_kind = @forcedKind, confidence = @confidence, parser_version = @parserVersion,
    parsed = @parsed, tables = @tables, search_text = @searchText, updated_at = @t WHERE id = @id`).run({ ...c, t: now(), id });
}

export function allCaptureIds(db: Db): number[] {
  return (db.prepare(`SELECT id FROM capture ORDER BY id`).all() as { id: number }[]).map((r) => r.id);
}

export function captureBytesTotal(db: Db): number {
  return (db.prepare(`SELECT coalesce(sum(size), 0) AS n FROM capture`).get() as { n: number }).n;
}

// ---- chunks ------------------------------------------------------------------------------------

export interface ChunkRow { seq: number; byte_start: number; line_start: number; mid_line: number; size: number; data: Buffer }

export function insertChunk(db: Db, captureId: number, c: { seq: number; byteStart: number; lineStart: number; midLine: boolean; size: number; data: Buffer }): void {
  db.prepare(`INSERT INTO capture_chunk (capture_id, seq, byte_start, line_start, mid_line, size, data) VALUES (?, ?, ?, ?, ?, ?, ?)`)
    .run(captureId, c.seq, c.byteStart, c.lineStart, c.midLine ? 1 : 0, c.size, c.data);
}

/** The chunk in which 1-based line `line` starts (see lineBreaks.ts: line_start counts the breaks before a chunk). */
export function chunkWithLine(db: Db, captureId: number, line: number): ChunkRow | undefined {
  const before = line - 1;
  return db.prepare(`SELECT seq, byte_start, line_start, mid_line, size, data FROM capture_chunk
    WHERE capture_id = ? AND (line_start < ? OR (line_start = ? AND mid_line = 0)) ORDER BY seq DESC LIMIT 1`)
    .get(captureId, before, before) as ChunkRow | undefined;
}

export function chunkAt(db: Db, captureId: number, seq: number): ChunkRow | undefined {
  return db.prepare(`SELECT seq, byte_start, line_start, mid_line, size, data FROM capture_chunk WHERE capture_id = ? AND seq = ?`)
    .get(captureId, seq) as ChunkRow | undefined;
}

export function chunkCount(db: Db, captureId: number): number {
  return (db.prepare(`SELECT count(*) AS n FROM capture_chunk WHERE capture_id = ?`).get(captureId) as { n: number }).n;
}

// ---- series ------------------------------------------------------------------------------------

export interface SeriesRow { idx: number; meta: string; points: Buffer; times: Buffer | null }

export function insertSeries(db: Db, captureId: number, s: { idx: number; meta: string; points: Buffer; times: Buffer | null }): void {
  db.prepare(`INSERT INTO capture_series (capture_id, idx, meta, points, times) VALUES (?, ?, ?, ?, ?)`).run(captureId, s.idx, s.meta, s.points, s.times);
}

export function deleteSeries(db: Db, captureId: number): void {
  db.prepare(`DELETE FROM capture_series WHERE capture_id = ?`).run(captureId);
}

export function seriesRows(db: Db, captureId: number): SeriesRow[] {
  return db.prepare(`SELECT idx, meta, points, times FROM capture_series WHERE capture_id = ? ORDER BY idx`).all(captureId) as SeriesRow[];
}

export function seriesRow(db: Db, captureId: number, idx: number): SeriesRow | undefined {
  return db.prepare(`SELECT idx, meta, points, times FROM capture_series WHERE capture_id = ? AND idx = ?`).get(captureId, idx) as SeriesRow | undefined;
}

// ---- links -------------------------------------------------------------------------------------

interface LinkRow {
  id: number; experiment_id: number; capture_id: number; position: number; name: string; note: string; findings: string;
  created_at: string; deleted_at: string | null;
  kind: string; confidence: number; forced_kind: string | null; sha256: string; size: number; line_count: number; parsed_warnings: number;
}

const LINK_SELECT = `SELECT l.*, c.kind, c.confidence, c.forced_kind, c.sha256, c.size, c.line_count,
  json_array_length(c.parsed, '$.warnings') AS parsed_warnings
  FROM experiment_capture l JOIN capture c ON c.id = l.capture_id`;

function toLink(r: LinkRow): ExperimentCapture & { experimentId: number; deletedAt: string | null } {
  return {
    linkId: r.id, captureId: r.capture_id, name: r.name, kind: r.kind, confidence: r.confidence, forcedKind: r.forced_kind,
    sha256: r.sha256, bytes: r.size, lines: r.line_count, note: r.note, findings: JSON.parse(r.findings) as Finding[],
    warningCount: r.parsed_warnings ?? 0, addedAt: r.created_at, experimentId: r.experiment_id, deletedAt: r.deleted_at,
  };
}

export type LinkWithExperiment = ReturnType<typeof toLink>;

/** A link as the contract shows it (without the experiment id and trash time the queries carry). */
export function publicLink({ experimentId: _e, deletedAt: _d, ...link }: LinkWithExperiment): ExperimentCapture {
  return link;
}

/** Live links of one experiment, in the order they were added. */
export function experimentLinks(db: Db, experimentId: number): LinkWithExperiment[] {
  return (db.prepare(`${LINK_SELECT} WHERE l.experiment_id = ? AND l.deleted_at IS NULL ORDER BY l.position, l.id`).all(experimentId) as LinkRow[]).map(toLink);
}

/** Live links of every experiment of a study (one query for the whole study). */
export function studyLinks(db: Db, studyId: number): LinkWithExperiment[] {
  return (db.prepare(`${LINK_SELECT} JOIN experiment e ON e.id = l.experiment_id
    WHERE e.study_id = ? AND l.deleted_at IS NULL ORDER BY l.position, l.id`).all(studyId) as LinkRow[]).map(toLink);
}

export function getLink(db: Db, linkId: number): LinkWithExperiment | undefined {
  const r = db.prepare(`${LINK_SELECT} WHERE l.id = ?`).get(linkId) as LinkRow | undefined;
  return r && toLink(r);
}

export function linkByPair(db: Db, experimentId: number, captureId: number): LinkWithExperiment | undefined {
  const r = db.prepare(`${LINK_SELECT} WHERE l.experiment_id = ? AND l.capture_id = ?`).get(experimentId, captureId) as LinkRow | undefined;
  return r && toLink(r);
}

export function insertLink(db: Db, experimentId: number, captureId: number, name: string): number {
  const position = (db.prepare(`SELECT coalesce(max(position) + 1, 0) AS p FROM experiment_capture WHERE experiment_id = ?`).get(experimentId) as { p: number }).p;
  return Number(db.prepare(`INSERT INTO experiment_capture (experiment_id, capture_id, position, name, created_at) VALUES (?, ?, ?, ?, ?)`)
    .run(experimentId, captureId, position, name, now()).lastInsertRowid);
}

export function updateLink(db: Db, linkId: number, patch: { name: string; note: string }): void {
  db.prepare(`UPDATE experiment_capture SET name = ?, note = ? WHERE id = ?`).run(patch.name, patch.note, linkId);
}

export function setLinkDeleted(db: Db, linkId: number, deleted: boolean): void {
  db.prepare(`UPDATE experiment_capture SET deleted_at = ? WHERE id = ?`).run(deleted ? now() : null, linkId);
}

export function setLinkFindings(db: Db, linkId: number, findings: readonly Finding[]): void {
  db.prepare(`UPDATE experiment_capture SET findings = ? WHERE id = ?`).run(JSON.stringify(findings), linkId);
}

export interface CaptureLinkRow { linkId: number; experimentId: number; experimentTitle: string; studyId: number; studyTitle: string; note: string; findings: string }

/** Where a capture is used: its live links on live experiments of live studies. */
export function linksOfCapture(db: Db, captureId: number): CaptureLinkRow[] {
  return db.prepare(`SELECT l.id AS linkId, l.experiment_id AS experimentId, e.title AS experimentTitle, e.study_id AS studyId,
      s.title AS studyTitle, l.note, l.findings
    FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id JOIN study s ON s.id = e.study_id
    WHERE l.capture_id = ? AND l.deleted_at IS NULL AND e.deleted_at IS NULL AND s.deleted_at IS NULL
    ORDER BY s.id, e.position, l.id`).all(captureId) as CaptureLinkRow[];
}

const LIVE_LINK = `EXISTS (SELECT 1 FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id JOIN study s ON s.id = e.study_id
  WHERE l.capture_id = c.id AND l.deleted_at IS NULL AND e.deleted_at IS NULL AND s.deleted_at IS NULL)`;

export interface StoredCaptureRow { id: number; name: string; kind: string; size: number; line_count: number; created_at: string }

/** The stored captures some live experiment links, newest first: a page of them and how many there are. */
export function listStoredCaptures(db: Db, offset: number, limit: number): { total: number; rows: StoredCaptureRow[] } {
  const total = db.prepare(`SELECT COUNT(*) FROM capture c WHERE ${LIVE_LINK}`).pluck().get() as number;
  const rows = db.prepare(`SELECT c.id, c.name, c.kind, c.size, c.line_count, c.created_at FROM capture c WHERE ${LIVE_LINK}
    ORDER BY c.id DESC LIMIT ? OFFSET ?`).all(limit, offset) as StoredCaptureRow[];
  return { total, rows };
}

/** Experiments (live or in the trash) that link a capture: their findings change when it is re-parsed. */
export function experimentsOfCapture(db: Db, captureId: number): number[] {
  return (db.prepare(`SELECT DISTINCT experiment_id AS id FROM experiment_capture WHERE capture_id = ?`).all(captureId) as { id: number }[]).map((r) => r.id);
}

/**
 * Forget links unlinked before `before` (their undo window is over), then the captures no link
 * holds any more (their chunks and series go with them). Returns how many captures were removed.
 * A capture on an experiment in the trash keeps its link, so restoring the experiment restores it.
 * `sweep`: look at every capture (compaction), not only those of the links forgotten now — the
 * Backend's purge at open, close and after an unlink must not read 100,000 captures each time.
 */
export function purgeDetached(db: Db, before: string, sweep = true): number {
  // the trashed links are few, and indexed (experiment_capture_trashed)
  const gone = db.prepare(`SELECT id, capture_id FROM experiment_capture WHERE deleted_at IS NOT NULL AND deleted_at < ?`).all(before) as { id: number; capture_id: number }[];
  const forget = db.prepare(`DELETE FROM experiment_capture WHERE id = ?`);
  for (const l of gone) forget.run(l.id);
  if (sweep) return db.prepare(`DELETE FROM capture WHERE NOT EXISTS (SELECT 1 FROM experiment_capture l WHERE l.capture_id = capture.id)`).run().changes;
  const orphan = db.prepare(`DELETE FROM capture WHERE id = ? AND NOT EXISTS (SELECT 1 FROM experiment_capture l WHERE l.capture_id = capture.id)`);
  let removed = 0;
  for (const id of new Set(gone.map((l) => l.capture_id))) removed += orphan.run(id).changes;
  return removed;
}

/** The stored captures linked (live or unlinked) from a study's experiments, an experiment, or anything in the trash. */
export function capturesWithin(db: Db, where: { studyId: number } | { experimentId: number } | { linkId: number } | 'trash'): number[] {
  if (where === 'trash') {
    return db.prepare(`SELECT capture_id FROM experiment_capture WHERE deleted_at IS NOT NULL
      UNION SELECT l.capture_id FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id WHERE e.deleted_at IS NOT NULL
      UNION SELECT l.capture_id FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id
        JOIN study s ON s.id = e.study_id WHERE s.deleted_at IS NOT NULL`).pluck().all() as number[];
  }
  if ('studyId' in where) {
    return db.prepare(`SELECT DISTINCT l.capture_id FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id WHERE e.study_id = ?`)
      .pluck().all(where.studyId) as number[];
  }
  if ('experimentId' in where) return db.prepare(`SELECT DISTINCT capture_id FROM experiment_capture WHERE experiment_id = ?`).pluck().all(where.experimentId) as number[];
  return db.prepare(`SELECT capture_id FROM experiment_capture WHERE id = ?`).pluck().all(where.linkId) as number[];
}

export function deleteLink(db: Db, linkId: number): void {
  db.prepare(`DELETE FROM experiment_capture WHERE id = ?`).run(linkId);
}

/** Remove those of these captures that no experiment links any more (their chunks and series go with them). Returns how many. */
export function removeOrphans(db: Db, captureIds: Iterable<number>): number {
  const orphan = db.prepare(`DELETE FROM capture WHERE id = ? AND NOT EXISTS (SELECT 1 FROM experiment_capture l WHERE l.capture_id = capture.id)`);
  let removed = 0;
  for (const id of new Set(captureIds)) removed += orphan.run(id).changes;
  return removed;
}

export function resultsOfCapture(db: Db, captureId: number): { id: number; experiment_id: number; name: string; is_primary: number; source: string | null }[] {
  return db.prepare(`SELECT m.id, m.experiment_id, m.name, m.is_primary, m.source FROM result_metric m
    JOIN experiment e ON e.id = m.experiment_id WHERE m.capture_id = ? AND e.deleted_at IS NULL ORDER BY e.position, m.position`)
    .all(captureId) as { id: number; experiment_id: number; name: string; is_primary: number; source: string | null }[];
}
