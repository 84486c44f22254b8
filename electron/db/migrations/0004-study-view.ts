import type { Migration } from './types';

/** What the comparison view shows of a study (metrics and experiments hidden from its charts), kept with the study. */
export const migration0004: Migration = {
  version: 4,
  name: 'study-view',
  up: `ALTER TABLE study ADD COLUMN view TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(view));`,
};
