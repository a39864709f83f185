/**
 * Device lists and the inverter day chart under load:
 * `npx tsx apps/server/bench/devices.bench.ts` (from the repository root).
 *
 * A file-backed SQLite store in a temp folder with 50,000 devices: 10,000 plants (2,000 owners
 * whose agent is one installer company), one gateway each, behind it three inverters, a battery
 * and a meter or a weather station; latest values for every device (the JSON of a real decoded
 * frame), today's and 30 days of day rollups for every inverter, and a day of 5-minute samples
 * (288, with their real register blocks) for 100 inverters. Then the real server on a loopback
 * port, and the load generator (bench/load.mjs) in a worker thread.
 *
 * Budgets: each list call p99 ≤ 100 ms at 200 concurrent clients; an inverter day
 * chart (288 points × 6 parameters) p99 ≤ 50 ms. Each scenario runs closed loop (200 clients,
 * each sending its next request as soon as the last answered: the server's saturation) and
 * paced (200 clients pausing BENCH_THINK_MS on average between requests, as people with the
 * page open do).
 *
 * Env: BENCH_SECONDS (default 5), BENCH_CONCURRENCY (default 200), BENCH_THINK_MS (default
 * 2000), BENCH_PLANTS (default 10000), BENCH_DIR (keep the store there and reuse it), BENCH_ONLY
 * (a substring of the scenario names to run).
 */
import { registersToHex } from '@sunfleet/contracts';
import { type InputValue, protocolPlan } from '@sunfleet/protocols';
import { decodeRaw } from '../src/modules/devices/charts.ts';
import { dayBounds, localDay } from '../src/time/index.ts';
import * as bench from './kit.ts';

const PLANTS = Number(process.env.BENCH_PLANTS ?? 10_000);
const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONCURRENCY = Number(process.env.BENCH_CONCURRENCY ?? 200);
const THINK_MS = Number(process.env.BENCH_THINK_MS ?? 2000);
const ONLY = process.env.BENCH_ONLY;
const ZONE = 'Europe/Madrid';
const CHARTED = 100;
const HYBRID = 'sunfleet-hybrid-3p';

const store = await bench.openStore('devices');
const { db, reuse } = store;
const log = bench.stopwatch();

/** A real frame of the protocol: its register blocks (as `raw`) and its latest-values JSON. */
function frame(protocol: string, values: Record<string, InputValue>) {
  const plan = protocolPlan(protocol)!;
  const blocks = plan.encode(values, { groups: ['info', 'realtime'] });
  const raw = JSON.stringify(blocks.map((b) => [b.functionCode, b.address, registersToHex(b.registers)]));
  const decoded = plan.decode(blocks).values;
  const latest = JSON.stringify(Object.fromEntries(Object.entries(decoded).filter(([, v]) => v !== null)));
  return { raw, latest };
}

const chartDay = localDay(ZONE, Date.now() - 86_400_000);

if (!reuse) {
  const raw = bench.bulkWriter(store.file);
  const now = Date.now();
  const owners = Math.max(1, Math.floor(PLANTS / 5));
  const { ownerIds } = await bench.seedInstallerCompany(
    raw,
    ['station.view', 'equip.view', 'gateway.view', 'inverter.view', 'battery.list.view', 'meter.view', 'weather.view'],
    owners,
    now,
  );
  const insertPlant = raw.prepare(
    'insert into plants (name, type, capacity, owner_user_id, timezone, status, created_at, updated_at) values (?, 1, 20, ?, ?, ?, ?, ?)',
  );
  const insertGateway = raw.prepare(
    "insert into gateways (sn, secret_hash, claim_key_hash, plant_id, online, rssi, comm_type, last_online_at, last_seen_at, created_at, updated_at) values (?, 'x', 'x', ?, ?, ?, ?, ?, ?, ?, ?)",
  );
  const insertDevice = raw.prepare(
    'insert into devices (sn, gateway_id, plant_id, kind, protocol_id, device_type, rated_power_w, status, last_ts, created_at, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const insertLatest = raw.prepare(
    'insert into device_latest (device_id, ts, "values", faults, updated_at) values (?, ?, ?, ?, ?)',
  );
  const insertDay = raw.prepare(
    'insert into device_day (device_id, day, pv_wh, grid_import_wh, grid_export_wh, peak_power_w, first_ts, last_ts, samples, updated_at) values (?, ?, ?, ?, ?, ?, ?, ?, 288, ?)',
  );
  const insertSample = raw.prepare(
    'insert into inverter_samples (device_id, ts, power_w, pv_power_w, grid_power_w, load_power_w, battery_power_w, soc, temperature_c, pv_total_wh, raw) values (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
  );
  const statuses = ['normal', 'normal', 'normal', 'normal', 'normal', 'offline', 'warning', 'fault'];
  const types = [93, 93, 94, 2, 3, 1];
  const latestOf = {
    inverter: (i: number) =>
      frame(HYBRID, { serialNumber: `BINV${i}`, deviceType: 93, activePower: (i * 37) % 9000, pvEnergyTotal: i }),
    battery: (i: number) =>
      frame('sunfleet-battery', { serialNumber: `BBAT${i}`, slavePackCount: i % 4, soc: i % 101, soh: 90 + (i % 11) }),
    meter: (i: number) =>
      frame('sunfleet-meter-3p', { serialNumber: `BMET${i}`, activePower: (i % 2000) - 1000, importEnergy: i }),
    weather: (i: number) => frame('sunfleet-weather', { serialNumber: `BWEA${i}`, irradiance: i % 1200 }),
  };
  const days = Array.from({ length: 30 }, (_, d) => localDay(ZONE, now - d * 86_400_000));
  const perTx = 250;
  let inverterCount = 0;
  for (let start = 0; start < PLANTS; start += perTx) {
    raw.transaction(() => {
      for (let p = start; p < Math.min(PLANTS, start + perTx); p++) {
        const created = now - (PLANTS - p) * 60_000;
        const plantId = Number(
          insertPlant.run(`Plant ${String(p).padStart(5, '0')}`, ownerIds[p % owners], ZONE, statuses[p % 8], created, created)
            .lastInsertRowid,
        );
        const gatewayId = Number(
          insertGateway.run(`BGW${p}`, plantId, p % 10 ? 1 : 0, -50 - (p % 60), p % 3 ? 'wifi' : '4g', now, now, created, created)
            .lastInsertRowid,
        );
        const kinds: Array<['inverter' | 'battery' | 'meter' | 'weather', string]> = [
          ['inverter', HYBRID],
          ['inverter', HYBRID],
          ['inverter', HYBRID],
          ['battery', 'sunfleet-battery'],
          p % 2 ? ['weather', 'sunfleet-weather'] : ['meter', 'sunfleet-meter-3p'],
        ];
        for (const [k, [kind, protocol]] of kinds.entries()) {
          const i = p * 5 + k;
          const isInverter = kind === 'inverter';
          const status = statuses[i % 8]!;
          const deviceId = Number(
            insertDevice.run(
              `B${kind.slice(0, 3).toUpperCase()}${String(i).padStart(6, '0')}`,
              gatewayId,
              plantId,
              kind,
              protocol,
              isInverter ? types[i % types.length] : null,
              isInverter ? 5000 + (i % 5) * 1000 : null,
              status,
              now,
              created,
              created,
            ).lastInsertRowid,
          );
          const { latest } = latestOf[kind](i);
          insertLatest.run(deviceId, now - (i % 300) * 1000, latest, status === 'fault' ? '["pvOvervoltage"]' : '[]', now);
          if (isInverter) {
            for (const day of days)
              insertDay.run(deviceId, day, 1000 + ((i * 7 + day.length) % 30_000), 0, 0, 5000, now, now, now);
            if (inverterCount++ < CHARTED) {
              const { start: from } = dayBounds(ZONE, chartDay);
              for (let s = 0; s < 288; s++) {
                const ts = from + s * 300_000;
                const f = frame(HYBRID, {
                  serialNumber: `BINV${i}`,
                  deviceType: 93,
                  activePower: 3000 + s,
                  pv1Voltage: 300 + (s % 50),
                  pv1Current: 8,
                  pv1Power: 2400,
                  gridVoltageL1: 230,
                  batterySoc: 50,
                  pvEnergyTotal: 1000 + s / 10,
                });
                insertSample.run(deviceId, ts, 3000 + s, 2400, 100, 2500, -200, 50, 40, (1000 + s / 10) * 1000, f.raw);
              }
            }
          }
        }
      }
    })();
  }
  bench.finishBulk(raw);
  log(`${PLANTS} plants, ${PLANTS * 5} devices, ${inverterCount * 30} inverter day rows, ${CHARTED * 288} samples written`);
}

// The decoder's own cost for a chart day (what a parameter outside the sample columns costs).
{
  const chartedId = (
    await db.selectFrom('devices').select('id').where('kind', '=', 'inverter').orderBy('id').limit(1).executeTakeFirstOrThrow()
  ).id;
  const { start: from, end: to } = dayBounds(ZONE, chartDay);
  const rows = await db
    .selectFrom('inverter_samples')
    .select('raw')
    .where('device_id', '=', chartedId)
    .where('ts', '>=', from)
    .where('ts', '<', to)
    .execute();
  const plan = protocolPlan(HYBRID)!;
  const runs: number[] = [];
  for (let r = 0; r < 200; r++) {
    const start = process.hrtime.bigint();
    for (const row of rows) decodeRaw(plan, row.raw);
    runs.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  runs.sort((a, b) => a - b);
  log(
    `decoding ${rows.length} stored frames (${Math.round(rows[0]!.raw.length)} chars of raw each): p50 ${runs[100]!.toFixed(2)} ms, p99 ${runs[198]!.toFixed(2)} ms`,
  );
}

const { base, token, getData, close } = await bench.serve(store);
const installer = await token('installer@bench.local');
const admin = await token('admin@bench.local');
const owner = await token('owner0@bench.local');
const charted = (
  await db.selectFrom('devices').select('sn').where('kind', '=', 'inverter').orderBy('id').limit(1).executeTakeFirstOrThrow()
).sn;

const check = async (url: string, auth: string) => {
  const d = await getData<{ total?: number; list?: unknown[]; times?: unknown[]; series?: unknown[] }>(url, auth);
  if (d.list) return `${d.total} rows, ${d.list.length} on the page`;
  if (d.series) return `${d.times?.length} points × ${d.series.length} parameters`;
  return JSON.stringify(d);
};

const sixParams = ['activePower', 'pvPower', 'batterySoc', 'pv1Voltage', 'pv1Current', 'gridVoltageL1'];
const scenarios: bench.Scenario[] = [
  ['sysadmin: inverters, page 1 (SN order)', '/api/v1/inverters?page=1&size=20', admin],
  ['installer: inverters, page 1', '/api/v1/inverters?page=1&size=20', installer],
  ['installer: inverters, page 500', '/api/v1/inverters?page=500&size=20', installer],
  ['installer: inverters by power', '/api/v1/inverters?size=20&sort=power&order=2', installer],
  ['installer: inverters by today’s energy', '/api/v1/inverters?size=20&sort=todayEnergy&order=2', installer],
  ['installer: inverters, status fault', '/api/v1/inverters?size=20&status=fault', installer],
  ['installer: inverters, type micro', '/api/v1/inverters?size=20&type=micro', installer],
  ['installer: inverters, SN search', '/api/v1/inverters?size=20&keyword=inv00012', installer],
  ['installer: inverters/count', '/api/v1/inverters/count', installer],
  ['installer: batteries', '/api/v1/batteries?size=20', installer],
  ['installer: batteries by SOC', '/api/v1/batteries?size=20&sort=soc', installer],
  ['installer: batteries/count', '/api/v1/batteries/count', installer],
  ['installer: meters', '/api/v1/meters?size=20', installer],
  ['installer: meter/status/count', '/api/v1/meter/status/count', installer],
  ['installer: meteorological', '/api/v1/meteorological?size=20', installer],
  ['installer: meteorological/status/count', '/api/v1/meteorological/status/count', installer],
  ['installer: gateways', '/api/v1/gateways?size=20', installer],
  ['installer: gateways by RSSI', '/api/v1/gateways?size=20&sort=rssi&order=2', installer],
  ['installer: gateways/count', '/api/v1/gateways/count', installer],
  ['owner: inverters', '/api/v1/inverters?size=20', owner],
  [
    'chart: inverter day, 6 parameters (3 stored, 3 decoded)',
    `/api/v1/inverter/${charted}/day?date=${chartDay}&${sixParams.map((p) => `params=${p}`).join('&')}`,
    installer,
  ],
  [
    'chart: inverter day, 6 stored parameters',
    `/api/v1/inverter/${charted}/day?date=${chartDay}&params=activePower&params=pvPower&params=gridActivePower&params=loadPower&params=batteryPower&params=batterySoc`,
    installer,
  ],
];
const selected = scenarios.filter(([name]) => !ONLY || name.includes(ONLY));
for (const [name, url, auth] of selected) log(`${name}: ${await check(url, auth)}`);
// Warm up (JIT, statement and list caches) so the first scenario does not pay for all of them.
for (let round = 0; round < 20; round++) for (const [, url, auth] of selected) await check(url, auth);
log('warmed up');

const results = await bench.loadInWorker(
  base,
  selected,
  bench.soloClosedPaced(CONCURRENCY, SECONDS, THINK_MS, Math.max(2, SECONDS / 2)),
);
bench.printLoadReport(results, SECONDS);
await close();
store.cleanUp();
