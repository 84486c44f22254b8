/**
 * One `page` for every spec, whichever host serves it:
 *  - browser: a fresh notebook file, `node dist/cli.cjs serve --port 0 --notebook FILE --no-open`,
 *    the printed URL opened in the system Chromium;
 *  - electron: the desktop app launched with a fresh notebook (skipped without the Electron binary).
 * Specs import { test, expect } from here and only ever use `page`.
 */
import { spawn } from 'node:child_process';
import type { ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { test as base, expect, chromium, _electron } from '@playwright/test';
import type { Browser, Locator, Page } from '@playwright/test';
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './chromium';
import { ELECTRON_SKIP_REASON, electronBinary } from './electronBinary';

export type Host = 'browser' | 'electron';
const ROOT = process.cwd();

interface Options { host: Host }
interface TestFixtures { notebookPath: string; userDataDir: string }
interface WorkerFixtures { sharedBrowser: { get(): Promise<Browser> } }

/** Starts browser mode on a free port and resolves with the URL it prints. */
export async function startServe(notebook: string, userData: string): Promise<{ url: string; child: ChildProcess }> {
  // the specs that set up a case study through the API store its seed captures by path, as a user who
  // allowed the fixtures folder would; the page itself only uploads
  const allow = ['--allow-dir', path.join(ROOT, 'test', 'fixtures', 'captures')];
  const child = spawn(process.execPath, [path.join(ROOT, 'dist', 'cli.cjs'), 'serve', '--port', '0', '--notebook', notebook, '--no-open', ...allow], {
    cwd: ROOT,
    env: { ...process.env, TUNEBOOK_USER_DATA: userData },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  let err = '';
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`tunebook serve printed no URL within 20 s.\nstdout: ${out}\nstderr: ${err}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /Tunebook is running at (http:\/\/\S+)/.exec(out);
      if (m) { clearTimeout(timer); resolve(m[1]!); }
    });
    child.stderr!.on('data', (d: Buffer) => { err += d.toString(); });
    child.once('exit', (code) => { clearTimeout(timer); reject(new Error(`tunebook serve exited with ${code}.\nstdout: ${out}\nstderr: ${err}`)); });
  });
  return { url, child };
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 5_000);
  await exited;
  clearTimeout(timer);
}

export const test = base.extend<Options & TestFixtures, WorkerFixtures>({
  host: ['browser', { option: true }],

  // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring pattern
  sharedBrowser: [async ({}, use) => {
    const held: { browser?: Promise<Browser> } = {};
    await use({
      get: () => (held.browser ??= chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS, headless: true })),
    });
    if (held.browser) await (await held.browser).close();
  }, { scope: 'worker' }],

  // eslint-disable-next-line no-empty-pattern -- Playwright needs the destructuring pattern
  userDataDir: async ({}, use) => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tunebook-e2e-'));
    await use(dir);
    rmSync(dir, { recursive: true, force: true });
  },

  notebookPath: async ({ userDataDir }, use) => {
    await use(path.join(userDataDir, 'e2e.tunebook'));
  },

  page: async ({ host, sharedBrowser, notebookPath, userDataDir }, use, testInfo) => {
    if (host === 'electron') {
      const electron = electronBinary();
      testInfo.skip(!electron.path, ELECTRON_SKIP_REASON + electron.reason);
      // better-sqlite3 built for Electron's ABI, the way `npm start` does it (scripts/electronNative.mjs).
      const native = (await import(pathToFileURL(path.join(ROOT, 'scripts', 'electronNative.mjs')).href)) as {
        ensureElectronSqlite(root: string): Promise<string>;
        electronEnv(env: NodeJS.ProcessEnv, binding: string): Record<string, string>;
      };
      const binding = await native.ensureElectronSqlite(ROOT);
      const app = await _electron.launch({
        executablePath: electron.path!,
        args: [ROOT, '--no-sandbox'],
        cwd: ROOT,
        env: native.electronEnv({ ...process.env, TUNEBOOK_USER_DATA: userDataDir, TUNEBOOK_NOTEBOOK: notebookPath }, binding),
      });
      const page = await app.firstWindow();
      await page.waitForLoadState('domcontentloaded');
      await use(page);
      await app.close();
      return;
    }
    const { url, child } = await startServe(notebookPath, userDataDir);
    const browser = await sharedBrowser.get();
    const context = await browser.newContext({ viewport: { width: 1440, height: 960 } });
    const page = await context.newPage();
    const problems: string[] = [];
    page.on('pageerror', (e) => problems.push(`pageerror: ${e.message}`));
    page.on('console', (m) => { if (m.type() === 'error') problems.push(`console: ${m.text()}`); });
    await page.goto(url);
    await use(page);
    await context.close();
    await stop(child);
    if (problems.length) await testInfo.attach('browser-console', { body: problems.join('\n'), contentType: 'text/plain' });
  },
});

export { expect };
export type { Locator, Page };
