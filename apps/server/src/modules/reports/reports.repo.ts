/** SQL of the reports' own reads (the energy they sum is read through src/energy). */
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';

/** What the generation download names of a plant (it exists). */
export const plantForDownload = (db: Db, id: number) =>
  db.selectFrom('plants').select(['id', 'name', 'timezone', 'currency']).where('id', '=', id).executeTakeFirstOrThrow();

/** The plants of these ids the caller sees. */
export const visiblePlantsByIds = (db: Db, caller: Caller, ids: number[]) =>
  db
    .selectFrom('plants')
    .selectAll('plants')
    .where('plants.id', 'in', ids)
    .where((eb) => plantsVisible(eb, caller))
    .execute();

export const plantZone = (db: Db, id: number) =>
  db.selectFrom('plants').select(['id', 'timezone']).where('id', '=', id).executeTakeFirstOrThrow();

/** Delete the plant's forecast points in these time ranges (from inclusive, to exclusive). */
export const deleteForecastRanges = (trx: Db, plantId: number, ranges: { from: number; to: number }[]) =>
  trx
    .deleteFrom('plant_forecast')
    .where('plant_id', '=', plantId)
    .where((eb) => eb.or(ranges.map((r) => eb.and([eb('ts', '>=', r.from), eb('ts', '<', r.to)]))))
    .execute();

export const insertForecast = (trx: Db, plantId: number, points: { ts: number; power: number }[], importedAt: number) =>
  trx
    .insertInto('plant_forecast')
    .values(points.map((p) => ({ plant_id: plantId, ts: p.ts, power_w: p.power, imported_at: importedAt })))
    .execute();
