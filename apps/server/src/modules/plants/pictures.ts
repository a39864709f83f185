/**
 * Plant pictures between upload and use. An uploaded picture is pending (a row with its uploader)
 * until a plant created or edited by that uploader refers to it; one still pending after an hour
 * is deleted by the clean-up job, file and row. An account has at most 20 pictures pending;
 * the 21st is refused (429) until one is used or expires. A plant may refer only to a picture
 * the caller has pending or one the plant already shows, so an expired picture cannot come back.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { sql } from 'kysely';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { fail, TooManyRequests } from '../../http/errors.ts';
import { removeImage, storeImage } from '../users/avatar.ts';

export const pendingPictures = { perAccount: 20, ttlMs: 60 * 60_000 };

/** Store a JPG or PNG picture (by content) as pending for `userId`; null: not such an image. */
export function storePicture(db: Db, dataDir: string, userId: number, bytes: Buffer): Promise<string | null> {
  return storeImage(dataDir, 'plants', bytes, ['png', 'jpeg'], async (url) => {
    const t = now();
    // Reserve first, then count: of two uploads at once over the quota, neither slips through.
    await db.insertInto('pending_uploads').values({ url, user_id: userId, created_at: t }).execute();
    const pending = await db
      .selectFrom('pending_uploads')
      .select([sql<number>`count(*)`.as('n'), sql<number>`min(created_at)`.as('oldest')])
      .where('user_id', '=', userId)
      .executeTakeFirstOrThrow();
    if (Number(pending.n) > pendingPictures.perAccount) {
      await db.deleteFrom('pending_uploads').where('url', '=', url).execute();
      throw new TooManyRequests((Number(pending.oldest) + pendingPictures.ttlMs - t) / 1000);
    }
  });
}

/**
 * Inside the transaction that makes a plant refer to `urls`: each stops being pending. A URL
 * that is neither the caller's pending picture nor one of `current` (what the plant shows now)
 * answers 4 and nothing is written.
 */
export async function takePictures(
  trx: Db,
  userId: number,
  urls: readonly (string | null | undefined)[],
  current: readonly (string | null)[] = [],
) {
  for (const url of new Set(urls)) {
    if (!url || current.includes(url)) continue;
    const taken = await trx.deleteFrom('pending_uploads').where('url', '=', url).where('user_id', '=', userId).executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1)
      fail(ErrorCode.validation, 'picture: not an uploaded picture of yours, or it expired; upload it again');
  }
}

/**
 * Delete pictures pending for longer than an hour. Safe with several processes: a row is taken
 * by deleting it (one process wins each), and a file is removed only if no plant refers to it.
 */
export async function sweepPictures(db: Db, dataDir: string, at = Date.now(), batch = 500): Promise<number> {
  const expired = await db
    .selectFrom('pending_uploads')
    .select(['id', 'url'])
    .where('created_at', '<=', at - pendingPictures.ttlMs)
    .orderBy('id')
    .limit(batch)
    .execute();
  let removed = 0;
  for (const row of expired) {
    const taken = await db.deleteFrom('pending_uploads').where('id', '=', row.id).executeTakeFirst();
    if (Number(taken.numDeletedRows) !== 1) continue;
    const used = await db
      .selectFrom('plants')
      .select('id')
      .where((eb) => eb.or([eb('picture_url', '=', row.url), eb('thumbnail_url', '=', row.url)]))
      .executeTakeFirst();
    if (used) continue;
    await removeImage(dataDir, 'plants', row.url);
    removed++;
  }
  return removed;
}
