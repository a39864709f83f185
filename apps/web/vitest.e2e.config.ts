import { defineConfig } from 'vitest/config';

// Browser tests: the real server (child process) serving the built web app, driven in the
// system Chromium. One file at a time here: each starts its own server and browser. The full run
// (scripts/test.mjs) runs the files as a queue, at most two at once beside the other suites.
export default defineConfig({
  test: {
    include: ['e2e/**/*.e2e.ts'],
    globalSetup: ['e2e/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 120_000,
    fileParallelism: false,
    // A failed browser test runs once more before it counts as failed; its page trail is printed
    // either way, and the log says "retry x1" for a test that passed only the second time.
    retry: 1,
    pool: 'forks',
  },
});
