import type { Migration } from './types';

/**
 * Search index upkeep that stays cheap however large the notebook (issue 9):
 *  - each indexed row's FTS rowid is computed from what it indexes (ref_id × 8 + a code per kind),
 *    so updating or deleting it is a rowid lookup; the triggers of schema 2 and 3 deleted by the
 *    unindexed ref_id column, a scan of the whole index for every changed row (moving one
 *    experiment in a study of 10,000 rewrote 10,000 positions: minutes);
 *  - the triggers fire only when an indexed column changes: a new position, status, trash time, uid
 *    or updated_at no longer re-indexes the row.
 * The index is rebuilt with the new rowids from the tables themselves.
 */
const KIND_CODE = { study: 1, experiment: 2, config: 3, profile: 4, capture: 5 } as const;
const rowid = (kind: keyof typeof KIND_CODE, id: string): string => `(${id}) * 8 + ${KIND_CODE[kind]}`;

const COLUMNS = 'rowid, kind, ref_id, study_id, experiment_id, profile_id, title, body';

/** What each kind's row holds, from a table row named `r` (NEW in a trigger, the table in the rebuild). */
const rows = {
  study: (r: string) => `${rowid('study', `${r}.id`)}, 'study', ${r}.id, ${r}.id, NULL, NULL, ${r}.title, ${r}.goal`,
  experiment: (r: string) => `${rowid('experiment', `${r}.id`)}, 'experiment', ${r}.id, ${r}.study_id, ${r}.id, NULL, ${r}.title, ${r}.notes`,
  config: (r: string) => `${rowid('config', `${r}.id`)}, 'config', ${r}.id, (SELECT study_id FROM experiment WHERE id = ${r}.experiment_id), ${r}.experiment_id, NULL,
    ${r}.key, ${r}.scope || ' ' || ${r}.before || ' → ' || ${r}.after || ' ' || ${r}.why`,
  profile: (r: string) => `${rowid('profile', `${r}.id`)}, 'profile', ${r}.id, NULL, NULL, ${r}.id, ${r}.name,
    ${r}.cpu_model || ' ' || ${r}.os || ' ' || ${r}.kernel || ' ' || ${r}.cloud || ' ' || ${r}.software || ' ' || ${r}.notes`,
};
const TABLES = { study: 'study', experiment: 'experiment', config: 'config_change', profile: 'profile' } as const;
/** The columns whose change re-indexes a row. */
const INDEXED = {
  study: 'title, goal',
  experiment: 'title, notes, study_id',
  config: 'key, scope, before, after, why, experiment_id',
  profile: 'name, cpu_model, os, kernel, cloud, software, notes',
} as const;

function triggers(kind: keyof typeof TABLES): string {
  const t = TABLES[kind];
  return `
    DROP TRIGGER IF EXISTS ${t}_fts_insert;
    DROP TRIGGER IF EXISTS ${t}_fts_update;
    DROP TRIGGER IF EXISTS ${t}_fts_delete;
    CREATE TRIGGER ${t}_fts_insert AFTER INSERT ON ${t} BEGIN
      INSERT INTO search_index (${COLUMNS}) VALUES (${rows[kind]('NEW')});
    END;
    CREATE TRIGGER ${t}_fts_update AFTER UPDATE OF ${INDEXED[kind]} ON ${t} BEGIN
      DELETE FROM search_index WHERE rowid = ${rowid(kind, 'OLD.id')};
      INSERT INTO search_index (${COLUMNS}) VALUES (${rows[kind]('NEW')});
    END;
    CREATE TRIGGER ${t}_fts_delete AFTER DELETE ON ${t} BEGIN
      DELETE FROM search_index WHERE rowid = ${rowid(kind, 'OLD.id')};
    END;
    INSERT INTO search_index (${COLUMNS}) SELECT ${rows[kind](t)} FROM ${t};`;
}

const CAPTURE_ROW = `${rowid('capture', 'l.id')}, 'capture', l.id, e.study_id, l.experiment_id, NULL, l.name, c.search_text || ' ' || l.note`;

export const migration0006: Migration = {
  version: 6,
  name: 'search-rowids',
  up: `
    DROP TABLE search_index;
    CREATE VIRTUAL TABLE search_index USING fts5(
      kind UNINDEXED, ref_id UNINDEXED, study_id UNINDEXED, experiment_id UNINDEXED, profile_id UNINDEXED,
      title, body,
      tokenize = 'unicode61 remove_diacritics 2'
    );
    ${triggers('study')}
    ${triggers('experiment')}
    ${triggers('config')}
    ${triggers('profile')}

    DROP TRIGGER experiment_capture_fts_insert;
    DROP TRIGGER experiment_capture_fts_update;
    DROP TRIGGER experiment_capture_fts_delete;
    DROP TRIGGER capture_fts_update;
    CREATE TRIGGER experiment_capture_fts_insert AFTER INSERT ON experiment_capture BEGIN
      INSERT INTO search_index (${COLUMNS})
        SELECT ${CAPTURE_ROW.replace(/\bl\./g, 'NEW.')} FROM capture c, experiment e WHERE c.id = NEW.capture_id AND e.id = NEW.experiment_id;
    END;
    CREATE TRIGGER experiment_capture_fts_update AFTER UPDATE OF name, note ON experiment_capture BEGIN
      DELETE FROM search_index WHERE rowid = ${rowid('capture', 'OLD.id')};
      INSERT INTO search_index (${COLUMNS})
        SELECT ${CAPTURE_ROW.replace(/\bl\./g, 'NEW.')} FROM capture c, experiment e WHERE c.id = NEW.capture_id AND e.id = NEW.experiment_id;
    END;
    CREATE TRIGGER experiment_capture_fts_delete AFTER DELETE ON experiment_capture BEGIN
      DELETE FROM search_index WHERE rowid = ${rowid('capture', 'OLD.id')};
    END;
    CREATE TRIGGER capture_fts_update AFTER UPDATE OF search_text ON capture BEGIN
      DELETE FROM search_index WHERE rowid IN (SELECT ${rowid('capture', 'id')} FROM experiment_capture WHERE capture_id = NEW.id);
      INSERT INTO search_index (${COLUMNS})
        SELECT ${CAPTURE_ROW.replace(/\bc\.search_text/g, 'NEW.search_text')} FROM experiment_capture l JOIN experiment e ON e.id = l.experiment_id WHERE l.capture_id = NEW.id;
    END;
    INSERT INTO search_index (${COLUMNS})
      SELECT ${CAPTURE_ROW} FROM experiment_capture l JOIN capture c ON c.id = l.capture_id JOIN experiment e ON e.id = l.experiment_id;
  `,
};
