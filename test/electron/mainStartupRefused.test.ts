/**
 * main.ts started on a notebook written by a newer Tunebook (TUNEBOOK_NOTEBOOK): an error box,
 * exit code 1, no window, and the file left untouched.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, expect, it, vi } from 'vitest';
import type { FakeState } from './fakeElectron';

const h = vi.hoisted(() => ({ state: undefined as unknown as FakeState }));

vi.mock('electron', async () => {
  const { fakeElectron, newFakeState } = await import('./fakeElectron');
  h.state = newFakeState();
  return fakeElectron(h.state);
});

const dir = mkdtempSync(path.join(os.tmpdir(), 'tunebook-main-refused-'));
afterAll(() => {
  vi.unstubAllEnvs();
  rmSync(dir, { recursive: true, force: true });
});

it('refuses to start on a newer notebook, with a clear message, leaving it untouched', async () => {
  const file = path.join(dir, 'future.tunebook');
  const db = new Database(file);
  db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) STRICT; INSERT INTO meta VALUES ('application', 'tunebook')`);
  db.pragma('user_version = 999');
  db.close();
  const before = createHash('sha256').update(readFileSync(file)).digest('hex');

  vi.stubEnv('TUNEBOOK_USER_DATA', path.join(dir, 'ud'));
  vi.stubEnv('TUNEBOOK_NOTEBOOK', file);
  await import('../../electron/main/main');
  for (let i = 0; i < 50 && h.state.exitCodes.length === 0; i++) await new Promise((r) => setTimeout(r, 10));

  expect(h.state.exitCodes).toEqual([1]);
  expect(h.state.windows).toHaveLength(0);
  expect(h.state.errorBoxes).toHaveLength(1);
  const [title, content] = h.state.errorBoxes[0]!;
  expect(title).toBe('Cannot open notebook');
  expect(content).toMatch(/future\.tunebook.*cannot be opened by this version/);
  expect(content).toMatch(/newer version of Tunebook/);
  expect(content).not.toMatch(/current notebook is still open/);
  expect(createHash('sha256').update(readFileSync(file)).digest('hex')).toBe(before);
});
