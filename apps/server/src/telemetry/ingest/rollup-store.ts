/**
 * Day rollups, store part: fold the batch's newly stored samples into device_day and carry the
 * change of each device day into its plant's day (plant-days.ts), in the batch's transaction.
 * The device's current day is kept in memory between batches (reloaded after `ttlMs`, dropped
 * when a batch fails), so the usual batch reads no device_day rows. When other processes ingest
 * the same devices (`shared`), a batch instead locks its devices (a transaction-scoped advisory
 * lock per device, taken in id order) and reads their days from the store: two processes folding
 * one device's day take turns, and neither overwrites the other's samples.
 */
import { type Kysely, sql } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import type { Database, DeviceKind } from '../../db/schema.ts';
import { localDay } from '../../time/days.ts';
import { kinds } from './kinds.ts';
import { type DeviceDayTotals, PlantDayWriter } from './plant-days.ts';
import {
  type CounterRefusal,
  countersFromJson,
  countersJson,
  type DayState,
  dayEnergy,
  emptyDay,
  foldSample,
} from './rollups.ts';
import { type RawSqlite, RowStatement } from './sql-batch.ts';

export interface StoredSample {
  deviceId: number;
  kind: DeviceKind;
  plantId: number | null;
  /** When the device joined its plant: a day row begun before then starts afresh. */
  boundAt: number;
  timezone: string;
  ts: number;
  /** Cumulative counters in Wh, in `KindSpec.counters` order. */
  counters: readonly (number | null)[];
  power: number | null;
  soc: number | null;
  /** The device's rated power, W, when known: bounds its counters' growth. */
  ratedPowerW: number | null;
}

/** A counter reading of a device kept out of its day (implausible). */
export interface DeviceCounterRefusal extends CounterRefusal {
  deviceId: number;
}

const DAY_COLUMNS: [string, string][] = [
  ['device_id', 'integer'],
  ['day', 'varchar(10)'],
  ['pv_wh', 'double precision'],
  ['load_wh', 'double precision'],
  ['grid_import_wh', 'double precision'],
  ['grid_export_wh', 'double precision'],
  ['charge_wh', 'double precision'],
  ['discharge_wh', 'double precision'],
  ['irradiation_whm2', 'double precision'],
  ['peak_power_w', 'double precision'],
  ['min_soc', 'double precision'],
  ['max_soc', 'double precision'],
  ['counters', 'text'],
  ['first_ts', 'bigint'],
  ['last_ts', 'bigint'],
  ['samples', 'integer'],
  ['updated_at', 'bigint'],
];
const dayUpsert = {
  into: `insert into device_day (${DAY_COLUMNS.map(([c]) => c).join(', ')})`,
  types: DAY_COLUMNS.map(([, t]) => t),
  tail: ` on conflict (device_id, day) do update set ${DAY_COLUMNS.slice(2)
    .map(([c]) => `${c} = excluded.${c}`)
    .join(', ')}`,
};

const CHUNK = 500;
/** The advisory-lock class of device days (the key's first half; the device id is the second). */
const DEVICE_DAY_LOCK = 0x5d0d;

const dayTotals = (state: DayState): DeviceDayTotals => ({ ...dayEnergy(state), peakPowerW: state.peakPowerW });

export class RollupWriter {
  private readonly dayUpsert: RowStatement;
  readonly plantDays: PlantDayWriter;
  /** Each device's most recent day, as committed. */
  private readonly recent = new Map<number, { state: DayState; loadedAt: number }>();

  constructor(
    dialect: Dialect,
    private readonly ttlMs: number,
    raw: RawSqlite | null = null,
    private readonly shared = false,
  ) {
    this.dayUpsert = new RowStatement(dialect, dayUpsert, raw);
    this.plantDays = new PlantDayWriter(dialect, ttlMs, raw);
  }

  /** After a failed batch the in-memory days may hold its samples: start again from the store. */
  forget(): void {
    this.recent.clear();
    this.plantDays.forget();
  }

  /**
   * Fold the samples into their device days and those into their plant days (`rebuild`: plants
   * to re-sum). Returns the counter readings left out as implausible.
   */
  async write(
    db: Kysely<Database>,
    samples: readonly StoredSample[],
    rebuild: ReadonlySet<number>,
    now: number,
  ): Promise<DeviceCounterRefusal[]> {
    const refused: DeviceCounterRefusal[] = [];
    if (samples.length === 0) return refused;
    // Group by (device, day), oldest sample first, so counter resets are seen in time order.
    const groups = new Map<
      string,
      { deviceId: number; day: string; kind: DeviceKind; plantId: number | null; boundAt: number; items: StoredSample[] }
    >();
    for (const s of samples) {
      const day = localDay(s.timezone, s.ts);
      const key = `${s.deviceId}|${day}`;
      let g = groups.get(key);
      if (!g) {
        g = { deviceId: s.deviceId, day, kind: s.kind, plantId: s.plantId, boundAt: s.boundAt, items: [] };
        groups.set(key, g);
      }
      g.items.push(s);
    }
    const states = await this.dayStates(db, [...groups.values()], now);
    const plantIds = new Set<number>();
    for (const g of groups.values()) if (g.plantId !== null) plantIds.add(g.plantId);
    await this.plantDays.loadMeters(db, plantIds, now);
    const params: unknown[] = [];
    const changes: Parameters<PlantDayWriter['write']>[1][number][] = [];
    for (const [key, g] of groups) {
      const state = states.get(key)!;
      const before = g.plantId === null ? null : dayTotals(state);
      if (g.items.length > 1) g.items.sort((a, b) => a.ts - b.ts);
      for (const s of g.items) {
        const out = foldSample(state, s.ts, s);
        if (out) for (const r of out) refused.push({ deviceId: g.deviceId, ...r });
      }
      const e = dayEnergy(state);
      params.push(
        g.deviceId,
        g.day,
        e.pv_wh,
        e.load_wh,
        e.grid_import_wh,
        e.grid_export_wh,
        e.charge_wh,
        e.discharge_wh,
        e.irradiation_whm2,
        state.peakPowerW,
        state.minSoc,
        state.maxSoc,
        countersJson(state.counters),
        state.firstTs,
        state.lastTs,
        state.samples,
        now,
      );
      if (g.plantId !== null) {
        changes.push({
          plantId: g.plantId,
          deviceId: g.deviceId,
          day: g.day,
          kind: g.kind,
          before: before!,
          after: { ...e, peakPowerW: state.peakPowerW },
        });
      }
    }
    await this.dayUpsert.run(db, params);
    await this.plantDays.write(db, changes, rebuild, now);
    await clearRefusedCounters(db, refused, groups);
    return refused;
  }

  /**
   * The day states of the groups: from memory when current, else from the store, else empty. A
   * day begun before the device joined its plant starts afresh at the binding: the row then holds
   * the new plant's part of the day only (the earlier plant already has its part in its plant_day).
   */
  private async dayStates(
    db: Kysely<Database>,
    groups: readonly { deviceId: number; day: string; kind: DeviceKind; boundAt: number }[],
    now: number,
  ): Promise<Map<string, DayState>> {
    const out = new Map<string, DayState>();
    const missing: { deviceId: number; day: string; kind: DeviceKind }[] = [];
    if (this.shared) {
      const ids = [...new Set(groups.map((g) => g.deviceId))].sort((a, b) => a - b);
      await sql`select pg_advisory_xact_lock(${DEVICE_DAY_LOCK}, d.id) from (select unnest(${ids}::int[]) as id order by 1) d`.execute(
        db,
      );
      missing.push(...groups);
    } else {
      for (const g of groups) {
        const cached = this.recent.get(g.deviceId);
        if (cached && cached.state.day === g.day && now - cached.loadedAt <= this.ttlMs)
          out.set(`${g.deviceId}|${g.day}`, cached.state);
        else missing.push(g);
      }
    }
    for (let i = 0; i < missing.length; i += CHUNK) {
      const chunk = missing.slice(i, i + CHUNK);
      const rows = await db
        .selectFrom('device_day')
        .select(['device_id', 'day', 'counters', 'peak_power_w', 'min_soc', 'max_soc', 'first_ts', 'last_ts', 'samples'])
        .where('device_id', 'in', [...new Set(chunk.map((g) => g.deviceId))])
        .where('day', 'in', [...new Set(chunk.map((g) => g.day))])
        .execute();
      const found = new Map(rows.map((r) => [`${r.device_id}|${r.day}`, r]));
      for (const g of chunk) {
        const key = `${g.deviceId}|${g.day}`;
        const r = found.get(key);
        const state = emptyDay(g.deviceId, g.day, g.kind);
        if (r) {
          state.counters = countersFromJson(r.counters);
          state.peakPowerW = r.peak_power_w;
          state.minSoc = r.min_soc;
          state.maxSoc = r.max_soc;
          state.firstTs = r.first_ts;
          state.lastTs = r.last_ts;
          state.samples = r.samples;
        }
        out.set(key, state);
      }
    }
    for (const g of groups) {
      const key = `${g.deviceId}|${g.day}`;
      const state = out.get(key)!;
      if (state.samples > 0 && state.firstTs < g.boundAt) out.set(key, emptyDay(g.deviceId, g.day, g.kind));
    }
    // Remember each device's newest day (a late sample for an older day does not displace it).
    for (const state of out.values()) {
      const cached = this.recent.get(state.deviceId);
      if (!cached || (cached.state !== state && cached.state.day <= state.day))
        this.recent.set(state.deviceId, { state, loadedAt: now });
    }
    return out;
  }
}

/**
 * A counter reading left out of its day is cleared from its sample too (the raw registers stay),
 * so that what reads the samples' counter columns (hourly generation, income) never sees it.
 * Few: only implausible readings.
 */
async function clearRefusedCounters(
  db: Kysely<Database>,
  refused: readonly DeviceCounterRefusal[],
  groups: ReadonlyMap<string, { deviceId: number; kind: DeviceKind }>,
): Promise<void> {
  if (refused.length === 0) return;
  const kindOf = new Map<number, DeviceKind>();
  for (const g of groups.values()) kindOf.set(g.deviceId, g.kind);
  for (const r of refused) {
    const kind = kinds[kindOf.get(r.deviceId)!];
    const column = kind.counters.find((c) => c.column === r.column)?.sampleColumn;
    if (column === undefined) continue;
    await sql`update ${sql.table(kind.table)} set ${sql.ref(column)} = null where device_id = ${r.deviceId} and ts = ${r.ts}`.execute(
      db,
    );
  }
}
