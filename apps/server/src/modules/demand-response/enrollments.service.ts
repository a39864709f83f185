/**
 * Enrolments: the rules. A user enrols in a programme the VTN offers and whose terms the portal
 * serves, after accepting them; the devices are storage inverters on plants the user may operate
 * (through `access/`); a device is in at most one active enrolment; a utility account number in at
 * most one active enrolment of a programme. States: invited (no devices yet) → pending (devices
 * given; the VEN registers them at the VTN) → accepted (all registered) or rejected (the VTN no
 * longer offers the programme); unenrolled by the user. Refusals come before anything is written.
 */
import { type BodyOf, type demandResponseApi, ErrorCode } from '@sunfleet/contracts';
import type { Static } from 'typebox';
import type { Caller } from '../../access/caller.ts';
import { deviceFor, plantFor } from '../../access/resolve.ts';
import type { Db } from '../../db/index.ts';
import { cannotTakePart } from '../../demand-response/controls.ts';
import { devicesLeft } from '../../demand-response/dispatch.ts';
import { termsUrl } from '../../demand-response/programmes.ts';
import { BusinessError, fail } from '../../http/errors.ts';
import * as repo from './enrollments.repo.ts';
import { accountBound, activeEnrolmentsOf, ENDED_STATES, enrollmentView, findOwn, listOwn } from './enrollments.repo.ts';

type Input = BodyOf<typeof demandResponseApi.enroll>;
type DeviceInput = Static<typeof demandResponseApi.EnrolledDeviceInput>;

interface CheckedDevice extends DeviceInput {
  deviceId: number;
}

/** Each named device: seen (else 6002), operable (2), a storage device the VEN can force (601), no SN twice (6006). */
async function checkDevices(db: Db, caller: Caller, devices: readonly DeviceInput[]): Promise<CheckedDevice[]> {
  const seen = new Set<string>();
  const out: CheckedDevice[] = [];
  for (const d of devices) {
    if (seen.has(d.sn)) fail(ErrorCode.drSameSn, `${d.sn} is named twice`);
    seen.add(d.sn);
    let device: Awaited<ReturnType<typeof deviceFor>>;
    try {
      device = await deviceFor(db, caller, { sn: d.sn }, { onPlant: true });
    } catch (err) {
      if (err instanceof BusinessError) return fail(ErrorCode.drDeviceMissing, d.sn);
      throw err;
    }
    if (!device.canOperate) fail(ErrorCode.noPermission);
    const reason = cannotTakePart(device.protocolId);
    if (reason === 'noPowerControl')
      fail(ErrorCode.inverterUnsupported, `${d.sn} cannot take part: its registers cannot force its battery to discharge`);
    if (reason !== null) fail(ErrorCode.inverterUnsupported, `${d.sn} is not a storage device`);
    out.push({ ...d, deviceId: device.id });
  }
  return out;
}

/** None of the devices already in an active enrolment: this one (6001) or another (6004). */
async function checkFree(db: Db, devices: readonly CheckedDevice[], enrollmentId: number | null) {
  const used = await activeEnrolmentsOf(
    db,
    devices.map((d) => d.deviceId),
  );
  for (const u of used) {
    const sn = devices.find((d) => d.deviceId === u.device_id)?.sn;
    if (enrollmentId !== null && u.enrollment_id === enrollmentId) fail(ErrorCode.drDeviceExists, sn);
    fail(ErrorCode.drDeviceUsed, sn);
  }
}

const deviceRows = (enrollmentId: number, devices: readonly CheckedDevice[], now: number) =>
  devices.map((d) => ({
    enrollment_id: enrollmentId,
    device_id: d.deviceId,
    sn: d.sn,
    manufacturer: d.manufacturer,
    model: d.model,
    install_date: d.installDate ?? null,
    charge_w: Math.round(d.chargeCapacity * 1000),
    discharge_w: Math.round(d.dischargeCapacity * 1000),
    storage_wh: Math.round(d.storageCapacity * 1000),
    resource_id: null,
    added_at: now,
    removed_at: null,
  }));

export async function enroll(db: Db, caller: Caller, input: Input) {
  const program = await repo.liveProgram(db, input.programId);
  if (!program) fail(ErrorCode.validation, 'programId: the VTN offers no such programme');
  if (!termsUrl(program!.name)) fail(ErrorCode.validation, 'programId: the programme has no terms to accept');
  const devices = await checkDevices(db, caller, input.devices);
  if (input.stationId !== undefined) await plantFor(db, caller, input.stationId, 'operate');
  const now = Date.now();
  const id = await db.transaction().execute(async (trx) => {
    await checkFree(trx, devices, null);
    if (await accountBound(trx, input.programId, input.utilityAccount)) fail(ErrorCode.drAccountBound, input.utilityAccount);
    const s = input.serviceAddress;
    const m = input.mailingAddress;
    const rowId = await repo.insertEnrollment(trx, {
      user_id: caller.user.id,
      program_id: program!.id,
      program_name: program!.name,
      email: input.email.toLowerCase(),
      first_name: input.firstName,
      last_name: input.lastName,
      service_country: s.country,
      service_region: s.region,
      service_locality: s.locality,
      service_extended: s.extendedAddress ?? null,
      service_street: s.streetAddress,
      service_postal: s.postalCode,
      mailing_country: m.country,
      mailing_region: m.region,
      mailing_locality: m.locality,
      mailing_extended: m.extendedAddress ?? null,
      mailing_street: m.streetAddress,
      mailing_postal: m.postalCode,
      source_account: input.sourceAccount,
      utility_account: input.utilityAccount,
      station_id: input.stationId ?? null,
      state: devices.length > 0 ? 'pending' : 'invited',
      terms_accepted_at: now,
      created_at: now,
      updated_at: now,
    });
    if (devices.length > 0) await repo.insertEnrollmentDevices(trx, deviceRows(rowId, devices, now));
    return rowId;
  });
  return getEnrollment(db, caller, id);
}

async function ownActive(db: Db, caller: Caller, id: number) {
  const row = await findOwn(db, caller.user.id, id);
  if (!row || (ENDED_STATES as readonly string[]).includes(row.state)) return fail(ErrorCode.drEnrollmentMissing);
  return row;
}

export async function addDevices(db: Db, caller: Caller, id: number, input: readonly DeviceInput[]) {
  const enrollment = await ownActive(db, caller, id);
  const devices = await checkDevices(db, caller, input);
  const now = Date.now();
  await db.transaction().execute(async (trx) => {
    await checkFree(trx, devices, id);
    await repo.insertEnrollmentDevices(trx, deviceRows(id, devices, now));
    // New devices wait for the VTN again: the enrolment is pending until they are registered.
    await repo.setEnrollment(trx, enrollment.id, { state: 'pending', updated_at: now });
  });
  return getEnrollment(db, caller, id);
}

export async function removeDevice(db: Db, caller: Caller, id: number, sn: string) {
  await ownActive(db, caller, id);
  const now = Date.now();
  const removed = await repo.removeEnrolledDevice(db, id, sn, now);
  if (removed === null) return fail(ErrorCode.drDeviceMissing, sn);
  // A device removed during an event goes back to its settings now.
  await devicesLeft(db, removed, now);
  return getEnrollment(db, caller, id);
}

export async function unenroll(db: Db, caller: Caller, id: number) {
  await ownActive(db, caller, id);
  const now = Date.now();
  await repo.setEnrollment(db, id, { state: 'unenrolled', updated_at: now });
  // Its devices leave the events they are in: their settings come back now.
  await devicesLeft(db, await repo.enrolledDeviceIds(db, id), now);
  return getEnrollment(db, caller, id);
}

export async function getEnrollment(db: Db, caller: Caller, id: number) {
  const row = await findOwn(db, caller.user.id, id);
  if (!row) return fail(ErrorCode.drEnrollmentMissing);
  return enrollmentView(db, row);
}

export async function enrollmentState(db: Db, caller: Caller, id: number) {
  const row = await findOwn(db, caller.user.id, id);
  if (!row) return fail(ErrorCode.drEnrollmentMissing);
  return { id: row.id, state: row.state, updatedAt: new Date(Number(row.updated_at)).toISOString() };
}

export const listEnrollments = (db: Db, caller: Caller, q: { page?: number; size?: number; state?: string }) =>
  listOwn(db, caller.user.id, q.page ?? 1, q.size ?? 10, q.state);
