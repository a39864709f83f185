/**
 * The plant list (the selected-plants filters; default sort createAt, order 2 = descending) and the
 * counts over the visible plants. One page query (the plant row carries its latest values, see
 * energy/plant-summary.ts) and one count query; the page's open alarms in a third, by index.
 */
import { plantsApi, type QueryOf } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { LoadingCaches } from '../../cache/loading-cache.ts';
import type { Db } from '../../db/index.ts';
import * as repo from './list.repo.ts';
import { openAlarms, toListItem } from './plants.repo.ts';

type ListQuery = QueryOf<typeof plantsApi.listPlants>;

/**
 * Short-lived results per account and query: counting or sorting 10,000 visible plants by a
 * computed column costs milliseconds, and paging or refreshing asks the same again. Any change
 * this module makes to plants or shares starts afresh (`plantsChanged`); a change made
 * elsewhere (a status from ingest, an agent assignment) shows within 10 s. The caches are per
 * process, so another server process may show the old order as long. Values shown are never
 * cached: only totals and the order of ids.
 */
const lists = new LoadingCaches<Db, unknown>({ max: 1000, ttlMs: 10_000 });
export const plantsChanged = () => lists.clear();

const cached = <T>(db: Db, key: unknown[], compute: () => Promise<T>): Promise<T> =>
  lists.of(db).get(JSON.stringify(key), compute) as Promise<T>;

const queryKey = (caller: Caller, q: ListQuery) => [
  caller.user.id,
  q.status ?? null,
  q.type ?? -1,
  q.name?.trim().toLowerCase() ?? '',
  q.sort ?? 'createAt',
  q.order ?? 2,
];

/**
 * The newest-first list without a name filter (the default view) walks the creation index and
 * stops at the page: its ids are read fresh, only its total is cached. Any other order, or a
 * name filter, needs every visible plant: their ordered ids are cached and paged from memory,
 * and the page's rows are read through the scope again (the ids may be a few seconds old).
 */
export async function listPlants(db: Db, caller: Caller, query: ListQuery) {
  const page = query.page ?? 1;
  const size = query.size ?? 10;
  const offset = (page - 1) * size;
  const sort = query.sort ?? 'createAt';
  const direction = (query.order ?? 2) === 1 ? 'asc' : 'desc';
  let ids: number[];
  let total: number;
  if (sort === 'createAt' && !query.name?.trim()) {
    ids = await repo.orderedIds(db, caller, query, sort, direction, { limit: size, offset });
    total =
      ids.length > 0 && ids.length < size
        ? offset + ids.length
        : await cached(db, ['total', ...queryKey(caller, query)], () => repo.countListed(db, caller, query));
  } else {
    const all = await cached(db, ['order', ...queryKey(caller, query)], () =>
      repo.orderedIds(db, caller, query, sort, direction),
    );
    ids = all.slice(offset, offset + size);
    total = all.length;
  }
  if (ids.length === 0) return { total, list: [] };
  const rows = await repo.listRows(db, caller, ids, sort === 'createAt' && !query.name?.trim());
  const alarms = await openAlarms(db, ids);
  const byId = new Map(rows.map((r) => [r.id, r]));
  const list = ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [toListItem(row, caller, alarms.get(id) ?? 0)] : [];
  });
  return { total, list };
}

type Counts = { total: number } & Record<(typeof plantsApi.plantStatuses)[number], number>;
export function statusCounts(rows: Array<{ status: string; n: number | string | bigint }>): Counts {
  const counts = { total: 0, normal: 0, offline: 0, warning: 0, fault: 0, upgrading: 0 } as Counts;
  for (const r of rows) {
    const n = Number(r.n);
    counts.total += n;
    if (r.status in counts && r.status !== 'total') counts[r.status as keyof Counts] += n;
  }
  return counts;
}

/** Visible plants by status; `onlyPersonal` keeps the caller's own and shared plants. */
export async function plantCounts(db: Db, caller: Caller, onlyPersonal = false) {
  return statusCounts(await repo.statusRows(db, caller, onlyPersonal));
}

/** Open events of the visible plants by level. */
export async function eventCounts(db: Db, caller: Caller, onlyPersonal = false) {
  const rows = await repo.eventLevelRows(db, caller, onlyPersonal);
  return levelCounts(rows);
}

export function levelCounts(rows: Array<{ level: string; n: number | string | bigint }>) {
  const counts = { total: 0, fault: 0, warning: 0, info: 0 };
  for (const r of rows) {
    const n = Number(r.n);
    counts.total += n;
    if (r.level === 'fault' || r.level === 'warning' || r.level === 'info') counts[r.level] += n;
  }
  return counts;
}

export async function plantsMap(db: Db, caller: Caller, query: QueryOf<typeof plantsApi.plantsMap>) {
  const rows = await repo.mapRows(db, caller, query);
  return rows.map((r) => ({
    id: r.id,
    name: r.name,
    status: r.status as (typeof plantsApi.plantStatuses)[number],
    type: r.type as 0 | 1 | 2,
    capacity: Number(r.capacity),
    latitude: Number(r.latitude),
    longitude: Number(r.longitude),
  }));
}

export async function plantFilter(db: Db, caller: Caller) {
  const [statuses, types] = await repo.filterCounts(db, caller);
  const byStatus = statusCounts(statuses);
  const typeCount = new Map(types.map((t) => [Number(t.type), Number(t.n)]));
  return {
    statuses: plantsApi.plantStatuses.map((value) => ({ value, count: byStatus[value] })),
    types: plantsApi.plantTypeIds.map((value) => ({ value, count: typeCount.get(value) ?? 0 })),
    sorts: [...plantsApi.plantSorts],
    defaults: { type: -1 as const, sort: 'createAt' as const, order: 2 as const },
  };
}
