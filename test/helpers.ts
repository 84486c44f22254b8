import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh temp folder for each test (call the returned function inside a test), removed afterwards. */
export function useTempDir(): () => string {
  let dir = '';
  beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), 'tunebook-test-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

/** The case-study seed captures (../shared/fixtures/seed-captures), as copied into this repo's fixtures. */
export const SEED_CAPTURES = {
  'fdisk-l-vda.txt': 'fdisk',
  'fio-randwrite-4k-qd64-j64.txt': 'fio',
  'fio-write-4k-qd64-j64.txt': 'fio',
  'iostat-x-d-1-during-randwrite.txt': 'iostat',
  'iostat-x-d-1-during-seqwrite.txt': 'iostat',
  'tune2fs-block-size.txt': 'tune2fs',
} as const;

export function seedPath(name: keyof typeof SEED_CAPTURES): string {
  return path.join(__dirname, 'fixtures', 'captures', SEED_CAPTURES[name], name);
}
