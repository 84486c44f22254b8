import type { Migration } from './types';
import { migration0001 } from './0001-initial';
import { migration0002 } from './0002-search';
import { migration0003 } from './0003-evidence';
import { migration0004 } from './0004-study-view';
import { migration0005 } from './0005-uids';
import { migration0006 } from './0006-search-rowids';
import { migration0007 } from './0007-scale';

/** Every migration, oldest first. Add new ones at the end; never edit a released one. */
export const MIGRATIONS: readonly Migration[] = [migration0001, migration0002, migration0003, migration0004, migration0005, migration0006, migration0007];

export const LATEST_VERSION = MIGRATIONS[MIGRATIONS.length - 1]!.version;

/** Versions must be 1, 2, 3 … in order: a mistake here would corrupt notebooks, so it is checked at load. */
export function checkMigrations(list: readonly Migration[]): void {
  list.forEach((m, i) => {
    if (m.version !== i + 1) throw new Error(`migration list out of order: entry ${i} has version ${m.version}, expected ${i + 1}`);
  });
}
checkMigrations(MIGRATIONS);

export type { Migration };
