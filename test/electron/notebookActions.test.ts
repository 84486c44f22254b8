import { describe, expect, it, vi } from 'vitest';
import { TunebookError } from '../../shared/api';
import type { NotebookInfo } from '../../shared/model';
import type { DialogLike, NotebookOpener } from '../../electron/main/notebookActions';
import {
  OPEN_FILTERS, describeOpenError, newNotebookInteractive, openNotebookFile, openNotebookInteractive, withNotebookExtension,
} from '../../electron/main/notebookActions';

function fakeDialog(answers: { save?: string | null; open?: string[] | null } = {}) {
  const d = {
    showSaveDialog: vi.fn(async (_o: unknown) => (answers.save ? { canceled: false, filePath: answers.save } : { canceled: true, filePath: '' })),
    showOpenDialog: vi.fn(async (_o: unknown) => (answers.open ? { canceled: false, filePaths: answers.open } : { canceled: true, filePaths: [] })),
    showMessageBox: vi.fn(async (_o: unknown) => ({ response: 0 })),
  } satisfies DialogLike;
  return d;
}

function fakeBackend(fail?: unknown): NotebookOpener & { opened: [string, boolean][] } {
  const opened: [string, boolean][] = [];
  return {
    opened,
    openNotebook(path: string, create: boolean): NotebookInfo {
      if (fail) throw fail;
      opened.push([path, create]);
      return { path, schemaVersion: 1, appVersion: '0.1.0' };
    },
  };
}

describe('File › New Notebook…', () => {
  it('creates the chosen file, adding .tunebook when missing', async () => {
    const dialog = fakeDialog({ save: '/home/u/qps' });
    const backend = fakeBackend();
    const onOpened = vi.fn();
    const info = await newNotebookInteractive({ dialog, backend, defaultDir: '/home/u/Documents', onOpened });
    expect(backend.opened).toEqual([['/home/u/qps.tunebook', true]]);
    expect(info?.path).toBe('/home/u/qps.tunebook');
    expect(onOpened).toHaveBeenCalledWith(info);
    expect(dialog.showSaveDialog.mock.calls[0]?.[0]).toMatchObject({ filters: [{ extensions: ['tunebook'] }] });
  });

  it('does nothing when cancelled', async () => {
    const backend = fakeBackend();
    expect(await newNotebookInteractive({ dialog: fakeDialog(), backend, defaultDir: '/d' })).toBeNull();
    expect(backend.opened).toEqual([]);
  });
});

describe('File › Open Notebook…', () => {
  it('opens the chosen file without creating it, with *.tunebook and *.sqlite filters', async () => {
    const dialog = fakeDialog({ open: ['/data/old.sqlite'] });
    const backend = fakeBackend();
    await openNotebookInteractive({ dialog, backend, defaultDir: '/d' });
    expect(backend.opened).toEqual([['/data/old.sqlite', false]]);
    const exts = OPEN_FILTERS.flatMap((f) => f.extensions);
    expect(exts).toEqual(expect.arrayContaining(['tunebook', 'sqlite']));
    expect(dialog.showOpenDialog.mock.calls[0]?.[0]).toMatchObject({ properties: ['openFile'] });
  });

  it('does nothing when cancelled', async () => {
    const backend = fakeBackend();
    expect(await openNotebookInteractive({ dialog: fakeDialog(), backend, defaultDir: '/d' })).toBeNull();
    expect(backend.opened).toEqual([]);
  });

  it('shows a clear error for a notebook from a newer Tunebook and reports no open', async () => {
    const dialog = fakeDialog({ open: ['/data/future.tunebook'] });
    const onOpened = vi.fn();
    const backend = fakeBackend(new TunebookError('refused', 'This notebook was written by a newer Tunebook (schema 7; this app reads up to 2).'));
    const info = await openNotebookInteractive({ dialog, backend, defaultDir: '/d', onOpened });
    expect(info).toBeNull();
    expect(onOpened).not.toHaveBeenCalled();
    const box = dialog.showMessageBox.mock.calls[0]?.[0] as unknown as { type: string; message: string; detail: string };
    expect(box.type).toBe('error');
    expect(box.message).toContain('future.tunebook');
    expect(box.message).toMatch(/cannot be opened by this version/);
    expect(box.detail).toMatch(/newer Tunebook/);
    expect(box.detail).toMatch(/not changed/);
  });

  it('reports other failures and keeps the current notebook', async () => {
    const dialog = fakeDialog();
    const info = await openNotebookFile({ dialog, backend: fakeBackend(new TunebookError('invalid', 'not a Tunebook notebook')), defaultDir: '/d' }, '/x/a.db', false);
    expect(info).toBeNull();
    const box = dialog.showMessageBox.mock.calls[0]?.[0] as unknown as { detail: string };
    expect(box.detail).toMatch(/not a Tunebook notebook/);
    expect(box.detail).toMatch(/current notebook is still open/);
  });
});

describe('helpers', () => {
  it('withNotebookExtension', () => {
    expect(withNotebookExtension('/a/b')).toBe('/a/b.tunebook');
    expect(withNotebookExtension('/a/b.tunebook')).toBe('/a/b.tunebook');
    expect(withNotebookExtension('/a/b.sqlite')).toBe('/a/b.sqlite');
  });
  it('describeOpenError handles non-errors', () => {
    expect(describeOpenError('boom', '/a/x.tunebook').detail).toContain('boom');
  });
});

import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import nodePath from 'node:path';
import Database from 'better-sqlite3';
import { Backend } from '../../electron/services/backend';

describe('opening a notebook from a newer Tunebook (real Backend)', () => {
  it('shows the error, leaves the file byte-for-byte untouched and keeps the current notebook', async () => {
    const dir = mkdtempSync(nodePath.join(os.tmpdir(), 'tunebook-newer-'));
    const backend = new Backend({ notebookPath: nodePath.join(dir, 'current.tunebook'), userDataDir: nodePath.join(dir, 'ud'), appVersion: '0.1.0' });
    try {
      const future = nodePath.join(dir, 'future.tunebook');
      const db = new Database(future);
      db.exec(`CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT) STRICT; INSERT INTO meta VALUES ('application', 'tunebook')`);
      db.pragma('user_version = 999');
      db.close();
      const before = createHash('sha256').update(readFileSync(future)).digest('hex');

      const dialog = fakeDialog({ open: [future] });
      const info = await openNotebookInteractive({ dialog, backend, defaultDir: dir });
      expect(info).toBeNull();
      const box = dialog.showMessageBox.mock.calls[0]?.[0] as unknown as { type: string; message: string; detail: string };
      expect(box.type).toBe('error');
      expect(box.message).toMatch(/future\.tunebook.*cannot be opened by this version/);
      expect(box.detail).toMatch(/newer version of Tunebook/);
      expect(createHash('sha256').update(readFileSync(future)).digest('hex')).toBe(before);
      expect((backend.call('notebookInfo', []) as { path: string }).path).toBe(nodePath.join(dir, 'current.tunebook'));
    } finally {
      backend.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
