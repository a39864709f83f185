/**
 * Event queries: filters over the events of the plants the caller can see (the plant scope of
 * access/scopes.ts on events.plant_id), pages by offset (lists) or by keyset (downloads), and
 * the rows of a page with their plant, device or gateway, and who acknowledged them.
 */
import type { Language } from '@sunfleet/contracts';
import type { ExpressionBuilder } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { plantsOperable, plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';
import type { Database, EventLevel } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import type { TimeRange } from '../../time/index.ts';
import { type DeviceEvent, type SubjectKind, toDeviceEvent } from './mapper.ts';

export interface EventFilters {
  plantId?: number;
  sn?: string;
  /** Part of the subject's SN or alias, or of the plant's name (case-insensitive). */
  search?: string;
  kind?: SubjectKind;
  level?: EventLevel;
  state?: 'open' | 'closed';
  acknowledged?: boolean;
  range: TimeRange | null;
  /** Events started at or after this (a device's binding to its plant: earlier ones are an earlier owner's). */
  since?: number;
}

/** Ids of the plants the caller can see, as a subquery. */
export const visiblePlantIds = (db: Db, caller: Caller) =>
  db
    .selectFrom('plants')
    .select('plants.id')
    .where((eb) => plantsVisible(eb, caller));

/**
 * A company or a system administrator sees thousands of plants: their newest events are best
 * found by walking the events' time index and keeping the visible ones, which stops at the page,
 * instead of collecting every visible plant's events and sorting them all; with a search, by the
 * indexed events of the few plants, devices and gateways it matches. Wrapping the scope in a CASE
 * keeps its meaning and hides it from index selection (as the plant list does). Anyone else, or
 * a filter by plant or SN, keeps the plan that starts from the visible plants: few events match.
 */
function hidesScope(caller: Caller, f: EventFilters) {
  if (f.plantId !== undefined || f.sn !== undefined) return false;
  const { kind } = caller.user;
  return kind === 'sysadmin' || kind === 'company_admin' || kind === 'company_user';
}

/**
 * Events whose device (its SN or alias), gateway (its own events: SN or alias) or plant (name)
 * contains the text. The text is looked up in the small tables (plants, devices, gateways) and
 * events are joined by their indexed ids, so no events column is scanned with LIKE and no
 * trigram index is needed; visibility stays the caller's scope on the events' plant.
 * Case and accents are folded alike on both stores (db/search.ts).
 */
function matchesSearch(eb: ExpressionBuilder<Database, 'events'>, text: string) {
  const contains = (column: string) => containsText([column], text);
  return eb.or([
    eb('events.plant_id', 'in', eb.selectFrom('plants').select('plants.id').where(contains('plants.name'))),
    eb(
      'events.device_id',
      'in',
      eb
        .selectFrom('devices')
        .select('devices.id')
        .where((d) => d.or([contains('devices.sn'), contains('devices.alias')])),
    ),
    eb.and([
      eb('events.device_id', 'is', null),
      eb(
        'events.gateway_id',
        'in',
        eb
          .selectFrom('gateways')
          .select('gateways.id')
          .where((g) => g.or([contains('gateways.sn'), contains('gateways.alias')])),
      ),
    ]),
  ]);
}

/** The filtered, visible events. */
export function filteredEvents(db: Db, caller: Caller, f: EventFilters) {
  let q = db.selectFrom('events');
  q = hidesScope(caller, f)
    ? q.where((eb) => eb(eb.case().when('events.plant_id', 'in', visiblePlantIds(db, caller)).then(1).else(0).end(), '=', 1))
    : q.where('events.plant_id', 'in', visiblePlantIds(db, caller));
  if (f.plantId !== undefined) q = q.where('events.plant_id', '=', f.plantId);
  if (f.sn !== undefined) q = q.where('events.sn', '=', f.sn);
  if (f.search !== undefined) {
    const search = f.search;
    q = q.where((eb) => matchesSearch(eb, search));
  }
  if (f.kind === 'gateway') q = q.where('events.device_id', 'is', null);
  else if (f.kind !== undefined) {
    const kind = f.kind;
    q = q.where('events.device_id', 'in', (eb) => eb.selectFrom('devices').select('devices.id').where('devices.kind', '=', kind));
  }
  if (f.level !== undefined) q = q.where('events.level', '=', f.level);
  if (f.state === 'open') q = q.where('events.ended_at', 'is', null);
  if (f.state === 'closed') q = q.where('events.ended_at', 'is not', null);
  if (f.acknowledged === true) q = q.where('events.acked_at', 'is not', null);
  if (f.acknowledged === false) q = q.where('events.acked_at', 'is', null);
  if (f.range) q = q.where('events.started_at', '>=', f.range.from).where('events.started_at', '<', f.range.to);
  if (f.since) q = q.where('events.started_at', '>=', f.since);
  return q;
}

export async function countEvents(db: Db, caller: Caller, f: EventFilters): Promise<number> {
  const row = await filteredEvents(db, caller, f)
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Ids of one page, newest first. */
export async function pageIds(db: Db, caller: Caller, f: EventFilters, offset: number, limit: number): Promise<number[]> {
  const rows = await filteredEvents(db, caller, f)
    .select('events.id')
    .orderBy('events.started_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(limit)
    .offset(offset)
    .execute();
  return rows.map((r) => r.id);
}

export interface Keyset {
  startedAt: number;
  id: number;
}

/** Ids after `after` (newest first): one chunk of a download. */
export async function keysetIds(db: Db, caller: Caller, f: EventFilters, after: Keyset | null, limit: number) {
  let q = filteredEvents(db, caller, f);
  if (after) {
    q = q.where((eb) =>
      eb.or([
        eb('events.started_at', '<', after.startedAt),
        eb.and([eb('events.started_at', '=', after.startedAt), eb('events.id', '<', after.id)]),
      ]),
    );
  }
  return q
    .select(['events.id', 'events.started_at'])
    .orderBy('events.started_at', 'desc')
    .orderBy('events.id', 'desc')
    .limit(limit)
    .execute();
}

/** The rows of `ids` with what a DeviceEvent shows, in the order of `ids`. */
export async function eventRows(db: Db, ids: readonly number[]) {
  if (ids.length === 0) return [];
  const rows = await db
    .selectFrom('events')
    .leftJoin('plants', 'plants.id', 'events.plant_id')
    .leftJoin('devices', 'devices.id', 'events.device_id')
    .leftJoin('gateways', 'gateways.id', 'events.gateway_id')
    .leftJoin('users as acker', 'acker.id', 'events.acked_by')
    .select([
      'events.id',
      'events.plant_id',
      'events.device_id',
      'events.gateway_id',
      'events.sn',
      'events.source',
      'events.code',
      'events.level',
      'events.text_en',
      'events.text_es',
      'events.started_at',
      'events.ended_at',
      'events.acked_at',
      'events.ack_note',
      'plants.name as plant_name',
      'devices.kind as device_kind',
      'devices.alias as device_alias',
      'gateways.alias as gateway_alias',
      'acker.nickname as acker_nickname',
      'acker.name as acker_name',
    ])
    .where('events.id', 'in', ids)
    .execute();
  const byId = new Map(rows.map((r) => [r.id, r]));
  return ids.flatMap((id) => {
    const r = byId.get(id);
    return r ? [r] : [];
  });
}
export type EventRow = Awaited<ReturnType<typeof eventRows>>[number];

/** Of `plantIds`, those the caller operates (may acknowledge events of). */
export async function operablePlants(db: Db, caller: Caller, plantIds: Iterable<number>): Promise<Set<number>> {
  const ids = [...new Set(plantIds)];
  if (ids.length === 0) return new Set();
  const rows = await db
    .selectFrom('plants')
    .select('plants.id')
    .where('plants.id', 'in', ids)
    .where((eb) => plantsOperable(eb, caller))
    .execute();
  return new Set(rows.map((r) => r.id));
}

/** Page rows → DeviceEvents for this caller. */
export async function toDeviceEvents(db: Db, caller: Caller, rows: EventRow[], lan: Language): Promise<DeviceEvent[]> {
  const operable = await operablePlants(
    db,
    caller,
    rows.flatMap((r) => (r.plant_id !== null && r.acked_at === null ? [r.plant_id] : [])),
  );
  return rows.map((r) => toDeviceEvent(r, lan, operable));
}

/** The newest event's id (0 without events). */
export async function newestEventId(db: Db): Promise<number> {
  return Number(
    (
      await db
        .selectFrom('events')
        .select((eb) => eb.fn.max('events.id').as('id'))
        .executeTakeFirst()
    )?.id ?? 0,
  );
}

/** Acknowledge the event if nobody has; undefined when it was already. */
export const ackOnce = (db: Db, id: number, userId: number, note: string | null, at: number) =>
  db
    .updateTable('events')
    .set({ acked_at: at, acked_by: userId, ack_note: note })
    .where('id', '=', id)
    .where('acked_at', 'is', null)
    .returning('id')
    .executeTakeFirst();
