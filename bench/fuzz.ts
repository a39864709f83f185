/**
 * The API fuzz run of apps/server/test/fuzz at length: every operation as the system
 * administrator, the installer, the owner and no one, BENCH_FUZZ_RUNS requests each (20: over
 * 30,000 in all), derived from the contracts' schemas, valid and malformed, 8 at a time, in
 * this process against a server on a SQLite store in a temp data folder (PostgreSQL with
 * BENCH_DATABASE_URL). Prints and writes the counts: by status, by operation, by kind of
 * request, 5xx, answers that are not the envelope, statuses the operation does not document,
 * with examples; then whether the server still answers and a server started anew on the
 * fuzzed store and folder starts.
 *
 *   npm run bench -- fuzz            (node --import tsx bench/fuzz.ts)
 *
 * Env: BENCH_FUZZ_RUNS (20), BENCH_FUZZ_SEED (20261207). Results: bench/results/fuzz.json and .md.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { findingLines, fuzz, markRoutes, operations } from '../apps/server/test/fuzz/run.ts';
import { buildWorld } from '../apps/server/test/fuzz/world.ts';
import { startServer } from '../apps/server/test/harness.ts';

const RUNS = Number(process.env.BENCH_FUZZ_RUNS ?? 20);
const SEED = Number(process.env.BENCH_FUZZ_SEED ?? 20261207);
if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const store = process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-fuzz-bench-'));
const s = await startServer({ dataDir }, markRoutes, {}, { databaseUrl: null, sqliteFile: path.join(dataDir, 'sunfleet.db') });
const world = await buildWorld(s);
const ops = await operations(s.app);
console.log(`${ops.length} operations × 4 callers × ${RUNS} = ${ops.length * 4 * RUNS} requests, seed ${SEED}, ${store}`);
let lastPrint = 0;
const stats = await fuzz(s, world, ops, {
  seed: SEED,
  perCaller: RUNS,
  concurrency: 8,
  examples: 3,
  onProgress: (done, total) => {
    if (done - lastPrint >= 2000) {
      lastPrint = done;
      console.log(`  ${done} / ${total}`);
    }
  },
});
const healthz = (await s.app.inject({ method: 'GET', url: '/healthz' })).statusCode;
const again = await startServer({ dataDir }, undefined, {}, { databaseUrl: null, sameStoreAs: s });
const restartHealthz = (await again.app.inject({ method: 'GET', url: '/healthz' })).statusCode;
await again.close();
await s.close();
fs.rmSync(dataDir, { recursive: true, force: true });

const results = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  store,
  seed: SEED,
  operations: ops.length,
  requests: stats.requests,
  seconds: Math.round(stats.ms / 100) / 10,
  perSecond: Math.round(stats.requests / (stats.ms / 1000)),
  counts: stats.counts,
  healthzAfter: healthz,
  restartHealthz,
  byStatus: stats.byStatus,
  byVariant: stats.byVariant,
  findings: stats.findings,
  byOperation: Object.fromEntries(
    Object.entries(stats.byOperation).map(([k, v]) => [k, { requests: v.requests, statuses: v.statuses }]),
  ),
};
fs.mkdirSync(path.join(import.meta.dirname, 'results'), { recursive: true });
fs.writeFileSync(path.join(import.meta.dirname, 'results/fuzz.json'), `${JSON.stringify(results, null, 2)}\n`);

const row = (cells: unknown[]) => `| ${cells.join(' | ')} |`;
const statuses = Object.keys(stats.byStatus).sort();
const flagged = new Set(stats.findings.map((f) => f.op));
const md = [
  `# API fuzz ${results.date}`,
  '',
  `${results.machine}, Node ${results.node}, ${store}, seed ${SEED}: ${stats.requests} requests to ${ops.length} operations (${RUNS} per operation and caller) in ${results.seconds} s (${results.perSecond}/s, 8 at a time, in process).`,
  '',
  row(['5xx', 'not the envelope', 'undocumented status', '/healthz after', 'restart on the fuzzed data']),
  row(['---', '---', '---', '---', '---']),
  row([stats.counts['server-error'], stats.counts['not-envelope'], stats.counts.undocumented, healthz, restartHealthz]),
  '',
  '## By status',
  '',
  row(statuses),
  row(statuses.map(() => '---')),
  row(statuses.map((k) => stats.byStatus[k])),
  '',
  '## By kind of request',
  '',
  row(['kind', 'requests']),
  row(['---', '---']),
  ...Object.entries(stats.byVariant)
    .sort()
    .map(([k, v]) => row([k, v])),
  '',
  '## Findings (up to 3 examples per kind, operation and status)',
  '',
  ...(stats.findings.length ? findingLines(stats).map((l) => `- ${l.replace(/\n\s*/g, ' ').replace(/\|/g, '\\|')}`) : ['None.']),
  '',
  '## By operation (statuses; operations with a finding marked ⚠)',
  '',
  row(['operation', 'requests', 'statuses']),
  row(['---', '---', '---']),
  ...Object.entries(stats.byOperation)
    .sort()
    .map(([k, v]) =>
      row([
        `${flagged.has(k) ? '⚠ ' : ''}\`${k}\``,
        v.requests,
        Object.entries(v.statuses)
          .map(([st, n]) => `${st}×${n}`)
          .join(' '),
      ]),
    ),
];
fs.writeFileSync(path.join(import.meta.dirname, 'results/fuzz.md'), `${md.join('\n')}\n`);
console.log(
  JSON.stringify({ requests: stats.requests, seconds: results.seconds, counts: stats.counts, byStatus: stats.byStatus }),
);
console.log(findingLines(stats).join('\n'));
console.log('bench/results/fuzz.json, bench/results/fuzz.md');
process.exit(0);
