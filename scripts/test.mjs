#!/usr/bin/env node
// Runs every suite and ends with one line "N passed, N failed".
//   node scripts/test.mjs          type check + lint, contracts, protocols, server, web, simulator,
//                                  and alongside them the browser tests (e2e)
//   node scripts/test.mjs server   the server suite only
//
// TEST_POSTGRES_URL (CI sets it): the server suite runs a second time, on that PostgreSQL
// database, right after its run on the embedded SQLite store.
//
// Most suites spend much of their time waiting (on timers, pages, child processes): alone, the
// server suite keeps 0.6 of a core busy, the browser tests 0.9. So two lanes run side by side:
// the main lane (check, then the suites in order) and the browser lane, which runs the browser
// test files one at a time from a queue, the longest first. When the main lane is done it takes
// files from the same queue, so two browser files run at once with nothing else beside them
// (beside the other suites, two at once made pages miss their time limits on 2 cores). Output is
// printed as a whole per suite or file, so the lanes do not interleave.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '..');
const only = process.argv[2];
const postgres = process.env.TEST_POSTGRES_URL;
const all = [
  { name: 'contracts', dir: 'packages/contracts' },
  { name: 'protocols', dir: 'packages/protocols' },
  { name: 'server', dir: 'apps/server' },
  ...(postgres ? [{ name: 'server on PostgreSQL', dir: 'apps/server', env: { TEST_DATABASE_URL: postgres } }] : []),
  { name: 'web', dir: 'apps/web' },
  { name: 'simulator', dir: 'apps/simulator' },
  { name: 'e2e', dir: 'apps/web', config: 'vitest.e2e.config.ts', lane: 'browser' },
];
const suites = all.filter((s) => !only || s.name === only || s.name.startsWith(`${only} `));
if (suites.length === 0) {
  console.error(`unknown suite "${only}"`);
  process.exit(2);
}

let passed = 0;
let failed = 0;
let skipped = 0;
const failures = [];
/** The errors of every test that failed, or passed only on its retry, briefly: the end of a long log shows them all. */
const attempts = [];

/** An error's message and the first place in the project's own code, from a stack. */
function briefly(stack) {
  const lines = stack.split('\n');
  const message = lines.filter((l) => !/^\s+at /.test(l)).slice(0, 3);
  const place = lines.find((l) => /^\s+at /.test(l) && !l.includes('node_modules') && !l.includes('node:'));
  return [...message, ...(place ? [place] : [])].map((l) => `    ${l.trim().slice(0, 240)}`).join('\n');
}

function noteAttempts(suite, report) {
  for (const file of report.testResults ?? [])
    for (const test of file.assertionResults ?? []) {
      const messages = test.failureMessages ?? [];
      if (messages.length === 0) continue;
      const outcome = test.status === 'passed' ? 'passed on retry' : test.status;
      attempts.push(`  ${suite.name} · ${path.relative(root, file.name)} · ${test.fullName} (${outcome})`);
      attempts.push(...messages.map((m, i) => `   error ${i + 1}:\n${briefly(m)}`));
    }
}

/** Run a command; its output goes to ours, or is collected and returned when `buffered`. */
function run(cmd, args, cwd, buffered, env = {}) {
  return new Promise((resolve) => {
    const child = spawn(cmd, args, {
      cwd,
      env: { ...process.env, ...env },
      stdio: buffered ? ['ignore', 'pipe', 'pipe'] : 'inherit',
    });
    let output = '';
    child.stdout?.on('data', (d) => {
      output += d;
    });
    child.stderr?.on('data', (d) => {
      output += d;
    });
    child.on('error', (err) => resolve({ status: -1, output: `${output}\n${err.message}` }));
    child.on('close', (status) => resolve({ status, output }));
  });
}

const vitest = path.join(root, 'node_modules/.bin/vitest');
async function runSuite(suite, buffered) {
  const cwd = path.join(root, suite.dir);
  if (suite.config && !fs.existsSync(path.join(cwd, suite.config))) return;
  const header = `\n== ${suite.name}`;
  if (!buffered) console.log(header);
  const out = path.join(os.tmpdir(), `sunfleet-${suite.name.replace(/\W+/g, '-')}-${process.pid}.json`);
  const args = ['run', '--passWithNoTests', '--reporter=default', '--reporter=json', `--outputFile.json=${out}`];
  if (suite.config) args.push('--config', suite.config);
  if (suite.files) args.push(...suite.files);
  const result = await run(vitest, args, cwd, buffered, suite.env);
  if (buffered) console.log(`${header}\n${result.output}`);
  let report = null;
  try {
    report = JSON.parse(fs.readFileSync(out, 'utf8'));
    fs.rmSync(out);
  } catch {}
  if (report) {
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    skipped += report.numPendingTests + report.numTodoTests;
    noteAttempts(suite, report);
    // A suite that could not even load its files fails without failed tests.
    if (result.status !== 0 && report.numFailedTests === 0) {
      failed++;
      failures.push(`${suite.name} (exit ${result.status})`);
    } else if (report.numFailedTests > 0) failures.push(suite.name);
  } else if (result.status !== 0) {
    failed++;
    failures.push(`${suite.name} (no report, exit ${result.status})`);
  }
}

async function mainLane() {
  if (!only) {
    console.log('\n== check (types + lint)');
    const check = await run('npm', ['run', '--silent', 'check'], root, false);
    if (check.status === 0) passed++;
    else {
      failed++;
      failures.push('check');
    }
  }
  for (const suite of suites.filter((s) => !s.lane)) await runSuite(suite, lanes > 1);
}

/** The browser test files, the longest first (by size, which follows their running time). */
function browserQueue(suite) {
  const dir = path.join(root, suite.dir, 'e2e');
  return fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.e2e.ts'))
    .map((f) => ({ f, size: fs.statSync(path.join(dir, f)).size }))
    .sort((a, b) => b.size - a.size)
    .map(({ f }) => ({ ...suite, name: `${suite.name} ${f}`, files: [`e2e/${f}`], env: { E2E_SKIP_BUILD: '1' } }));
}

const browser = suites.find((s) => s.lane === 'browser');
/** Lanes that run side by side: main (check and the suites), browser. */
const lanes = [suites.some((s) => !s.lane) || !only, !!browser].filter(Boolean).length;
/** Beside other lanes, the browser files are built for once, then taken from a queue. */
const queued = browser && lanes > 1;
const queue = queued ? browserQueue(browser) : [];
let built = null;

/**
 * Build the app and the server bundle once, the two steps of apps/web/e2e/global-setup.ts (which
 * each file then skips through E2E_SKIP_BUILD).
 */
function buildForBrowser() {
  built ??= (async () => {
    const web = await run('npm', ['run', 'build', '--silent'], path.join(root, 'apps/web'), true);
    const server = web.status === 0 ? await run(process.execPath, ['build.mjs'], path.join(root, 'apps/server'), true) : web;
    if (server.status !== 0) {
      // The output of the step that failed (the web build's, when it was that one).
      console.log(`\n== e2e build\n${server.output}`);
      failed++;
      failures.push('e2e build');
      queue.length = 0;
    }
  })();
  return built;
}

/** Take browser files from the queue until it is empty. */
async function browserWorker() {
  if (!queued) return;
  await buildForBrowser();
  for (let file = queue.shift(); file; file = queue.shift()) await runSuite(file, true);
}

async function browserLane() {
  if (!browser) return;
  if (queued) return browserWorker();
  // Alone (`test.mjs e2e`), one run whose output streams as usual.
  await runSuite(browser, false);
}

await Promise.all([mainLane().then(browserWorker), browserLane()]);

if (attempts.length) console.log(`\n== failed attempts\n${attempts.join('\n')}`);
if (failures.length) console.log(`\nfailed: ${failures.join(', ')}`);
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(failed > 0 ? 1 : 0);
