import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** A fresh temp folder for each test (call the returned function inside a test), removed afterwards. */
export function useTempDir(): () => string {
  let dir = '';
  beforeEach(() => { dir = mkdtempSync(path.join(tmpdir(), 'tunebook-test-')); });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));
  return () => dir;
}

export { SEED_CAPTURES, seedPath } from './fixtures/seeds';

const ROOT = path.join(__dirname, '..');

/**
 * The CLI and the worker bundles built from the sources into a folder inside the checkout (so they
 * find better-sqlite3 in node_modules), once per test file. Tests never depend on a stale dist/.
 */
let built: Promise<{ dir: string; cli: string; parseWorkerFile: string; storeWorkerFile: string }> | null = null;
export function buildBundles(): Promise<{ dir: string; cli: string; parseWorkerFile: string; storeWorkerFile: string }> {
  built ??= (async () => {
    const { build } = await import('esbuild');
    const cache = path.join(ROOT, '.cache');
    // folders of test processes that are gone (a killed run leaves its folder behind)
    for (const name of (() => { try { return readdirSync(cache); } catch { return []; } })()) {
      const pid = /^test-build-(\d+)$/.exec(name)?.[1];
      if (pid && !alive(Number(pid))) rmSync(path.join(cache, name), { recursive: true, force: true });
    }
    const dir = path.join(cache, `test-build-${process.pid}`);
    const entries = { cli: 'electron/cli/main.ts', parseWorker: 'electron/services/parseWorker.ts', storeWorker: 'electron/services/storeWorker.ts', readWorker: 'electron/services/readWorker.ts', halfWorker: 'electron/services/halfWorker.ts' };
    await Promise.all(Object.entries(entries).map(([name, entry]) => build({
      entryPoints: [path.join(ROOT, entry)], bundle: true, platform: 'node', format: 'cjs', target: 'node20',
      outfile: path.join(dir, `${name}.cjs`), external: ['better-sqlite3', 'electron', 'playwright-core'], logLevel: 'silent',
    })));
    process.once('exit', () => rmSync(dir, { recursive: true, force: true }));
    return { dir, cli: path.join(dir, 'cli.cjs'), parseWorkerFile: path.join(dir, 'parseWorker.cjs'), storeWorkerFile: path.join(dir, 'storeWorker.cjs') };
  })();
  return built;
}

/** The read worker built beside the others (not in buildBundles' result: spread into a Backend's options, it would move its reads there). */
export async function readWorkerFile(): Promise<string> {
  return path.join((await buildBundles()).dir, 'readWorker.cjs');
}

function alive(pid: number): boolean {
  try { process.kill(pid, 0); return true; } catch { return false; }
}
