/**
 * The API at saturation: `npm run bench -- api`. The plant list and a plant overview call, each
 * with 200 and 400 connections and no think time, against the real server (the bundle `npm start`
 * runs, ROLES=api): one process over SQLite, one and two processes over one PostgreSQL
 * (BENCH_DATABASE_URL; the load spread over both). Per run: req/s, p50, p99, p99.9 and max of
 * every answer, requests given up after 10 s (timeouts), 503s; and from each server's /metrics
 * over the run, its event-loop delay (max, p99), GC pauses and requests it took over 1 s itself.
 * Writes bench/results/api-scale.json and .md.
 *
 * Env: BENCH_API_SECONDS (10 per run), BENCH_API_PLANTS (2,000 plants for the installer),
 * BENCH_API_CONNECTIONS (200,400), BENCH_API_SETUPS (sqlite-1,postgres-1,postgres-2),
 * BENCH_API_ROLES (api), BENCH_API_RETRY_AFTER (off: clients send again at once after a 503;
 * on: they wait its Retry-After), BENCH_API_OUT (api-scale: the results' file name).
 * PRESSURE_* variables reach the servers as set.
 */
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { sql } from 'kysely';
import { ensureDemo } from '../apps/server/src/bootstrap/demo.ts';
import { loadConfig } from '../apps/server/src/config.ts';
import { createDb, type Db, migrate } from '../apps/server/src/db/index.ts';
import { freePort } from './ingest-probes.ts';

const root = path.resolve(import.meta.dirname, '..');
const SECONDS = Number(process.env.BENCH_API_SECONDS ?? 10);
const PLANTS = Number(process.env.BENCH_API_PLANTS ?? 2000);
const CONNECTIONS = (process.env.BENCH_API_CONNECTIONS ?? '200,400').split(',').map(Number);
const ROLES = process.env.BENCH_API_ROLES ?? 'api';
const HONOUR_RETRY_AFTER = process.env.BENCH_API_RETRY_AFTER === 'on';
const OUT = process.env.BENCH_API_OUT ?? 'api-scale';
const TIMEOUT_MS = 10_000;
const pgUrl = process.env.BENCH_DATABASE_URL || null;
const setups = (process.env.BENCH_API_SETUPS ?? 'sqlite-1,postgres-1,postgres-2')
  .split(',')
  .map((s) => {
    const [store, n] = s.trim().split('-');
    return { store: store as 'sqlite' | 'postgres', processes: Number(n ?? 1) };
  })
  .filter((s) => s.store === 'sqlite' || (s.store === 'postgres' && pgUrl));
const JWT_SECRET = randomBytes(32).toString('hex');
const PASSWORD = 'Demo2026!';
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** The demo tenants, then PLANTS more plants of 200 owners whose agent is the demo company. */
async function seed(db: Db, dataDir: string) {
  await migrate(db);
  await ensureDemo(db, loadConfig({ DATA_DIR: dataDir, WEB_DIST: '', PASSWORD_COST: 'test', DEMO: 'on' }));
  const company = await db
    .selectFrom('companies')
    .select('id')
    .where('name', '=', 'Demo Solar Installers')
    .executeTakeFirstOrThrow();
  const hash = (await db.selectFrom('users').select('password_hash').executeTakeFirstOrThrow()).password_hash;
  const t = Date.now();
  const owners: number[] = [];
  for (let o = 0; o < 200; o++) {
    const row = await db
      .insertInto('users')
      .values({
        account: `owner${o}@bench.local`,
        password_hash: hash,
        kind: 'end_user',
        agent_company_id: company.id,
        created_at: t,
        updated_at: t,
      })
      .returning('id')
      .executeTakeFirstOrThrow();
    owners.push(row.id);
  }
  const statuses = ['normal', 'normal', 'normal', 'offline', 'warning', 'fault'];
  for (let i = 0; i < PLANTS; i += 250) {
    await db
      .insertInto('plants')
      .values(
        Array.from({ length: Math.min(250, PLANTS - i) }, (_, k) => {
          const n = i + k;
          return {
            name: `Bench plant ${n}`,
            owner_user_id: owners[n % owners.length]!,
            type: n % 3,
            capacity: 5 + (n % 40),
            timezone: 'Europe/Madrid',
            latitude: 36 + (n % 700) / 100,
            longitude: -6 + (n % 900) / 100,
            status: statuses[n % statuses.length]!,
            energy_total_wh: n * 1000,
            currency: 'EUR',
            created_at: t - n * 60_000,
            updated_at: t,
          };
        }),
      )
      .execute();
  }
  const plant = await db.selectFrom('plants').select('id').where('name', '=', 'Casa Marta Rooftop').executeTakeFirstOrThrow();
  return { overviewPlant: plant.id };
}

/** The Prometheus text as name{labels} → value. */
async function scrape(port: number): Promise<Map<string, number>> {
  const text = await fetch(`http://127.0.0.1:${port}/metrics`).then((r) => r.text());
  const out = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    out.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return out;
}

const sumOf = (m: Map<string, number>, prefix: string) =>
  [...m].filter(([k]) => k.startsWith(prefix)).reduce((a, [, v]) => a + v, 0);

/** What a server did during a run, from its metrics before and after (the loop-delay histogram resets at each scrape). */
function serverSide(before: Map<string, number>, after: Map<string, number>) {
  const diff = (key: string) => (after.get(key) ?? 0) - (before.get(key) ?? 0);
  const gc = (kind: string) => ({
    count: diff(`sunfleet_nodejs_gc_duration_seconds_count{kind="${kind}"}`),
    ms: Math.round(diff(`sunfleet_nodejs_gc_duration_seconds_sum{kind="${kind}"}`) * 1000),
  });
  // Observations of a histogram (`<name>_count`) over its `le` bucket, summed over every label set.
  const over = (m: Map<string, number>, name: string, le: string) =>
    sumOf(m, `${name}_count`) -
    [...m].filter(([k]) => k.startsWith(`${name}_bucket`) && k.includes(`le="${le}"`)).reduce((a, [, v]) => a + v, 0);
  const overDiff = (name: string, le: string) => over(after, name, le) - over(before, name, le);
  return {
    loopDelayMaxMs: Math.round((after.get('sunfleet_nodejs_eventloop_lag_max_seconds') ?? 0) * 1000),
    loopDelayP99Ms: Math.round((after.get('sunfleet_nodejs_eventloop_lag_p99_seconds') ?? 0) * 1000),
    gcMajor: gc('major'),
    gcMinor: gc('minor'),
    gcIncremental: gc('incremental'),
    /** Collections longer than 100 ms. */
    gcOver100ms: overDiff('sunfleet_nodejs_gc_duration_seconds', '0.1'),
    /** Requests the server itself took longer than 1 s over (arrival at Fastify → answer). */
    serverOver1s: overDiff('sunfleet_http_request_duration_seconds', '1'),
  };
}

function startServer(port: number, env: Record<string, string>): ChildProcess {
  const child = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      ROLES,
      DEMO: 'off',
      SIMULATOR: 'off',
      MQTT_PORT: '0',
      LOG_LEVEL: 'warn',
      WEB_DIST: '',
      JWT_SECRET,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  child.on('error', (e) => console.error(`server: ${e.message}`));
  return child;
}

async function ready(port: number) {
  for (let i = 0; ; i++) {
    const ok = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return;
    if (i > 240) throw new Error(`server on ${port} did not start`);
    await sleep(250);
  }
}

/** An access token of `account`; a 503 (a process just started still lags) is tried again after its Retry-After. */
async function token(port: number, account: string): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    const res = await fetch(`http://127.0.0.1:${port}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: account, password: PASSWORD }),
    });
    const body = (await res.json()) as { code: number; data: { access_token: string } };
    if (body.code === 0) return body.data.access_token;
    if (res.status !== 503 || attempt >= 10) throw new Error(`login ${account}: ${JSON.stringify(body)}`);
    await sleep(Number(res.headers.get('retry-after') ?? 1) * 1000);
  }
}

function runInWorker(run: Record<string, unknown>): Promise<Record<string, number>> {
  const worker = new Worker(new URL('./load-worker.mjs', import.meta.url), { workerData: { runs: [run] } });
  return new Promise<Record<string, number>>((resolve, reject) => {
    worker.once('message', (out: { result: Record<string, number> }[]) => resolve(out[0]!.result));
    worker.once('error', reject);
  }).finally(() => worker.terminate());
}

interface Row {
  store: string;
  processes: number;
  scenario: string;
  connections: number;
  client: Record<string, number>;
  servers: ReturnType<typeof serverSide>[];
}

async function runSetup(store: 'sqlite' | 'postgres', processes: number): Promise<Row[]> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-api-bench-'));
  const schema = store === 'postgres' ? `bench_api_${randomBytes(4).toString('hex')}` : undefined;
  let databaseUrl = '';
  if (schema) {
    const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin);
    await admin.destroy();
    databaseUrl = `${pgUrl}${pgUrl!.includes('?') ? '&' : '?'}options=${encodeURIComponent(`-c search_path=${schema}`)}`;
  }
  const made = createDb({
    databaseUrl: schema ? pgUrl : null,
    pgSchema: schema,
    sqliteFile: path.join(dataDir, 'sunfleet.db'),
    poolSize: 2,
  });
  const { overviewPlant } = await seed(made.db, dataDir);
  await made.db.destroy();

  const ports: number[] = [];
  const children: ChildProcess[] = [];
  const rows: Row[] = [];
  try {
    // One after the other: the first start makes the first administrator.
    for (let i = 0; i < processes; i++) {
      const port = await freePort();
      ports.push(port);
      children.push(startServer(port, { DATA_DIR: dataDir, DATABASE_URL: databaseUrl }));
      await ready(port);
    }
    const installer = await token(ports[0]!, 'installer@demo.sunfleet.local');
    const owner = await token(ports[0]!, 'owner@demo.sunfleet.local');
    const scenarios: [string, string, string][] = [
      ['plant list (installer, page 1 of ~2,000)', '/api/v1/plants?page=1&size=10', installer],
      ['plant overview (realtime)', `/api/v1/plant/${overviewPlant}/realtime`, owner],
    ];
    for (const [name, url, auth] of scenarios) {
      // Warm-up: statements prepared, caches filled, connections open.
      await runInWorker({
        urls: ports.map((p) => `http://127.0.0.1:${p}${url}`),
        headers: { authorization: `Bearer ${auth}` },
        concurrency: 20,
        seconds: 2,
      });
      for (const connections of CONNECTIONS) {
        const before = await Promise.all(ports.map(scrape));
        const client = await runInWorker({
          urls: ports.map((p) => `http://127.0.0.1:${p}${url}`),
          headers: { authorization: `Bearer ${auth}` },
          concurrency: connections,
          seconds: SECONDS,
          timeoutMs: TIMEOUT_MS,
          honourRetryAfter: HONOUR_RETRY_AFTER,
        });
        const after = await Promise.all(ports.map(scrape));
        const servers = ports.map((_, i) => serverSide(before[i]!, after[i]!));
        const row = { store, processes, scenario: name, connections, client, servers };
        rows.push(row);
        console.log(`${store} ×${processes} ${name} @${connections}: ${JSON.stringify(client)} ${JSON.stringify(servers)}`);
        await sleep(1000);
      }
    }
  } finally {
    for (const c of children) c.kill('SIGTERM');
    await Promise.all(children.map((c) => new Promise((r) => (c.exitCode !== null ? r(null) : c.once('exit', r)))));
    if (schema) {
      const { db: admin } = createDb({ databaseUrl: pgUrl, poolSize: 1 });
      await sql`drop schema ${sql.id(schema)} cascade`.execute(admin);
      await admin.destroy();
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return rows;
}

if (spawnSync(process.execPath, ['apps/server/build.mjs'], { cwd: root, stdio: 'inherit' }).status !== 0) process.exit(1);
const started = new Date().toISOString();
const load = os.loadavg().map((l) => l.toFixed(2));
const rows: Row[] = [];
for (const { store, processes } of setups) rows.push(...(await runSetup(store, processes)));

const pressure = Object.fromEntries(Object.entries(process.env).filter(([k]) => k === 'PRESSURE' || k.startsWith('PRESSURE_')));
const results = {
  date: started,
  machine: `${os.cpus().length} cores, ${Math.round(os.totalmem() / 2 ** 30)} GiB, load average ${load.join(' ')} at the start`,
  node: process.version,
  seconds: SECONDS,
  plants: PLANTS,
  roles: ROLES,
  honourRetryAfter: HONOUR_RETRY_AFTER,
  pressure,
  rows,
};
fs.mkdirSync(path.join(root, 'bench/results'), { recursive: true });
fs.writeFileSync(path.join(root, `bench/results/${OUT}.json`), `${JSON.stringify(results, null, 2)}\n`);
const ms = (n: number) => (n >= 1000 ? `${(n / 1000).toFixed(2)} s` : `${n}`);
const md = [
  `# API at saturation (${started})`,
  '',
  `${results.machine}, Node ${results.node}; server and load generator on the same machine. ROLES=${ROLES}, ` +
    `${SECONDS} s per run, no think time, requests given up after ${TIMEOUT_MS / 1000} s (timeouts); ` +
    `clients ${HONOUR_RETRY_AFTER ? 'wait a 503’s Retry-After' : 'send again at once after a 503'}. ` +
    `Overload settings: ${
      Object.keys(pressure).length
        ? Object.entries(pressure)
            .map(([k, v]) => `${k}=${v}`)
            .join(', ')
        : 'defaults'
    }.`,
  '',
  'Latencies in ms over every answer (503s included). Server side, per process: the event loop’s longest delay and its p99 over the run, GC time (major/minor ms), collections over 100 ms, requests the server itself held over 1 s.',
  '',
  '| store | processes | scenario | connections | req/s | p50 | p99 | p99.9 | max | timeouts | 503s | new connections answered after > 1 s | loop delay max / p99 ms | GC major / minor ms | GC > 100 ms | server > 1 s |',
  '|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|',
  ...rows.map((r) => {
    const c = r.client;
    const s = (f: (x: Row['servers'][number]) => string) => r.servers.map(f).join(' · ');
    return `| ${r.store} | ${r.processes} | ${r.scenario} | ${r.connections} | ${c.rps} | ${c.p50} | ${c.p99} | ${ms(c.p999!)} | ${ms(c.max!)} | ${c.timeouts} | ${c.unavailable} | ${c.slowFirst} | ${s((x) => `${x.loopDelayMaxMs} / ${x.loopDelayP99Ms}`)} | ${s((x) => `${x.gcMajor.ms} / ${x.gcMinor.ms}`)} | ${s((x) => String(x.gcOver100ms))} | ${s((x) => String(x.serverOver1s))} |`;
  }),
];
fs.writeFileSync(path.join(root, `bench/results/${OUT}.md`), `${md.join('\n')}\n`);
console.log(`\n${md.join('\n')}`);
