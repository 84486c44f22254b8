import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RebuildArgs } from '../../scripts/electronNative.mjs';
import {
  MISSING_BINARY_MESSAGE, electronBinaryStatus, electronEnv, ensureElectronSqlite, nativeCachePaths, requireElectronFrom,
} from '../../scripts/electronNative.mjs';

describe('electronBinaryStatus', () => {
  it('reports a skipped download (the electron package throws)', () => {
    const s = electronBinaryStatus(() => { throw new Error('Electron failed to install correctly'); });
    expect(s).toEqual({ ok: false, reason: 'Electron failed to install correctly' });
  });
  it('reports a path that does not exist', () => {
    expect(electronBinaryStatus(() => '/nope/electron', () => false)).toMatchObject({ ok: false });
  });
  it('accepts an existing binary', () => {
    expect(electronBinaryStatus(() => '/opt/electron', (p) => p === '/opt/electron')).toEqual({ ok: true, path: '/opt/electron' });
  });
  it('matches this checkout (installed with ELECTRON_SKIP_BINARY_DOWNLOAD=1, or not)', () => {
    const s = electronBinaryStatus(requireElectronFrom(process.cwd()));
    if (s.ok) expect(existsSync(s.path)).toBe(true);
    else expect(s.reason.length).toBeGreaterThan(0);
  });
  it('the message is one line naming the way out', () => {
    expect(MISSING_BINARY_MESSAGE).not.toContain('\n');
    expect(MISSING_BINARY_MESSAGE).toContain('ELECTRON_SKIP_BINARY_DOWNLOAD');
    expect(MISSING_BINARY_MESSAGE).toContain('npm run serve');
  });
});

describe('ensureElectronSqlite', () => {
  let root: string;
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  function fakeProject(sqliteVersion = '12.11.1'): string {
    root = mkdtempSync(path.join(os.tmpdir(), 'tunebook-start-'));
    const e = path.join(root, 'node_modules', 'electron');
    const b = path.join(root, 'node_modules', 'better-sqlite3');
    mkdirSync(e, { recursive: true });
    mkdirSync(path.join(b, 'build', 'Release'), { recursive: true });
    mkdirSync(path.join(b, 'lib'), { recursive: true });
    writeFileSync(path.join(e, 'package.json'), JSON.stringify({ name: 'electron', version: '40.9.3' }));
    writeFileSync(path.join(b, 'package.json'), JSON.stringify({ name: 'better-sqlite3', version: sqliteVersion }));
    writeFileSync(path.join(b, 'lib', 'index.js'), 'module.exports = 1;');
    writeFileSync(path.join(b, 'build', 'Release', 'better_sqlite3.node'), 'NODE ABI BUILD');
    return root;
  }

  const fakeRebuild = () => vi.fn(async (o: RebuildArgs) => {
    const out = path.join(o.buildPath, 'node_modules', 'better-sqlite3', 'build', 'Release');
    mkdirSync(out, { recursive: true });
    writeFileSync(path.join(out, 'better_sqlite3.node'), `ELECTRON ${o.electronVersion} BUILD`);
  });

  it('copies better-sqlite3 without its Node build, rebuilds it for Electron, and caches the result', async () => {
    fakeProject();
    const rebuild = fakeRebuild();
    const binding = await ensureElectronSqlite(root, { rebuild, log: () => {} });
    const paths = nativeCachePaths(root, { electronVersion: '40.9.3' });
    expect(binding).toBe(paths.binding);
    expect(binding.startsWith(path.join(root, '.cache', 'electron-native') + path.sep)).toBe(true);
    expect(readFileSync(binding, 'utf8')).toBe('ELECTRON 40.9.3 BUILD');
    expect(existsSync(path.join(paths.moduleDir, 'lib', 'index.js'))).toBe(true);
    expect(rebuild).toHaveBeenCalledWith(expect.objectContaining({ buildPath: paths.dir, electronVersion: '40.9.3', onlyModules: ['better-sqlite3'] }));
    // the Node build was not copied: the rebuild saw no better_sqlite3.node
    expect(readFileSync(path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node'), 'utf8')).toBe('NODE ABI BUILD');

    const again = await ensureElectronSqlite(root, { rebuild, log: () => {} });
    expect(again).toBe(binding);
    expect(rebuild).toHaveBeenCalledTimes(1);
  });

  it('rebuilds when better-sqlite3 was upgraded', async () => {
    fakeProject('12.11.1');
    const rebuild = fakeRebuild();
    await ensureElectronSqlite(root, { rebuild, log: () => {} });
    writeFileSync(path.join(root, 'node_modules', 'better-sqlite3', 'package.json'), JSON.stringify({ version: '12.12.0' }));
    await ensureElectronSqlite(root, { rebuild, log: () => {} });
    expect(rebuild).toHaveBeenCalledTimes(2);
  });

  it('fails clearly when the rebuild produced nothing', async () => {
    fakeProject();
    await expect(ensureElectronSqlite(root, { rebuild: async () => {}, log: () => {} })).rejects.toThrow(/missing/);
  });
});

describe('electronEnv', () => {
  it('sets the binding and drops ELECTRON_RUN_AS_NODE', () => {
    const env = electronEnv({ PATH: '/bin', ELECTRON_RUN_AS_NODE: '1' }, '/c/b.node');
    expect(env).toEqual({ PATH: '/bin', TUNEBOOK_SQLITE_BINDING: '/c/b.node' });
  });
});
