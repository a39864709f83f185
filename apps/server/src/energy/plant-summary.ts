/**
 * A plant's latest values on its own row (power now, energy of its latest day, total energy,
 * time of the newest data), recomputed from the read model (energy/: latest values since each
 * device's binding, the plant's day rows). The plant list sorts
 * and pages on these columns, so it never aggregates day rows or parses device values.
 *
 * Ingest calls `refreshPlantSummary` with the plants a batch touched (after its rollups); the
 * plants module calls it when gateways are bound or unbound. It is idempotent and cheap for a
 * batch of plants: a few indexed queries, then one update per plant.
 */
import type { Db } from '../db/index.ts';
import { parseJson } from '../db/index.ts';
import { plantsLatestDay } from './day-rollups.ts';
import { plantsLatest } from './latest.ts';

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
  const latest = await plantsLatest(db, ids);
  for (const d of latest) {
    const s = summaries.get(d.plant_id!)!;
    s.lastData = Math.max(s.lastData ?? 0, Number(d.ts));
    if (d.kind !== 'inverter' || d.status === 'offline') continue;
    const power = parseJson<Record<string, unknown>>(d.values, {}).activePower;
    if (typeof power === 'number' && Number.isFinite(power)) s.power = (s.power ?? 0) + power;
  }
  for (const [id, d] of await plantsLatestDay(db, ids)) Object.assign(summaries.get(id)!, d);
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
