import type { Migration } from './types';

/** Studies, requirements, hardware profiles, experiments, config changes, result metrics. */
export const migration0001: Migration = {
  version: 1,
  name: 'initial',
  up: `
    CREATE TABLE meta (
      key   TEXT PRIMARY KEY,
      value TEXT NOT NULL
    ) STRICT;
    INSERT INTO meta (key, value) VALUES ('application', 'tunebook');

    CREATE TABLE study (
      id         INTEGER PRIMARY KEY,
      title      TEXT NOT NULL,
      goal       TEXT NOT NULL DEFAULT '',
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted_at TEXT
    ) STRICT;

    CREATE TABLE requirement (
      id         INTEGER PRIMARY KEY,
      study_id   INTEGER NOT NULL REFERENCES study(id) ON DELETE CASCADE,
      position   INTEGER NOT NULL,
      metric     TEXT NOT NULL,
      comparator TEXT NOT NULL CHECK (comparator IN ('>=', '<=', '>', '<', '=')),
      threshold  REAL NOT NULL,
      unit       TEXT NOT NULL DEFAULT '',
      label      TEXT NOT NULL DEFAULT ''
    ) STRICT;
    CREATE INDEX requirement_study ON requirement(study_id, position);

    CREATE TABLE profile (
      id           INTEGER PRIMARY KEY,
      name         TEXT NOT NULL,
      cpu_model    TEXT NOT NULL DEFAULT '',
      cores        INTEGER,
      threads      INTEGER,
      memory_bytes INTEGER,
      disks        TEXT NOT NULL DEFAULT '[]' CHECK (json_valid(disks)),
      os           TEXT NOT NULL DEFAULT '',
      kernel       TEXT NOT NULL DEFAULT '',
      cloud        TEXT NOT NULL DEFAULT '',
      software     TEXT NOT NULL DEFAULT '',
      notes        TEXT NOT NULL DEFAULT '',
      created_at   TEXT NOT NULL,
      updated_at   TEXT NOT NULL
    ) STRICT;

    CREATE TABLE experiment (
      id         INTEGER PRIMARY KEY,
      study_id   INTEGER NOT NULL REFERENCES study(id) ON DELETE CASCADE,
      position   INTEGER NOT NULL,
      title      TEXT NOT NULL,
      profile_id INTEGER REFERENCES profile(id) ON DELETE RESTRICT,
      date       TEXT NOT NULL,
      notes      TEXT NOT NULL DEFAULT '',
      status     TEXT NOT NULL DEFAULT 'kept' CHECK (status IN ('planned', 'kept', 'reverted', 'failed')),
      created_at TEXT NOT NULL,
      updated_at TEXT NOT NULL,
      deleted_at TEXT
    ) STRICT;
    CREATE INDEX experiment_study ON experiment(study_id, position);
    CREATE INDEX experiment_profile ON experiment(profile_id);

    CREATE TABLE config_change (
      id            INTEGER PRIMARY KEY,
      experiment_id INTEGER NOT NULL REFERENCES experiment(id) ON DELETE CASCADE,
      position      INTEGER NOT NULL,
      scope         TEXT NOT NULL DEFAULT '',
      key           TEXT NOT NULL,
      before        TEXT NOT NULL DEFAULT '',
      after         TEXT NOT NULL DEFAULT '',
      why           TEXT NOT NULL DEFAULT ''
    ) STRICT;
    CREATE INDEX config_change_experiment ON config_change(experiment_id, position);

    CREATE TABLE result_metric (
      id            INTEGER PRIMARY KEY,
      experiment_id INTEGER NOT NULL REFERENCES experiment(id) ON DELETE CASCADE,
      position      INTEGER NOT NULL,
      name          TEXT NOT NULL,
      value         REAL NOT NULL,
      unit          TEXT NOT NULL DEFAULT '',
      better        TEXT NOT NULL DEFAULT 'higher' CHECK (better IN ('higher', 'lower')),
      is_primary    INTEGER NOT NULL DEFAULT 0 CHECK (is_primary IN (0, 1))
    ) STRICT;
    CREATE INDEX result_metric_experiment ON result_metric(experiment_id, position);
    CREATE UNIQUE INDEX result_metric_one_primary ON result_metric(experiment_id) WHERE is_primary = 1;
  `,
};
