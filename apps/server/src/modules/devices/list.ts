/**
 * The device lists (inverters, batteries, meters, weather stations) and their counts per
 * state: one engine over `devices` for the four kinds. A row's badge, the state filter, the
 * counts and the status order all read the one state expression (energy/device-state.ts).
 *
 * A page is two queries: the ordered ids of the page, then the page's rows (device, gateway,
 * plant, latest values, today's rollup) by those ids. The default order (SN) walks the
 * (kind, sn) index of live devices and stops at the page; its total is cached. Any other order,
 * or a keyword, needs every visible device of the kind: their ordered ids are cached and paged
 * from memory. Caches live 10 s per account and query and are dropped by this module's
 * own changes (alias, delete); a change from ingest (a status, a new value) shows in the order
 * within 10 s, while the values shown on a page are always read fresh.
 */
import { type DeviceStateName, type devicesApi, inverterTypeKey, type QueryOf } from '@sunfleet/contracts';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import { deviceRowRights, listScopeForm, type ScopeForm } from '../../access/devices.ts';
import { LoadingCaches } from '../../cache/loading-cache.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { DeviceKind } from '../../db/schema.ts';
import { devicesDayRows } from '../../energy/day-rollups.ts';
import { stateCounts } from '../../energy/device-state.ts';
import { iso, localDay, zoneOf } from '../../time/index.ts';
import { firstNum, kwhToWh, num, PV_TOTAL_KEYS, type Values } from './fields.ts';
import * as repo from './list.repo.ts';

type InverterQuery = QueryOf<typeof devicesApi.listInverters>;
type Filters = Pick<InverterQuery, 'plantId' | 'gatewayId' | 'keyword' | 'status' | 'type'>;
type ListQuery = Filters & { page?: number; size?: number; sort?: string; order?: 1 | 2 };
type TypeKey = Static<typeof devicesApi.InverterTypeKey>;

// ——— caches ———

/**
 * A cached total or order is recomputed when asked after 10 s, and until a minute old served
 * while the new one is computed (in the background). The caches are per process: another server
 * process may serve an older order for as long.
 */
const lists = new LoadingCaches<Db, unknown>({ max: 2000, ttlMs: 10_000, staleMs: 60_000 });
/** Start the list caches afresh (after this module changed devices). */
export const devicesChanged = () => lists.clear();

/**
 * A cached value per key: concurrent askers of a missing value share one computation; a value
 * older than 10 s is still served (up to a minute) while its successor is computed, so no
 * request waits for a recomputation. A change made by this module is never served stale.
 */
export const cached = <T>(db: Db, key: unknown[], compute: () => Promise<T>): Promise<T> =>
  lists.of(db).get(JSON.stringify(key), compute) as Promise<T>;

// ——— filters and order ———

/**
 * How a page walk phrases the caller's scope (access/devices.ts `ScopeForm`), from how many
 * plants the caller reaches (cached): starting from a few plants, or walking the list's order
 * and stopping at the page. Counts and full orders read every visible device: they start from
 * the plants ('in'), measured faster for both a large installer and an owner.
 */
export function scopeFormFor(db: Db, caller: Caller): Promise<ScopeForm> {
  if (caller.user.kind === 'sysadmin') return Promise.resolve('exists');
  return cached(db, ['plants', caller.user.id], async () => {
    return listScopeForm(await repo.visiblePlantCount(db, caller));
  });
}

const filterKey = (kind: DeviceKind, caller: Caller, q: Filters) => [
  kind,
  caller.user.id,
  q.plantId ?? null,
  q.gatewayId ?? null,
  q.status ?? null,
  q.type ?? null,
  q.keyword?.trim().toLowerCase() ?? '',
];

function countAll(db: Db, kind: DeviceKind, caller: Caller, q: Filters) {
  return cached(db, ['total', ...filterKey(kind, caller, q)], () => repo.countDevices(db, kind, caller, q));
}

/** From this offset on, a page is taken from the cached order rather than walked to. */
const DEEP_OFFSET = 1000;

/** The page's ids, the total, and whether the ids are fresh from a scoped query (else cached). */
async function pageIds(db: Db, kind: DeviceKind, caller: Caller, q: ListQuery) {
  const page = q.page ?? 1;
  const size = q.size ?? 10;
  const offset = (page - 1) * size;
  const sort = q.sort ?? 'sn';
  const desc = (q.order ?? 1) === 2;
  const form = await scopeFormFor(db, caller);
  // Walking the SN index suits the plain list (and a plant or gateway, which the planner starts
  // from); a keyword, a status or a deep page would make the walk long for a large installer:
  // order them all once (cached) instead.
  if (sort === 'sn' && !q.keyword?.trim() && !(form === 'exists' && (q.status || offset >= DEEP_OFFSET))) {
    const ids = await repo.snPageIds(db, kind, caller, q, form, desc, size, offset);
    const total = ids.length > 0 && ids.length < size ? offset + ids.length : await countAll(db, kind, caller, q);
    return { ids, total, fresh: true };
  }
  const all = await cached(db, ['order', ...filterKey(kind, caller, q), sort, desc], () =>
    repo.orderedIds(db, kind, caller, q, sort, desc, 'in'),
  );
  return { ids: all.slice(offset, offset + size), total: all.length, fresh: false };
}

// ——— rows ———

export interface ListRow {
  id: number;
  sn: string;
  alias: string | null;
  protocolId: string;
  deviceType: number | null;
  ratedPowerW: number | null;
  status: devicesApi.DeviceStatusName;
  /** What its badge shows (energy/device-state.ts). */
  state: DeviceStateName;
  createdAt: number;
  plant: { id: number; name: string; timezone: string } | null;
  masterMeterId: number | null;
  gateway: { id: number; sn: string; alias: string | null };
  latestTs: number | null;
  values: Values;
  today: { pv: number; gridImport: number; gridExport: number } | null;
  /** What the caller may do to this device (access/devices.ts). */
  rights: { canEdit: boolean; canDelete: boolean };
}

/**
 * The rows of these ids, in the ids' order. Ids from a cached order may be a few seconds old:
 * they go through the scope again (`rescope`); fresh ids came out of a scoped query just now.
 */
async function rowsOf(db: Db, caller: Caller, kind: DeviceKind, ids: number[], rescope: boolean): Promise<ListRow[]> {
  if (ids.length === 0) return [];
  const rows = await repo.deviceRows(db, caller, kind, ids, rescope);
  const days = new Map<number, string>();
  for (const r of rows) days.set(r.id, localDay(zoneOf(r.plant_id === null ? null : r.plant_timezone)));
  const boundAt = new Map(rows.map((r) => [r.id, Number(r.bound_at)]));
  const todayOf = await devicesDayRows(db, days, boundAt);
  const byId = new Map(
    rows.map((r): [number, ListRow] => {
      const d = todayOf.get(r.id);
      return [
        r.id,
        {
          id: r.id,
          sn: r.sn,
          alias: r.alias,
          protocolId: r.protocol_id,
          deviceType: r.device_type === null ? null : Number(r.device_type),
          ratedPowerW: r.rated_power_w === null ? null : Number(r.rated_power_w),
          status: r.status,
          state: r.state,
          createdAt: Number(r.created_at),
          plant: r.plant_id === null ? null : { id: r.plant_id, name: r.plant_name ?? '', timezone: zoneOf(r.plant_timezone) },
          masterMeterId: r.master_meter_id ?? null,
          gateway: { id: r.gateway_id, sn: r.gateway_sn, alias: r.gateway_alias },
          latestTs: r.latest_ts === null ? null : Number(r.latest_ts),
          values: parseJson<Values>(r.latest_values, {}),
          today: d ? { pv: Number(d.pv_wh), gridImport: Number(d.grid_import_wh), gridExport: Number(d.grid_export_wh) } : null,
          rights: deviceRowRights(caller, kind, r.operable),
        },
      ];
    }),
  );
  return ids.flatMap((id) => {
    const row = byId.get(id);
    return row ? [row] : [];
  });
}

export async function listDevices<T>(
  db: Db,
  caller: Caller,
  kind: DeviceKind,
  query: ListQuery,
  toItem: (row: ListRow) => T,
): Promise<{ total: number; list: T[] }> {
  const { ids, total, fresh } = await pageIds(db, kind, caller, query);
  const rows = await rowsOf(db, caller, kind, ids, !fresh);
  return { total, list: rows.map(toItem) };
}

/** Visible devices of the kind per state (as the badges show), with the list's filters except the state. */
export function deviceCounts(db: Db, caller: Caller, kind: DeviceKind, query: Omit<Filters, 'status'>) {
  return cached(db, ['counts', ...filterKey(kind, caller, query)], async () => {
    const rows = await repo.deviceStateRows(db, caller, kind, query);
    return stateCounts(rows);
  });
}

// ——— items per kind ———

const common = (r: ListRow) => ({
  id: r.id,
  sn: r.sn,
  alias: r.alias,
  plant: r.plant,
  gateway: r.gateway,
  protocol: r.protocolId,
  status: r.status,
  state: r.state,
  lastUpdate: iso(r.latestTs),
  createdAt: iso(r.createdAt)!,
  ...r.rights,
});

export const inverterItem = (r: ListRow) => ({
  ...common(r),
  deviceType: r.deviceType,
  typeKey: inverterTypeKey(r.deviceType) as TypeKey,
  ratedPower: r.ratedPowerW,
  power: r.status === 'offline' ? (r.latestTs === null ? null : 0) : num(r.values.activePower),
  todayEnergy: r.today?.pv ?? 0,
  totalEnergy: kwhToWh(firstNum(r.values, PV_TOTAL_KEYS)),
});

export const batteryItem = (r: ListRow) => {
  const slaves = num(r.values.slavePackCount);
  return {
    ...common(r),
    soc: num(r.values.soc),
    soh: num(r.values.soh),
    power: num(r.values.power),
    voltage: num(r.values.voltage),
    current: num(r.values.current),
    packs: slaves === null ? 1 : Math.max(1, Math.round(slaves) + 1),
  };
};

export const meterItem = (r: ListRow) => ({
  ...common(r),
  power: num(r.values.activePower),
  importToday: r.today?.gridImport ?? 0,
  exportToday: r.today?.gridExport ?? 0,
  importTotal: kwhToWh(num(r.values.importEnergy)),
  exportTotal: kwhToWh(num(r.values.exportEnergy)),
  master: r.masterMeterId === r.id,
});

/** The station's own daily counter (kWh/m²) counts when its reading is from the plant-local today. */
export const weatherItem = (r: ListRow) => {
  const zone = r.plant?.timezone ?? 'UTC';
  const daily = num(r.values.dailyIrradiation);
  const fresh = r.latestTs !== null && localDay(zone, r.latestTs) === localDay(zone);
  return {
    ...common(r),
    irradiance: num(r.values.irradiance),
    ambientTemperature: num(r.values.ambientTemperature),
    moduleTemperature: num(r.values.moduleTemperature),
    windSpeed: num(r.values.windSpeed),
    humidity: num(r.values.humidity),
    dailyIrradiation: daily === null ? null : fresh ? kwhToWh(daily) : 0,
  };
};
