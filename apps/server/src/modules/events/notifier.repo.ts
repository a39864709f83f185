/**
 * The SQL of the fault notifier: new fault events past the stored cursor, who gets mail, and
 * event_notifications (each mail, held fault and digest).
 */
import type { Caller } from '../../access/caller.ts';
import { plantsVisible } from '../../access/scopes.ts';
import type { Db } from '../../db/index.ts';

const HOUR = 3_600_000;

function faultQuery(db: Db) {
  return db
    .selectFrom('events')
    .innerJoin('plants', 'plants.id', 'events.plant_id')
    .leftJoin('devices', 'devices.id', 'events.device_id')
    .leftJoin('gateways', 'gateways.id', 'events.gateway_id')
    .select([
      'events.id',
      'events.plant_id',
      'events.sn',
      'events.code',
      'events.level',
      'events.text_en',
      'events.text_es',
      'events.started_at',
      'events.ended_at',
      'events.created_at',
      'events.device_id',
      'plants.name as plant_name',
      'plants.timezone',
      'devices.alias as device_alias',
      'gateways.alias as gateway_alias',
    ]);
}

/** Fault events after the id `after`, oldest first. */
export const faultRows = (db: Db, after: number, limit: number) =>
  faultQuery(db).where('events.id', '>', after).where('events.level', '=', 'fault').orderBy('events.id').limit(limit).execute();

export type FaultRow = Awaited<ReturnType<typeof faultRows>>[number];

/** One event as a fault mail shows it. */
export const faultById = (db: Db, id: number) => faultQuery(db).where('events.id', '=', id).executeTakeFirst();

/** Events as fault mails show them, by id. */
export const faultsByIds = (db: Db, ids: number[]) => faultQuery(db).where('events.id', 'in', ids).orderBy('events.id').execute();

/** The stored cursor, or null when there is none yet (then one is stored at the newest event). */
export async function readCursor(db: Db, name: string, t: number): Promise<number | null> {
  const row = await db.selectFrom('event_notifier_state').select('last_event_id').where('name', '=', name).executeTakeFirst();
  if (row) return Number(row.last_event_id);
  const newest = await db
    .selectFrom('events')
    .select((eb) => eb.fn.max('id').as('id'))
    .executeTakeFirst();
  await db
    .insertInto('event_notifier_state')
    .values({ name, last_event_id: Number(newest?.id ?? 0), updated_at: t })
    .onConflict((oc) => oc.column('name').doNothing())
    .execute();
  return null;
}

export const writeCursor = (db: Db, name: string, id: number, t: number) =>
  db.updateTable('event_notifier_state').set({ last_event_id: id, updated_at: t }).where('name', '=', name).execute();

/** Enabled users with alarm notifications on. */
export const notifiedUsers = (db: Db) =>
  db.selectFrom('users').selectAll().where('notify_enabled', '=', 1).where('enabled', '=', 1).execute();

/** Which of the plants the caller sees. */
export const visiblePlantIds = (db: Db, caller: Caller, plantIds: number[]) =>
  db
    .selectFrom('plants')
    .select('plants.id')
    .where('plants.id', 'in', plantIds)
    .where((eb) => plantsVisible(eb, caller))
    .execute();

/** Mails sent (or being sent) to the user in the hour before `t`, digests included. */
export async function mailsInLastHour(db: Db, userId: number, t: number): Promise<number> {
  const row = await db
    .selectFrom('event_notifications')
    .select((eb) => eb.fn.countAll<number>().as('n'))
    .where('user_id', '=', userId)
    .where('mailed_at', '>', t - HOUR)
    .where('state', 'in', ['sending', 'sent', 'digest'])
    .executeTakeFirstOrThrow();
  return Number(row.n);
}

/** Whether the user has held faults. */
export async function hasHeld(db: Db, userId: number): Promise<boolean> {
  const row = await db
    .selectFrom('event_notifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('state', '=', 'held')
    .limit(1)
    .executeTakeFirst();
  return !!row;
}

export const markFailed = (db: Db, id: number) =>
  db.updateTable('event_notifications').set({ state: 'failed', mailed_at: null }).where('id', '=', id).execute();

export const markSent = (db: Db, id: number, t: number) =>
  db.updateTable('event_notifications').set({ state: 'sent', mailed_at: t }).where('id', '=', id).execute();

/** Whether the user had a notification of this SN and code since `since`. */
export async function notifiedSince(db: Db, userId: number, sn: string, code: string, since: number): Promise<boolean> {
  const duplicate = await db
    .selectFrom('event_notifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('sn', '=', sn)
    .where('code', '=', code)
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return !!duplicate;
}

export interface NotificationRow {
  user_id: number;
  event_id: number;
  plant_id: number | null;
  sn: string;
  code: string;
  created_at: number;
}

export const insertHeld = (db: Db, row: NotificationRow) =>
  db
    .insertInto('event_notifications')
    .values({ ...row, state: 'held', mailed_at: null })
    .execute();

/** A notification marked 'sending' before its mail goes; its id. */
export async function insertSending(db: Db, row: NotificationRow, t: number): Promise<number> {
  const marked = await db
    .insertInto('event_notifications')
    .values({ ...row, state: 'sending', mailed_at: t, attempts: 1 })
    .returning('id')
    .executeTakeFirstOrThrow();
  return marked.id;
}

/** Failed mails of the hour before `t` with attempts left, with their users' addresses. */
export const failedToRetry = (db: Db, t: number, maxAttempts: number) =>
  db
    .selectFrom('event_notifications')
    .innerJoin('users', 'users.id', 'event_notifications.user_id')
    .select([
      'event_notifications.id',
      'event_notifications.event_id',
      'event_notifications.user_id',
      'users.account',
      'users.notify_email',
      'users.language',
      'users.notify_enabled',
    ])
    .where('event_notifications.state', '=', 'failed')
    .where('event_notifications.attempts', '<', maxAttempts)
    .where('event_notifications.created_at', '>', t - HOUR)
    .orderBy('event_notifications.id')
    .limit(100)
    .execute();

export const markRetrying = (db: Db, id: number, t: number) =>
  db
    .updateTable('event_notifications')
    .set((eb) => ({ state: 'sending', mailed_at: t, attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();

/** Users with held faults. */
export const usersWithHeld = (db: Db) =>
  db
    .selectFrom('event_notifications')
    .innerJoin('users', 'users.id', 'event_notifications.user_id')
    .select(['users.id', 'users.account', 'users.notify_email', 'users.language', 'users.notify_enabled', 'users.enabled'])
    .distinct()
    .where('event_notifications.state', '=', 'held')
    .execute();

/** The user's held faults, all marked digested (the user turned notifications off meanwhile). */
export const dropHeld = (db: Db, userId: number) =>
  db
    .updateTable('event_notifications')
    .where('user_id', '=', userId)
    .where('state', '=', 'held')
    .set({ state: 'digested' })
    .execute();

/** Whether a digest went to the user since `since`. */
export async function digestSince(db: Db, userId: number, since: number): Promise<boolean> {
  const recentDigest = await db
    .selectFrom('event_notifications')
    .select('id')
    .where('user_id', '=', userId)
    .where('state', '=', 'digest')
    .where('created_at', '>', since)
    .limit(1)
    .executeTakeFirst();
  return !!recentDigest;
}

export const heldOf = (db: Db, userId: number) =>
  db
    .selectFrom('event_notifications')
    .select(['id', 'event_id'])
    .where('user_id', '=', userId)
    .where('state', '=', 'held')
    .orderBy('id')
    .execute();

/** A digest marked 'sending' before its mail goes; its id. */
export async function insertDigest(db: Db, userId: number, t: number): Promise<number> {
  const marked = await db
    .insertInto('event_notifications')
    .values({
      user_id: userId,
      event_id: null,
      plant_id: null,
      sn: '*',
      code: '*',
      state: 'sending',
      created_at: t,
      mailed_at: t,
      attempts: 1,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return marked.id;
}

/** Set the state of these notifications. */
export const setStates = (db: Db, ids: number[], state: 'digested' | 'held') =>
  db.updateTable('event_notifications').set({ state }).where('id', 'in', ids).execute();

export const markDigestSent = (db: Db, id: number) =>
  db.updateTable('event_notifications').set({ state: 'digest' }).where('id', '=', id).execute();

export const deleteNotification = (db: Db, id: number) => db.deleteFrom('event_notifications').where('id', '=', id).execute();
