import fs from 'node:fs';
import path from 'node:path';
import { defineConfig } from 'vitest/config';

const include = ['src/**/*.test.{ts,tsx}', 'build/**/*.test.ts'];

/**
 * Test files that replace a module with `vi.mock`. A mock only takes effect where the module is
 * imported afresh, so these run isolated (a fresh module graph per file); every other file shares
 * its worker's modules and jsdom with the files before it (the set-up file resets the DOM, storage,
 * mocks and display settings between tests), which saves loading React, Ant Design and jsdom
 * again for each file.
 */
function filesThatMock(dir: string): string[] {
  const found: string[] = [];
  const walk = (d: string) => {
    for (const entry of fs.readdirSync(d, { withFileTypes: true })) {
      const full = path.join(d, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (/\.test\.tsx?$/.test(entry.name) && fs.readFileSync(full, 'utf8').includes('vi.mock(')) {
        found.push(path.relative(import.meta.dirname, full));
      }
    }
  };
  walk(path.join(import.meta.dirname, dir));
  return found;
}
const mocking = [...filesThatMock('src'), ...filesThatMock('build')];

const shared = {
  environment: 'jsdom',
  // Room for the set-up file's 5 s `findBy…` waits on a machine running the other suites too.
  testTimeout: 20_000,
  exclude: ['e2e/**', 'node_modules/**', 'dist/**'],
  setupFiles: ['src/test/setup.ts'],
};

export default defineConfig({
  oxc: { jsx: { runtime: 'automatic' } },
  test: {
    projects: [
      {
        extends: true,
        test: { ...shared, name: 'web', include, exclude: [...shared.exclude, ...mocking], isolate: false },
      },
      { extends: true, test: { ...shared, name: 'web (module mocks)', include: mocking, isolate: true } },
    ],
  },
});
