/**
 * What the app is called and where its notebook lives by default: read by the app, the CLI's help
 * and the notebook layer alike, and light to load (the CLI's `parse` and `--help` need nothing else
 * of the notebook layer: backend.ts re-exports these).
 */
import path from 'node:path';

declare const __APP_VERSION__: string | undefined;
export const APP_VERSION: string = typeof __APP_VERSION__ === 'string' ? __APP_VERSION__ : '0.0.0-dev';

export const NOTEBOOK_EXTENSION = '.tunebook';

export function defaultNotebookPath(userDataDir: string): string {
  return path.join(userDataDir, `notebook${NOTEBOOK_EXTENSION}`);
}
