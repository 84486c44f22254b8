// Builds everything `npm start`, `npm run serve`, the CLI and the tests need:
//   dist/electron/main.cjs, dist/electron/preload.cjs  (Electron main + sandboxed preload)
//   dist/cli.cjs                                        (tunebook CLI and browser-mode host)
//   dist/renderer/                                      (the React UI, built by Vite)
//   dist/vendor/plotly-basic.min.js                     (inlined in HTML reports with interactive charts:
//                                                        read at export time by the CLI and the store worker)
// Node-side bundles keep better-sqlite3 and electron external, and playwright-core (PDF export from the
// CLI loads it when asked: it cannot be bundled and is large).
import { build as esbuild } from 'esbuild';
import { build as vite } from 'vite';
import { copyFileSync, existsSync, mkdirSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const only = process.argv[2]; // optional: node | renderer
const pkg = JSON.parse(await (await import('node:fs/promises')).readFile(path.join(root, 'package.json'), 'utf8'));

const common = {
  bundle: true,
  platform: 'node',
  target: 'node20',
  format: 'cjs',
  sourcemap: 'linked',
  external: ['electron', 'better-sqlite3', 'playwright-core'],
  define: { __APP_VERSION__: JSON.stringify(pkg.version) },
  logLevel: 'warning',
  absWorkingDir: root,
};

if (only !== 'renderer') {
  const entries = [
    ['electron/cli/main.ts', 'dist/cli.cjs'],
    ['electron/services/parseWorker.ts', 'dist/parseWorker.cjs'],
    ['electron/services/storeWorker.ts', 'dist/storeWorker.cjs'],
    ['electron/services/readWorker.ts', 'dist/readWorker.cjs'],
    ['electron/services/halfWorker.ts', 'dist/halfWorker.cjs'],
    ['electron/main/main.ts', 'dist/electron/main.cjs'],
    ['electron/main/preload.ts', 'dist/electron/preload.cjs'],
  ];
  for (const [entry, outfile] of entries) {
    if (!existsSync(path.join(root, entry))) continue;
    await esbuild({ ...common, entryPoints: [entry], outfile });
  }
  // plotly.js-basic-dist-min is a dev dependency (the renderer bundles it): the report's copy ships
  // in dist/ (PLOTLY_PACKAGE and PLOTLY_FILE in electron/services/report/interactiveScripts.ts)
  rmSync(path.join(root, 'dist/vendor'), { recursive: true, force: true }); // nothing stale gets packaged
  mkdirSync(path.join(root, 'dist/vendor'), { recursive: true });
  copyFileSync(createRequire(import.meta.url).resolve('plotly.js-basic-dist-min/plotly-basic.min.js'), path.join(root, 'dist/vendor/plotly-basic.min.js'));
}
if (only !== 'node' && existsSync(path.join(root, 'renderer/index.html'))) {
  await vite({ configFile: path.join(root, 'renderer/vite.config.ts'), logLevel: 'warn' });
}
