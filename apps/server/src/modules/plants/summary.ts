/**
 * A plant's latest values on its own row (power now, energy of its latest day, total energy,
 * time of the newest data), recomputed from device_latest and plant_day. The plant list sorts
 * and pages on these columns, so it never aggregates day rows or parses device values.
 *
 * Ingest calls `refreshPlantSummary` with the plants a batch touched (after its rollups); the
 * plants module calls it when gateways are bound or unbound. It is idempotent and cheap for a
 * batch of plants: a few indexed queries, then one update per plant.
 */
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';

const CHUNK = 500;

export async function refreshPlantSummary(db: Db, plantIds: Iterable<number>): Promise<void> {
  const ids = [...new Set(plantIds)];
  for (let i = 0; i < ids.length; i += CHUNK) await refreshChunk(db, ids.slice(i, i + CHUNK));
}

interface Summary {
  power: number | null;
  lastData: number | null;
  day: string | null;
  today: number;
  total: number;
}

async function refreshChunk(db: Db, ids: number[]) {
  const summaries = new Map<number, Summary>(
    ids.map((id) => [id, { power: null, lastData: null, day: null, today: 0, total: 0 }]),
  );
  const latest = await db
    .selectFrom('devices')
    // Latest values from each device's binding to the plant on (an earlier owner's are not the plant's).
    .innerJoin('device_latest', (join) =>
      join.onRef('device_latest.device_id', '=', 'devices.id').onRef('device_latest.ts', '>=', 'devices.bound_at'),
    )
    .select(['devices.plant_id', 'devices.kind', 'devices.status', 'device_latest.ts', 'device_latest.values'])
    .where('devices.plant_id', 'in', ids)
    .where('devices.deleted_at', 'is', null)
    .execute();
  for (const d of latest) {
    const s = summaries.get(d.plant_id!)!;
    s.lastData = Math.max(s.lastData ?? 0, Number(d.ts));
    if (d.kind !== 'inverter' || d.status === 'offline') continue;
    const power = parseJson<Record<string, unknown>>(d.values, {}).activePower;
    if (typeof power === 'number' && Number.isFinite(power)) s.power = (s.power ?? 0) + power;
  }
  const days = await db
    .selectFrom('plant_day')
    .select((eb) => ['plant_id', eb.fn.sum<number>('pv_wh').as('total'), eb.fn.max('day').as('last_day')])
    .where('plant_id', 'in', ids)
    .groupBy('plant_id')
    .execute();
  for (const d of days) {
    const s = summaries.get(d.plant_id)!;
    s.total = Number(d.total ?? 0);
    s.day = d.last_day;
  }
  const lastDays = days.filter((d) => d.last_day !== null);
  if (lastDays.length > 0) {
    const rows = await db
      .selectFrom('plant_day')
      .select(['plant_id', 'day', 'pv_wh'])
      .where((eb) => eb.or(lastDays.map((d) => eb.and([eb('plant_id', '=', d.plant_id), eb('day', '=', d.last_day!)]))))
      .execute();
    for (const r of rows) summaries.get(r.plant_id)!.today = Number(r.pv_wh);
  }
  await db.transaction().execute(async (trx) => {
    for (const [id, s] of summaries) {
      await trx
        .updateTable('plants')
        .set({
          power_w: s.power,
          last_data_at: s.lastData,
          energy_day: s.day,
          energy_today_wh: s.today,
          energy_total_wh: s.total,
        })
        .where('id', '=', id)
        .execute();
    }
  });
}
