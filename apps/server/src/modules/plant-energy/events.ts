/**
 * Events that started in the last hour on the plants the caller can see, newest first (at most
 * ONE_HOUR_LIMIT), text in the request language. Driven by the visible plants' ids through the
 * events (plant_id, started_at) index: a range seek per plant, not a scan of the events.
 */
import type { DataOf, Language, plantEnergyApi } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import type { Db } from '../../db/index.ts';
import { toRecentEvent } from '../events/mapper.ts';
import { eventsSince } from './plant.repo.ts';

export type OneHourEvents = DataOf<typeof plantEnergyApi.eventOneHour>;

export const ONE_HOUR_MS = 3_600_000;
export const ONE_HOUR_LIMIT = 50;

export async function eventsOfLastHour(db: Db, caller: Caller, lan: Language, now = Date.now()): Promise<OneHourEvents> {
  const rows = await eventsSince(db, caller, now - ONE_HOUR_MS, ONE_HOUR_LIMIT);
  return rows.map((r) => toRecentEvent(r, lan));
}
