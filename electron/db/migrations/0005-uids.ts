import type { Migration } from './types';

/**
 * Stable uids for studies, experiments and hardware profiles: a bundle exported from one notebook
 * carries them, so importing it into another finds what it already holds (importing the same
 * bundle twice adds nothing) and an export of the imported study is the same content again.
 * Rows get a random uid when inserted without one (a trigger, so every insert path is covered);
 * an import sets the bundle's.
 */
const uid = `lower(hex(randomblob(16)))`;

function uidColumn(table: string): string {
  return `
    ALTER TABLE ${table} ADD COLUMN uid TEXT CHECK (uid IS NULL OR length(uid) BETWEEN 8 AND 64);
    UPDATE ${table} SET uid = ${uid};
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
  up: ['study', 'experiment', 'profile'].map(uidColumn).join('\n'),
};
