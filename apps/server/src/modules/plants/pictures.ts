/**
 * Plant pictures between upload and use. An uploaded picture is pending (a row with its uploader)
 * until a plant created or edited by that uploader refers to it; one still pending after an hour
 * is deleted by the clean-up job, file and row. An account has at most 20 pictures pending;
 * the 21st is refused (429) until one is used or expires. A plant may refer only to a picture
 * the caller has pending or one the plant already shows, so an expired picture cannot come back.
 */

import { ErrorCode } from '@sunfleet/contracts';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import { fail, TooManyRequests } from '../../http/errors.ts';
import { removeImage, storeImage } from '../users/avatar.ts';
import * as repo from './pictures.repo.ts';

export const pendingPictures = { perAccount: 20, ttlMs: 60 * 60_000 };

/** Store a JPG or PNG picture (by content) as pending for `userId`; null: not such an image. */
export function storePicture(db: Db, dataDir: string, userId: number, bytes: Buffer): Promise<string | null> {
  return storeImage(dataDir, 'plants', bytes, ['png', 'jpeg'], async (url) => {
    const t = now();
    // Reserve first, then count: of two uploads at once over the quota, neither slips through.
    const pending = await repo.reservePending(db, url, userId, t);
    if (Number(pending.n) > pendingPictures.perAccount) {
      await repo.dropPending(db, url);
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
    if (!(await repo.takePending(trx, url, userId)))
      fail(ErrorCode.validation, 'picture: not an uploaded picture of yours, or it expired; upload it again');
  }
}

/**
 * Delete pictures pending for longer than an hour. Safe with several processes: a row is taken
 * by deleting it (one process wins each), and a file is removed only if no plant refers to it.
 */
export async function sweepPictures(db: Db, dataDir: string, at = Date.now(), batch = 500): Promise<number> {
  const expired = await repo.expiredPending(db, at - pendingPictures.ttlMs, batch);
  let removed = 0;
  for (const row of expired) {
    if (!(await repo.takePendingById(db, row.id))) continue;
    const used = await repo.pictureInUse(db, row.url);
    if (used) continue;
    await removeImage(dataDir, 'plants', row.url);
    removed++;
  }
  return removed;
}
