/**
 * Gateway stock import benchmark: a 10,000-row .xlsx checked (`gateway/import/check`) and
 * written (`gateway/import/batch`, mode valid) through the real server on a loopback port, on a
 * file SQLite store and, with BENCH_DATABASE_URL, on PostgreSQL (a schema made and dropped); then
 * a 10,000-row file with 50 bad rows (bad SN, repeated SN, SN in stock, unknown customer,
 * unknown protocol) must report exactly those 50.
 *
 *   npm run bench -- gateway-import        (node --import tsx bench/gateway-import.ts)
 *
 * Measures the wall time of each call (upload included), and the process's memory peak (RSS and
 * V8 heap, sampled every 20 ms; the sheet reader's worker thread counts in the RSS). Budgets:
 * check ≤ 5 s, write ≤ 10 s. Results: bench/results/gateway-import.md (and .json).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { performance } from 'node:perf_hooks';
import ExcelJS from 'exceljs';
import { sql } from 'kysely';
import { PASSWORD, serve } from '../apps/server/bench/kit.ts';
import { createDb, migrate } from '../apps/server/src/db/index.ts';
import { hashPassword } from '../apps/server/src/modules/auth/passwords.ts';

const ROWS = 10_000;
const BAD = 50;
const BUDGET = { checkS: 5, writeS: 10 };
const root = path.resolve(import.meta.dirname, '..');
const pgUrl = process.env.BENCH_DATABASE_URL || null;

type Store = 'sqlite' | 'postgres';

async function workbook(rows: string[][]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Gateways');
  ws.addRow(['SN', 'Customer (id or name)', 'Protocol', 'Alias']);
  for (const r of rows) ws.addRow(r);
  return Buffer.from(await wb.xlsx.writeBuffer());
}

/** Peak RSS and heap while `run` runs. */
async function measured<T>(run: () => Promise<T>) {
  let rss = process.memoryUsage().rss;
  let heap = process.memoryUsage().heapUsed;
  const timer = setInterval(() => {
    const m = process.memoryUsage();
    rss = Math.max(rss, m.rss);
    heap = Math.max(heap, m.heapUsed);
  }, 20);
  const t0 = performance.now();
  try {
    const result = await run();
    return { result, seconds: (performance.now() - t0) / 1000, rssMb: rss / 2 ** 20, heapMb: heap / 2 ** 20 };
  } finally {
    clearInterval(timer);
  }
}

interface Envelope<T> {
  code: number;
  msg: string;
  data: T;
}
interface Report {
  rows: number;
  valid: number;
  problems: Array<{ row: number; sn: string; problem: string }>;
}

async function benchStore(store: Store) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-gwimport-bench-'));
  const schema = store === 'postgres' ? `bench_gwimport_${Date.now().toString(36)}` : undefined;
  if (schema) {
    const admin = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await sql`create schema ${sql.id(schema)}`.execute(admin.db);
    await admin.db.destroy();
  }
  const s = createDb({
    databaseUrl: store === 'postgres' ? pgUrl : null,
    pgSchema: schema,
    sqliteFile: path.join(dir, 'store.sqlite'),
    poolSize: 10,
  });
  await migrate(s.db);
  const t = Date.now();
  await s.db
    .insertInto('users')
    .values({
      account: 'stock-admin@bench.local',
      password_hash: await hashPassword(PASSWORD, 'test'),
      kind: 'sysadmin',
      company_id: null,
      role_id: null,
      created_at: t,
      updated_at: t,
    })
    .execute();
  const customer = await s.db
    .insertInto('companies')
    .values({ name: 'Bench Customer', created_at: t, updated_at: t })
    .returning('id')
    .executeTakeFirstOrThrow();
  const server = await serve({ dir, db: s.db, dialect: s.dialect });
  const token = await server.token('stock-admin@bench.local');

  const post = async <T>(file: Buffer, kind: 'check' | 'batch', fields: Record<string, string>) => {
    const form = new FormData();
    for (const [k, v] of Object.entries(fields)) form.append(k, v);
    form.append('file', new Blob([new Uint8Array(file)]), 'gateways.xlsx');
    const res = await fetch(`${server.base}/api/v1/gateway/import/${kind}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}` },
      body: form,
    });
    const body = (await res.json()) as Envelope<T>;
    if (body.code !== 0) throw new Error(`${kind}: ${JSON.stringify(body).slice(0, 300)}`);
    return body.data;
  };

  // 1. A clean 10,000-row file: check, then write.
  const protocols = ['sunfleet-hybrid-1p', 'sunfleet-string-3p', 'sunfleet-meter-3p', ''];
  const clean = Array.from({ length: ROWS }, (_, i) => [
    `BGW${String(i).padStart(7, '0')}`,
    i % 3 === 0 ? 'Bench Customer' : '',
    protocols[i % 4]!,
    i % 5 === 0 ? `Gateway ${i}` : '',
  ]);
  const cleanFile = await workbook(clean);
  const check = await measured(() => post<Report>(cleanFile, 'check', { customerId: String(customer.id) }));
  if (check.result.valid !== ROWS) throw new Error(`clean check: ${check.result.valid} valid`);
  const write = await measured(() =>
    post<{ written: number; gateways: unknown[] }>(cleanFile, 'batch', { customerId: String(customer.id), mode: 'valid' }),
  );
  if (write.result.written !== ROWS) throw new Error(`clean write: ${write.result.written} written`);
  const stored = Number(
    (
      await s.db
        .selectFrom('gateways')
        .select((eb) => eb.fn.countAll().as('n'))
        .executeTakeFirstOrThrow()
    ).n,
  );

  // 2. Another 10,000 rows with 50 bad ones spread through the file, 10 of each kind.
  const rows = Array.from({ length: ROWS }, (_, i) => [`NGW${String(i).padStart(7, '0')}`, '', '', '']);
  const expected: Array<{ row: number; problem: string }> = [];
  const kinds = ['snFormat', 'snRepeated', 'snExists', 'customerMissing', 'protocolUnknown'] as const;
  for (let b = 0; b < BAD; b++) {
    const i = 97 + b * 197; // rows 98 … 9,750, none next to another
    const r = rows[i]!;
    const kind = kinds[b % kinds.length]!;
    if (kind === 'snFormat') r[0] = `BAD SN ${b}`;
    if (kind === 'snRepeated') r[0] = rows[0]![0]!;
    if (kind === 'snExists') r[0] = clean[b]![0]!;
    if (kind === 'customerMissing') r[1] = `Nobody ${b}`;
    if (kind === 'protocolUnknown') r[2] = `proto-${b}`;
    expected.push({ row: i + 2, problem: kind });
  }
  const badFile = await workbook(rows);
  const badCheck = await measured(() => post<Report>(badFile, 'check', {}));
  const got = badCheck.result.problems.map((p) => ({ row: p.row, problem: p.problem }));
  const exact = JSON.stringify(got) === JSON.stringify(expected) && badCheck.result.valid === ROWS - BAD;

  await server.close();
  if (schema) {
    const admin = createDb({ databaseUrl: pgUrl, poolSize: 1 });
    await sql`drop schema ${sql.id(schema)} cascade`.execute(admin.db);
    await admin.db.destroy();
  }
  fs.rmSync(dir, { recursive: true, force: true });
  return {
    store,
    fileKb: Math.round(cleanFile.length / 1024),
    check: { seconds: check.seconds, rssMb: check.rssMb, heapMb: check.heapMb },
    write: { seconds: write.seconds, rssMb: write.rssMb, heapMb: write.heapMb, stored },
    bad: { seconds: badCheck.seconds, reported: got.length, valid: badCheck.result.valid, exact },
  };
}

const results = [];
for (const store of ['sqlite', ...(pgUrl ? ['postgres'] : [])] as Store[]) {
  console.log(`gateway import: ${store}…`);
  results.push(await benchStore(store));
}

const f = (n: number, d = 2) => n.toFixed(d);
const ok = (seconds: number, budget: number) => (seconds <= budget ? 'within' : '**over**');
const lines = [
  '# Gateway stock import',
  '',
  `${new Date().toISOString()} — ${os.cpus().length} cores (${os.cpus()[0]?.model ?? '?'}), ${Math.round(os.totalmem() / 2 ** 30)} GiB, Node ${process.version}.`,
  `\`npm run bench -- gateway-import\` (bench/gateway-import.ts): a ${ROWS.toLocaleString('en')}-row .xlsx (SN, customer, protocol, alias) through the real server on loopback; wall time per call, upload included; memory peaks of the whole process (server and sheet-reader worker) during the call.`,
  '',
  '| store | file | check | write (mode valid) | RSS peak check / write | heap peak check / write | 50 bad rows reported |',
  '|---|---|---|---|---|---|---|',
  ...results.map(
    (r) =>
      `| ${r.store} | ${r.fileKb} KB | ${f(r.check.seconds)} s (${ok(r.check.seconds, BUDGET.checkS)} ${BUDGET.checkS} s) | ${f(r.write.seconds)} s (${ok(r.write.seconds, BUDGET.writeS)} ${BUDGET.writeS} s), ${r.write.stored.toLocaleString('en')} stored | ${f(r.check.rssMb, 0)} / ${f(r.write.rssMb, 0)} MB | ${f(r.check.heapMb, 0)} / ${f(r.write.heapMb, 0)} MB | ${r.bad.reported} in ${f(r.bad.seconds)} s, ${r.bad.valid.toLocaleString('en')} valid, ${r.bad.exact ? 'exactly the 50' : '**not the expected rows**'} |`,
  ),
  '',
  pgUrl ? '' : 'PostgreSQL not measured: set BENCH_DATABASE_URL.',
];
fs.writeFileSync(path.join(root, 'bench/results/gateway-import.md'), `${lines.join('\n').trimEnd()}\n`);
fs.writeFileSync(path.join(root, 'bench/results/gateway-import.json'), `${JSON.stringify(results, null, 2)}\n`);
console.log(lines.join('\n'));
if (results.some((r) => !r.bad.exact)) process.exit(1);
