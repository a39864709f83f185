/**
 * What the module benches share: a file-backed SQLite store in a temp folder (kept and reused
 * with BENCH_DIR), bulk writes straight through better-sqlite3, the installer company with its
 * owners, the real server on a loopback port, and the load generator (bench/load.mjs) in a worker
 * thread so it does not share the server's event loop.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import pino from 'pino';
import { buildApp } from '../src/app.ts';
import { loadConfig } from '../src/config.ts';
import { createDb, migrate } from '../src/db/index.ts';
import { createMailer } from '../src/mail/mailer.ts';
import { hashPassword } from '../src/modules/auth/passwords.ts';
import { AccessTokens } from '../src/modules/auth/tokens.ts';

/** Every bench account's password. */
export const PASSWORD = 'Bench2026!';

/** A line of progress with the seconds since the bench started. */
export function stopwatch() {
  const t0 = Date.now();
  return (msg: string) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)} s] ${msg}`);
}

/**
 * The bench's store: `store.sqlite` in BENCH_DIR when set (made once, reused after: `reuse`),
 * else in a new temp folder `sunfleet-<name>-bench-…` that `cleanUp` removes.
 */
export async function openStore(name: string) {
  const keep = process.env.BENCH_DIR;
  const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), `sunfleet-${name}-bench-`));
  const file = path.join(dir, 'store.sqlite');
  const reuse = !!keep && fs.existsSync(file);
  const { db, dialect } = createDb({ databaseUrl: null, sqliteFile: file });
  await migrate(db);
  const cleanUp = () => {
    if (!keep) fs.rmSync(dir, { recursive: true, force: true });
  };
  return { dir, file, reuse, db, dialect, cleanUp };
}

/** A second connection for bulk data: prepared statements in a few big transactions, no syncs. */
export function bulkWriter(file: string) {
  const raw = new SQLite(file);
  raw.pragma('journal_mode = WAL');
  raw.pragma('synchronous = OFF');
  return raw;
}

/** After the bulk data: the WAL folded into the file and the planner's statistics taken. */
export function finishBulk(raw: SQLite.Database) {
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.exec('analyze');
  raw.close();
}

/**
 * One installer company holding `permissions` (installer@bench.local its admin), a system
 * administrator (admin@bench.local) and `owners` end users owner<i>@bench.local whose agent is
 * the company; all with PASSWORD.
 */
export async function seedInstallerCompany(raw: SQLite.Database, permissions: string[], owners: number, now: number) {
  const hash = await hashPassword(PASSWORD, 'test');
  const companyId = Number(
    raw
      .prepare("insert into companies (name, permissions, created_at, updated_at) values ('Bench Installers', ?, ?, ?)")
      .run(JSON.stringify(permissions), now, now).lastInsertRowid,
  );
  const insertUser = raw.prepare(
    'insert into users (account, password_hash, kind, company_id, agent_company_id, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?)',
  );
  const ownerIds: number[] = [];
  raw.transaction(() => {
    insertUser.run('installer@bench.local', hash, 'company_admin', companyId, null, now, now);
    insertUser.run('admin@bench.local', hash, 'sysadmin', null, null, now, now);
    for (let o = 0; o < owners; o++)
      ownerIds.push(Number(insertUser.run(`owner${o}@bench.local`, hash, 'end_user', null, companyId, now, now).lastInsertRowid));
  })();
  return { companyId, ownerIds };
}

/** The real server on a loopback port over the bench's store. */
export async function serve(store: Pick<Awaited<ReturnType<typeof openStore>>, 'dir' | 'db' | 'dialect'>) {
  const config = loadConfig({ DATA_DIR: store.dir, WEB_DIST: '', PASSWORD_COST: 'test', RATE_LIMITS: 'off', DEMO: 'off' });
  const quiet = pino({ level: 'silent' });
  const mailer = createMailer({ smtpUrl: null, from: config.mailFrom, outboxDir: path.join(store.dir, 'outbox'), log: quiet });
  const app = await buildApp({
    config,
    db: store.db,
    dialect: store.dialect,
    tokens: new AccessTokens(config.jwtSecret, config.accessTokenTtlSec),
    mailer,
  });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  const base = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}`;

  /** An access token of `account` (password PASSWORD) from the real login. */
  const token = async (account: string) => {
    const res = await fetch(`${base}/oauth/token`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: account, password: PASSWORD }),
    });
    return ((await res.json()) as { data: { access_token: string } }).data.access_token;
  };

  /** `url`'s data with `auth`'s token; a business error stops the bench. */
  const getData = async <T>(url: string, auth: string): Promise<T> => {
    const res = (await (await fetch(`${base}${url}`, { headers: { authorization: `Bearer ${auth}` } })).json()) as {
      code: number;
      data: T;
    };
    if (res.code !== 0) throw new Error(`${url}: ${JSON.stringify(res)}`);
    return res.data;
  };

  const close = async () => {
    await app.close();
    mailer.close();
    await store.db.destroy();
  };
  return { app, base, token, getData, close };
}

/** A scenario of the load: its name, its URL below the server and the token it calls with. */
export type Scenario = [name: string, url: string, auth: string];
/** How one run of a scenario loads the server: clients, seconds, each client's mean pause. */
export interface LoadShape {
  concurrency: number;
  seconds: number;
  thinkMs: number;
}
export interface LoadResult {
  name: string;
  concurrency: number;
  thinkMs: number;
  result: Record<string, number>;
}

/**
 * A scenario's usual runs: one client alone for `soloSeconds`, then `clients` in a closed loop
 * (each sending its next request as soon as the last answered: the server's saturation) and
 * `clients` pausing `thinkMs` on average between requests (as people with the page open), for
 * `seconds` each.
 */
export function soloClosedPaced(clients: number, seconds: number, thinkMs: number, soloSeconds: number): LoadShape[] {
  return [
    { concurrency: 1, seconds: soloSeconds, thinkMs: 0 },
    { concurrency: clients, seconds, thinkMs: 0 },
    { concurrency: clients, seconds, thinkMs },
  ];
}

/** Every scenario under every shape, one after another, by the load generator in a worker thread. */
export async function loadInWorker(base: string, scenarios: Scenario[], shapes: LoadShape[]): Promise<LoadResult[]> {
  const worker = new Worker(new URL('../../../bench/load-worker.mjs', import.meta.url), {
    workerData: {
      runs: scenarios.flatMap(([name, url, auth]) =>
        shapes.map((shape) => ({ name, url: `${base}${url}`, headers: { authorization: `Bearer ${auth}` }, ...shape })),
      ),
    },
  });
  try {
    return await new Promise<LoadResult[]>((resolve, reject) => {
      worker.once('message', resolve);
      worker.once('error', reject);
    });
  } finally {
    await worker.terminate();
  }
}

/** The machine, its load and Node, then `note`. */
export function machineLine(note: string) {
  return `${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}, ${note}`;
}

/** The machine line of `seconds`-long runs, then the load's results as a table. */
export function printLoadReport(results: LoadResult[], seconds: number) {
  console.log(`\n${machineLine(`${seconds} s per run; server and load generator in one process, two threads`)}`);
  printLoadTable(results);
}

/** The load's results as a Markdown table, `title` in its first column's head. */
export function printLoadTable(results: LoadResult[], title = 'scenario') {
  console.log(`| ${title} | clients | think ms | req/s | p50 ms | p99 ms | max ms | errors |\n|---|---|---|---|---|---|---|---|`);
  for (const { name, concurrency, thinkMs, result: r } of results) {
    console.log(
      `| ${name} | ${concurrency} | ${thinkMs || '0 (closed loop)'} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max ?? '-'} | ${r.errors} |`,
    );
  }
}
