/** SQL of plant pictures between upload and use (`pending_uploads`). */
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';

/** Reserve the picture as pending for the user; then how many they have pending and the oldest's time. */
export async function reservePending(db: Db, url: string, userId: number, t: number) {
  await db.insertInto('pending_uploads').values({ url, user_id: userId, created_at: t }).execute();
  return db
    .selectFrom('pending_uploads')
    .select([sql<number>`count(*)`.as('n'), sql<number>`min(created_at)`.as('oldest')])
    .where('user_id', '=', userId)
    .executeTakeFirstOrThrow();
}

export const dropPending = (db: Db, url: string) => db.deleteFrom('pending_uploads').where('url', '=', url).execute();

/** Take the user's pending picture (false when it is not theirs or not pending). */
export async function takePending(trx: Db, url: string, userId: number): Promise<boolean> {
  const taken = await trx.deleteFrom('pending_uploads').where('url', '=', url).where('user_id', '=', userId).executeTakeFirst();
  return Number(taken.numDeletedRows) === 1;
}

/** Pictures pending since `before` or earlier, oldest first. */
export const expiredPending = (db: Db, before: number, batch: number) =>
  db.selectFrom('pending_uploads').select(['id', 'url']).where('created_at', '<=', before).orderBy('id').limit(batch).execute();

/** Take a pending row by id (false when another process took it). */
export async function takePendingById(db: Db, id: number): Promise<boolean> {
  const taken = await db.deleteFrom('pending_uploads').where('id', '=', id).executeTakeFirst();
  return Number(taken.numDeletedRows) === 1;
}

/** Whether a plant refers to the picture (as picture or thumbnail). */
export async function pictureInUse(db: Db, url: string): Promise<boolean> {
  const used = await db
    .selectFrom('plants')
    .select('id')
    .where((eb) => eb.or([eb('picture_url', '=', url), eb('thumbnail_url', '=', url)]))
    .executeTakeFirst();
  return !!used;
}
