#!/usr/bin/env node
// npm run bench: API latency under concurrent load against the real server process (as
// `npm start` runs it) and the web bundle sizes. Writes bench/results/latest.json and .md.
// npm run bench -- commands: the command channel only, bench/commands.ts.
// npm run bench -- upgrades: a staged firmware rollout, bench/upgrades.ts.
// npm run bench -- ingest-scale: ingest over 1, 2 and 4 processes behind Mosquitto, bench/ingest-scale.ts.
// npm run bench -- api: the API at saturation, 1 and 2 processes, bench/api-scale.ts.
// npm run bench -- fuzz: the API fuzzed from its contracts, over 30,000 requests, bench/fuzz.ts.
// npm run bench -- web: web delivery only (bytes per route, page timings, Lighthouse, the
// budgets), bench/web.ts.
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { load } from '../bench/load.mjs';

const root = path.resolve(import.meta.dirname, '..');
// npm run bench -- commands: the command channel under a burst of 1,000 write jobs during a data
// load (bench/commands.ts).
if (process.argv[2] === 'commands') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/commands.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
// npm run bench -- gateway-import: a 10,000-row gateway stock import, checked and written
// (bench/gateway-import.ts; PostgreSQL too with BENCH_DATABASE_URL).
if (process.argv[2] === 'gateway-import') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/gateway-import.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

// npm run bench -- ingest-scale: 1, 2 and 4 ingest processes behind Mosquitto over PostgreSQL
// (BENCH_DATABASE_URL), a kill -9 of one of 2, bytes per stored row (bench/ingest-scale.ts).
if (process.argv[2] === 'ingest-scale') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/ingest-scale.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

// npm run bench -- upgrades: a staged firmware rollout to 1,000 simulated inverters (bench/upgrades.ts).
if (process.argv[2] === 'upgrades') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/upgrades.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}

// npm run bench -- demand-response: an event dispatched to 1,000 enrolled simulated batteries
// (bench/demand-response.ts).
if (process.argv[2] === 'demand-response') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/demand-response.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
// npm run bench -- api: the plant list and a plant overview at 200 and 400 connections without
// think time, one API process over SQLite and one and two over PostgreSQL (BENCH_DATABASE_URL),
// with each server's event-loop delay and GC (bench/api-scale.ts).
if (process.argv[2] === 'api') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/api-scale.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
// npm run bench -- fuzz: the API fuzzed from its contracts at length, over 30,000 requests
// (bench/fuzz.ts; PostgreSQL with BENCH_DATABASE_URL).
if (process.argv[2] === 'fuzz') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/fuzz.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
if (process.argv[2] === 'web') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/web.ts'], { cwd: root, stdio: 'inherit' });
  process.exit(r.status ?? 1);
}
const seconds = Number(process.env.BENCH_SECONDS ?? 8);

const port = await new Promise((resolve) => {
  const s = net.createServer().listen(0, '127.0.0.1', () => {
    const p = s.address().port;
    s.close(() => resolve(p));
  });
});
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-bench-'));
if (spawnSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const server = spawn(process.execPath, ['apps/server/dist/main.js'], {
  cwd: root,
  env: {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: dataDir,
    DEMO: 'on',
    SIMULATOR: 'off',
    MQTT_PORT: '0',
    RATE_LIMITS: 'off',
    LOG_LEVEL: 'warn',
    WEB_DIST: '',
  },
  stdio: ['ignore', 'ignore', 'inherit'],
});
const base = `http://127.0.0.1:${port}`;
for (let i = 0; ; i++) {
  if (
    await fetch(`${base}/healthz`).then(
      (r) => r.ok,
      () => false,
    )
  )
    break;
  if (i > 240) throw new Error('server did not start');
  await new Promise((r) => setTimeout(r, 250));
}

const login = async () => {
  const res = await fetch(`${base}/oauth/token`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ grant_type: 'password', username: 'owner@demo.sunfleet.local', password: 'Demo2026!' }),
  }).then((r) => r.json());
  return res.data.access_token;
};
const token = await login();
const auth = { authorization: `Bearer ${token}` };
const okEnvelope = (status) => status === 200;

const results = {
  date: new Date().toISOString(),
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB`,
  node: process.version,
  api: {},
  web: {},
};
const scenarios = [
  ['GET /healthz', { url: `${base}/healthz`, concurrency: 32 }],
  ['GET /api/v1/user', { url: `${base}/api/v1/user`, headers: auth, concurrency: 32 }],
  ['GET /api/v1/permission', { url: `${base}/api/v1/permission?lan=en`, headers: auth, concurrency: 32 }],
  [
    'POST /oauth/token (argon2id)',
    {
      url: `${base}/oauth/token`,
      method: 'POST',
      body: { grant_type: 'password', username: 'owner@demo.sunfleet.local', password: 'Demo2026!' },
      concurrency: 4,
    },
  ],
];
for (const [name, opts] of scenarios) {
  results.api[name] = await load({ seconds, check: okEnvelope, ...opts });
  console.log(name.padEnd(32), JSON.stringify(results.api[name]));
}
server.kill('SIGTERM');

const dist = path.join(root, 'apps/web/dist/assets');
if (fs.existsSync(dist)) {
  for (const f of fs.readdirSync(dist).filter((n) => /\.(js|css)$/.test(n))) {
    const buf = fs.readFileSync(path.join(dist, f));
    results.web[f] = { bytes: buf.length, gzip: zlib.gzipSync(buf).length };
  }
  const entry = fs.readFileSync(path.join(root, 'apps/web/dist/index.html'), 'utf8').match(/assets\/([^"]+\.js)/)?.[1];
  results.webEntry = entry ?? null;
  const total = Object.values(results.web).reduce((a, b) => a + b.gzip, 0);
  console.log(
    `web: ${Object.keys(results.web).length} files, ${(total / 1024).toFixed(1)} KiB gzip in all; entry ${entry} ${((results.web[entry]?.gzip ?? 0) / 1024).toFixed(1)} KiB gzip`,
  );
} else console.log('web: not built (npm run build -w @sunfleet/web)');

fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(path.join(root, 'bench/results/latest.json'), `${JSON.stringify(results, null, 2)}\n`);
const md = [
  `# Benchmark ${results.date}`,
  `${results.machine}, Node ${results.node}, ${seconds} s per scenario, server and load generator on the same machine.`,
  '',
  '| scenario | concurrency | req/s | p50 ms | p95 ms | p99 ms | errors |',
  '|---|---|---|---|---|---|---|',
  ...scenarios.map(([n, o]) => {
    const r = results.api[n];
    return `| ${n} | ${o.concurrency} | ${r.rps} | ${r.p50} | ${r.p95} | ${r.p99} | ${r.errors} |`;
  }),
  '',
  results.webEntry
    ? `Web entry chunk ${results.webEntry}: ${(results.web[results.webEntry].gzip / 1024).toFixed(1)} KiB gzip.`
    : 'Web not built.',
];
fs.writeFileSync(path.join(root, 'bench/results/latest.md'), `${md.join('\n')}\n`);
fs.rmSync(dataDir, { recursive: true, force: true });

// Module benchmarks (each a script printing its own table): their output goes to
// bench/results/<name>.md and is appended to latest.md. BENCH_MODULES=off skips them;
// BENCH_MODULES=decoder,plant-list runs only those.
const modules = [
  ['decoder', 'packages/protocols/src/bench.ts', ['1000000']],
  ['plant-list', 'apps/server/bench/plant-list.bench.ts', []],
  ['overview', 'apps/server/bench/overview.bench.ts', []],
  ['devices', 'apps/server/bench/devices.bench.ts', []],
  ['workdata', 'apps/server/bench/workdata.bench.ts', []],
  ['energy-report', 'apps/server/bench/energy-report.bench.ts', []],
].filter(([, file]) => fs.existsSync(path.join(root, file)));
const wanted = process.env.BENCH_MODULES;
if (wanted !== 'off') {
  for (const [name, file, args] of modules) {
    if (wanted && !wanted.split(',').includes(name)) continue;
    console.log(`\n== ${name} (${file})`);
    const r = spawnSync(process.execPath, ['--import', 'tsx', file, ...args], {
      cwd: root,
      encoding: 'utf8',
      maxBuffer: 64 << 20,
    });
    process.stdout.write(r.stdout ?? '');
    if (r.status !== 0) {
      process.stderr.write(r.stderr ?? '');
      process.exitCode = r.status ?? 1;
    }
    const text = `## ${name} (\`${file}\`, ${new Date().toISOString()})\n\n${(r.stdout ?? '').trim()}\n`;
    fs.writeFileSync(path.join(root, `bench/results/${name}.md`), text);
    fs.appendFileSync(path.join(root, 'bench/results/latest.md'), `\n${text}`);
  }
}

// End-to-end ingest (simulator load → server → store) and the bare broker relay: bench/ingest.ts
// writes bench/results/ingest-sqlite.json (and ingest-postgres.json with BENCH_DATABASE_URL) and
// appends to latest.md. BENCH_INGEST=off skips it.
if (process.env.BENCH_INGEST !== 'off') {
  const r = spawnSync(process.execPath, ['--import', 'tsx', 'bench/ingest.ts'], { cwd: root, stdio: 'inherit' });
  if (r.status !== 0) process.exitCode = r.status ?? 1;
}
