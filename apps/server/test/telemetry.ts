/**
 * Gateway messages for ingest tests and benchmarks, encoded the way a gateway sends them:
 * values → protocol encoder → register blocks → hex.
 */
import { type DataMessage, type GatewayEventMessage, registersToHex } from '@sunfleet/contracts';
import { type InputValue, protocolPlan } from '@sunfleet/protocols';
import { type Db, now } from '../src/db/index.ts';
import { provisionGateway } from '../src/telemetry/gateways.ts';

let made = 0;
/** A serial number no other test file (or process) uses. */
export const uniqueSn = (prefix: string) => `${prefix}${process.pid.toString(36)}${(++made).toString(36)}`.toUpperCase();

/** The row of a plant with no owner or company (what ingest needs), made at `t`. */
export const unownedPlant = (
  name: string,
  at: { timezone: string; latitude: number | null; longitude: number | null },
  t: number,
) => ({
  name,
  ...at,
  owner_user_id: null,
  company_id: null,
  currency: 'EUR',
  address: null,
  created_at: t,
  updated_at: t,
  deleted_at: null,
});

/** A plant in the given time zone (default UTC). */
export async function makePlant(
  db: Db,
  opts: { timezone?: string; latitude?: number | null; longitude?: number | null } = {},
): Promise<number> {
  const place = { timezone: opts.timezone ?? 'UTC', latitude: opts.latitude ?? null, longitude: opts.longitude ?? null };
  const row = await db
    .insertInto('plants')
    .values(unownedPlant(`Plant ${++made}`, place, now()))
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** A provisioned gateway bound to `plantId` (or unbound). */
export async function makeGateway(db: Db, plantId: number | null, opts: { uploadIntervalS?: number } = {}) {
  const gw = await provisionGateway(db, { sn: uniqueSn('GW'), plantId });
  if (opts.uploadIntervalS) {
    await db.updateTable('gateways').set({ upload_interval_s: opts.uploadIntervalS }).where('id', '=', gw.id).execute();
  }
  return { id: gw.id, sn: gw.sn };
}

export const HYBRID = 'sunfleet-hybrid-3p';
export const STRING = 'sunfleet-string-3p';
export const BATTERY = 'sunfleet-battery';
export const METER = 'sunfleet-meter-3p';
export const WEATHER = 'sunfleet-weather';

export interface DeviceFrameSpec {
  sn: string;
  protocol: string;
  values?: Record<string, InputValue>;
  /** Fault or warning bit codes to set. */
  faults?: string[];
  /** Register groups to send (default info and realtime). */
  groups?: ('info' | 'realtime')[];
  /** The device's own reading time, when not the frame's. */
  ts?: number;
}

/** Plausible values per protocol; a test overrides what it checks. */
export const defaults: Record<string, Record<string, InputValue>> = {
  [HYBRID]: {
    deviceType: 93,
    ratedPower: 10_000,
    runningState: 2,
    pv1Power: 2000,
    pv2Power: 1500,
    activePower: 3400,
    gridActivePower: 500,
    loadPower: 2900,
    batteryPower: 0,
    batterySoc: 60,
    batteryTemperature: 25,
    inverterTemperature: 40,
    pvEnergyTotal: 1000,
    loadEnergyTotal: 800,
    gridImportEnergyTotal: 300,
    gridExportEnergyTotal: 400,
    batteryChargeEnergyTotal: 200,
    batteryDischargeEnergyTotal: 150,
  },
  [STRING]: { deviceType: 94, ratedPower: 20_000, runningState: 2, pv1Power: 5000, activePower: 4900, energyTotal: 5000 },
  [BATTERY]: { slavePackCount: 0, soc: 60, soh: 98, voltage: 51.2, current: 0, power: 0, 'pack1.cellTemperatureMax': 25 },
  [METER]: { activePower: -500, importEnergy: 300, exportEnergy: 400 },
  [WEATHER]: { irradiance: 600, ambientTemperature: 20, moduleTemperature: 35, windSpeed: 2, dailyIrradiation: 1.5 },
};

export function deviceFrame(spec: DeviceFrameSpec): DataMessage['devices'][number] {
  const plan = protocolPlan(spec.protocol);
  if (!plan) throw new Error(`no protocol ${spec.protocol}`);
  // A value the test does not give reads 0, as a real device's unused register does; null sends
  // the field's "not available" sentinel.
  const values: Record<string, InputValue> = {};
  for (const f of plan.definition.fields) if (f.dataType !== 'string' && f.dataType !== 'hex') values[f.key] = 0;
  Object.assign(values, { serialNumber: spec.sn }, defaults[spec.protocol], spec.values);
  const blocks = plan.encode(values, { groups: spec.groups ?? ['info', 'realtime'], faults: spec.faults ?? [] });
  return {
    sn: spec.sn,
    protocol: spec.protocol,
    ...(spec.ts !== undefined ? { ts: spec.ts } : {}),
    blocks: blocks.map((b) => ({ fc: b.functionCode as 3 | 4, addr: b.address, regs: registersToHex(b.registers) })),
  };
}

let seq = 0;
export function dataMessage(ts: number, devices: DeviceFrameSpec[], extra: Partial<DataMessage> = {}): Buffer {
  const message: DataMessage = { v: 1, seq: ++seq, ts, devices: devices.map(deviceFrame), ...extra };
  return Buffer.from(JSON.stringify(message));
}

export function eventMessage(event: Omit<GatewayEventMessage, 'v'>): Buffer {
  return Buffer.from(JSON.stringify({ v: 1, ...event }));
}
