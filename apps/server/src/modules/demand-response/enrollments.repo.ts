/** The SQL of enrolments and their devices, rows mapped to the contract's shapes. */
import type { demandResponseApi } from '@sunfleet/contracts';
import type { Insertable, Selectable, Updateable } from 'kysely';
import type { Static } from 'typebox';
import type { Db } from '../../db/index.ts';
import type { DrEnrollmentDevicesTable, DrEnrollmentsTable } from '../../db/schema.ts';
import { iso } from '../../time/index.ts';

type Enrollment = Static<typeof demandResponseApi.Enrollment>;
type EnrollmentItem = Static<typeof demandResponseApi.EnrollmentItem>;
export type Row = Selectable<DrEnrollmentsTable>;

/** Active enrolments hold their devices and utility account; these do not. */
export const ENDED_STATES = ['unenrolled', 'rejected'] as const;

const kw = (w: number) => Math.round(Number(w) / 10) / 100;

function item(r: Row, devices: number): EnrollmentItem {
  return {
    id: r.id,
    programId: r.program_id,
    programName: r.program_name,
    state: r.state,
    email: r.email,
    firstName: r.first_name,
    lastName: r.last_name,
    utilityAccount: r.utility_account,
    devices,
    createdAt: iso(Number(r.created_at))!,
    updatedAt: iso(Number(r.updated_at))!,
  };
}

const address = (r: Row, p: 'service' | 'mailing') => ({
  country: r[`${p}_country`],
  region: r[`${p}_region`],
  locality: r[`${p}_locality`],
  extendedAddress: r[`${p}_extended`],
  streetAddress: r[`${p}_street`],
  postalCode: r[`${p}_postal`],
});

/** The caller's enrolment row, or undefined. */
export function findOwn(db: Db, userId: number, id: number) {
  return db
    .selectFrom('dr_enrollments')
    .selectAll()
    .where('id', '=', id)
    .where('user_id', '=', userId)
    .executeTakeFirst() as Promise<Row | undefined>;
}

export async function enrollmentView(db: Db, r: Row): Promise<Enrollment> {
  const devices = await db
    .selectFrom('dr_enrollment_devices as d')
    .leftJoin('devices', 'devices.id', 'd.device_id')
    .select([
      'd.sn',
      'd.manufacturer',
      'd.model',
      'd.install_date',
      'd.charge_w',
      'd.discharge_w',
      'd.storage_wh',
      'd.resource_id',
      'd.added_at',
      'devices.plant_id',
    ])
    .where('d.enrollment_id', '=', r.id)
    .where('d.removed_at', 'is', null)
    .orderBy('d.id')
    .execute();
  return {
    ...item(r, devices.length),
    serviceAddress: address(r, 'service'),
    mailingAddress: address(r, 'mailing'),
    sourceAccount: r.source_account,
    stationId: r.station_id,
    termsAcceptedAt: iso(Number(r.terms_accepted_at))!,
    deviceList: devices.map((d) => ({
      sn: d.sn,
      stationId: d.plant_id,
      manufacturer: d.manufacturer,
      model: d.model,
      installDate: d.install_date,
      chargeCapacity: kw(d.charge_w),
      dischargeCapacity: kw(d.discharge_w),
      storageCapacity: kw(d.storage_wh),
      registered: d.resource_id !== null,
      addedAt: iso(Number(d.added_at))!,
    })),
  };
}

export async function listOwn(db: Db, userId: number, page: number, size: number, state?: string) {
  let q = db.selectFrom('dr_enrollments').where('user_id', '=', userId);
  if (state) q = q.where('state', '=', state as Row['state']);
  const total = Number((await q.select((eb) => eb.fn.countAll<number>().as('n')).executeTakeFirstOrThrow()).n);
  const rows = (await q
    .selectAll()
    .orderBy('id', 'desc')
    .limit(size)
    .offset((page - 1) * size)
    .execute()) as Row[];
  const counts = rows.length
    ? await db
        .selectFrom('dr_enrollment_devices')
        .select(['enrollment_id', (eb) => eb.fn.countAll<number>().as('n')])
        .where(
          'enrollment_id',
          'in',
          rows.map((r) => r.id),
        )
        .where('removed_at', 'is', null)
        .groupBy('enrollment_id')
        .execute()
    : [];
  return { total, list: rows.map((r) => item(r, Number(counts.find((c) => c.enrollment_id === r.id)?.n ?? 0))) };
}

/** Device ids in an active enrolment (any user), with the enrolment each is in. */
export async function activeEnrolmentsOf(db: Db, deviceIds: readonly number[]) {
  if (deviceIds.length === 0) return [];
  return db
    .selectFrom('dr_enrollment_devices as d')
    .innerJoin('dr_enrollments as e', 'e.id', 'd.enrollment_id')
    .select(['d.device_id', 'd.enrollment_id'])
    .where('d.device_id', 'in', deviceIds)
    .where('d.removed_at', 'is', null)
    .where('e.state', 'not in', ENDED_STATES)
    .execute();
}

/** Whether the utility account is already in an active enrolment of the programme. */
export async function accountBound(db: Db, programId: string, utilityAccount: string): Promise<boolean> {
  const r = await db
    .selectFrom('dr_enrollments')
    .select('id')
    .where('program_id', '=', programId)
    .where('utility_account', '=', utilityAccount)
    .where('state', 'not in', ENDED_STATES)
    .executeTakeFirst();
  return !!r;
}

// ——— writes ———

/** A programme the VTN offers (not deleted). */
export const liveProgram = (db: Db, id: string) =>
  db.selectFrom('dr_programs').select(['id', 'name']).where('id', '=', id).where('deleted_at', 'is', null).executeTakeFirst();

export async function insertEnrollment(trx: Db, values: Omit<Insertable<DrEnrollmentsTable>, 'id'>): Promise<number> {
  const row = await trx.insertInto('dr_enrollments').values(values).returning('id').executeTakeFirstOrThrow();
  return row.id;
}

export const insertEnrollmentDevices = (trx: Db, rows: Omit<Insertable<DrEnrollmentDevicesTable>, 'id'>[]) =>
  trx.insertInto('dr_enrollment_devices').values(rows).execute();

export const setEnrollment = (db: Db, id: number, set: Updateable<DrEnrollmentsTable>) =>
  db.updateTable('dr_enrollments').set(set).where('id', '=', id).execute();

/** Mark the enrolment's device of this SN removed at `at`; whether there was one; then the ids removed at `at`. */
export async function removeEnrolledDevice(db: Db, enrollmentId: number, sn: string, at: number): Promise<number[] | null> {
  const res = await db
    .updateTable('dr_enrollment_devices')
    .set({ removed_at: at })
    .where('enrollment_id', '=', enrollmentId)
    .where('sn', '=', sn)
    .where('removed_at', 'is', null)
    .executeTakeFirst();
  if (Number(res.numUpdatedRows) === 0) return null;
  await db.updateTable('dr_enrollments').set({ updated_at: at }).where('id', '=', enrollmentId).execute();
  const removed = await db
    .selectFrom('dr_enrollment_devices')
    .select('id')
    .where('enrollment_id', '=', enrollmentId)
    .where('sn', '=', sn)
    .where('removed_at', '=', at)
    .execute();
  return removed.map((r) => r.id);
}

/** The ids of the enrolment's device rows. */
export const enrolledDeviceIds = async (db: Db, enrollmentId: number) =>
  (await db.selectFrom('dr_enrollment_devices').select('id').where('enrollment_id', '=', enrollmentId).execute()).map(
    (d) => d.id,
  );
