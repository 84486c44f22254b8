/**
 * The two scripts an HTML report with interactive charts carries inline, and their SHA-256 for its
 * policy: plotly.js (PLOTLY_PACKAGE's PLOTLY_FILE, read here at export time) and the report's
 * bootstrap (shared/report/interactive.ts).
 *
 * Where PLOTLY_FILE is found, first that exists:
 *  1. vendor/PLOTLY_FILE beside the running bundle — scripts/build.mjs copies it to dist/vendor/
 *     for dist/cli.cjs and the store worker (dist/storeWorker.cjs), and electron-builder ships
 *     dist/vendor/ unpacked beside the unpacked workers (the package is a dev dependency: the
 *     packaged app has no node_modules copy of it);
 *  2. the package, resolved from here (a development checkout, tests).
 */
import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { TunebookError } from '../../../shared/api';
import { REPORT_BOOTSTRAP } from '../../../shared/report/interactive';
import type { InteractiveScripts } from '../../../shared/report/interactive';

/**
 * plotly.js's basic bundle (scatter, bar and pie traces with the whole core: axes, legends, hover,
 * annotations, shapes, error bars): every chart Tunebook draws is a scatter or a bar, and it is a
 * quarter of the full bundle's size (1.1 MB against 4.85 MB in 3.7.0). The renderer loads the same
 * package (renderer/src/components/Chart/plotly.ts); scripts/build.mjs copies the file to dist/vendor/.
 */
export const PLOTLY_PACKAGE = 'plotly.js-basic-dist-min';
export const PLOTLY_FILE = 'plotly-basic.min.js';

/** A script's CSP source expression: "sha256-" and the base64 of its UTF-8 bytes' digest. */
export function scriptHash(text: string): string {
  return `sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}`;
}

/** Where plotly's file is, or null. */
export function plotlyPath(): string | null {
  const beside = path.join(__dirname, 'vendor', PLOTLY_FILE);
  if (existsSync(beside)) return beside;
  try {
    return createRequire(path.join(__dirname, 'noop.cjs')).resolve(`${PLOTLY_PACKAGE}/${PLOTLY_FILE}`);
  } catch {
    return null;
  }
}

let cached: InteractiveScripts | null = null;

/** plotly's source and both hashes, read once per process (a 1.1 MB file, hashed in a few ms). */
export function interactiveScripts(): InteractiveScripts {
  if (cached) return cached;
  const file = plotlyPath();
  if (!file) {
    throw new TunebookError('internal', `interactive charts need plotly.js, and this installation of Tunebook has no copy of it (vendor/${PLOTLY_FILE} beside the program, or the ${PLOTLY_PACKAGE} package); export without interactive charts`);
  }
  const plotly = readFileSync(file, 'utf8');
  // The browser hashes the script's text as parsed: the parser would turn CR LF into LF and NUL
  // into U+FFFD, and "</script" or "<!--" would end or bend the element. plotly's file has none;
  // a future one that does is refused rather than written broken.
  if (/<\/?script|<!--|[\r\0]/i.test(plotly)) {
    throw new TunebookError('internal', `${file} cannot be written inline in a report (it holds "</script", "<!--", a CR or a NUL); export without interactive charts`);
  }
  cached = { plotly, plotlyHash: scriptHash(plotly), bootstrapHash: scriptHash(REPORT_BOOTSTRAP) };
  return cached;
}
