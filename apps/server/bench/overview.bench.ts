/**
 * The plant overview under load: `npx tsx apps/server/bench/overview.bench.ts`
 * (from the repository root). Budget: the overview's calls answer p99 ≤ 50 ms at 200
 * concurrent clients on a plant with a year of 5-minute history, served from rollups and latest
 * values, never a scan.
 *
 * A file-backed SQLite store in a temp folder: one plant (Europe/Madrid, time-of-use prices)
 * with 2 hybrid inverters, a meter and a battery, a year of 5-minute samples of each (≈ 420,000
 * rows), their device and plant day rows and latest values; 2,000 other plants of other owners,
 * each with an inverter, a year of day rows (730,000 in all) and events, so the plant's rows are a
 * small part of every table. Bulk inserts straight through better-sqlite3. Bulk inserts straight through
 * better-sqlite3. Then the real server on a loopback port and the load in a worker thread:
 * - cold: each call once on an empty cache (the time-of-use incomes of the year are computed and
 *   kept then; the day curve of today is computed);
 * - closed loop: per call, 200 clients each sending the next request as soon as the last answered;
 * - page loads: 200 clients each loading the overview (the 8 calls at once) and pausing
 *   BENCH_THINK_MS on average (default 2000) between loads, as people with the page open do.
 *   The first 2 × BENCH_THINK_MS are a warm-up, reported apart: every client loads once and
 *   opens its connections (a browser keeps them from the page before).
 * Then EXPLAIN QUERY PLAN of every distinct statement the calls ran: no sample, day-row or event
 * table may be scanned.
 *
 * Env: BENCH_SECONDS (default 8 per run), BENCH_CONCURRENCY (default 200), BENCH_THINK_MS,
 * BENCH_DIR (keep the store there: seeded once, reused after; its caches are then warm).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import SQLite from 'better-sqlite3';
import { Kysely, SqliteDialect } from 'kysely';
import { keepStatements, migrate } from '../src/db/index.ts';
import type { Database } from '../src/db/schema.ts';
import { refreshPlantSummary } from '../src/energy/plant-summary.ts';
import { hashPassword } from '../src/modules/auth/passwords.ts';
import { localDay } from '../src/time/index.ts';
import * as bench from './kit.ts';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 2000);
const OTHER_PLANTS = 2000;
const ZONE = 'Europe/Madrid';
const STEP = 300_000;
const YEAR = 365 * 86_400_000;

const keep = process.env.BENCH_DIR;
const dir = keep ?? fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-overview-bench-'));
fs.mkdirSync(dir, { recursive: true });
const file = path.join(dir, 'store.sqlite');
const reuse = !!keep && fs.existsSync(file);
const log = bench.stopwatch();

// The server's own connection, with every statement's SQL text noted while `capture` is on.
let capture = false;
const statements = new Set<string>();
const sqlite = new SQLite(file, { verbose: (s) => capture && statements.add(String(s)) });
sqlite.pragma('journal_mode = WAL');
sqlite.pragma('synchronous = NORMAL');
sqlite.pragma('foreign_keys = ON');
sqlite.pragma('busy_timeout = 5000');
const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: keepStatements(sqlite) }) });
await migrate(db);

// ——— seed ———
const now = Date.now();
let plantId = 1;
if (!reuse) plantId = await seed();

async function seed(): Promise<number> {
  const raw = new SQLite(file);
  raw.pragma('synchronous = OFF');
  const hash = await hashPassword(bench.PASSWORD, 'test');
  const ins = {
    user: raw.prepare("insert into users (account, password_hash, kind, created_at, updated_at) values (?, ?, 'end_user', ?, ?)"),
    plant: raw.prepare(
      'insert into plants (name, type, capacity, owner_user_id, timezone, status, currency, valuation_method, price, price_segments, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    gateway: raw.prepare(
      "insert into gateways (sn, secret_hash, claim_key_hash, plant_id, online, upload_interval_s, created_at, updated_at) values (?, 'x', 'x', ?, 1, 300, ?, ?)",
    ),
    device: raw.prepare(
      "insert into devices (sn, gateway_id, plant_id, kind, protocol_id, status, created_at, updated_at) values (?, ?, ?, ?, ?, 'normal', ?, ?)",
    ),
    inverterSample: raw.prepare(
      "insert into inverter_samples (device_id, ts, power_w, pv_power_w, grid_power_w, load_power_w, battery_power_w, soc, temperature_c, pv_total_wh, raw) values (?, ?, ?, ?, ?, ?, ?, ?, 40, ?, '[]')",
    ),
    meterSample: raw.prepare(
      "insert into meter_samples (device_id, ts, power_w, import_total_wh, export_total_wh, raw) values (?, ?, ?, ?, ?, '[]')",
    ),
    batterySample: raw.prepare(
      "insert into battery_samples (device_id, ts, power_w, voltage_v, current_a, soc, soh, temperature_max_c, raw) values (?, ?, ?, 51.2, 0, ?, 98, 25, '[]')",
    ),
    latest: raw.prepare('insert into device_latest (device_id, ts, "values", updated_at) values (?, ?, ?, ?)'),
    deviceDay: raw.prepare(
      'insert into device_day (device_id, day, pv_wh, load_wh, grid_import_wh, grid_export_wh, charge_wh, discharge_wh, peak_power_w, min_soc, max_soc, first_ts, last_ts, samples, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    plantDay: raw.prepare(
      'insert into plant_day (plant_id, day, pv_wh, load_wh, grid_import_wh, grid_export_wh, charge_wh, discharge_wh, peak_power_w, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    ),
    event: raw.prepare(
      "insert into events (plant_id, sn, source, code, level, text_en, text_es, started_at, ended_at, created_at) values (?, ?, 'device', ?, ?, 'Grid overvoltage', 'Sobretensión de red', ?, ?, ?)",
    ),
  };
  const segments = JSON.stringify([
    { start: '00:00', end: '08:00', price: 0.1 },
    { start: '08:00', end: '18:00', price: 0.3 },
    { start: '18:00', end: '23:59', price: 0.2 },
  ]);

  let plantId = 0;
  const ids: { inv: number[]; meter: number; battery: number } = { inv: [], meter: 0, battery: 0 };
  raw.transaction(() => {
    const owner = Number(ins.user.run('owner@bench.local', hash, now, now).lastInsertRowid);
    plantId = Number(
      ins.plant.run('Bench overview plant', 1, 20, owner, ZONE, 'normal', 'EUR', 'tou', null, segments, now - YEAR, now - YEAR)
        .lastInsertRowid,
    );
    const gw = Number(ins.gateway.run('BOVGW1', plantId, now, now).lastInsertRowid);
    for (const [sn, kind, protocol] of [
      ['BOVINV1', 'inverter', 'sunfleet-hybrid-3p'],
      ['BOVINV2', 'inverter', 'sunfleet-hybrid-3p'],
      ['BOVMET1', 'meter', 'sunfleet-meter-3p'],
      ['BOVBAT1', 'battery', 'sunfleet-battery'],
    ] as const) {
      const id = Number(ins.device.run(sn, gw, plantId, kind, protocol, now, now).lastInsertRowid);
      if (kind === 'inverter') ids.inv.push(id);
      else if (kind === 'meter') ids.meter = id;
      else ids.battery = id;
    }
    // Other owners' plants with events over the last month, one within the hour each.
    for (let i = 0; i < OTHER_PLANTS; i++) {
      const u = Number(ins.user.run(`other${i}@bench.local`, hash, now, now).lastInsertRowid);
      const p = Number(
        ins.plant.run(`Other plant ${i}`, 0, 5, u, 'UTC', 'normal', 'EUR', 'constant', 0.2, '[]', now, now).lastInsertRowid,
      );
      // A gateway, an inverter with latest values and a year of day rows each, as a real fleet has.
      const g = Number(ins.gateway.run(`BOGW${i}`, p, now, now).lastInsertRowid);
      const inv = Number(ins.device.run(`BOINV${i}`, g, p, 'inverter', 'sunfleet-string-3p', now, now).lastInsertRowid);
      ins.latest.run(inv, now - 60_000, JSON.stringify({ activePower: (i * 37) % 5000 }), now);
      for (let d = 0; d < 365; d++) {
        const day = new Date(now - d * 86_400_000).toISOString().slice(0, 10);
        ins.plantDay.run(p, day, 1000 + ((i + d * 13) % 40_000), 0, 0, 0, 0, 0, 5000, now);
      }
      for (let k = 0; k < 5; k++) {
        const started = now - (k + 1) * 5 * 86_400_000;
        ins.event.run(p, `O${i}`, 'E01', 'warning', started, started + 600_000, now);
      }
      ins.event.run(p, `O${i}`, 'E02', 'fault', now - (i % 60) * 60_000, null, now);
    }
    for (let k = 0; k < 12; k++)
      ins.event.run(plantId, 'BOVINV1', `E${k}`, k % 3 ? 'warning' : 'fault', now - k * 4 * 60_000, null, now);
    for (let k = 0; k < 500; k++) {
      const started = now - 2 * 3_600_000 - k * 3_600_000;
      ins.event.run(plantId, 'BOVINV2', 'E01', 'warning', started, started + 600_000, now);
    }
  })();

  // A year of 5-minute samples, day rows summed on the way.
  type DayAcc = {
    pv: number;
    load: number;
    imp: number;
    exp: number;
    chg: number;
    dis: number;
    peak: number;
    first: number;
    last: number;
    n: number;
  };
  const dayAcc = new Map<string, DayAcc>(); // `${deviceId}|${day}`
  const acc = (deviceId: number, day: string, ts: number) => {
    const key = `${deviceId}|${day}`;
    let a = dayAcc.get(key);
    if (!a) {
      a = { pv: 0, load: 0, imp: 0, exp: 0, chg: 0, dis: 0, peak: 0, first: ts, last: ts, n: 0 };
      dayAcc.set(key, a);
    }
    a.last = ts;
    a.n++;
    return a;
  };
  const counters = { pv: [1_000_000, 2_000_000], imp: 100_000, exp: 200_000 };
  let soc = 50;
  const last: { inv: Record<string, number>[]; meter: Record<string, number>; battery: Record<string, number> } = {
    inv: [{}, {}],
    meter: {},
    battery: {},
  };
  let lastTs = 0;
  const start = Math.floor((now - YEAR) / STEP) * STEP;
  let rows = 0;
  const writeChunk = raw.transaction((from: number, to: number) => {
    for (let ts = from; ts < to; ts += STEP) {
      const day = localDay(ZONE, ts);
      const hour = (((ts / 3_600_000 + 1) % 24) + 24) % 24; // Madrid, roughly: the shape only
      const sun = Math.max(0, Math.sin((Math.PI * (hour - 6.5)) / 13)) * (0.75 + 0.25 * Math.sin(ts / 7_777_777));
      const loadW = 600 + 900 * Math.max(0, Math.sin((Math.PI * (hour - 16)) / 8));
      let pvTotal = 0;
      let batteryW = 0;
      for (let i = 0; i < 2; i++) {
        const pv = Math.round(sun * (i === 0 ? 6000 : 4500));
        const out = Math.round(pv * 0.97);
        let batW = 0; // the first inverter has the battery: charges by day, discharges by night
        if (i === 0) {
          const want = sun > 0.3 ? -Math.min(2000, Math.max(0, out - loadW / 2)) : Math.min(1500, loadW / 2);
          if ((want < 0 && soc < 98) || (want > 0 && soc > 10)) batW = Math.round(want);
        }
        batteryW += batW;
        counters.pv[i]! += (pv * STEP) / 3_600_000;
        const gridExport = Math.round(out - loadW / 2); // + export (hybrid register)
        ins.inverterSample.run(
          ids.inv[i],
          ts,
          out,
          pv,
          gridExport,
          Math.round(loadW / 2),
          batW,
          i === 0 ? soc : null,
          counters.pv[i],
        );
        const a = acc(ids.inv[i]!, day, ts);
        a.pv += (pv * STEP) / 3_600_000;
        a.load += (loadW / 2) * (STEP / 3_600_000);
        if (batW < 0) a.chg += (-batW * STEP) / 3_600_000;
        else a.dis += (batW * STEP) / 3_600_000;
        a.peak = Math.max(a.peak, out);
        last.inv[i] = {
          pv1Power: pv,
          pv2Power: 0,
          activePower: out,
          gridActivePower: gridExport,
          loadPower: Math.round(loadW / 2),
          batteryPower: batW,
          batterySoc: i === 0 ? soc : 0,
          pvEnergyTotal: counters.pv[i]! / 1000,
        };
        pvTotal += out;
      }
      soc = Math.max(5, Math.min(100, soc - (batteryW * STEP) / 3_600_000 / 100));
      const gridW = Math.round(loadW - pvTotal - batteryW); // + import
      if (gridW > 0) counters.imp += (gridW * STEP) / 3_600_000;
      else counters.exp += (-gridW * STEP) / 3_600_000;
      ins.meterSample.run(ids.meter, ts, gridW, counters.imp, counters.exp);
      const m = acc(ids.meter, day, ts);
      if (gridW > 0) m.imp += (gridW * STEP) / 3_600_000;
      else m.exp += (-gridW * STEP) / 3_600_000;
      ins.batterySample.run(ids.battery, ts, batteryW, Math.round(soc));
      acc(ids.battery, day, ts);
      last.meter = { activePower: gridW, importEnergy: counters.imp / 1000, exportEnergy: counters.exp / 1000 };
      last.battery = { power: batteryW, soc: Math.round(soc), soh: 98 };
      lastTs = ts;
      rows += 4;
    }
  });
  for (let from = start; from < now; from += 86_400_000) writeChunk(from, Math.min(now, from + 86_400_000));
  raw.transaction(() => {
    const plantDays = new Map<string, DayAcc>();
    for (const [key, a] of dayAcc) {
      const [deviceId, day] = key.split('|') as [string, string];
      ins.deviceDay.run(
        Number(deviceId),
        day,
        a.pv,
        a.load,
        a.imp,
        a.exp,
        a.chg,
        a.dis,
        a.peak || null,
        null,
        null,
        a.first,
        a.last,
        a.n,
        now,
      );
      let p = plantDays.get(day);
      if (!p) {
        p = { pv: 0, load: 0, imp: 0, exp: 0, chg: 0, dis: 0, peak: 0, first: 0, last: 0, n: 0 };
        plantDays.set(day, p);
      }
      p.pv += a.pv;
      p.load += a.load;
      p.imp += a.imp;
      p.exp += a.exp;
      p.chg += a.chg;
      p.dis += a.dis;
      p.peak += a.peak;
    }
    for (const [day, p] of plantDays)
      ins.plantDay.run(plantId, day, p.pv, p.load, p.imp, p.exp, p.chg, p.dis, p.peak, now - 60_000);
    ins.latest.run(ids.inv[0], lastTs, JSON.stringify(last.inv[0]), now);
    ins.latest.run(ids.inv[1], lastTs, JSON.stringify(last.inv[1]), now);
    ins.latest.run(ids.meter, lastTs, JSON.stringify(last.meter), now);
    ins.latest.run(ids.battery, lastTs, JSON.stringify(last.battery), now);
  })();
  raw.pragma('wal_checkpoint(TRUNCATE)');
  raw.exec('analyze');
  raw.close();
  await refreshPlantSummary(db, [plantId]);
  log(
    `seeded: ${rows} samples (4 devices × a year of 5 minutes), ${dayAcc.size} device days, ${OTHER_PLANTS} other plants with ${OTHER_PLANTS * 365} day rows`,
  );
  return plantId;
}

// ——— server ———
const { app, base, token: tokenOf, close } = await bench.serve({ dir, db, dialect: 'sqlite' });
const token = await tokenOf('owner@bench.local');
const headers = { authorization: `Bearer ${token}` };

const calls: Array<[string, string]> = [
  ['realtime', `/api/v1/plant/${plantId}/realtime`],
  ['energy flow', `/api/v1/plant/energy/${plantId}/flow`],
  ['power/day (today)', `/api/v1/plant/${plantId}/power/day`],
  ['power/month', `/api/v1/plant/${plantId}/power/month`],
  ['power/year', `/api/v1/plant/${plantId}/power/year`],
  ['energy/day', `/api/v1/plant/energy/${plantId}/day`],
  ['generation/use', `/api/v1/plant/energy/${plantId}/generation/use`],
  ['event/oneHour', '/api/v1/event/oneHour'],
];

// Cold: each call once on empty caches, noting the statements they run.
capture = true;
for (const [name, url] of calls) {
  const t = performance.now();
  const res = (await (await fetch(`${base}${url}`, { headers })).json()) as { code: number; data: unknown };
  if (res.code !== 0) throw new Error(`${url}: ${JSON.stringify(res)}`);
  const summary = JSON.stringify(res.data).slice(0, 140);
  log(`cold ${name}: ${(performance.now() - t).toFixed(1)} ms  ${summary}`);
}
capture = false;

// Warm service time: each call 200 times in a row through app.inject (no network, no concurrency).
const service: Array<[string, number, number]> = [];
for (const [name, url] of calls) {
  const times: number[] = [];
  for (let i = 0; i < 200; i++) {
    const t = performance.now();
    await app.inject({ method: 'GET', url, headers });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  service.push([name, times[100]!, times[198]!]);
}

// ——— load ———
const loadModule = new URL('../../../bench/load.mjs', import.meta.url).href;
const workerCode = `
const { parentPort, workerData } = require('node:worker_threads');
const http = require('node:http');
const pct = (list, p) => +(list[Math.min(list.length - 1, Math.floor((p / 100) * list.length))] ?? 0).toFixed(2);
async function pageLoads({ base, urls, headers, clients, seconds, thinkMs }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: clients * urls.length });
  const latencies = urls.map(() => []); const warm = []; let errors = 0; let loads = 0;
  // Warm-up, not counted: every client loads the page at least once, opening its connections.
  const counted = Date.now() + 2 * thinkMs;
  const end = counted + seconds * 1000;
  const one = (url, k) => new Promise((resolve) => {
    const sent = Date.now();
    const t0 = process.hrtime.bigint();
    const req = http.request(base + url, { agent, headers }, (res) => {
      res.resume();
      res.on('end', () => { const ms = Number(process.hrtime.bigint() - t0) / 1e6; (sent >= counted ? latencies[k] : warm).push(ms); if (res.statusCode !== 200) errors++; resolve(); });
    });
    req.on('error', () => { errors++; resolve(); });
    req.end();
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));
  await Promise.all(Array.from({ length: clients }, async () => {
    await sleep(Math.random() * thinkMs);
    while (Date.now() < end) { const at = Date.now(); await Promise.all(urls.map(one)); if (at >= counted) loads++; await sleep(-Math.log(1 - Math.random()) * thinkMs); }
  }));
  agent.destroy();
  warm.sort((a, b) => a - b);
  const warmUp = { requests: warm.length, p50: pct(warm, 50), p99: pct(warm, 99), max: pct(warm, 100) };
  return { warmUp, calls: latencies.map((l) => { l.sort((a, b) => a - b); return { requests: l.length, p50: pct(l, 50), p99: pct(l, 99), max: pct(l, 100), errors, loads }; }) };
}
import(workerData.loadModule).then(async ({ load }) => {
  const closed = [];
  for (const [name, url] of workerData.calls) {
    closed.push({ name, ...(await load({ url: workerData.base + url, headers: workerData.headers, concurrency: workerData.clients, seconds: workerData.seconds })) });
  }
  parentPort.postMessage({ phase: 'paced' });
  const { monitorEventLoopDelay } = require('node:perf_hooks');
  const loop = monitorEventLoopDelay({ resolution: 5 });
  loop.enable();
  const paced = await pageLoads({ base: workerData.base, urls: workerData.calls.map((c) => c[1]), headers: workerData.headers, clients: workerData.clients, seconds: workerData.seconds * 2, thinkMs: workerData.thinkMs });
  loop.disable();
  parentPort.postMessage({ closed, paced, loop: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 } });
});`;
const worker = new Worker(workerCode, {
  eval: true,
  workerData: { loadModule, base, headers, calls, clients: CONCURRENCY, seconds: SECONDS, thinkMs: THINK_MS },
});
// The server's event-loop delay while the pages load (a stall there delays every call in flight).
const serverLoop = monitorEventLoopDelay({ resolution: 5 });
const results = await new Promise<{
  closed: Array<{ name: string; rps: number; p50: number; p99: number; max: number; errors: number }>;
  paced: {
    warmUp: { requests: number; p50: number; p99: number; max: number };
    calls: Array<{ requests: number; p50: number; p99: number; max: number; errors: number; loads: number }>;
  };
  loop: { p99: number; max: number };
}>((resolve, reject) => {
  worker.on('message', (m: { phase?: string }) => {
    if (m.phase === 'paced') serverLoop.enable();
    else resolve(m as never);
  });
  worker.once('error', reject);
});
serverLoop.disable();
await worker.terminate();

console.log(
  `\n${os.cpus().length} cores, load average ${os.loadavg()[0]!.toFixed(1)}, Node ${process.version}; server and load generator in one process, two threads; SQLite file store`,
);
console.log('\nWarm service time, one call at a time (app.inject, 200 calls each)');
console.log('| call | p50 ms | p99 ms |\n|---|---|---|');
for (const [name, p50, p99] of service) console.log(`| ${name} | ${p50.toFixed(2)} | ${p99.toFixed(2)} |`);
console.log(
  `\nPage loads: ${CONCURRENCY} clients each loading the overview (${calls.length} calls at once), then pausing ${THINK_MS} ms on average; ${SECONDS * 2} s counted after a ${(2 * THINK_MS) / 1000} s warm-up, ${results.paced.calls[0]?.loads ?? 0} page loads`,
);
console.log(
  `Event-loop delay meanwhile: server p99 ${(serverLoop.percentile(99) / 1e6).toFixed(1)} ms, max ${(serverLoop.max / 1e6).toFixed(1)} ms; load generator p99 ${results.loop.p99.toFixed(1)} ms, max ${results.loop.max.toFixed(1)} ms`,
);
console.log('| call | requests | p50 ms | p99 ms | max ms | errors |\n|---|---|---|---|---|---|');
results.paced.calls.forEach((r, k) => {
  console.log(`| ${calls[k]![0]} | ${r.requests} | ${r.p50} | ${r.p99} | ${r.max} | ${k === 0 ? r.errors : ''} |`);
});
const w = results.paced.warmUp;
console.log(`| (warm-up, not counted: all calls) | ${w.requests} | ${w.p50} | ${w.p99} | ${w.max} | |`);
console.log(
  `\nClosed loop: ${CONCURRENCY} clients per call, each sending its next request as soon as the last answered; ${SECONDS} s each`,
);
console.log('| call | req/s | p50 ms | p99 ms | max ms | errors |\n|---|---|---|---|---|---|');
for (const r of results.closed) console.log(`| ${r.name} | ${r.rps} | ${r.p50} | ${r.p99} | ${r.max} | ${r.errors} |`);

// ——— query plans ———
console.log('\nQuery plans of the statements the calls ran, one of each shape (EXPLAIN QUERY PLAN):');
const heavy =
  /\b(inverter_samples|meter_samples|battery_samples|weather_samples|device_day|plant_day|plant_day_income|events|plant_forecast)\b/;
let scans = 0;
const shapes = new Set<string>();
for (const text of statements) {
  if (!/^\s*select/i.test(text)) continue;
  const shape = text.replace(/'[^']*'/g, '?').replace(/\b\d+(\.\d+)?\b/g, '?');
  if (shapes.has(shape)) continue;
  shapes.add(shape);
  const params = (text.match(/\?/g) ?? []).map(() => 1);
  let plan: { detail: string }[];
  try {
    plan = sqlite.prepare(`explain query plan ${text}`).all(...params) as { detail: string }[];
  } catch {
    continue;
  }
  const bad = plan.filter((p) => /^SCAN /.test(p.detail) && heavy.test(p.detail));
  scans += bad.length;
  console.log(`\n${text.replace(/\s+/g, ' ').slice(0, 240)}${text.length > 240 ? ' …' : ''}`);
  for (const p of plan.slice(0, 12)) console.log(`   ${bad.includes(p) ? '!! ' : ''}${p.detail}`);
  if (plan.length > 12)
    console.log(`   … ${plan.length - 12} more lines (${bad.length === 0 ? 'no scans' : `${bad.length} scans`})`);
}
console.log(`\n${scans === 0 ? 'No' : scans} full scans of sample, day-row or event tables.`);

await close();
if (!keep) fs.rmSync(dir, { recursive: true, force: true });
