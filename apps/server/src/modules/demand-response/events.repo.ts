/** SQL of the caller's view of the VTN's events: enrolments, events, opt-outs, dispatches. */
import type { Db } from '../../db/index.ts';

/** The user's accepted or ended enrolments. */
export const myEnrolments = (db: Db, userId: number) =>
  db
    .selectFrom('dr_enrollments')
    .select(['id', 'program_id', 'program_name', 'station_id', 'state'])
    .where('user_id', '=', userId)
    .where('state', 'in', ['accepted', 'unenrolled'])
    .execute();

/** The zone of the plant of the first device of these enrolments, if any. */
export async function firstDeviceZone(db: Db, enrolmentIds: readonly number[]): Promise<string | undefined> {
  const r = await db
    .selectFrom('dr_enrollment_devices as d')
    .innerJoin('devices', 'devices.id', 'd.device_id')
    .innerJoin('plants', 'plants.id', 'devices.plant_id')
    .select('plants.timezone')
    .where('d.enrollment_id', 'in', enrolmentIds)
    .orderBy('d.id')
    .executeTakeFirst();
  return r?.timezone;
}

/** The events of these programmes, newest first. */
export const eventsOfPrograms = (db: Db, programs: string[]) =>
  db
    .selectFrom('dr_events')
    .selectAll()
    .where('program_id', 'in', programs)
    .orderBy('start_ms', 'desc')
    .orderBy('id', 'desc')
    .execute();

export const eventById = (db: Db, id: number) => db.selectFrom('dr_events').selectAll().where('id', '=', id).executeTakeFirst();

/** The events the user opted out of. */
export const optedOutEvents = async (db: Db, userId: number) =>
  (await db.selectFrom('dr_optouts').select('event_id').where('user_id', '=', userId).execute()).map((o) => o.event_id);

/** Whether the user opted out of the event. */
export async function optedOut(db: Db, eventId: number, userId: number): Promise<boolean> {
  const opted = await db
    .selectFrom('dr_optouts')
    .select('event_id')
    .where('event_id', '=', eventId)
    .where('user_id', '=', userId)
    .executeTakeFirst();
  return !!opted;
}

/** What was sent for the event to the devices of these enrolments, by SN and time. */
export const dispatchesOf = (db: Db, eventId: number, enrolmentIds: number[]) =>
  db
    .selectFrom('dr_dispatches as x')
    .innerJoin('dr_enrollment_devices as d', 'd.id', 'x.enrollment_device_id')
    .selectAll('x')
    .where('x.event_id', '=', eventId)
    .where('d.enrollment_id', 'in', enrolmentIds)
    .orderBy('x.device_sn')
    .orderBy('x.start_ms')
    .orderBy('x.id')
    .execute();

/** Record the enrolment's opt-out of the event (once). */
export const insertOptOut = (db: Db, eventId: number, enrolmentId: number, userId: number, at: number) =>
  db
    .insertInto('dr_optouts')
    .values({ event_id: eventId, enrollment_id: enrolmentId, user_id: userId, at })
    .onConflict((oc) => oc.columns(['event_id', 'enrollment_id']).doNothing())
    .execute();
