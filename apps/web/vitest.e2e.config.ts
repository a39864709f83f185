import { defineConfig } from 'vitest/config';

// Browser tests: the real server (child process) serving the built web app, driven in the
// system Chromium. Each file starts its own server and browser; two files run at a time (a file
// spends most of its time waiting on its pages).
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    maxWorkers: 2,
    // A failed browser test runs once more before it counts as failed; its page trail is printed
    // either way, and the log says "retry x1" for a test that passed only the second time.
    retry: 1,
    pool: 'forks',
  },
});
