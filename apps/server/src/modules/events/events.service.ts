/**
 * The event lists, one event, and acknowledgement. Visibility is the plant's: an event is seen by
 * whoever sees its plant, and acknowledged by whoever operates it (owner, managers, the
 * company's users; never visitors or read-only accounts).
 */
import { ErrorCode, type eventsApi, type Language, limits, type QueryOf } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { eventFor, plantFor, subjectFor } from '../../access/resolve.ts';
import { LoadingCaches } from '../../cache/loading-cache.ts';
import type { Db } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { dayRange, timezoneOf } from '../../time/index.ts';
import { ackOnce, countEvents, type EventFilters, eventRows, newestEventId, pageIds, toDeviceEvents } from './events.repo.ts';
import type { DeviceEvent, SubjectKind } from './mapper.ts';

type ListQuery = QueryOf<typeof eventsApi.listEvents>;
type DownloadQuery = QueryOf<typeof eventsApi.eventsDownload>;

/** The filters of a list or download query, checked (plant 700, SN 404, dates 4). */
export async function listFilters(
  db: Db,
  caller: Caller,
  q: Omit<ListQuery, 'page' | 'size'> | DownloadQuery,
  fallback: 'none' | 'last90' = 'none',
): Promise<EventFilters & { timezone: string }> {
  const timezone = timezoneOf(q.timezone);
  const range = dayRange(q, timezone, fallback);
  if (q.plantId !== undefined) await plantFor(db, caller, q.plantId);
  if (q.sn !== undefined) await subjectFor(db, caller, q.sn);
  return {
    plantId: q.plantId,
    sn: q.sn,
    search: q.search,
    kind: q.kind as SubjectKind | undefined,
    level: q.level,
    state: q.state,
    acknowledged: q.acknowledged,
    range,
    timezone,
  };
}

/**
 * Totals are cached per account and filter for 10 s: counting a company's 100,000 events costs
 * tens of milliseconds, and paging asks the same again. A new event (a higher newest id) or an
 * acknowledgement starts afresh; an event that ends shows in the totals of the state filters
 * within the 10 s (per process: another process may show the old total as long). A count in
 * flight is shared: a burst of the same request counts once. Rows are never cached.
 */
const counts = new LoadingCaches<Db, number>({ max: 5000, ttlMs: 10_000 });
/** After a change the totals must show at once (acknowledgement). */
export const eventsChanged = () => counts.clear();

async function cachedCount(db: Db, caller: Caller, f: EventFilters): Promise<number> {
  const newest = await newestEventId(db);
  const key = JSON.stringify([
    caller.user.id,
    f.plantId,
    f.sn,
    f.search,
    f.kind,
    f.level,
    f.state,
    f.acknowledged,
    f.range?.from,
    f.range?.to,
    f.since,
  ]);
  return counts.of(db).get(key, () => countEvents(db, caller, f), String(newest));
}

export async function eventsPage(db: Db, caller: Caller, f: EventFilters, q: { page?: number; size?: number }, lan: Language) {
  const pageNo = q.page ?? 1;
  const size = q.size ?? limits.page.defaultSize;
  const offset = (pageNo - 1) * size;
  const ids = await pageIds(db, caller, f, offset, size);
  // A short page tells the total without counting.
  const total = ids.length > 0 && ids.length < size ? offset + ids.length : await cachedCount(db, caller, f);
  return { total, list: await toDeviceEvents(db, caller, await eventRows(db, ids), lan) };
}

export async function listEvents(db: Db, caller: Caller, q: ListQuery, lan: Language, kind?: SubjectKind) {
  const f = await listFilters(db, caller, q);
  return eventsPage(db, caller, kind ? { ...f, kind } : f, q, lan);
}

export async function deviceEvents(db: Db, caller: Caller, sn: string, q: QueryOf<typeof eventsApi.deviceEvents>, lan: Language) {
  const subject = await subjectFor(db, caller, sn);
  const range = dayRange(q, subject.timezone);
  // A device's events from its binding to its plant on (earlier ones are an earlier owner's).
  const f = { since: subject.since, sn, level: q.level, state: q.state, acknowledged: q.acknowledged, range };
  return eventsPage(db, caller, f, q, lan);
}

export async function deviceOpenEvents(db: Db, caller: Caller, sn: string, lan: Language) {
  const subject = await subjectFor(db, caller, sn);
  const ids = await pageIds(db, caller, { since: subject.since, sn, state: 'open', range: null }, 0, 500);
  return toDeviceEvents(db, caller, await eventRows(db, ids), lan);
}

/** One visible event's row, or 404. */
async function visibleEventRow(db: Db, caller: Caller, id: number) {
  await eventFor(db, caller, id);
  const [row] = await eventRows(db, [id]);
  return row ?? fail(ErrorCode.notFound);
}

export async function eventDetail(db: Db, caller: Caller, id: number, lan: Language): Promise<DeviceEvent> {
  const row = await visibleEventRow(db, caller, id);
  const [event] = await toDeviceEvents(db, caller, [row], lan);
  return event!;
}

export async function ackEvent(db: Db, caller: Caller, id: number, note: string | undefined, lan: Language) {
  await eventFor(db, caller, id, 'operate');
  const text = note?.trim() || null;
  const updated = await ackOnce(db, id, caller.user.id, text, Date.now());
  if (!updated) fail(ErrorCode.already);
  eventsChanged();
  return eventDetail(db, caller, id, lan);
}
