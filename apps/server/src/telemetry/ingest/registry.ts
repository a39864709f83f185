/**
 * What ingest keeps in memory so that no frame needs a store read: gateways by SN (with their
 * plant's time zone and position) and devices by SN (with latest time, status and open
 * conditions). Entries are loaded in bulk by the batch writer, inside its transaction, and
 * reloaded after `ttlMs` so that plant bindings, time zones and statuses changed elsewhere are
 * picked up; `forget()` drops them at once.
 *
 * Several ingest processes must partition the gateways between them (an MQTT shared
 * subscription with a sticky per-client strategy): a device's state lives in one process.
 */
import type { Kysely } from 'kysely';
import type { Database, DeviceKind, DeviceStatus, EventLevel } from '../../db/schema.ts';
import type { Condition } from '../../energy/device-status.ts';

export interface GatewayEntry {
  id: number;
  sn: string;
  plantId: number | null;
  /** When it joined its plant: its devices' frames from before then are not the plant's. */
  boundAt: number;
  timezone: string;
  latitude: number | null;
  longitude: number | null;
  /** Silence after which the offline job marks it and its devices offline. */
  offlineAfterMs: number;
  online: boolean;
  /** Last data arrival this process handled, and the last one written to the store. */
  lastArrival: number;
  lastSeenWritten: number;
  loadedAt: number;
}

export interface DeviceEntry {
  id: number;
  sn: string;
  gatewayId: number;
  plantId: number | null;
  /** When it joined its plant (devices.bound_at): earlier frames are not the plant's. */
  boundAt: number;
  kind: DeviceKind;
  protocolId: string;
  deviceType: number | null;
  ratedPowerW: number | null;
  deleted: boolean;
  status: DeviceStatus;
  /** Time of the newest stored frame (−∞ when none), and when it arrived. */
  latestTs: number;
  lastArrival: number;
  /** devices.last_ts as last written (written at most once a minute of data time). */
  lastTsWritten: number;
  /** Open events of this device by code. */
  conditions: Map<string, Condition>;
  /** Latest PV output and its time, for the zero-output rule. */
  pvPowerW: number | null;
  pvTs: number;
  /** Time of the last counter reading left out as implausible (the event closes a quiet day later). */
  counterRefusedTs: number;
  loadedAt: number;
}

export interface RegistryOptions {
  /** Offline after this many upload intervals of silence. */
  offlineFactor: number;
  ttlMs: number;
}

const CHUNK = 500;

export class Registry {
  private readonly gateways = new Map<string, GatewayEntry>();
  private readonly devices = new Map<string, DeviceEntry>();

  constructor(private readonly opts: RegistryOptions) {}

  gateway(sn: string): GatewayEntry | undefined {
    return this.gateways.get(sn);
  }
  device(sn: string): DeviceEntry | undefined {
    return this.devices.get(sn);
  }
  putDevice(entry: DeviceEntry): void {
    this.devices.set(entry.sn, entry);
  }
  /** Devices in memory attached to a plant (the zero-output rule compares them). */
  *plantInverters(plantId: number): Iterable<DeviceEntry> {
    const list = this.byPlant.get(plantId);
    if (list) for (const d of list.values()) if (d.plantId === plantId && !d.deleted) yield d;
  }
  private readonly byPlant = new Map<number, Map<number, DeviceEntry>>();
  /** Keep `plantInverters` current after an entry is made or its plant changes. */
  indexPlant(entry: DeviceEntry): void {
    if (entry.plantId === null || entry.kind !== 'inverter') return;
    let list = this.byPlant.get(entry.plantId);
    if (!list) {
      list = new Map();
      this.byPlant.set(entry.plantId, list);
    }
    list.set(entry.id, entry);
  }

  forget(opts: { gatewaySn?: string; deviceSn?: string } = {}): void {
    if (opts.gatewaySn === undefined && opts.deviceSn === undefined) {
      this.gateways.clear();
      this.devices.clear();
      this.byPlant.clear();
      return;
    }
    if (opts.gatewaySn !== undefined) this.gateways.delete(opts.gatewaySn);
    if (opts.deviceSn !== undefined) this.devices.delete(opts.deviceSn);
  }

  /** Load the gateways not in memory (or stale). */
  async loadGateways(db: Kysely<Database>, sns: Iterable<string>, now: number): Promise<void> {
    const wanted = [...sns].filter((sn) => {
      const e = this.gateways.get(sn);
      return !e || now - e.loadedAt > this.opts.ttlMs;
    });
    for (let i = 0; i < wanted.length; i += CHUNK) {
      const rows = await db
        .selectFrom('gateways as g')
        .leftJoin('plants as p', (j) => j.onRef('p.id', '=', 'g.plant_id').on('p.deleted_at', 'is', null))
        .select([
          'g.id',
          'g.sn',
          'g.upload_interval_s',
          'g.online',
          'g.last_seen_at',
          'g.bound_at',
          'p.id as plant_id',
          'p.timezone',
          'p.latitude',
          'p.longitude',
        ])
        .where('g.sn', 'in', wanted.slice(i, i + CHUNK))
        .where('g.deleted_at', 'is', null)
        .execute();
      const found = new Set<string>();
      for (const r of rows) {
        found.add(r.sn);
        const old = this.gateways.get(r.sn);
        this.gateways.set(r.sn, {
          id: r.id,
          sn: r.sn,
          plantId: r.plant_id ?? null,
          boundAt: r.bound_at,
          timezone: r.timezone ?? 'UTC',
          latitude: r.latitude ?? null,
          longitude: r.longitude ?? null,
          offlineAfterMs: this.opts.offlineFactor * r.upload_interval_s * 1000,
          online: r.online === 1,
          lastArrival: old?.lastArrival ?? r.last_seen_at ?? 0,
          lastSeenWritten: r.last_seen_at ?? 0,
          loadedAt: now,
        });
      }
      for (const sn of wanted.slice(i, i + CHUNK)) if (!found.has(sn)) this.gateways.delete(sn);
    }
  }

  /** Load the devices not in memory (or stale), with their latest time and open events. */
  async loadDevices(db: Kysely<Database>, sns: Iterable<string>, now: number): Promise<void> {
    const wanted = [...sns].filter((sn) => {
      const e = this.devices.get(sn);
      return !e || now - e.loadedAt > this.opts.ttlMs;
    });
    for (let i = 0; i < wanted.length; i += CHUNK) {
      const rows = await db
        .selectFrom('devices as d')
        .leftJoin('device_latest as l', 'l.device_id', 'd.id')
        .select([
          'd.id',
          'd.sn',
          'd.gateway_id',
          'd.plant_id',
          'd.bound_at',
          'd.kind',
          'd.protocol_id',
          'd.device_type',
          'd.rated_power_w',
          'd.deleted_at',
          'd.status',
          'd.last_ts',
          'l.ts as latest_ts',
          'l.updated_at as latest_at',
        ])
        .where('d.sn', 'in', wanted.slice(i, i + CHUNK))
        .execute();
      if (rows.length === 0) continue;
      const open = await db
        .selectFrom('events')
        .select(['device_id', 'code', 'level', 'source'])
        .where(
          'device_id',
          'in',
          rows.map((r) => r.id),
        )
        .where('ended_at', 'is', null)
        .execute();
      const conditions = new Map<number, Map<string, Condition>>();
      for (const e of open) {
        const id = e.device_id as number;
        let map = conditions.get(id);
        if (!map) {
          map = new Map();
          conditions.set(id, map);
        }
        map.set(e.code, { level: e.level as EventLevel, source: e.source });
      }
      for (const r of rows) {
        const old = this.devices.get(r.sn);
        const entry: DeviceEntry = {
          id: r.id,
          sn: r.sn,
          gatewayId: r.gateway_id,
          plantId: r.plant_id,
          boundAt: r.bound_at,
          kind: r.kind,
          protocolId: r.protocol_id,
          deviceType: r.device_type,
          ratedPowerW: r.rated_power_w,
          deleted: r.deleted_at !== null,
          status: r.status,
          latestTs: r.latest_ts ?? Number.NEGATIVE_INFINITY,
          lastArrival: r.latest_at ?? 0,
          lastTsWritten: r.last_ts ?? 0,
          conditions: conditions.get(r.id) ?? new Map(),
          pvPowerW: old?.pvPowerW ?? null,
          pvTs: old?.pvTs ?? 0,
          // Not in the store: an event found open counts its quiet day from the load.
          counterRefusedTs:
            old?.counterRefusedTs ?? (conditions.get(r.id)?.has('counterImplausible') ? now : Number.NEGATIVE_INFINITY),
          loadedAt: now,
        };
        this.devices.set(r.sn, entry);
        this.indexPlant(entry);
      }
    }
  }
}
