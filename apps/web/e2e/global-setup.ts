/**
 * Build the web app and the server bundle once before the browser tests, so they run against
 * what `npm start` serves and runs.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup() {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'inherit' });
  execFileSync(process.execPath, ['build.mjs'], { cwd: path.resolve(import.meta.dirname, '../../server'), stdio: 'inherit' });
}
