/** The store's failures in words a user can act on (electron/services/errors.ts). */
import { describe, expect, it } from 'vitest';
import { storeError } from '../../electron/services/errors';
import { openNotebookDb } from '../../electron/db/connection';

const sqlite = (code: string, message: string) => Object.assign(new Error(message), { code });

describe('storeError', () => {
  it('says a busy notebook is busy, not an internal error', () => {
    for (const code of ['SQLITE_BUSY', 'SQLITE_BUSY_SNAPSHOT', 'SQLITE_LOCKED']) {
      const e = storeError(sqlite(code, 'database is locked'), 'iostat.txt');
      expect([e.code, e.message]).toEqual(['refused', 'The notebook is busy: another program has held its write lock for more than 5 s. iostat.txt was not stored; try again.']);
    }
  });
  it('keeps the other cases', () => {
    expect(storeError(sqlite('SQLITE_FULL', 'database or disk is full'), 'a.log').message).toMatch(/^The disk is full: a\.log was not stored/);
    expect(storeError(sqlite('SQLITE_READONLY', 'attempt to write a readonly database'), 'a.log').message).toMatch(/read-only/);
    expect(storeError(new Error('boom'), 'a.log').code).toBe('internal');
  });
});

describe('a file of the kernel as a notebook', () => {
  it('is refused in words, whether asked to create or not', () => {
    for (const create of [false, true]) {
      expect(() => openNotebookDb('/proc/self/environ', { create })).toThrow('/proc/self/environ is a file of the kernel, not a Tunebook notebook; it was left untouched');
    }
  });
});
