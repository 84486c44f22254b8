import type { Migration } from './types';
import type { Db } from '../connection';
import { toBase } from '../../../shared/units';

/**
 * Evidence: captures stored verbatim on experiments, and results in base units.
 *  - capture: one row per distinct content (sha256 of the bytes), with its parse (kind, the parsed
 *    JSON without points, tables compressed, the text full-text search indexes);
 *  - capture_chunk: the raw bytes, deflated, in chunks cut at line ends, each knowing the line it
 *    starts at, so any line of a 1 GB log is read without reading the rest;
 *  - capture_series: each time series' points as compressed Float64 arrays (data, not a row per value);
 *  - experiment_capture: the links (an experiment lists its captures; the same capture on two
 *    experiments is stored once), with a note, the findings of the experiment's captures judged
 *    together, and deleted_at for undo;
 *  - result_metric.capture_id / source: the capture, metric and lines a result was taken from.
 * Results and requirements already stored in a unit Tunebook knows are converted to its base unit
 * (8788 KiB/s → 8998912 B/s, 207 ms → 0.207 s); other units are kept as they were.
 */
export const migration0003: Migration = {
  version: 3,
  name: 'evidence',
  up: `
    CREATE TABLE capture (
      id             INTEGER PRIMARY KEY,
      sha256         TEXT NOT NULL UNIQUE CHECK (length(sha256) = 64),
      name           TEXT NOT NULL,
      size           INTEGER NOT NULL CHECK (size >= 0),
      line_count     INTEGER NOT NULL CHECK (line_count >= 0),
      kind           TEXT NOT NULL,
      forced_kind    TEXT,
      confidence     REAL NOT NULL,
      parser_version INTEGER NOT NULL,
      parsed         TEXT NOT NULL CHECK (json_valid(parsed)),
      tables         BLOB,
      search_text    TEXT NOT NULL DEFAULT '',
      created_at     TEXT NOT NULL,
      updated_at     TEXT NOT NULL
    ) STRICT;

    CREATE TABLE capture_chunk (
      id         INTEGER PRIMARY KEY,
      capture_id INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
      seq        INTEGER NOT NULL,
      byte_start INTEGER NOT NULL,
      line_start INTEGER NOT NULL,
      mid_line   INTEGER NOT NULL CHECK (mid_line IN (0, 1)),
      size       INTEGER NOT NULL,
      data       BLOB NOT NULL
    ) STRICT;
    CREATE UNIQUE INDEX capture_chunk_seq ON capture_chunk(capture_id, seq);
    CREATE INDEX capture_chunk_line ON capture_chunk(capture_id, line_start);

    CREATE TABLE capture_series (
      capture_id INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
      idx        INTEGER NOT NULL,
      meta       TEXT NOT NULL CHECK (json_valid(meta)),
      points     BLOB NOT NULL,
      times      BLOB,
      PRIMARY KEY (capture_id, idx)
    ) STRICT;

    CREATE TABLE experiment_capture (
      id            INTEGER PRIMARY KEY,
      experiment_id INTEGER NOT NULL REFERENCES experiment(id) ON DELETE CASCADE,
      capture_id    INTEGER NOT NULL REFERENCES capture(id) ON DELETE CASCADE,
      position      INTEGER NOT NULL,
      name          TEXT NOT NULL,
      note          TEXT NOT NULL DEFAULT '',
      findings      TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(findings)),
      created_at    TEXT NOT NULL,
      deleted_at    TEXT
    ) STRICT;
    CREATE UNIQUE INDEX experiment_capture_once ON experiment_capture(experiment_id, capture_id);
    CREATE INDEX experiment_capture_capture ON experiment_capture(capture_id);

    ALTER TABLE result_metric ADD COLUMN capture_id INTEGER REFERENCES capture(id) ON DELETE SET NULL;
    ALTER TABLE result_metric ADD COLUMN source TEXT CHECK (source IS NULL OR json_valid(source));
    CREATE INDEX result_metric_capture ON result_metric(capture_id);

    -- full-text search: a capture is found on each experiment it is linked to
    CREATE TRIGGER experiment_capture_fts_insert AFTER INSERT ON experiment_capture BEGIN
      INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body)
        SELECT 'capture', NEW.id, e.study_id, NEW.experiment_id, NULL, NEW.name, c.search_text || ' ' || NEW.note
        FROM capture c, experiment e WHERE c.id = NEW.capture_id AND e.id = NEW.experiment_id;
    END;
    CREATE TRIGGER experiment_capture_fts_update AFTER UPDATE OF name, note ON experiment_capture BEGIN
      DELETE FROM search_index WHERE kind = 'capture' AND ref_id = OLD.id;
      INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body)
        SELECT 'capture', NEW.id, e.study_id, NEW.experiment_id, NULL, NEW.name, c.search_text || ' ' || NEW.note
        FROM capture c, experiment e WHERE c.id = NEW.capture_id AND e.id = NEW.experiment_id;
    END;
    CREATE TRIGGER experiment_capture_fts_delete AFTER DELETE ON experiment_capture BEGIN
      DELETE FROM search_index WHERE kind = 'capture' AND ref_id = OLD.id;
    END;
    CREATE TRIGGER capture_fts_update AFTER UPDATE OF search_text ON capture BEGIN
      DELETE FROM search_index WHERE kind = 'capture' AND ref_id IN (SELECT id FROM experiment_capture WHERE capture_id = NEW.id);
      INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body)
        SELECT 'capture', l.id, e.study_id, l.experiment_id, NULL, l.name, NEW.search_text || ' ' || l.note
        FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id WHERE l.capture_id = NEW.id;
    END;
  `,
  run: convertUnits,
};

/** Results and requirements stored in a known unit move to its base unit; unknown units stay. */
function convertUnits(db: Db): void {
  for (const table of ['result_metric', 'requirement'] as const) {
    const column = table === 'result_metric' ? 'value' : 'threshold';
    const rows = db.prepare(`SELECT id, ${column} AS value, unit FROM ${table}`).all() as { id: number; value: number; unit: string }[];
    const update = db.prepare(`UPDATE ${table} SET ${column} = ?, unit = ? WHERE id = ?`);
    for (const r of rows) {
      const q = toBase(r.value, r.unit);
      if (q.unit !== r.unit || q.value !== r.value) update.run(q.value, q.unit, r.id);
    }
  }
}
