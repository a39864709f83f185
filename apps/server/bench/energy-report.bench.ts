/**
 * Energy report build time: `npx tsx apps/server/bench/energy-report.bench.ts` (from
 * the repository root; TEST_DATABASE_URL=postgres://… for PostgreSQL). One owner with
 * BENCH_PLANTS plants (default 100, all priced, so every plant asks `dayIncomes`) and 90 day
 * rows each; then the whole request through the app (checks, day rows, incomes, workbook,
 * .xlsx bytes), BENCH_RUNS times (default 5) after one warm-up. Prints the median and the
 * worst request, the build alone (without HTTP) and the part of it spent on incomes.
 */
import { performance } from 'node:perf_hooks';
import type { Caller } from '../src/access/caller.ts';
import { now } from '../src/db/index.ts';
import { energyReport } from '../src/modules/reports/aggregate.ts';
import { plantDayIncomes } from '../src/modules/reports/incomes.ts';
import { startServer } from '../test/harness.ts';

const PLANTS = Number(process.env.BENCH_PLANTS ?? 100);
const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const DAYS = 90;

const s = await startServer();
try {
  const owner = await s.user();
  const { access } = await s.login(owner.account);
  const end = new Date(Date.now() - 2 * 86_400_000).toISOString().slice(0, 10);
  const start = new Date(Date.parse(`${end}T00:00:00Z`) - (DAYS - 1) * 86_400_000).toISOString().slice(0, 10);
  const ids: number[] = [];
  const t = now();
  for (let p = 0; p < PLANTS; p++) {
    const id = (
      await s.db
        .insertInto('plants')
        .values({
          name: `Bench plant ${String(p).padStart(4, '0')}`,
          owner_user_id: owner.id,
          timezone: p % 2 ? 'Europe/Madrid' : 'America/Mexico_City',
          capacity: 5 + (p % 40),
          currency: 'EUR',
          price: 0.12,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirstOrThrow()
    ).id;
    ids.push(id);
    const rows = Array.from({ length: DAYS }, (_, d) => ({
      plant_id: id,
      day: new Date(Date.parse(`${start}T00:00:00Z`) + d * 86_400_000).toISOString().slice(0, 10),
      pv_wh: 20_000 + ((p * 31 + d * 17) % 20_000),
      load_wh: 15_000,
      grid_import_wh: 4_000,
      grid_export_wh: 9_000,
      charge_wh: 3_000,
      discharge_wh: 2_800,
      peak_power_w: 6_000,
      updated_at: t,
    }));
    await s.db.insertInto('plant_day').values(rows).execute();
  }
  const url = `/api/v1/plant/energy/aggregate?plantIds=${ids.join(',')}&startDate=${start}&endDate=${end}`;
  const times: number[] = [];
  let bytes = 0;
  for (let r = 0; r < RUNS + 1; r++) {
    const t0 = performance.now();
    const res = await s.app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${access}` } });
    const ms = performance.now() - t0;
    if (res.statusCode !== 200 || !String(res.headers['content-type']).includes('spreadsheetml')) throw new Error(res.body);
    bytes = res.rawPayload.length;
    if (r > 0) times.push(ms); // the first run warms up
  }
  times.sort((a, b) => a - b);
  // The build alone, without HTTP.
  const user = await s.db.selectFrom('users').selectAll().where('id', '=', owner.id).executeTakeFirstOrThrow();
  const caller: Caller = { user, sessionId: 'bench', grants: new Set(['station.view']) };
  const t1 = performance.now();
  await energyReport(s.db, caller, { plantIds: ids.join(','), startDate: start, endDate: end }, 'en');
  const t2 = performance.now();
  const plants = await s.db.selectFrom('plants').selectAll().where('id', 'in', ids).execute();
  await plantDayIncomes(s.db, plants, start, end);
  const t3 = performance.now();
  console.log(
    JSON.stringify({
      store: process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite',
      plants: PLANTS,
      days: DAYS,
      dailyRows: PLANTS * DAYS,
      bytes,
      requestMs: { median: Math.round(times[Math.floor(times.length / 2)]!), max: Math.round(times.at(-1)!) },
      buildMs: Math.round(t2 - t1),
      incomesMs: Math.round(t3 - t2),
    }),
  );
} finally {
  await s.close();
}
