import type { Db } from '../connection';

export interface Migration {
  /** the schema version this migration produces; versions are 1, 2, 3 … with no gaps */
  version: number;
  name: string;
  /** SQL run in one transaction */
  up: string;
  /** data changes SQL cannot express, run after `up` in the same transaction */
  run?: (db: Db) => void;
}
