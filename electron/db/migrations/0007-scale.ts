import type { Migration } from './types';

/**
 * Experiments are ordered by a sparse sort key (electron/db/queries.ts, ORDER_GAP): a move, delete
 * or restore then writes one row instead of renumbering the study (10,000 rows rewritten per move
 * in a study of 10,000). Live experiments get keys 2^20 apart in their present order; one in the
 * trash at old place p (it went back before the experiment then at p) gets a key halfway between
 * the live ones at p − 1 and p, so Undo still puts it back there.
 * Also indexes for a notebook of years of work: the live capture links per experiment, which a
 * study's outline counts (100,000 captures would otherwise mean reading every link row); the
 * unlinked ones, which the purge after the undo window looks for; and a study's experiments and
 * their results with the columns its views read, so a study of 10,000 is read from its indexes
 * alone (not from rows carrying long notes and result sources), about twice as fast. They replace
 * the indexes of schema 1 that are their prefixes.
 */
export const migration0007: Migration = {
  version: 7,
  name: 'scale',
  up: `
    UPDATE experiment SET position = position * 1048576 + 524288 WHERE deleted_at IS NOT NULL;
    WITH ranked AS (
      SELECT id, row_number() OVER (PARTITION BY study_id ORDER BY position, id) AS r FROM experiment WHERE deleted_at IS NULL
    )
    UPDATE experiment SET position = (ranked.r - 1) * 1048576 + 1048576 FROM ranked WHERE ranked.id = experiment.id;
    CREATE INDEX experiment_capture_live ON experiment_capture(experiment_id) WHERE deleted_at IS NULL;
    CREATE INDEX experiment_capture_trashed ON experiment_capture(deleted_at) WHERE deleted_at IS NOT NULL;
    DROP INDEX experiment_study;
    CREATE INDEX experiment_list ON experiment(study_id, position, id, deleted_at, status, title, profile_id, date);
    DROP INDEX result_metric_experiment;
    CREATE INDEX result_metric_list ON result_metric(experiment_id, position, id, name, value, unit, better, is_primary, capture_id, source);
  `,
};
