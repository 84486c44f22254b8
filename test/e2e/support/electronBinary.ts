import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

/** The Electron binary's path, or why there is none (then the electron project is skipped). */
export function electronBinary(): { path: string | null; reason: string } {
  try {
    // Resolved from the repository root, like the app itself (works whether specs load as CJS or ESM).
    const req = createRequire(path.join(process.cwd(), 'package.json'));
    const p = req('electron') as unknown;
    if (typeof p === 'string' && existsSync(p)) return { path: p, reason: '' };
    return { path: null, reason: `require('electron') gave ${String(p)}, which does not exist` };
  } catch (e) {
    return { path: null, reason: e instanceof Error ? e.message : String(e) };
  }
}

export const ELECTRON_SKIP_REASON = 'Electron binary not installed (ELECTRON_SKIP_BINARY_DOWNLOAD): ';
