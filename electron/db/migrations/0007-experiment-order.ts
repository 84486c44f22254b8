import type { Migration } from './types';

/**
 * Experiments are ordered by a sparse sort key (electron/db/queries.ts, ORDER_GAP): a move, delete
 * or restore then writes one row instead of renumbering the study (10,000 rows rewritten per move
 * in a study of 10,000). Live experiments get keys 2^20 apart in their present order; one in the
 * trash at old place p (it went back before the experiment then at p) gets a key halfway between
 * the live ones at p − 1 and p, so Undo still puts it back there.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'experiment-order',
  up: `
    UPDATE experiment SET position = position * 1048576 + 524288 WHERE deleted_at IS NOT NULL;
    WITH ranked AS (
      SELECT id, row_number() OVER (PARTITION BY study_id ORDER BY position, id) AS r FROM experiment WHERE deleted_at IS NULL
    )
    UPDATE experiment SET position = (ranked.r - 1) * 1048576 + 1048576 FROM ranked WHERE ranked.id = experiment.id;
  `,
};
