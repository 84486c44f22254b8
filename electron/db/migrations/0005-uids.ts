import type { Migration } from './types';
import { ftsUpdateTrigger } from './0002-search';

/**
 * Stable uids for studies, experiments and hardware profiles: a bundle exported from one notebook
 * carries them, so importing it into another finds what it already holds (importing the same
 * bundle twice adds nothing) and an export of the imported study is the same content again.
 * Rows get a random uid when inserted without one (a trigger, so every insert path is covered);
 * an import sets the bundle's.
 */
const uid = `lower(hex(randomblob(16)))`;

function uidColumn(table: 'study' | 'experiment' | 'profile'): string {
  // giving every row its uid changes nothing the search indexes: without the update trigger for the
  // while, 10,000 experiments take milliseconds instead of minutes (its DELETE scans the index per row)
  return `
    ALTER TABLE ${table} ADD COLUMN uid TEXT CHECK (uid IS NULL OR length(uid) BETWEEN 8 AND 64);
    DROP TRIGGER ${table}_fts_update;
    UPDATE ${table} SET uid = ${uid};
    ${ftsUpdateTrigger(table)}
    CREATE UNIQUE INDEX ${table}_uid ON ${table}(uid);
    CREATE TRIGGER ${table}_uid_default AFTER INSERT ON ${table} WHEN NEW.uid IS NULL
    BEGIN
      UPDATE ${table} SET uid = ${uid} WHERE id = NEW.id;
    END;
  `;
}

export const migration0005: Migration = {
  version: 5,
  name: 'uids',
  up: (['study', 'experiment', 'profile'] as const).map(uidColumn).join('\n'),
};
