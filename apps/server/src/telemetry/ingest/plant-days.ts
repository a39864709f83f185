/**
 * plant_day: the sum of the plant's device days (see `plantDay` in rollups.ts for what counts),
 * each device's from its binding to the plant on (device_day.first_ts ≥ devices.bound_at).
 * In the hot path each device day's change is added to its plant's day (`plant_day.x + Δ`), so a
 * batch reads no device_day rows and concurrent writers add up instead of overwriting each other;
 * measured, re-summing the touched plants' device days cost a third of the rollup time. A plant's
 * day is re-summed from device_day (`rebuild`) when the way it sums changes: its first meter.
 *
 * Grid import and export come from the plant's master meter (plants.master_meter_id) when it is
 * set and is a live meter of the plant, else from all its meters, else from its inverters.
 * Choosing a master re-sums the plant's days through `resumPlantGrid` (energy/plant-grid.ts: the
 * API calls it, then `ingest.forget()` so this process reloads which meter counts).
 */
import { CompiledQuery, type Kysely } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import type { Database, DeviceKind } from '../../db/schema.ts';
import type { EnergyColumn } from '../../energy/day-rollups.ts';
import { plantMeters } from '../../energy/plant-grid.ts';
import { getOrAdd } from './maps.ts';
import { type KindDayTotals, plantDay } from './rollups.ts';
import { type RawSqlite, RowStatement } from './sql-batch.ts';

/** A device day's totals, before or after a batch. */
export type DeviceDayTotals = Record<EnergyColumn, number> & { peakPowerW: number | null };

const SUM_COLUMNS = ['pv_wh', 'load_wh', 'grid_import_wh', 'grid_export_wh', 'charge_wh', 'discharge_wh'] as const;
const COLUMNS = ['plant_id', 'day', ...SUM_COLUMNS, 'peak_power_w', 'updated_at'];
const CHUNK = 500;
/** Meters are summed one by one (the master alone may count); other kinds together. */
const METER_ID = "case when d.kind = 'meter' then d.id else 0 end";

interface PlantDayDelta {
  plantId: number;
  day: string;
  sums: Record<(typeof SUM_COLUMNS)[number], number>;
  peak: number | null;
}

export class PlantDayWriter {
  private readonly addDeltas: RowStatement;
  private readonly replace: RowStatement;
  /**
   * Plants known to have a meter (then the meters alone count grid import and export), and the
   * plant's master meter when it has one (then that meter alone counts).
   */
  private readonly meters = new Map<number, { has: boolean; master: number | null; loadedAt: number }>();
  private readonly sumsSql = new Map<string, string>();

  constructor(
    private readonly dialect: Dialect,
    private readonly ttlMs: number,
    raw: RawSqlite | null = null,
  ) {
    const into = `insert into plant_day (${COLUMNS.join(', ')})`;
    const types = ['integer', 'varchar(10)', ...SUM_COLUMNS.map(() => 'double precision'), 'double precision', 'bigint'];
    this.addDeltas = new RowStatement(
      dialect,
      {
        into,
        types,
        tail:
          ` on conflict (plant_id, day) do update set ${SUM_COLUMNS.map((c) => `${c} = plant_day.${c} + excluded.${c}`).join(', ')},` +
          ' peak_power_w = case when excluded.peak_power_w is null then plant_day.peak_power_w' +
          ' else coalesce(plant_day.peak_power_w, 0) + excluded.peak_power_w end, updated_at = excluded.updated_at',
      },
      raw,
    );
    this.replace = new RowStatement(
      dialect,
      {
        into,
        types,
        tail: ` on conflict (plant_id, day) do update set ${COLUMNS.slice(2)
          .map((c) => `${c} = excluded.${c}`)
          .join(', ')}`,
      },
      raw,
    );
  }

  forget(): void {
    this.meters.clear();
  }

  /** Whether each plant has a meter, and its master meter, from memory or the store. */
  async loadMeters(db: Kysely<Database>, plantIds: Iterable<number>, now: number): Promise<void> {
    const wanted = [...plantIds].filter((id) => {
      const m = this.meters.get(id);
      return !m || now - m.loadedAt > this.ttlMs;
    });
    for (let i = 0; i < wanted.length; i += CHUNK) {
      const chunk = wanted.slice(i, i + CHUNK);
      const facts = await plantMeters(db, chunk);
      for (const id of chunk) {
        const f = facts.get(id);
        this.meters.set(id, { has: !!f, master: f?.master ?? null, loadedAt: now });
      }
    }
  }

  hasMeter(plantId: number): boolean {
    return this.meters.get(plantId)?.has ?? false;
  }

  /** Whether this meter's grid counters are the plant's: its master meter, or any meter when none is set. */
  countsMeter(plantId: number, deviceId: number): boolean {
    const master = this.meters.get(plantId)?.master ?? null;
    return master === null || master === deviceId;
  }

  /** A meter was attached to the plant: its days must be summed anew. */
  meterAdded(plantId: number, now: number): void {
    const known = this.meters.get(plantId);
    if (known) {
      known.has = true;
      return;
    }
    // Not in memory: whether it has a master is unknown, so the next `loadMeters` reads the store.
    this.meters.set(plantId, { has: true, master: null, loadedAt: now - this.ttlMs - 1 });
  }

  /**
   * Add the device days' changes to their plants' days, except for the plants in `rebuild`,
   * whose touched days are summed anew from device_day.
   */
  async write(
    db: Kysely<Database>,
    changes: readonly {
      plantId: number;
      deviceId: number;
      day: string;
      kind: DeviceKind;
      before: DeviceDayTotals;
      after: DeviceDayTotals;
    }[],
    rebuild: ReadonlySet<number>,
    now: number,
  ): Promise<void> {
    const deltas = new Map<string, PlantDayDelta>();
    const rebuildDays = new Map<number, Set<string>>();
    for (const c of changes) {
      if (rebuild.has(c.plantId)) {
        getOrAdd(rebuildDays, c.plantId, () => new Set<string>()).add(c.day);
        continue;
      }
      if (c.kind === 'weather') continue;
      const key = `${c.plantId}|${c.day}`;
      let d = deltas.get(key);
      if (!d) {
        d = {
          plantId: c.plantId,
          day: c.day,
          sums: { pv_wh: 0, load_wh: 0, grid_import_wh: 0, grid_export_wh: 0, charge_wh: 0, discharge_wh: 0 },
          peak: null,
        };
        deltas.set(key, d);
      }
      const gridCounts =
        c.kind === 'meter' ? this.countsMeter(c.plantId, c.deviceId) : c.kind === 'inverter' && !this.hasMeter(c.plantId);
      for (const column of SUM_COLUMNS) {
        const isGrid = column === 'grid_import_wh' || column === 'grid_export_wh';
        if (isGrid ? !gridCounts : c.kind === 'meter') continue;
        d.sums[column] += c.after[column] - c.before[column];
      }
      if (c.kind === 'inverter' && c.after.peakPowerW !== c.before.peakPowerW) {
        d.peak = (d.peak ?? 0) + (c.after.peakPowerW ?? 0) - (c.before.peakPowerW ?? 0);
      }
    }
    const params: unknown[] = [];
    for (const d of deltas.values()) {
      params.push(d.plantId, d.day);
      for (const column of SUM_COLUMNS) params.push(Math.round(d.sums[column] * 1000) / 1000);
      params.push(d.peak, now);
    }
    await this.addDeltas.run(db, params);
    if (rebuildDays.size > 0) await this.rebuild(db, rebuildDays, now);
  }

  /** Sum these plants' days anew from their devices' days. */
  async rebuild(db: Kysely<Database>, plantDays: ReadonlyMap<number, ReadonlySet<string>>, now: number): Promise<void> {
    const plantIds = [...plantDays.keys()];
    await this.loadMeters(db, plantIds, now);
    const days = [...new Set([...plantDays.values()].flatMap((d) => [...d]))];
    const params: unknown[] = [];
    for (let i = 0; i < plantIds.length; i += CHUNK) {
      const chunk = plantIds.slice(i, i + CHUNK);
      const { rows } = await db.executeQuery<KindDayTotals & { plant_id: number; day: string; meter_id: number | string }>(
        CompiledQuery.raw(this.sumsByKindSql(chunk.length, days.length), [...chunk, ...days]),
      );
      const byPlantDay = new Map<string, KindDayTotals[]>();
      for (const r of rows) {
        if (!plantDays.get(r.plant_id)?.has(r.day)) continue;
        // Meters come one row each: only the master counts when the plant has one.
        if (r.kind === 'meter' && !this.countsMeter(r.plant_id, Number(r.meter_id))) continue;
        const key = `${r.plant_id}|${r.day}`;
        const list = getOrAdd(byPlantDay, key, () => []);
        const meter = r.kind === 'meter' ? list.find((x) => x.kind === 'meter') : undefined;
        if (meter) {
          meter.grid_import_wh = (meter.grid_import_wh ?? 0) + (r.grid_import_wh ?? 0);
          meter.grid_export_wh = (meter.grid_export_wh ?? 0) + (r.grid_export_wh ?? 0);
        } else list.push(r);
      }
      for (const [key, list] of byPlantDay) {
        const [plantId, day] = key.split('|') as [string, string];
        const t = plantDay(list, this.hasMeter(Number(plantId)));
        params.push(Number(plantId), day, ...SUM_COLUMNS.map((c) => t[c]), t.peak_power_w, now);
      }
    }
    await this.replace.run(db, params);
  }

  /** Per-kind sums of device_day for some plants and days (SQL text kept per list lengths). */
  private sumsByKindSql(plants: number, days: number): string {
    const key = `${plants}|${days}`;
    let text = this.sumsSql.get(key);
    if (!text) {
      const mark = (n: number) => (this.dialect === 'postgres' ? `$${n}` : '?');
      const list = (from: number, count: number) => Array.from({ length: count }, (_, k) => mark(from + k)).join(',');
      text =
        `select d.plant_id, dd.day, d.kind, ${METER_ID} as meter_id, ${[...SUM_COLUMNS, 'peak_power_w'].map((c) => `sum(dd.${c}) as ${c}`).join(', ')}` +
        ' from device_day dd join devices d on d.id = dd.device_id' +
        ` where d.plant_id in (${list(1, plants)}) and dd.day in (${list(plants + 1, days)}) and dd.first_ts >= d.bound_at` +
        ` group by d.plant_id, dd.day, d.kind, ${METER_ID}`;
      this.sumsSql.set(key, text);
    }
    return text;
  }
}
