/**
 * Devices behind a gateway are discovered on their first data: a `devices` row attached to the
 * gateway and its plant, of the protocol's kind, with the inverter type register and
 * rated power when the frame carries them. A removed device that reports again through its own
 * gateway is attached anew; through any other gateway it is refused (batch.ts `resolve`).
 */
import type { Kysely } from 'kysely';
import type { Database } from '../../db/schema.ts';
import type { DeviceReading } from './frames.ts';
import type { DeviceEntry, GatewayEntry } from './registry.ts';

/** Device type register value (its name is mapped on display, `inverterTypeKey`); null when absent. */
const deviceTypeOf = (r: DeviceReading): number | null => r.deviceType;
const ratedPowerOf = (r: DeviceReading): number | null => r.ratedPowerW;

function newEntry(id: number, r: DeviceReading, gw: GatewayEntry, now: number): DeviceEntry {
  return {
    id,
    sn: r.sn,
    gatewayId: gw.id,
    plantId: gw.plantId,
    boundAt: gw.boundAt,
    kind: r.kind,
    protocolId: r.protocol,
    deviceType: deviceTypeOf(r),
    ratedPowerW: ratedPowerOf(r),
    deleted: false,
    status: 'offline',
    latestTs: Number.NEGATIVE_INFINITY,
    lastArrival: r.receivedAt,
    lastTsWritten: 0,
    conditions: new Map(),
    pvPowerW: null,
    pvTs: 0,
    counterRefusedTs: Number.NEGATIVE_INFINITY,
    loadedAt: now,
  };
}

/** Insert the devices first seen in this batch (one reading each, with its gateway). */
export async function discoverDevices(
  db: Kysely<Database>,
  found: readonly { reading: DeviceReading; gateway: GatewayEntry }[],
  now: number,
): Promise<DeviceEntry[]> {
  const rows: { id: number; sn: string }[] = [];
  for (let i = 0; i < found.length; i += 500) {
    const chunk = await db
      .insertInto('devices')
      .values(
        found.slice(i, i + 500).map(({ reading: r, gateway: gw }) => ({
          sn: r.sn,
          gateway_id: gw.id,
          plant_id: gw.plantId,
          // A device found behind a bound gateway is the plant's since the gateway is.
          bound_at: gw.boundAt,
          kind: r.kind,
          protocol_id: r.protocol,
          unit: r.unit,
          alias: null,
          device_type: deviceTypeOf(r),
          rated_power_w: ratedPowerOf(r),
          master_device_id: null,
          last_ts: null,
          created_at: now,
          updated_at: now,
          deleted_at: null,
        })),
      )
      .returning(['id', 'sn'])
      .execute();
    rows.push(...chunk);
  }
  const ids = new Map(rows.map((r) => [r.sn, r.id]));
  return found.map(({ reading, gateway }) => newEntry(ids.get(reading.sn)!, reading, gateway, now));
}

/**
 * A removed device reports again through its own gateway: attach it to that gateway's plant. If
 * the gateway moved meanwhile, the device joins the new plant when the gateway did.
 */
export async function reattachDevice(db: Kysely<Database>, entry: DeviceEntry, r: DeviceReading, gw: GatewayEntry, now: number) {
  const boundAt = entry.plantId === gw.plantId ? entry.boundAt : gw.boundAt;
  await db
    .updateTable('devices')
    .set({
      gateway_id: gw.id,
      plant_id: gw.plantId,
      bound_at: boundAt,
      kind: r.kind,
      protocol_id: r.protocol,
      unit: r.unit,
      device_type: deviceTypeOf(r),
      rated_power_w: ratedPowerOf(r),
      deleted_at: null,
      updated_at: now,
    })
    .where('id', '=', entry.id)
    .execute();
  return { ...newEntry(entry.id, r, gw, now), boundAt, latestTs: entry.latestTs, conditions: entry.conditions };
}

/** Whether the row's plant, type or rated power lag behind the gateway binding or the frame. */
export function factsChanged(entry: DeviceEntry, r: DeviceReading, gw: GatewayEntry): boolean {
  if (entry.plantId !== gw.plantId) return true;
  const deviceType = deviceTypeOf(r);
  if (deviceType !== null && deviceType !== entry.deviceType) return true;
  const ratedPowerW = ratedPowerOf(r);
  return ratedPowerW !== null && ratedPowerW !== entry.ratedPowerW;
}

/** Bring the row's plant, type and rated power in step (see `factsChanged`). */
export async function updateDeviceFacts(
  db: Kysely<Database>,
  entry: DeviceEntry,
  r: DeviceReading,
  gw: GatewayEntry,
  now: number,
) {
  const deviceType = deviceTypeOf(r) ?? entry.deviceType;
  const ratedPowerW = ratedPowerOf(r) ?? entry.ratedPowerW;
  // Following its gateway into another plant: it is that plant's since the gateway is.
  const boundAt = entry.plantId === gw.plantId ? entry.boundAt : gw.boundAt;
  await db
    .updateTable('devices')
    .set({ plant_id: gw.plantId, bound_at: boundAt, device_type: deviceType, rated_power_w: ratedPowerW, updated_at: now })
    .where('id', '=', entry.id)
    .execute();
  entry.plantId = gw.plantId;
  entry.boundAt = boundAt;
  entry.deviceType = deviceType;
  entry.ratedPowerW = ratedPowerW;
}
