// `npm start` (after `npm run build`): launches the Electron app from this checkout.
//   1. stops with one line when the Electron binary was never downloaded
//      (npm install with ELECTRON_SKIP_BINARY_DOWNLOAD=1);
//   2. makes sure better-sqlite3 is built for Electron's ABI under .cache/electron-native/
//      (node_modules keeps the Node build the CLI and tests use);
//   3. runs `electron <project root>` with TUNEBOOK_SQLITE_BINDING pointing at that build.
// Extra arguments are passed on: `npm start -- path/to/notebook.tunebook`.
import { spawn } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  MISSING_BINARY_MESSAGE, electronBinaryStatus, electronEnv, ensureElectronSqlite, requireElectronFrom,
} from './electronNative.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

const status = electronBinaryStatus(requireElectronFrom(root));
if (!status.ok) {
  console.error(MISSING_BINARY_MESSAGE);
  process.exit(1);
}

let binding;
try {
  binding = await ensureElectronSqlite(root);
} catch (err) {
  console.error(`tunebook: could not build better-sqlite3 for Electron: ${err instanceof Error ? err.message : String(err)}`);
  console.error('tunebook: this needs the network once (Electron headers or a prebuilt binary) and a C++ toolchain; `npm run serve` works without it.');
  process.exit(1);
}

const child = spawn(status.path, [root, ...process.argv.slice(2)], { stdio: 'inherit', env: electronEnv(process.env, binding) });
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.on(signal, () => { if (!child.killed) child.kill(signal); });
}
child.on('error', (err) => {
  console.error(`tunebook: could not start Electron: ${err.message}`);
  process.exit(1);
});
child.on('exit', (code, signal) => {
  process.exit(code ?? (signal ? 1 : 0));
});
