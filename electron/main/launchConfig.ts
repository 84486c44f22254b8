/**
 * What a launch of the Electron app should open, from its environment and command line (pure).
 *   TUNEBOOK_USER_DATA  the userData folder (settings, recent list, default notebook); the e2e
 *                       tests give each run its own
 *   TUNEBOOK_NOTEBOOK   the notebook file to open at start (created when missing)
 *   TUNEBOOK_DEV=1      development behaviour in a packaged build (devtools); unpackaged runs are
 *                       development anyway
 *   argv                a `*.tunebook` / `*.sqlite` path (double-click, "Open with", second instance)
 */
import path from 'node:path';

export interface LaunchConfig {
  userDataDir: string | null;
  notebookPath: string | null;
  isDev: boolean;
}

const NOTEBOOK_FILE = /\.(tunebook|sqlite|sqlite3|db)$/i;

/** The first argument that names a notebook file (flags and the app path are skipped). */
export function notebookFromArgv(argv: readonly string[], cwd: string): string | null {
  for (const arg of argv.slice(1)) {
    if (arg.startsWith('-')) continue;
    if (NOTEBOOK_FILE.test(arg)) return path.resolve(cwd, arg);
  }
  return null;
}

export function resolveLaunchConfig(input: {
  env: Record<string, string | undefined>;
  argv: readonly string[];
  cwd: string;
  isPackaged: boolean;
}): LaunchConfig {
  const { env, argv, cwd } = input;
  const userData = env.TUNEBOOK_USER_DATA?.trim();
  const notebook = env.TUNEBOOK_NOTEBOOK?.trim();
  return {
    userDataDir: userData ? path.resolve(cwd, userData) : null,
    notebookPath: notebook ? path.resolve(cwd, notebook) : notebookFromArgv(argv, cwd),
    isDev: !input.isPackaged || env.TUNEBOOK_DEV === '1',
  };
}

/** "name.tunebook — Tunebook" */
export function windowTitle(notebookPath: string | null): string {
  return notebookPath ? `${path.basename(notebookPath)} — Tunebook` : 'Tunebook';
}

/**
 * Files that Node must open by path outside Electron's asar shim (worker_threads entries) are
 * unpacked by electron-builder (asarUnpack); this maps a path inside app.asar to its unpacked copy.
 */
export function unpackedPath(file: string, sep: string = path.sep): string {
  return file.replace(`${sep}app.asar${sep}`, `${sep}app.asar.unpacked${sep}`);
}
