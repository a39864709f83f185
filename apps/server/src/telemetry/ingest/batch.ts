/**
 * One batch, one transaction: resolve gateways and devices (discovering new ones), insert the
 * samples idempotently on (device, ts), and from the rows actually inserted: day rollups, latest
 * values (newer frames only), conditions, events and statuses.
 */
import type { Kysely } from 'kysely';
import type { Dialect } from '../../db/index.ts';
import type { Database, DeviceKind, DeviceStatus } from '../../db/schema.ts';
import { deviceStatus } from '../../energy/device-status.ts';
import { refreshPlantStatus } from '../../energy/plant-status.ts';
import type { SampleTable } from '../../energy/samples.ts';
import { recordGatewaySessions } from '../gateway-sessions.ts';
import type { BadFrameReason } from './bad-frames.ts';
import { foldCounterRefusals, foldFrame, foldGatewayEvent, notePvOutput } from './conditions.ts';
import { discoverDevices, factsChanged, reattachDevice, updateDeviceFacts } from './discovery.ts';
import { applyEventChanges, closeOpenEvents, type EventChange } from './events.ts';
import type { DeviceReading, GatewayEventItem } from './frames.ts';
import { kinds } from './kinds.ts';
import { getOrAdd } from './maps.ts';
import type { DeviceEntry, GatewayEntry, Registry } from './registry.ts';
import type { RollupWriter } from './rollup-store.ts';
import { KeyedUpdate, type RawSqlite, RowStatement } from './sql-batch.ts';

export interface Batch {
  readings: DeviceReading[];
  events: GatewayEventItem[];
}

export interface BatchResult {
  /** Device frames stored (new samples). */
  stored: number;
  /** Plants that got new samples in this batch. */
  plants: Set<number>;
  /** Device frames already stored before (same device and time). */
  duplicates: number;
  /** Refused frames, counted by the caller once the batch has committed. */
  bad: { reason: BadFrameReason; gatewaySn: string; detail: string }[];
}

interface Accepted {
  r: DeviceReading;
  device: DeviceEntry;
  gw: GatewayEntry;
}

/**
 * devices.last_ts is written with status changes and otherwise once per this much data time (a
 * write per frame would double the store's work); device_latest.ts is the exact time.
 */
const LAST_TS_STEP_MS = 15 * 60_000;
/** gateways.last_seen_at is written once per this much time (the offline job's resolution). */
const LAST_SEEN_STEP_MS = 60_000;

export class BatchWriter {
  private readonly samples: Record<DeviceKind, RowStatement>;
  private readonly latest: RowStatement;
  private readonly deviceSeen: KeyedUpdate;
  private readonly gatewaySeen: KeyedUpdate;

  constructor(
    dialect: Dialect,
    private readonly registry: Registry,
    private readonly rollups: RollupWriter,
    raw: RawSqlite | null = null,
  ) {
    const sampleStatement = (table: SampleTable, columns: readonly string[]) =>
      new RowStatement(
        dialect,
        {
          into: `insert into ${table} (device_id, ts, ${columns.join(', ')}, raw)`,
          types: ['integer', 'bigint', ...columns.map(() => 'double precision'), 'text'],
          tail: ' on conflict (device_id, ts) do nothing returning device_id, ts',
        },
        raw,
      );
    this.samples = {
      inverter: sampleStatement(kinds.inverter.table, kinds.inverter.columns),
      battery: sampleStatement(kinds.battery.table, kinds.battery.columns),
      meter: sampleStatement(kinds.meter.table, kinds.meter.columns),
      weather: sampleStatement(kinds.weather.table, kinds.weather.columns),
    };
    // Late frames never overwrite newer latest values (also when another writer got there first).
    this.latest = new RowStatement(
      dialect,
      {
        into: 'insert into device_latest (device_id, ts, "values", faults, updated_at)',
        types: ['integer', 'bigint', 'text', 'text', 'bigint'],
        tail:
          ' on conflict (device_id) do update set ts = excluded.ts, "values" = excluded."values", faults = excluded.faults,' +
          ' updated_at = excluded.updated_at where excluded.ts > device_latest.ts',
      },
      raw,
    );
    // 'upgrading' belongs to the command side; last_ts only moves forward.
    this.deviceSeen = new KeyedUpdate(
      dialect,
      {
        table: 'devices',
        columns: [
          ['id', 'integer'],
          ['status', 'varchar(16)'],
          ['last_ts', 'bigint'],
        ],
        set: (v) =>
          `status = case when devices.status = 'upgrading' then devices.status else ${v('status')} end, ` +
          `last_ts = case when devices.last_ts is null or ${v('last_ts')} > devices.last_ts then ${v('last_ts')} else devices.last_ts end`,
      },
      raw,
    );
    this.gatewaySeen = new KeyedUpdate(
      dialect,
      {
        table: 'gateways',
        columns: [
          ['id', 'integer'],
          ['seen', 'bigint'],
          ['revived', 'integer'],
        ],
        set: (v) =>
          `last_seen_at = case when gateways.last_seen_at is null or ${v('seen')} > gateways.last_seen_at then ${v('seen')} else gateways.last_seen_at end, ` +
          `online = case when ${v('revived')} = 1 then 1 else gateways.online end`,
      },
      raw,
    );
  }

  async write(db: Kysely<Database>, batch: Batch, now: number): Promise<BatchResult> {
    const result: BatchResult = { stored: 0, plants: new Set(), duplicates: 0, bad: [] };
    const rebuild = new Set<number>();
    const accepted = await this.resolve(db, batch, now, result, rebuild);
    const stored = await this.insertSamples(db, accepted);
    result.stored = stored.length;
    result.duplicates = accepted.length - stored.length;
    for (const { device } of stored) if (device.plantId !== null) result.plants.add(device.plantId);

    const refusedCounters = await this.rollups.write(
      db,
      stored.map(({ r, device, gw }) => ({
        deviceId: device.id,
        kind: device.kind,
        plantId: device.plantId,
        boundAt: device.boundAt,
        timezone: gw.timezone,
        ts: r.ts,
        counters: r.counters,
        power: r.power,
        soc: r.soc,
        ratedPowerW: device.ratedPowerW,
      })),
      rebuild,
      now,
    );

    // Newer frames, oldest first: conditions, events, status, latest values.
    const changes: EventChange[] = [];
    const touched = new Map<DeviceEntry, { gw: GatewayEntry; before: DeviceStatus; forced: boolean }>();
    const latest = new Map<DeviceEntry, DeviceReading>();
    const revivedDevices: string[] = [];
    if (stored.length > 1) stored.sort((a, b) => a.r.ts - b.r.ts);
    for (const { r, device } of stored) if (r.ts > device.latestTs) notePvOutput(device, r);
    for (const { r, device, gw } of stored) {
      if (r.ts <= device.latestTs) continue;
      let t = touched.get(device);
      if (!t) {
        t = { gw, before: device.status, forced: false };
        touched.set(device, t);
        // Silent long enough for the offline job to have marked it: close that and rewrite the status.
        if (
          device.status === 'offline' ||
          device.conditions.has('offline') ||
          r.receivedAt - device.lastArrival > gw.offlineAfterMs / 2
        ) {
          device.conditions.delete('offline');
          revivedDevices.push(device.sn);
          t.forced = true;
        }
      }
      foldFrame(device, gw, r, this.registry, changes);
      device.latestTs = r.ts;
      if (r.receivedAt > device.lastArrival) device.lastArrival = r.receivedAt;
      latest.set(device, r);
    }
    for (const [device, gw] of foldCounterRefusals(stored, refusedCounters, changes)) {
      if (!touched.has(device)) touched.set(device, { gw, before: device.status, forced: false });
    }
    await this.writeLatest(db, latest);
    this.gatewayEvents(batch.events, touched, changes, result);

    if (revivedDevices.length > 0) await closeOpenEvents(db, 'offline', revivedDevices, now);
    await applyEventChanges(db, changes, now);
    const plants = await this.writeDeviceStatus(db, touched);
    await this.writeGatewaysSeen(db, accepted, now);
    if (plants.size > 0) await refreshPlantStatus(db, plants);
    return result;
  }

  /**
   * Gateways and devices of the batch, discovering new devices; refuses what does not belong.
   * Adds to `rebuild` the plants whose days must be re-summed (a meter or a device arrived).
   */
  private async resolve(
    db: Kysely<Database>,
    batch: Batch,
    now: number,
    result: BatchResult,
    rebuild: Set<number>,
  ): Promise<Accepted[]> {
    const registry = this.registry;
    const gatewaySns = new Set<string>();
    const deviceSns = new Set<string>();
    for (const r of batch.readings) {
      gatewaySns.add(r.gatewaySn);
      deviceSns.add(r.sn);
    }
    for (const e of batch.events) {
      gatewaySns.add(e.gatewaySn);
      if (e.event.device) deviceSns.add(e.event.device);
    }
    await registry.loadGateways(db, gatewaySns, now);
    await registry.loadDevices(db, deviceSns, now);

    const unknown = new Map<string, { reading: DeviceReading; gateway: GatewayEntry }>();
    for (const r of batch.readings) {
      const gw = registry.gateway(r.gatewaySn);
      if (gw && !registry.device(r.sn) && !unknown.has(r.sn)) unknown.set(r.sn, { reading: r, gateway: gw });
    }
    for (const entry of await discoverDevices(db, [...unknown.values()], now)) {
      registry.putDevice(entry);
      registry.indexPlant(entry);
      this.arrived(entry, rebuild, now);
    }

    const accepted: Accepted[] = [];
    for (const r of batch.readings) {
      const gw = registry.gateway(r.gatewaySn);
      if (!gw) {
        result.bad.push({ reason: 'unknownGateway', gatewaySn: r.gatewaySn, detail: `device ${r.sn}` });
        continue;
      }
      let device = registry.device(r.sn)!;
      // A device answers to its bound gateway only: another gateway reporting its SN (deleted
      // or not) is refused and changes nothing, so no tenant can take over a device and its history.
      if (device.gatewayId !== gw.id) {
        result.bad.push({ reason: 'foreignDevice', gatewaySn: r.gatewaySn, detail: `device ${r.sn} belongs to another gateway` });
        continue;
      }
      if (device.deleted) {
        device = await reattachDevice(db, device, r, gw, now);
        registry.putDevice(device);
        registry.indexPlant(device);
        this.arrived(device, rebuild, now);
      }
      if (device.protocolId !== r.protocol) {
        const detail = `device ${r.sn} speaks ${device.protocolId}, frame says ${r.protocol}`;
        result.bad.push({ reason: 'wrongProtocol', gatewaySn: r.gatewaySn, detail });
        continue;
      }
      if (factsChanged(device, r, gw)) {
        const plantBefore = device.plantId;
        await updateDeviceFacts(db, device, r, gw, now);
        if (plantBefore !== device.plantId) {
          registry.indexPlant(device);
          this.arrived(device, rebuild, now);
        }
      }
      // A plant has a device's data from its binding on: an older frame is the earlier owner's.
      if (device.plantId !== null && r.ts < device.boundAt) {
        result.bad.push({ reason: 'beforeBinding', gatewaySn: r.gatewaySn, detail: `device ${r.sn} frame of ${r.ts}` });
        continue;
      }
      accepted.push({ r, device, gw });
    }
    return accepted;
  }

  /** A device joined a plant: a meter changes how the plant's days sum, so they are re-summed. */
  private arrived(device: DeviceEntry, rebuild: Set<number>, now: number): void {
    if (device.plantId === null || device.kind !== 'meter') return;
    this.rollups.plantDays.meterAdded(device.plantId, now);
    rebuild.add(device.plantId);
  }

  /** Insert the samples; returns the accepted frames whose sample was new. */
  private async insertSamples(db: Kysely<Database>, accepted: readonly Accepted[]): Promise<Accepted[]> {
    const byKind = new Map<DeviceKind, { params: unknown[]; items: Map<string, Accepted> }>();
    for (const a of accepted) {
      const group = getOrAdd(byKind, a.device.kind, () => ({ params: [] as unknown[], items: new Map<string, Accepted>() }));
      const key = `${a.device.id}:${a.r.ts}`;
      if (group.items.has(key)) continue; // the same frame twice in one batch
      group.items.set(key, a);
      group.params.push(a.device.id, a.r.ts);
      for (const v of a.r.sample) group.params.push(v);
      group.params.push(a.r.raw);
    }
    const stored: Accepted[] = [];
    for (const [kind, group] of byKind) {
      const rows = await this.samples[kind].run<{ device_id: number; ts: number }>(db, group.params);
      for (const row of rows) {
        const a = group.items.get(`${row.device_id}:${Number(row.ts)}`);
        if (a) stored.push(a);
      }
    }
    return stored;
  }

  private async writeLatest(db: Kysely<Database>, latest: Map<DeviceEntry, DeviceReading>): Promise<void> {
    if (latest.size === 0) return;
    const params: unknown[] = [];
    for (const [device, r] of latest) {
      params.push(device.id, r.ts, r.latest, r.faults.length ? JSON.stringify(r.faults) : '[]', r.receivedAt);
    }
    await this.latest.run(db, params);
  }

  private gatewayEvents(
    events: readonly GatewayEventItem[],
    touched: Map<DeviceEntry, { gw: GatewayEntry; before: DeviceStatus; forced: boolean }>,
    changes: EventChange[],
    result: BatchResult,
  ): void {
    for (const { gatewaySn, event } of events) {
      const gw = this.registry.gateway(gatewaySn);
      if (!gw) {
        result.bad.push({ reason: 'unknownGateway', gatewaySn, detail: `event ${event.code}` });
        continue;
      }
      let device: DeviceEntry | undefined;
      if (event.device) {
        device = this.registry.device(event.device);
        if (!device || device.deleted) {
          result.bad.push({ reason: 'unknownDevice', gatewaySn, detail: `event ${event.code} for device ${event.device}` });
          continue;
        }
        if (device.gatewayId !== gw.id) {
          result.bad.push({ reason: 'foreignDevice', gatewaySn, detail: `event ${event.code} for device ${event.device}` });
          continue;
        }
        if (!touched.has(device)) touched.set(device, { gw, before: device.status, forced: false });
      }
      foldGatewayEvent(gw, device, event, changes);
    }
  }

  /** Status and last data time of the touched devices; returns the plants whose devices changed status. */
  private async writeDeviceStatus(
    db: Kysely<Database>,
    touched: Map<DeviceEntry, { gw: GatewayEntry; before: DeviceStatus; forced: boolean }>,
  ): Promise<Set<number>> {
    const plants = new Set<number>();
    const params: unknown[] = [];
    for (const [device, t] of touched) {
      // From the conditions only: the store keeps an "upgrading" the upgrade set (the update's
      // guard), and a cached "upgrading" would write it back once the upgrade has cleared it.
      const status = deviceStatus(device.conditions);
      const changed = status !== t.before || t.forced;
      device.status = status;
      const dataMoved = device.latestTs - device.lastTsWritten >= LAST_TS_STEP_MS;
      if (!changed && !dataMoved) continue;
      const lastTs = Number.isFinite(device.latestTs) ? device.latestTs : null;
      params.push(device.id, status, lastTs);
      if (lastTs !== null) device.lastTsWritten = lastTs;
      if (changed && device.plantId !== null) plants.add(device.plantId);
    }
    if (params.length > 0) await this.deviceSeen.run(db, params);
    return plants;
  }

  /** gateways.last_seen_at (to the minute), and back online after a silence. */
  private async writeGatewaysSeen(db: Kysely<Database>, accepted: readonly Accepted[], now: number): Promise<void> {
    const arrivals = new Map<GatewayEntry, number>();
    for (const { r, gw } of accepted) if (r.receivedAt > (arrivals.get(gw) ?? 0)) arrivals.set(gw, r.receivedAt);
    const params: unknown[] = [];
    const revived: string[] = [];
    for (const [gw, arrival] of arrivals) {
      const silent = !gw.online || arrival - gw.lastArrival > gw.offlineAfterMs / 2;
      if (arrival > gw.lastArrival) gw.lastArrival = arrival;
      if (!silent && arrival - gw.lastSeenWritten < LAST_SEEN_STEP_MS) continue;
      params.push(gw.id, arrival, silent ? 1 : 0);
      gw.lastSeenWritten = arrival;
      if (silent) {
        gw.online = true;
        revived.push(gw.sn);
      }
    }
    if (params.length > 0) await this.gatewaySeen.run(db, params);
    if (revived.length > 0) {
      await closeOpenEvents(db, 'offline', revived, now);
      await recordGatewaySessions(
        db,
        revived.map((sn) => ({ sn, online: true, at: arrivals.get(this.registry.gateway(sn)!) ?? now })),
      );
    }
  }
}
