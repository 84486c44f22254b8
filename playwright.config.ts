/**
 * End-to-end tests of the renderer through the real hosts. Every spec runs in two projects:
 *  - browser: `node dist/cli.cjs serve` (browser mode) driven in the system Chromium;
 *  - electron: the desktop app through Playwright's _electron, skipped when the Electron binary is
 *    not installed (ELECTRON_SKIP_BINARY_DOWNLOAD).
 * Each test gets its own fresh notebook file. Run `npm run build` first.
 */
import { defineConfig } from '@playwright/test';

/**
 * How long an expect or an action waits. On CI twice as long: a clean-clone run on a 2-vCPU machine
 * in a slow hour (Chromium, the server and two workers on both cores, fresh memory at 13 µs a page)
 * had fills and expects of otherwise passing specs wait past 10 s, 3–5 specs a run, each passing on
 * its retry. A spec that fails still fails, only later.
 */
const WAIT = process.env.CI ? 20_000 : 10_000;

export default defineConfig<{ host: 'browser' | 'electron' }>({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/support/globalSetup.ts',
  timeout: process.env.CI ? 90_000 : 60_000,
  expect: { timeout: WAIT },
  fullyParallel: false,
  workers: 2,
  // one retry on CI, reported as "flaky" by Playwright rather than hidden; none locally
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    actionTimeout: WAIT,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'browser', use: { host: 'browser' } },
    { name: 'electron', use: { host: 'electron' } },
  ],
});
