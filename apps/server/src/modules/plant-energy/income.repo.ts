/** SQL of the overview's incomes: the kept day incomes and the PV counters time of use reads. */
import { type Kysely, sql } from 'kysely';
import type { Database } from '../../db/schema.ts';
import { plantDaysAs } from '../../energy/day-rollups.ts';
import { pvCounterAtOrBefore, pvCounterFirstIn } from '../../energy/samples.ts';

/** The plant's day rows from `from` to `to` with the income kept for each (if any). */
export const daysWithIncome = (db: Kysely<Database>, plantId: number, from: string, to: string) =>
  plantDaysAs(db, plantId, from, to)
    .leftJoin('plant_day_income as pdi', (j) => j.onRef('pdi.plant_id', '=', 'pd.plant_id').onRef('pdi.day', '=', 'pd.day'))
    .select(['pd.day', 'pd.updated_at', 'pdi.income', 'pdi.computed_at'])
    .orderBy('pd.day')
    .execute();

/** Keep day incomes (replacing what was kept for those days). */
export const keepDayIncomes = (
  db: Kysely<Database>,
  rows: { plant_id: number; day: string; income: number; computed_at: number }[],
) =>
  db
    .insertInto('plant_day_income')
    .values(rows)
    .onConflict((oc) =>
      oc.columns(['plant_id', 'day']).doUpdateSet((eb) => ({
        income: eb.ref('excluded.income'),
        computed_at: eb.ref('excluded.computed_at'),
      })),
    )
    .execute();

/** The plant's live inverters with their binding time. */
export const liveInverters = (db: Kysely<Database>, plantId: number) =>
  db
    .selectFrom('devices')
    .select(['id', 'bound_at'])
    .where('plant_id', '=', plantId)
    .where('kind', '=', 'inverter')
    .where('deleted_at', 'is', null)
    .execute();

/**
 * In one statement, each reading pair's PV counters: `s<k>` at or before `a` (within
 * `lookbackMs`), else the first in [a, b); `e<k>` at or before `b`; readings from `since` on.
 */
export async function pvCounterPairs(
  db: Kysely<Database>,
  pairs: readonly { deviceId: number; since: number; a: number; b: number }[],
  lookbackMs: number,
): Promise<Record<string, number | string | null>> {
  const columns = pairs.flatMap((j, k) => [
    // At or before the start (within the lookback), else the segment's first reading.
    sql`coalesce((${pvCounterAtOrBefore(j.deviceId, j.a, Math.max(j.a - lookbackMs, j.since))}), (${pvCounterFirstIn(j.deviceId, Math.max(j.a, j.since - 1), j.b)})) as ${sql.raw(`s${k}`)}`,
    sql`(${pvCounterAtOrBefore(j.deviceId, j.b, Math.max(j.a - lookbackMs, j.since))}) as ${sql.raw(`e${k}`)}`,
  ]);
  const { rows } = await sql<Record<string, number | string | null>>`select ${sql.join(columns)}`.execute(db);
  return rows[0] ?? {};
}
