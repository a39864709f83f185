/** SQL of plant transfer requests: reading them with the plant's name and both accounts, opening, closing, and the move itself. */
import type { Transaction } from 'kysely';
import type { Db } from '../../db/index.ts';
import type { Database, PlantTransfersTable } from '../../db/schema.ts';
import { iso } from '../../time/index.ts';

type Conn = Db | Transaction<Database>;
export type TransferStatus = PlantTransfersTable['status'];

function withNames(db: Conn) {
  return db
    .selectFrom('plant_transfers as t')
    .innerJoin('plants as p', 'p.id', 't.plant_id')
    .innerJoin('users as f', 'f.id', 't.from_user_id')
    .innerJoin('users as r', 'r.id', 't.to_user_id')
    .select([
      't.id',
      't.plant_id',
      't.from_user_id',
      't.to_user_id',
      't.owner_user_id',
      't.company_id',
      't.status',
      't.created_at',
      't.expires_at',
      'p.name as plant_name',
      'p.deleted_at as plant_deleted_at',
      'f.account as from_account',
      'f.language as from_language',
      'r.account as to_account',
      'r.language as to_language',
    ]);
}
export type TransferRow = Awaited<ReturnType<ReturnType<typeof withNames>['executeTakeFirstOrThrow']>>;

/** A pending request past its time reads as expired. */
export const statusAt = (r: Pick<TransferRow, 'status' | 'expires_at'>, t: number): TransferStatus =>
  r.status === 'pending' && Number(r.expires_at) <= t ? 'expired' : r.status;

export const toTransfer = (r: TransferRow, t: number) => ({
  id: r.id,
  plantId: r.plant_id,
  plantName: r.plant_name,
  fromAccount: r.from_account,
  toAccount: r.to_account,
  status: statusAt(r, t),
  createdAt: iso(r.created_at)!,
  expiresAt: iso(r.expires_at)!,
});

export const transferById = (db: Conn, id: number) => withNames(db).where('t.id', '=', id).executeTakeFirst();

/** Pending, unexpired requests of a live plant made by (`from`) or offered to (`to`) the user, oldest first. */
export function pendingFor(db: Db, userId: number, side: 'from' | 'to', t: number) {
  return withNames(db)
    .where(side === 'from' ? 't.from_user_id' : 't.to_user_id', '=', userId)
    .where('t.status', '=', 'pending')
    .where('t.expires_at', '>', t)
    .where('p.deleted_at', 'is', null)
    .orderBy('t.created_at')
    .orderBy('t.id')
    .execute();
}

/** Marks the plant's pending requests that are past their time as expired, so a new one may open. */
export async function expireStale(db: Conn, plantId: number, t: number) {
  await db
    .updateTable('plant_transfers')
    .set({ status: 'expired', closed_at: t })
    .where('plant_id', '=', plantId)
    .where('status', '=', 'pending')
    .where('expires_at', '<=', t)
    .execute();
}

export async function insertTransfer(
  db: Conn,
  v: { plantId: number; fromUserId: number; toUserId: number; ownerUserId: number | null; companyId: number | null },
  t: number,
  ttlMs: number,
) {
  const row = await db
    .insertInto('plant_transfers')
    .values({
      plant_id: v.plantId,
      from_user_id: v.fromUserId,
      to_user_id: v.toUserId,
      owner_user_id: v.ownerUserId,
      company_id: v.companyId,
      status: 'pending',
      created_at: t,
      expires_at: t + ttlMs,
    })
    .returning('id')
    .executeTakeFirstOrThrow();
  return row.id;
}

/** Closes a request that is still pending and unexpired; false when it was not (answered, cancelled, lapsed). */
export async function closeTransfer(db: Conn, id: number, status: Exclude<TransferStatus, 'pending'>, by: number, t: number) {
  const res = await db
    .updateTable('plant_transfers')
    .set({ status, closed_at: t, closed_by: by })
    .where('id', '=', id)
    .where('status', '=', 'pending')
    .where('expires_at', '>', t)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/**
 * Whether the requester may still give the plant away: their account is enabled and the plant's
 * holder is unchanged since the offer (its owner is still them, or for a company plant they are
 * still in that company).
 */
export async function requesterStillHolds(db: Conn, r: TransferRow) {
  const from = await db.selectFrom('users').select(['enabled', 'company_id']).where('id', '=', r.from_user_id).executeTakeFirst();
  if (!from?.enabled) return false;
  return r.company_id === null ? r.owner_user_id === r.from_user_id : from.company_id === r.company_id;
}

/**
 * The plant becomes the recipient's own plant (a company plant stops being one) if it is alive and
 * held as when offered; its gateways, devices, day rollups and events reference the plant, so they
 * move with it; every share ends. False when the plant was deleted or changed hands.
 */
export async function movePlant(db: Conn, r: TransferRow, t: number) {
  let q = db
    .updateTable('plants')
    .set({ owner_user_id: r.to_user_id, company_id: null, updated_at: t })
    .where('id', '=', r.plant_id)
    .where('deleted_at', 'is', null);
  q = r.owner_user_id === null ? q.where('owner_user_id', 'is', null) : q.where('owner_user_id', '=', r.owner_user_id);
  q = r.company_id === null ? q.where('company_id', 'is', null) : q.where('company_id', '=', r.company_id);
  const res = await q.executeTakeFirst();
  if (Number(res.numUpdatedRows) !== 1) return false;
  await db.deleteFrom('plant_shares').where('plant_id', '=', r.plant_id).execute();
  return true;
}
