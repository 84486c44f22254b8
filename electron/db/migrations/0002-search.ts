import type { Migration } from './types';

/**
 * Full-text search (FTS5) over study titles and goals, experiment titles and notes, config changes
 * and hardware profiles. Kept in step by triggers, so every writer (UI, import, CLI) is covered.
 */
const ftsRow = {
  study: `'study', NEW.id, NEW.id, NULL, NULL, NEW.title, NEW.goal`,
  experiment: `'experiment', NEW.id, NEW.study_id, NEW.id, NULL, NEW.title, NEW.notes`,
  config: `'config', NEW.id, (SELECT study_id FROM experiment WHERE id = NEW.experiment_id), NEW.experiment_id, NULL,
           NEW.key, NEW.scope || ' ' || NEW.before || ' → ' || NEW.after || ' ' || NEW.why`,
  profile: `'profile', NEW.id, NULL, NULL, NEW.id, NEW.name,
            NEW.cpu_model || ' ' || NEW.os || ' ' || NEW.kernel || ' ' || NEW.cloud || ' ' || NEW.software || ' ' || NEW.notes`,
};
const tables = { study: 'study', experiment: 'experiment', config: 'config_change', profile: 'profile' } as const;

/**
 * The update trigger of schemas 2 to 5. Its DELETE scans the whole index (no rowid to look up), so a
 * migration that updates every row of a table without changing what is indexed (0005) drops it for
 * that update and makes it again with this.
 */
export function ftsUpdateTrigger(kind: keyof typeof tables): string {
  const t = tables[kind];
  return `
    CREATE TRIGGER ${t}_fts_update AFTER UPDATE ON ${t} BEGIN
      DELETE FROM search_index WHERE kind = '${kind}' AND ref_id = OLD.id;
      INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body) VALUES (${ftsRow[kind]});
    END;`;
}

function triggers(kind: keyof typeof tables): string {
  const t = tables[kind];
  return `
    CREATE TRIGGER ${t}_fts_insert AFTER INSERT ON ${t} BEGIN
      INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body) VALUES (${ftsRow[kind]});
    END;
    ${ftsUpdateTrigger(kind)}
    CREATE TRIGGER ${t}_fts_delete AFTER DELETE ON ${t} BEGIN
      DELETE FROM search_index WHERE kind = '${kind}' AND ref_id = OLD.id;
    END;`;
}

export const migration0002: Migration = {
  version: 2,
  name: 'search',
  up: `
    CREATE VIRTUAL TABLE search_index USING fts5(
      kind UNINDEXED, ref_id UNINDEXED, study_id UNINDEXED, experiment_id UNINDEXED, profile_id UNINDEXED,
      title, body,
      tokenize = 'unicode61 remove_diacritics 2'
    );
    ${triggers('study')}
    ${triggers('experiment')}
    ${triggers('config')}
    ${triggers('profile')}
    INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body)
      SELECT 'study', id, id, NULL, NULL, title, goal FROM study;
    INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body)
      SELECT 'experiment', id, study_id, id, NULL, title, notes FROM experiment;
    INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body)
      SELECT 'config', c.id, e.study_id, c.experiment_id, NULL, c.key, c.scope || ' ' || c.before || ' → ' || c.after || ' ' || c.why
      FROM config_change c JOIN experiment e ON e.id = c.experiment_id;
    INSERT INTO search_index (kind, ref_id, study_id, experiment_id, profile_id, title, body)
      SELECT 'profile', id, NULL, NULL, id, name, cpu_model || ' ' || os || ' ' || kernel || ' ' || cloud || ' ' || software || ' ' || notes FROM profile;
  `,
};
