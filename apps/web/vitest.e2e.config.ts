import { defineConfig } from 'vitest/config';

// Browser tests: the real server (child process) serving the built web app, driven in the
// system Chromium. Two files at a time: each starts its own server (own port, data folder and
// broker port) and browser.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: true,
    maxWorkers: 2,
    pool: 'forks',
  },
});
