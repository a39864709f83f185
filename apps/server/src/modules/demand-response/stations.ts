/**
 * The enrolment form's lookups: the caller's plants they may operate (with how many storage
 * inverters each has), a plant's devices with a battery with what the portal knows of them (the
 * master first) and, for one whose registers cannot force its battery, why it cannot take part;
 * a plant's zone and the zone list. Plants and devices come through `access/`.
 */

import { ErrorCode } from '@sunfleet/contracts';
import type { Caller } from '../../access/caller.ts';
import { plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { batteryProtocols, cannotTakePart, isStorageCapable, nameplate } from '../../demand-response/controls.ts';
import { deviceLatest, num } from '../../energy/latest.ts';
import { fail } from '../../http/errors.ts';
import { offsetAt, offsetText, zonesWithOffsets } from '../../time/index.ts';
import { activeEnrolmentsOf } from './enrollments.repo.ts';
import { operableDevicesOf, operablePlantsWithInverters } from './stations.repo.ts';

/** The protocols of devices that can take part, and of every device with a battery (offered, or shown as unable to). */
const STORAGE_PROTOCOLS = batteryProtocols().filter(isStorageCapable);
const BATTERY_PROTOCOLS = batteryProtocols();

export async function userStations(db: Db, caller: Caller, userId: number) {
  // The list is the caller's own: another account's id shows nothing of it.
  if (userId !== caller.user.id) fail(ErrorCode.noPermission);
  const rows = await operablePlantsWithInverters(db, caller, STORAGE_PROTOCOLS);
  return rows.map((r) => ({ id: r.id, name: r.name, timezone: r.timezone, storageDevices: Number(r.n) }));
}

const kw = (w: number | null) => (w === null ? null : Math.round(w / 10) / 100);

export async function stationMasterDevices(db: Db, caller: Caller, stationId: number) {
  await plantFor(db, caller, stationId, 'view');
  const rows = await operableDevicesOf(db, caller, stationId, BATTERY_PROTOCOLS);
  const used = new Set(
    (
      await activeEnrolmentsOf(
        db,
        rows.map((r) => r.id),
      )
    ).map((u) => u.device_id),
  );
  const out = [];
  for (const r of rows) {
    const plate = nameplate(r.protocol_id)!;
    const latest = await deviceLatest(db, r.id);
    const rated = r.rated_power_w ?? num(latest?.values.ratedPower);
    // Battery capacity in Ah at the nominal 51.2 V of the packs these inverters take, when the
    // inverter reports it; otherwise the user types it.
    const ah = num(latest?.values.batteryCapacity);
    out.push({
      sn: r.sn,
      alias: r.alias,
      manufacturer: plate.manufacturer,
      model: plate.model,
      installDate: new Date(Number(r.bound_at) || Number(r.created_at)).toISOString().slice(0, 10),
      chargeCapacity: kw(rated),
      dischargeCapacity: kw(rated),
      storageCapacity: ah === null ? null : Math.round(ah * 51.2) / 1000,
      enrolled: used.has(r.id),
      cannotTakePart: cannotTakePart(r.protocol_id) === null ? null : ('noPowerControl' as const),
    });
  }
  return out;
}

export async function stationTimezone(db: Db, caller: Caller, stationId: number) {
  const plant = await plantFor(db, caller, stationId, 'view', ['timezone']);
  const tz = plant.row.timezone;
  return { stationId, timezone: tz, offset: offsetText(Math.round(offsetAt(tz, Date.now()) / 60_000)) };
}

export const timezones = () => zonesWithOffsets().map((z) => ({ id: z.id, offset: z.offset }));
