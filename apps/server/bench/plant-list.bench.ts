/**
 * Plant list under load: `npx tsx apps/server/bench/plant-list.bench.ts` (from the
 * repository root). A file-backed SQLite store in a temp folder with 10,000 plants (2,000
 * owners whose agent is one installer company), one gateway and inverter per plant with latest
 * values, a year of day rollups per plant (3.65 M rows) and some open alarms; then the real
 * server on a loopback port, and the load generator (bench/load.mjs) in a worker thread so it
 * does not share the server's event loop. Budget: p50 ≤ 20 ms, p99 ≤ 100 ms.
 *
 * Env: BENCH_SECONDS (default 10), BENCH_CONCURRENCY (default 200), BENCH_PLANTS (default 10000),
 * BENCH_THINK_MS (default 2000: the paced clients' mean pause), BENCH_DIR (keep the store there).
 */

import { refreshPlantSummary } from '../src/energy/plant-summary.ts';
import { localDay } from '../src/time/index.ts';
import * as bench from './kit.ts';

const PLANTS = Number(process.env.BENCH_PLANTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const DAYS = 365;
const zones = ['Europe/Madrid', 'America/Mexico_City', 'Asia/Tokyo', 'UTC', 'Australia/Sydney', 'Pacific/Auckland'];
const statuses = ['normal', 'normal', 'normal', 'normal', 'offline', 'warning', 'fault', 'upgrading'];

// BENCH_DIR keeps the store between runs (made once, reused after).
const store = await bench.openStore('list');
const { db, reuse } = store;
const log = bench.stopwatch();

// Bulk data straight through better-sqlite3: prepared statements in a few big transactions.
if (!reuse) {
  const raw = bench.bulkWriter(store.file);
  const now = Date.now();
  const owners = Math.max(1, Math.floor(PLANTS / 5));
  const { ownerIds } = await bench.seedInstallerCompany(raw, ['station.view'], owners, now);
  const insertPlant = raw.prepare(
    'insert into plants (name, type, capacity, owner_user_id, timezone, status, latitude, longitude, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertGateway = raw.prepare(
    "insert into gateways (sn, secret_hash, claim_key_hash, plant_id, online, created_at, updated_at) values (?, 'x', 'x', ?, 1, ?, ?)",
  );
  const insertDevice = raw.prepare(
    "insert into devices (sn, gateway_id, plant_id, kind, protocol_id, status, created_at, updated_at) values (?, ?, ?, 'inverter', 'string-inverter', ?, ?, ?)",
  );
  const insertLatest = raw.prepare('insert into device_latest (device_id, ts, "values", updated_at) values (?, ?, ?, ?)');
  const insertDay = raw.prepare('insert into plant_day (plant_id, day, pv_wh, peak_power_w, updated_at) values (?, ?, ?, ?, ?)');
  const insertEvent = raw.prepare(
    "insert into events (plant_id, sn, source, code, level, text_en, text_es, started_at, created_at) values (?, ?, 'device', 'E01', ?, 'Fault', 'Fallo', ?, ?)",
  );
  // The year of days ending at each zone's today.
  const daysOf = new Map(
    zones.map((z) => [z, Array.from({ length: DAYS }, (_, d) => localDay(z, now - (DAYS - 1 - d) * 86_400_000))]),
  );
  const perTx = 500;
  for (let start = 0; start < PLANTS; start += perTx) {
    raw.transaction(() => {
      for (let i = start; i < Math.min(PLANTS, start + perTx); i++) {
        const zone = zones[i % zones.length]!;
        const status = statuses[i % statuses.length]!;
        const created = now - (PLANTS - i) * 60_000;
        const plantId = Number(
          insertPlant.run(
            `Plant ${String(i).padStart(5, '0')} ${['North', 'South', 'East', 'West'][i % 4]}`,
            i % 3,
            5 + (i % 97),
            ownerIds[i % owners],
            zone,
            status,
            36 + (i % 100) / 10,
            -6 + (i % 120) / 10,
            created,
            created,
          ).lastInsertRowid,
        );
        const gatewayId = Number(insertGateway.run(`BGW${i}`, plantId, now, now).lastInsertRowid);
        const deviceId = Number(insertDevice.run(`BINV${i}`, gatewayId, plantId, status, now, now).lastInsertRowid);
        insertLatest.run(
          deviceId,
          now - (i % 300) * 1000,
          JSON.stringify({ activePower: (i * 37) % 8000, pvEnergyTotal: i }),
          now,
        );
        for (const [d, day] of daysOf.get(zone)!.entries())
          insertDay.run(plantId, day, 1000 + ((i + d * 13) % 40_000), 5000, now);
        if (i % 20 === 0) insertEvent.run(plantId, `BINV${i}`, i % 40 === 0 ? 'fault' : 'warning', now, now);
      }
    })();
  }
  bench.finishBulk(raw);
  log(`${PLANTS} plants, ${owners} owners, ${PLANTS * DAYS} day rows written`);
}

if (!reuse) {
  const ids = (await db.selectFrom('plants').select('id').execute()).map((r) => r.id);
  await refreshPlantSummary(db, ids);
  log('latest values refreshed');
}

const { base, token, getData, close } = await bench.serve(store);
const installer = await token('installer@bench.local');
const owner = await token('owner0@bench.local');

const check = async (url: string, auth: string) => {
  const data = await getData<{ total: number; list: unknown[] }>(url, auth);
  return `${data.total} plants, ${data.list.length} on the page`;
};

const scenarios: bench.Scenario[] = [
  ['installer: page 1 (newest first)', '/api/v1/plants?page=1&size=20', installer],
  ['installer: name filter', '/api/v1/plants?page=1&size=20&name=plant%2001', installer],
  ['installer: sort todayEnergy', '/api/v1/plants?page=1&size=20&sort=todayEnergy&order=2', installer],
  ['installer: sort totalEnergy, page 50', '/api/v1/plants?page=50&size=20&sort=totalEnergy&order=2', installer],
  ['owner: page 1', '/api/v1/plants?page=1&size=20', owner],
];
for (const [name, url, auth] of scenarios) log(`${name}: ${await check(url, auth)}`);

// The load runs in a worker thread: closed loop (bench/load.mjs: each client sends its next
// request as soon as the last one answered) and paced (each client thinks THINK_MS on average
// between requests, as people with the list open do).
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 2000);
const results = await bench.loadInWorker(
  base,
  scenarios,
  bench.soloClosedPaced(CONCURRENCY, SECONDS, THINK_MS, Math.max(2, SECONDS / 4)),
);
bench.printLoadReport(results, SECONDS);
await close();
store.cleanUp();
