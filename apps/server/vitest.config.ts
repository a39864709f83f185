import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['src/**/*.test.ts', 'test/**/*.test.ts'],
    testTimeout: 20_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Files share their worker's modules (no file replaces a module with a mock; each test builds
    // its own app, store and broker), which saves loading Fastify, Kysely and the drivers per file.
    isolate: false,
  },
});
