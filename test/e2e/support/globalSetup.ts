import { existsSync } from 'node:fs';
import path from 'node:path';
import type { FullConfig } from '@playwright/test';
import { CHROMIUM_PATH } from './chromium';
import { ELECTRON_SKIP_REASON, electronBinary } from './electronBinary';

/** Checks what the projects need and says once, up front, why a project will be skipped. */
export default function globalSetup(config: FullConfig): void {
  const root = config.configFile ? path.dirname(config.configFile) : process.cwd();
  const projects = new Set(config.projects.map((p) => p.name));
  if (!existsSync(path.join(root, 'dist', 'cli.cjs')) || !existsSync(path.join(root, 'dist', 'renderer', 'index.html'))) {
    throw new Error('dist/ is not built: run `npm run build` before `npx playwright test`.');
  }
  if (projects.has('browser') && !existsSync(CHROMIUM_PATH)) {
    console.warn(`[e2e] ${CHROMIUM_PATH} not found: the browser project will fail (set TUNEBOOK_CHROMIUM).`);
  }
  if (projects.has('electron')) {
    const electron = electronBinary();
    if (!electron.path) console.log(`[e2e] electron project skipped — ${ELECTRON_SKIP_REASON}${electron.reason}`);
    else if (!existsSync(path.join(root, 'dist', 'electron', 'main.cjs'))) console.log('[e2e] dist/electron/main.cjs is missing: the electron project will fail.');
  }
}
