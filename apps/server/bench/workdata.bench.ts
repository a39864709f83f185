/**
 * Operation-data export and event list under load: `npx tsx --expose-gc
 * apps/server/bench/workdata.bench.ts` (from the repository root).
 *
 * 1. Export: one hybrid inverter with 90 days of 1-minute samples (129,600 rows, each with its
 *    register blocks), downloaded over loopback HTTP by a client that only counts bytes. Reports
 *    rows/s, and the growth of RSS and heap over the idle baseline (sampled every 20 ms) for a
 *    30-day and a 90-day export: flat memory means the 90-day export needs no more than the
 *    30-day one. Also with two parameters decoded from the register blocks. Budget: ≥ 50,000
 *    rows/s with flat memory.
 * 2. Events: 100,000 events over 2,000 plants (one installer company is agent for every owner);
 *    p50/p99 of `GET /api/v1/events` with 200 concurrent clients (closed loop, and paced) for the
 *    installer, a system administrator and an owner, the load generator in a worker thread; also
 *    searches (part of a plant name, SN or alias), narrow (a few dozen plants or devices) and broad
 *    (every plant's name contains "Plant").
 *
 * Env: BENCH_SECONDS (default 8), BENCH_CONCURRENCY (default 200), BENCH_THINK_MS (default 2000:
 * the paced clients' mean pause), BENCH_DIR (keep the store),
 * BENCH_ONLY=export (skip the load), BENCH_ONLY=events (skip the export), BENCH_ONLY=latency (skip
 * the export and the load: only the one-client latencies), BENCH_REPEAT (default 60).
 */
import fs from 'node:fs';
import http from 'node:http';
import { registersToHex } from '@sunfleet/contracts';
import { protocolPlan } from '@sunfleet/protocols';
import * as bench from './kit.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const DAYS = 90;
const PLANTS = 2000;
const EVENTS = 100_000;
const MIN = 60_000;
const DAY = 86_400_000;

const store = await bench.openStore('workdata');
const { file, reuse } = store;
const log = bench.stopwatch();

// The 90 plant-local (UTC) days up to today.
const today = new Date().toISOString().slice(0, 10);
const firstDay = new Date(Date.parse(today) - (DAYS - 1) * DAY).toISOString().slice(0, 10);
const from = Date.parse(firstDay);

if (!reuse) {
  const raw = bench.bulkWriter(file);
  const now = Date.now();
  const { ownerIds } = await bench.seedInstallerCompany(
    raw,
    ['equip.view', 'event.view', 'event.export', 'workdata.view', 'workdata.export', 'station.view'],
    PLANTS,
    now,
  );
  const insertPlant = raw.prepare(
    "insert into plants (name, owner_user_id, timezone, created_at, updated_at) values (?, ?, 'UTC', ?, ?)",
  );
  const insertGateway = raw.prepare(
    "insert into gateways (sn, secret_hash, claim_key_hash, plant_id, online, created_at, updated_at) values (?, 'x', 'x', ?, 1, ?, ?)",
  );
  const insertDevice = raw.prepare(
    "insert into devices (sn, gateway_id, plant_id, kind, protocol_id, status, alias, created_at, updated_at) values (?, ?, ?, ?, 'sunfleet-hybrid-3p', 'normal', ?, ?, ?)",
  );
  const insertEvent = raw.prepare(
    "insert into events (plant_id, gateway_id, device_id, sn, source, code, level, text_en, text_es, started_at, ended_at, created_at) values (?, ?, ?, ?, 'device', ?, ?, 'Grid overvoltage', 'Sobretensión de red', ?, ?, ?)",
  );
  const deviceIds: number[] = [];
  const gatewayIds: number[] = [];
  raw.transaction(() => {
    for (let i = 0; i < PLANTS; i++) {
      const plant = Number(insertPlant.run(`Plant ${i}`, ownerIds[i], now, now).lastInsertRowid);
      const gw = Number(insertGateway.run(`BGW${i}`, plant, now, now).lastInsertRowid);
      gatewayIds.push(gw);
      deviceIds.push(Number(insertDevice.run(`BINV${i}`, gw, plant, 'inverter', `Roof ${i}`, now, now).lastInsertRowid));
    }
  })();
  raw.transaction(() => {
    const levels = ['fault', 'warning', 'warning', 'info'];
    for (let e = 0; e < EVENTS; e++) {
      const p = e % PLANTS;
      const started = now - Math.floor((e / EVENTS) * 120 * DAY) - (e % 997) * 1000;
      const open = e % 10 === 0;
      insertEvent.run(
        p + 1,
        gatewayIds[p],
        deviceIds[p],
        `BINV${p}`,
        `E${e}`,
        levels[e % 4],
        started,
        open ? null : started + 600_000,
        started,
      );
    }
  })();
  log(`${PLANTS} plants and ${EVENTS} events written`);

  // 90 days of 1-minute samples of plant 1's inverter, register blocks from the real encoder.
  const plan = protocolPlan('sunfleet-hybrid-3p')!;
  const raws = Array.from({ length: 240 }, (_, k) => {
    const blocks = plan.encode(
      {
        deviceType: 93,
        serialNumber: 'BINV0',
        runningState: 2,
        pv1Power: 2000 + k,
        activePower: 3000 + k,
        gridFrequency: 50 + (k % 10) / 100,
        pv1Voltage: 350 + k / 10,
        batterySoc: 50,
        pvEnergyTotal: 1000 + k,
      },
      { groups: ['info', 'realtime'] },
    );
    return JSON.stringify(blocks.map((b) => [b.functionCode, b.address, registersToHex(b.registers)]));
  });
  const insertSample = raw.prepare(
    'insert into inverter_samples (device_id, ts, power_w, pv_power_w, grid_power_w, load_power_w, battery_power_w, soc, temperature_c, pv_total_wh, raw) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const rows = DAYS * 1440;
  for (let start = 0; start < rows; start += 20_000) {
    raw.transaction(() => {
      for (let i = start; i < Math.min(rows, start + 20_000); i++) {
        const k = i % 240;
        insertSample.run(
          deviceIds[0],
          from + i * MIN,
          3000 + k,
          3500 + k,
          500 - k,
          2900,
          k - 120,
          50 + (k % 40),
          40 + k / 100,
          1_000_000 + i * 50,
          raws[k],
        );
      }
    })();
  }
  bench.finishBulk(raw);
  log(`${rows} samples of one inverter written (${(fs.statSync(file).size / 1024 / 1024).toFixed(0)} MB store)`);
}

const { base, token, getData, close } = await bench.serve(store);
const installer = await token('installer@bench.local');
const admin = await token('admin@bench.local');
const owner = await token('owner7@bench.local');

// ——— 1. export ———

const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) console.log('(run with --expose-gc for the retained-memory figures)');
interface Export {
  days: number;
  params: string;
  rows: number;
  bytes: number;
  seconds: number;
  rowsPerSecond: number;
  rssGrowthMb: number;
  heapGrowthMb: number;
  retainedMb: number | null;
  /** Rows per second of this process's CPU time (server and counting client): what one free core would do. */
  rowsPerCpuSecond: number;
}

/**
 * One download over loopback, counting bytes. `retained`: every second a full GC, then the heap
 * in use — what the export really holds (slower; not used for the speed figures).
 */
async function exportOnce(days: number, params: string[], retained = false): Promise<Export> {
  const start = new Date(Date.parse(today) - (days - 1) * DAY).toISOString().slice(0, 10);
  const query = new URLSearchParams({ sn: 'BINV0', startDate: start, endDate: today });
  for (const p of params) query.append('params', p);
  gc?.();
  await new Promise((r) => setTimeout(r, 100));
  gc?.();
  const baseline = process.memoryUsage();
  let peakRss = baseline.rss;
  let peakHeap = baseline.heapUsed;
  let peakRetained = 0;
  const sampler = setInterval(
    () => {
      if (retained && gc) {
        gc();
        peakRetained = Math.max(peakRetained, process.memoryUsage().heapUsed - baseline.heapUsed);
      }
      const m = process.memoryUsage();
      peakRss = Math.max(peakRss, m.rss);
      peakHeap = Math.max(peakHeap, m.heapUsed);
    },
    retained ? 1000 : 20,
  );
  const began = performance.now();
  const cpu = process.cpuUsage();
  const bytes = await new Promise<number>((resolve, reject) => {
    http
      .get(`${base}/api/v1/workdata/dynamic/download?${query}`, { headers: { authorization: `Bearer ${installer}` } }, (res) => {
        if (res.headers['content-type'] !== 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet') {
          reject(new Error(`not a file: ${res.headers['content-type']}`));
        }
        let n = 0;
        res.on('data', (c: Buffer) => {
          n += c.length;
        });
        res.on('end', () => resolve(n));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  const seconds = (performance.now() - began) / 1000;
  const used = process.cpuUsage(cpu);
  clearInterval(sampler);
  const rows = days * 1440;
  const mb = (n: number) => +(n / 1024 / 1024).toFixed(1);
  return {
    days,
    params: params.length === 0 ? 'default (8 stored columns)' : params.join(', '),
    rows,
    bytes,
    seconds: +seconds.toFixed(2),
    rowsPerSecond: Math.round(rows / seconds),
    rssGrowthMb: mb(peakRss - baseline.rss),
    heapGrowthMb: mb(peakHeap - baseline.heapUsed),
    retainedMb: retained && gc ? mb(peakRetained) : null,
    rowsPerCpuSecond: Math.round(rows / ((used.user + used.system) / 1e6)),
  };
}

const exports: Export[] = [];
const skipExport = process.env.BENCH_ONLY === 'events' || process.env.BENCH_ONLY === 'latency';
if (!skipExport) await exportOnce(3, []); // warm up
for (const [days, params, retained] of process.env.BENCH_ONLY === 'events'
  ? []
  : ([
      [90, [], false],
      [90, [], false],
      [90, ['power_w', 'soc', 'gridFrequency', 'pv1Voltage'], false],
      [10, [], true],
      [30, [], true],
      [90, [], true],
    ] as Array<[number, string[], boolean]>)) {
  const r = await exportOnce(days, params, retained);
  exports.push(r);
  log(
    `export ${r.days} days, ${r.params}${retained ? ' (GC every second)' : ''}: ${r.rows} rows in ${r.seconds} s = ${r.rowsPerSecond} rows/s (${r.rowsPerCpuSecond} per CPU second), ${(r.bytes / 1024 / 1024).toFixed(1)} MB, RSS +${r.rssGrowthMb} MB, heap peak +${r.heapGrowthMb} MB, retained ${r.retainedMb ?? '-'} MB`,
  );
}

// ——— 2. event list under load ———
if (process.env.BENCH_ONLY === 'export') {
  await close();
  process.exit(0);
}

const check = async (url: string, auth: string) => {
  const data = await getData<{ total: number; list: unknown[] }>(url, auth);
  return `${data.total} events, ${data.list.length} on the page`;
};
const scenarios: bench.Scenario[] = [
  ['installer: page 1', '/api/v1/events?page=1&size=20', installer],
  ['installer: open faults', '/api/v1/events?page=1&size=20&level=fault&state=open', installer],
  [
    'installer: last 7 days',
    `/api/v1/events?page=1&size=20&startDate=${new Date(Date.now() - 6 * DAY).toISOString().slice(0, 10)}&endDate=${today}`,
    installer,
  ],
  ['installer: page 50', '/api/v1/events?page=50&size=20', installer],
  ['system administrator: page 1', '/api/v1/events?page=1&size=20', admin],
  ['owner: page 1', '/api/v1/events?page=1&size=20', owner],
  ['installer: search plant "plant 123"', '/api/v1/events?page=1&size=20&search=plant%20123', installer],
  ['installer: search SN "inv77"', '/api/v1/events?page=1&size=20&search=inv77', installer],
  ['installer: search alias "roof 19"', '/api/v1/events?page=1&size=20&search=roof%2019', installer],
  ['installer: search "plant" (every plant)', '/api/v1/events?page=1&size=20&search=plant', installer],
  ['system administrator: search SN "inv77"', '/api/v1/events?page=1&size=20&search=inv77', admin],
  ['system administrator: search "plant" (every plant)', '/api/v1/events?page=1&size=20&search=plant', admin],
  ['owner: search "plant"', '/api/v1/events?page=1&size=20&search=plant', owner],
];
for (const [name, url, auth] of scenarios) log(`${name}: ${await check(url, auth)}`);

// One client, one request at a time: what each query costs without queueing behind others (the
// count of a filter is cached for 10 s, as for a user paging).
const REPEAT = Number(process.env.BENCH_REPEAT ?? 60);
console.log(`\n| one client, ${REPEAT} requests in a row | p50 ms | p99 ms | max ms |\n|---|---|---|---|`);
for (const [name, url, auth] of scenarios) {
  const ms: number[] = [];
  for (let i = 0; i < REPEAT; i++) {
    const began = performance.now();
    await getData(url, auth);
    ms.push(performance.now() - began);
  }
  ms.sort((a, b) => a - b);
  const at = (q: number) => ms[Math.min(ms.length - 1, Math.floor(q * ms.length))]!.toFixed(1);
  console.log(`| ${name} | ${at(0.5)} | ${at(0.99)} | ${ms.at(-1)!.toFixed(1)} |`);
}
if (process.env.BENCH_ONLY === 'latency') {
  await close();
  store.cleanUp();
  process.exit(0);
}

// Closed loop (bench/load.mjs: each client asks again as soon as answered: the server's
// ceiling) and paced (each client thinks THINK_MS on average between requests, as people with the
// list open do).
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 2000);
const results = await bench.loadInWorker(
  base,
  scenarios,
  [0, THINK_MS].map((thinkMs) => ({ concurrency: CONCURRENCY, seconds: SECONDS, thinkMs })),
);

console.log(`\n${bench.machineLine('SQLite, server and load generator in one process (two threads)')}\n`);
console.log(
  '| export | rows | seconds | rows/s | rows per CPU s | file MB | RSS growth MB | heap peak growth MB | retained heap MB (GC every second) |\n|---|---|---|---|---|---|---|---|---|',
);
for (const r of exports) {
  console.log(
    `| ${r.days} days, ${r.params} | ${r.rows} | ${r.seconds} | ${r.retainedMb === null ? r.rowsPerSecond : '(memory run)'} | ${r.retainedMb === null ? r.rowsPerCpuSecond : '-'} | ${(r.bytes / 1024 / 1024).toFixed(1)} | ${r.rssGrowthMb} | ${r.heapGrowthMb} | ${r.retainedMb ?? '-'} |`,
  );
}
console.log('');
bench.printLoadTable(results, `events list (${EVENTS} events)`);

await close();
store.cleanUp();
