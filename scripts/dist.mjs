// `npm run dist` (after `npm run build`): packages the app with electron-builder.
// electron-builder's npmRebuild (electron-builder.yml) rebuilds better-sqlite3 for Electron *in place*
// in node_modules, which would leave the CLI, browser mode and the tests with a binary Node cannot
// load. This wrapper keeps a copy of the Node build and puts it back afterwards, whatever happens.
// Arguments are passed on: `npm run dist -- --linux deb`.
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const nodeBuild = path.join(root, 'node_modules', 'better-sqlite3', 'build', 'Release', 'better_sqlite3.node');
const saved = path.join(root, '.cache', 'node-native', 'better_sqlite3.node');

if (existsSync(nodeBuild)) {
  mkdirSync(path.dirname(saved), { recursive: true });
  copyFileSync(nodeBuild, saved);
}
const bin = path.join(root, 'node_modules', '.bin', process.platform === 'win32' ? 'electron-builder.cmd' : 'electron-builder');
const res = spawnSync(bin, process.argv.slice(2), { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
if (existsSync(saved)) {
  copyFileSync(saved, nodeBuild);
  console.error('tunebook: restored the Node build of better-sqlite3 in node_modules');
}
process.exit(res.status ?? 1);
