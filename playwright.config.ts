/**
 * End-to-end tests of the renderer through the real hosts. Every spec runs in two projects:
 *  - browser: `node dist/cli.cjs serve` (browser mode) driven in the system Chromium;
 *  - electron: the desktop app through Playwright's _electron, skipped when the Electron binary is
 *    not installed (ELECTRON_SKIP_BINARY_DOWNLOAD).
 * Each test gets its own fresh notebook file. Run `npm run build` first.
 */
import { defineConfig } from '@playwright/test';

export default defineConfig<{ host: 'browser' | 'electron' }>({
  testDir: 'test/e2e',
  testMatch: '**/*.spec.ts',
  globalSetup: './test/e2e/support/globalSetup.ts',
  timeout: 60_000,
  expect: { timeout: 10_000 },
  fullyParallel: false,
  workers: 2,
  // one retry on CI, reported as "flaky" by Playwright rather than hidden; none locally
  retries: process.env.CI ? 1 : 0,
  reporter: [['list']],
  outputDir: 'test-results',
  use: {
    actionTimeout: 10_000,
    screenshot: 'only-on-failure',
    trace: 'retain-on-failure',
  },
  projects: [
    { name: 'browser', use: { host: 'browser' } },
    { name: 'electron', use: { host: 'electron' } },
  ],
});
