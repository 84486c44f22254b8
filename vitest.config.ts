import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['test/e2e/**', 'node_modules/**'],
    testTimeout: 30_000,
    pool: 'forks',
    // Vitest runs files on one fewer than the CPUs (one, on a 2-CPU CI machine); most of a file's
    // time here is waiting on processes it starts (the CLI, workers, sh), so two at once nearly
    // halve the run
    maxWorkers: 2,
  },
});
