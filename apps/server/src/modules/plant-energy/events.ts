/**
 * Events that started in the last hour on the plants the caller can see, newest first (at most
 * ONE_HOUR_LIMIT), text in the request language. Driven by the visible plants' ids through the
 * events (plant_id, started_at) index: a range seek per plant, not a scan of the events.
 */
import type { DataOf, Language, plantEnergyApi } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import { toRecentEvent } from '../events/mapper.ts';

export type OneHourEvents = DataOf<typeof plantEnergyApi.eventOneHour>;

export const ONE_HOUR_MS = 3_600_000;
export const ONE_HOUR_LIMIT = 50;

export async function eventsOfLastHour(db: Db, caller: Caller, lan: Language, now = Date.now()): Promise<OneHourEvents> {
  const rows = await db
    .selectFrom('events')
    .innerJoin('plants', 'plants.id', 'events.plant_id')
    .select([
      'events.id',
      'events.plant_id',
      'plants.name as plant_name',
      'events.sn',
      'events.code',
      'events.level',
      'events.source',
      'events.text_en',
      'events.text_es',
      'events.started_at',
      'events.ended_at',
    ])
    .where('events.plant_id', 'in', (eb) =>
      eb
        .selectFrom('plants')
        .select('plants.id')
        .where((p) => plantsVisible(p, caller)),
    )
    .where('events.started_at', '>=', now - ONE_HOUR_MS)
    .orderBy('events.started_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(ONE_HOUR_LIMIT)
    .execute();
  return rows.map((r) => toRecentEvent(r, lan));
}
