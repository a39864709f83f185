#!/usr/bin/env node
// Runs every suite in order and ends with one line "N passed, N failed".
//   node scripts/test.mjs          type check + lint, contracts, server, web, browser (e2e)
//   node scripts/test.mjs server   the server suite only (CI runs it again on PostgreSQL)
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv[2];
const suites = [
  { name: 'contracts', dir: 'packages/contracts' },
  { name: 'protocols', dir: 'packages/protocols' },
  { name: 'server', dir: 'apps/server' },
  { name: 'web', dir: 'apps/web' },
  { name: 'simulator', dir: 'apps/simulator' },
  { name: 'e2e', dir: 'apps/web', config: 'vitest.e2e.config.ts' },
].filter((s) => !only || s.name === only);
if (suites.length === 0) {
  console.error(`unknown suite "${only}"`);
  process.exit(2);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];

if (!only) {
  console.log('\n== check (types + lint)');
  const check = spawnSync('npm', ['run', '--silent', 'check'], { cwd: root, stdio: 'inherit' });
  if (check.status === 0) passed++;
  else {
    failed++;
    failures.push('check');
  }
}

const vitest = path.join(root, 'node_modules/.bin/vitest');
for (const suite of suites) {
  const cwd = path.join(root, suite.dir);
  if (suite.config && !fs.existsSync(path.join(cwd, suite.config))) continue;
  console.log(`\n== ${suite.name}`);
  const out = path.join(os.tmpdir(), `sunfleet-${suite.name}-${process.pid}.json`);
  const args = ['run', '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  if (suite.config) args.push('--config', suite.config);
  const run = spawnSync(vitest, args, { cwd, stdio: 'inherit', env: process.env });
  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(out, 'utf8'));
    fs.rmSync(out);
  } catch {}
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    // A suite that could not even load its files fails without failed tests.
    if (run.status !== 0 && report.numFailedTests === 0) {
      failed++;
      failures.push(`${suite.name} (exit ${run.status})`);
    } else if (report.numFailedTests > 0) failures.push(suite.name);
  } else if (run.status !== 0) {
    failed++;
    failures.push(`${suite.name} (no report, exit ${run.status})`);
  }
}

if (failures.length) console.log(`\nfailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
