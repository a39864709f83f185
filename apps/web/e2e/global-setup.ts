/** Build the web app once before the browser tests, so they run against what `npm start` serves. */
import { execFileSync } from 'node:child_process';
import path from 'node:path';

export default function setup() {
  if (process.env.E2E_SKIP_BUILD === '1') return;
  execFileSync('npm', ['run', 'build', '--silent'], { cwd: path.resolve(import.meta.dirname, '..'), stdio: 'inherit' });
}
