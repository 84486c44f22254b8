// Helpers for scripts/start.mjs, kept apart so vitest can test them (test/electron/startScript.test.ts).
//
// node_modules/better-sqlite3 is compiled for Node (the CLI, browser mode and the tests need that).
// The Electron main process needs a build for Electron's ABI: we keep one under
// .cache/electron-native/<electron>-<platform>-<arch>/node_modules/better-sqlite3 and hand its .node
// file to the app through TUNEBOOK_SQLITE_BINDING (better-sqlite3's `nativeBinding` option).
import { cpSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const MISSING_BINARY_MESSAGE =
  'Electron binary not installed (installed with ELECTRON_SKIP_BINARY_DOWNLOAD?). Run `npm run serve` for browser mode, or reinstall without it.';

/**
 * Where `require('electron')` points, and whether that file exists. The electron package throws
 * when its path.txt is missing (a skipped download) and returns a path that may not exist when the
 * dist folder was removed.
 */
export function electronBinaryStatus(requireElectron, exists = existsSync) {
  let binary;
  try {
    binary = requireElectron();
  } catch (err) {
    return { ok: false, reason: err instanceof Error ? err.message : String(err) };
  }
  if (typeof binary !== 'string' || binary === '') return { ok: false, reason: 'require("electron") did not return a path' };
  if (!exists(binary)) return { ok: false, reason: `${binary} does not exist` };
  return { ok: true, path: binary };
}

/** `() => require('electron')` resolved from the project root. */
export function requireElectronFrom(root) {
  const req = createRequire(path.join(root, 'package.json'));
  return () => req('electron');
}

function readJson(file) {
  return JSON.parse(readFileSync(file, 'utf8'));
}

export function packageVersion(root, name) {
  return readJson(path.join(root, 'node_modules', name, 'package.json')).version;
}

/** The cache folder and the .node file for one Electron version and machine. */
export function nativeCachePaths(root, { electronVersion, platform = process.platform, arch = process.arch }) {
  const dir = path.join(root, '.cache', 'electron-native', `${electronVersion}-${platform}-${arch}`);
  const moduleDir = path.join(dir, 'node_modules', 'better-sqlite3');
  return {
    dir,
    moduleDir,
    binding: path.join(moduleDir, 'build', 'Release', 'better_sqlite3.node'),
    stamp: path.join(dir, 'tunebook-native.json'),
  };
}

/** Is the cached build there and made from the better-sqlite3 version installed now? */
export function cachedBindingIsCurrent(paths, sqliteVersion, exists = existsSync) {
  if (!exists(paths.binding) || !exists(paths.stamp)) return false;
  try {
    return readJson(paths.stamp).betterSqlite3 === sqliteVersion;
  } catch {
    return false;
  }
}

/**
 * Makes sure an Electron-ABI build of better-sqlite3 exists and returns the path of its .node file.
 * `rebuild` defaults to @electron/rebuild (a dependency of electron-builder): it fetches a prebuilt
 * binary for the Electron ABI when there is one, else compiles with node-gyp against Electron's
 * headers (which needs the network once, and a C++ toolchain).
 */
export async function ensureElectronSqlite(root, opts = {}) {
  const log = opts.log ?? ((m) => console.error(m));
  const electronVersion = opts.electronVersion ?? packageVersion(root, 'electron');
  const sqliteVersion = packageVersion(root, 'better-sqlite3');
  const paths = nativeCachePaths(root, { electronVersion });
  if (cachedBindingIsCurrent(paths, sqliteVersion)) return paths.binding;

  log(`tunebook: building better-sqlite3 ${sqliteVersion} for Electron ${electronVersion} in ${path.relative(root, paths.dir)} (once)…`);
  rmSync(paths.dir, { recursive: true, force: true });
  mkdirSync(path.dirname(paths.moduleDir), { recursive: true });
  const source = path.join(root, 'node_modules', 'better-sqlite3');
  cpSync(source, paths.moduleDir, {
    recursive: true,
    // the Node build must not be mistaken for the Electron one
    filter: (src) => !src.startsWith(path.join(source, 'build') + path.sep) && src !== path.join(source, 'build'),
  });
  writeFileSync(path.join(paths.dir, 'package.json'), JSON.stringify({
    name: 'tunebook-electron-native', private: true, dependencies: { 'better-sqlite3': sqliteVersion },
  }, null, 2));

  const rebuild = opts.rebuild ?? (async (o) => (await import('@electron/rebuild')).rebuild(o));
  await rebuild({ buildPath: paths.dir, electronVersion, onlyModules: ['better-sqlite3'], force: true, mode: 'sequential' });
  if (!existsSync(paths.binding)) throw new Error(`the rebuild finished but ${paths.binding} is missing`);
  writeFileSync(paths.stamp, JSON.stringify({ electron: electronVersion, betterSqlite3: sqliteVersion, platform: process.platform, arch: process.arch }, null, 2));
  return paths.binding;
}

/** The environment for the Electron child: our binding, and never "run as plain Node". */
export function electronEnv(baseEnv, binding) {
  const env = { ...baseEnv, TUNEBOOK_SQLITE_BINDING: binding };
  delete env.ELECTRON_RUN_AS_NODE;
  return env;
}
