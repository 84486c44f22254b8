import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { notebookFromArgv, resolveLaunchConfig, windowTitle } from '../../electron/main/launchConfig';

describe('resolveLaunchConfig', () => {
  const base = { argv: ['/usr/bin/electron', 'dist/electron/main.cjs'], cwd: '/work', isPackaged: false };

  it('defaults: no overrides, development when unpackaged', () => {
    expect(resolveLaunchConfig({ ...base, env: {} })).toEqual({ userDataDir: null, notebookPath: null, isDev: true });
    expect(resolveLaunchConfig({ ...base, env: {}, isPackaged: true }).isDev).toBe(false);
    expect(resolveLaunchConfig({ ...base, env: { TUNEBOOK_DEV: '1' }, isPackaged: true }).isDev).toBe(true);
  });

  it('TUNEBOOK_USER_DATA and TUNEBOOK_NOTEBOOK, resolved against cwd', () => {
    const c = resolveLaunchConfig({ ...base, env: { TUNEBOOK_USER_DATA: 'tmp/ud', TUNEBOOK_NOTEBOOK: '/abs/n.tunebook' } });
    expect(c.userDataDir).toBe(path.resolve('/work', 'tmp/ud'));
    expect(c.notebookPath).toBe(path.resolve('/abs/n.tunebook'));
  });

  it('empty variables count as unset', () => {
    expect(resolveLaunchConfig({ ...base, env: { TUNEBOOK_USER_DATA: '', TUNEBOOK_NOTEBOOK: ' ' } })).toMatchObject({ userDataDir: null, notebookPath: null });
  });

  it('a notebook named on the command line, unless TUNEBOOK_NOTEBOOK says otherwise', () => {
    const argv = ['/opt/Tunebook/tunebook', '--no-sandbox', 'studies/qps.tunebook'];
    expect(resolveLaunchConfig({ ...base, argv, env: {} }).notebookPath).toBe(path.resolve('/work', 'studies/qps.tunebook'));
    expect(resolveLaunchConfig({ ...base, argv, env: { TUNEBOOK_NOTEBOOK: '/x.tunebook' } }).notebookPath).toBe(path.resolve('/x.tunebook'));
  });
});

describe('notebookFromArgv', () => {
  it('skips the executable, flags and non-notebook arguments', () => {
    expect(notebookFromArgv(['/usr/bin/electron', 'dist/electron/main.cjs'], '/w')).toBeNull();
    expect(notebookFromArgv(['app', '--flag=x.tunebook', 'a.sqlite'], '/w')).toBe(path.resolve('/w', 'a.sqlite'));
    expect(notebookFromArgv(['x.tunebook'], '/w')).toBeNull(); // argv[0] is the executable
  });
});

describe('windowTitle', () => {
  it('names the notebook', () => {
    expect(windowTitle('/home/u/qps.tunebook')).toBe('qps.tunebook — Tunebook');
    expect(windowTitle(null)).toBe('Tunebook');
  });
});

import { unpackedPath } from '../../electron/main/launchConfig';

describe('unpackedPath', () => {
  it('points into app.asar.unpacked when packaged, unchanged otherwise', () => {
    expect(unpackedPath('/opt/Tunebook/resources/app.asar/dist/parseWorker.cjs', '/')).toBe('/opt/Tunebook/resources/app.asar.unpacked/dist/parseWorker.cjs');
    expect(unpackedPath('C:\\T\\resources\\app.asar\\dist\\parseWorker.cjs', '\\')).toBe('C:\\T\\resources\\app.asar.unpacked\\dist\\parseWorker.cjs');
    expect(unpackedPath('/work/main/dist/parseWorker.cjs', '/')).toBe('/work/main/dist/parseWorker.cjs');
  });
});
