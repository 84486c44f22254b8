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
