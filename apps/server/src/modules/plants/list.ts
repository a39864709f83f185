/**
 * The plant list (the selected-plants filters; default sort createAt, order 2 = descending) and the
 * counts over the visible plants. One page query (the plant row carries its latest values, see
 * energy/plant-summary.ts) and one count query; the page's open alarms in a third, by index.
 */
import { plantsApi, type QueryOf } from '@sunfleet/contracts';
import { type Expression, type ExpressionBuilder, type SelectQueryBuilder, sql } from 'kysely';
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import { LoadingCaches } from '../../cache/loading-cache.ts';
import type { Db } from '../../db/index.ts';
import type { Database } from '../../db/schema.ts';
import { containsText } from '../../db/search.ts';
import { openAlarms, plantRows, powerSql, rowsOfScopedIds, todayEnergySql, toListItem } from './plants.repo.ts';

type ListQuery = QueryOf<typeof plantsApi.listPlants>;
type Filters = Pick<ListQuery, 'status' | 'type' | 'name'>;

// biome-ignore lint/suspicious/noExplicitAny: the filters apply to any select over `plants`, whatever it joins or selects
function filtered<Q extends SelectQueryBuilder<Database, 'plants' | any, any>>(q: Q, f: Filters): Q {
  let out = q;
  if (f.status) out = out.where('plants.status', '=', f.status) as Q;
  if (f.type !== undefined && f.type >= 0) out = out.where('plants.type', '=', f.type) as Q;
  // `name` matches anywhere in the name or alias, case and accents folded; % and _ are literal.
  if (f.name?.trim()) out = out.where(containsText(['plants.name', 'plants.alias'], f.name)) as Q;
  return out;
}

function sortExpression(sort: NonNullable<ListQuery['sort']>, at: number): Expression<unknown> {
  switch (sort) {
    case 'name':
      return sql`lower(plants.name)`;
    case 'capacity':
      return sql`plants.capacity`;
    case 'power':
      return sql`coalesce(${powerSql}, -1)`;
    case 'todayEnergy':
      return todayEnergySql(at);
    case 'totalEnergy':
      return sql`plants.energy_total_wh`;
    case 'lastUpdate':
      return sql`coalesce(plants.last_data_at, 0)`;
    default:
      return sql`plants.created_at`;
  }
}

/**
 * The visible plants for the list. A company account reaches its plants through two OR-ed
 * lists (company plants, plants of owners it is agent for): SQLite then collects every match
 * through the indexes and sorts them all (5–10 ms for 10,000 plants) instead of walking the
 * sort order and stopping at the page (0.3 ms). Wrapping the scope in a CASE keeps its meaning
 * and hides it from index selection. An owner keeps the indexed plan: they see few plants.
 */
function visibleForList(eb: ExpressionBuilder<Database, 'plants'>, caller: Caller) {
  const { kind } = caller.user;
  if (kind !== 'company_admin' && kind !== 'company_user') return plantsVisible(eb, caller);
  return eb(eb.case().when(plantsVisible(eb, caller)).then(1).else(0).end(), '=', 1);
}

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
  const ordered = () =>
    filtered(db.selectFrom('plants'), query)
      .where((eb) => visibleForList(eb, caller))
      .select('plants.id')
      .orderBy(sortExpression(sort, Date.now()), direction)
      .orderBy('plants.id', direction);
  let ids: number[];
  let total: number;
  if (sort === 'createAt' && !query.name?.trim()) {
    ids = (await ordered().limit(size).offset(offset).execute()).map((r) => r.id);
    total =
      ids.length > 0 && ids.length < size
        ? offset + ids.length
        : await cached(db, ['total', ...queryKey(caller, query)], async () =>
            Number(
              (
                await filtered(db.selectFrom('plants'), query)
                  .where((eb) => visibleForList(eb, caller))
                  .select((eb) => eb.fn.countAll<number>().as('n'))
                  .executeTakeFirstOrThrow()
              ).n,
            ),
          );
  } else {
    const all = await cached(db, ['order', ...queryKey(caller, query)], async () => (await ordered().execute()).map((r) => r.id));
    ids = all.slice(offset, offset + size);
    total = all.length;
  }
  if (ids.length === 0) return { total, list: [] };
  const rows = await (sort === 'createAt' && !query.name?.trim()
    ? rowsOfScopedIds(db, caller, ids)
    : plantRows(db, caller).where('plants.id', 'in', ids)
  ).execute();
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
  let q = db
    .selectFrom('plants')
    .select((eb) => ['plants.status', eb.fn.countAll<number>().as('n')])
    .where((eb) => plantsVisible(eb, caller));
  if (onlyPersonal) q = q.where((eb) => personal(eb, caller));
  return statusCounts(await q.groupBy('plants.status').execute());
}

const personal = (eb: ExpressionBuilder<Database, 'plants'>, caller: Caller) =>
  eb.or([
    eb('plants.owner_user_id', '=', caller.user.id),
    eb(
      'plants.id',
      'in',
      eb.selectFrom('plant_shares').select('plant_shares.plant_id').where('plant_shares.user_id', '=', caller.user.id),
    ),
  ]);

/** Open events of the visible plants by level. */
export async function eventCounts(db: Db, caller: Caller, onlyPersonal = false) {
  let plants = db
    .selectFrom('plants')
    .select('plants.id')
    .where((eb) => plantsVisible(eb, caller));
  if (onlyPersonal) plants = plants.where((eb) => personal(eb, caller));
  const rows = await db
    .selectFrom('events')
    .select((eb) => ['events.level', eb.fn.countAll<number>().as('n')])
    .where('events.ended_at', 'is', null)
    .where('events.plant_id', 'in', plants)
    .groupBy('events.level')
    .execute();
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
  const rows = await filtered(
    db
      .selectFrom('plants')
      .select([
        'plants.id',
        'plants.name',
        'plants.status',
        'plants.type',
        'plants.capacity',
        'plants.latitude',
        'plants.longitude',
      ])
      .where((eb) => plantsVisible(eb, caller))
      .where('plants.latitude', 'is not', null)
      .where('plants.longitude', 'is not', null),
    query,
  )
    .orderBy('plants.id')
    .execute();
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
  const visible = db.selectFrom('plants').where((eb) => plantsVisible(eb, caller));
  const [statuses, types] = await Promise.all([
    visible
      .select((eb) => ['plants.status', eb.fn.countAll<number>().as('n')])
      .groupBy('plants.status')
      .execute(),
    visible
      .select((eb) => ['plants.type', eb.fn.countAll<number>().as('n')])
      .groupBy('plants.type')
      .execute(),
  ]);
  const byStatus = statusCounts(statuses);
  const typeCount = new Map(types.map((t) => [Number(t.type), Number(t.n)]));
  return {
    statuses: plantsApi.plantStatuses.map((value) => ({ value, count: byStatus[value] })),
    types: plantsApi.plantTypeIds.map((value) => ({ value, count: typeCount.get(value) ?? 0 })),
    sorts: [...plantsApi.plantSorts],
    defaults: { type: -1 as const, sort: 'createAt' as const, order: 2 as const },
  };
}
