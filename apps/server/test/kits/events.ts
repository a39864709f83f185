/** Fixtures of the event and operation-data tests: tenants with plants, devices, events, samples. */
import { registersToHex } from '@sunfleet/contracts';
import { type InputValue, protocolPlan } from '@sunfleet/protocols';
import { now } from '../../src/db/index.ts';
import type { DeviceKind, EventLevel } from '../../src/db/schema.ts';
import { provisionGateway } from '../../src/telemetry/gateways.ts';
import type { TestServer } from '../harness.ts';
import { BATTERY, HYBRID, METER } from '../telemetry.ts';
import { type Account, account, storePlant, uniqueSn } from './plants.ts';

export { BATTERY, HYBRID, METER };

export interface Site {
  owner: Account;
  plantId: number;
  gatewayId: number;
  gatewaySn: string;
  inverter: { id: number; sn: string };
  battery: { id: number; sn: string };
}

export async function addDevice(s: TestServer, gatewayId: number, plantId: number, kind: DeviceKind, protocol: string) {
  const t = now();
  const sn = uniqueSn(kind.slice(0, 3).toUpperCase());
  const row = await s.db
    .insertInto('devices')
    .values({
      sn,
      gateway_id: gatewayId,
      plant_id: plantId,
      kind,
      protocol_id: protocol,
      status: 'normal',
      alias: `${kind} alias`,
      created_at: t,
      updated_at: t,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return { id: row.id, sn };
}

/** An owner with a plant in `timezone`, a gateway, a hybrid inverter and a battery. */
export async function site(s: TestServer, opts: { timezone?: string; nickname?: string } = {}): Promise<Site> {
  const owner = await account(s);
  if (opts.nickname) await s.db.updateTable('users').set({ nickname: opts.nickname }).where('id', '=', owner.id).execute();
  const plantId = await storePlant(s, { owner_user_id: owner.id, timezone: opts.timezone ?? 'UTC' });
  const gw = await provisionGateway(s.db, { sn: uniqueSn('GW'), plantId, alias: 'Roof gateway' });
  return {
    owner,
    plantId,
    gatewayId: gw.id,
    gatewaySn: gw.sn,
    inverter: await addDevice(s, gw.id, plantId, 'inverter', HYBRID),
    battery: await addDevice(s, gw.id, plantId, 'battery', BATTERY),
  };
}

export interface EventSpec {
  plantId: number;
  sn: string;
  deviceId?: number | null;
  gatewayId?: number | null;
  code?: string;
  level?: EventLevel;
  source?: 'device' | 'gateway' | 'rule';
  startedAt?: number;
  endedAt?: number | null;
  en?: string;
  es?: string;
}

export async function addEvent(s: TestServer, e: EventSpec): Promise<number> {
  const t = e.startedAt ?? now();
  const row = await s.db
    .insertInto('events')
    .values({
      plant_id: e.plantId,
      gateway_id: e.gatewayId ?? null,
      device_id: e.deviceId ?? null,
      sn: e.sn,
      source: e.source ?? 'device',
      code: e.code ?? 'gridOvervoltage',
      level: e.level ?? 'fault',
      text_en: e.en ?? 'Grid overvoltage',
      text_es: e.es ?? 'Sobretensión de red',
      started_at: t,
      ended_at: e.endedAt ?? null,
      created_at: now(),
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** The stored `raw` of a frame with `values`, encoded as a gateway would send it. */
export function rawBlocks(protocol: string, values: Record<string, InputValue>, faults: string[] = []): string {
  const plan = protocolPlan(protocol)!;
  const blocks = plan.encode(values, { groups: ['info', 'realtime'], faults });
  return JSON.stringify(blocks.map((b) => [b.functionCode, b.address, registersToHex(b.registers)]));
}

export async function addInverterSample(
  s: TestServer,
  deviceId: number,
  ts: number,
  columns: Partial<{ power_w: number; pv_power_w: number; soc: number; temperature_c: number }>,
  raw = '[]',
) {
  await s.db
    .insertInto('inverter_samples')
    .values({
      device_id: deviceId,
      ts,
      power_w: columns.power_w ?? null,
      pv_power_w: columns.pv_power_w ?? null,
      grid_power_w: null,
      load_power_w: null,
      battery_power_w: null,
      soc: columns.soc ?? null,
      temperature_c: columns.temperature_c ?? null,
      pv_total_wh: null,
      raw,
    })
    .execute();
}

/** GET with a query string built from `query` (arrays as repeated keys). */
export function url(path: string, query: Record<string, string | number | boolean | string[] | undefined> = {}) {
  const p = new URLSearchParams();
  for (const [k, v] of Object.entries(query)) {
    if (v === undefined) continue;
    if (Array.isArray(v)) for (const x of v) p.append(k, x);
    else p.append(k, String(v));
  }
  const qs = p.toString();
  return qs ? `${path}?${qs}` : path;
}

export const day = (t: number) => new Date(t).toISOString().slice(0, 10);
export const DAY = 86_400_000;
