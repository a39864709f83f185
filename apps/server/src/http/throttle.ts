/**
 * The throttle store: counters that every server process shares, in the database. A counter is
 * one row per limit and subject (the key, hashed: no address or account is stored in clear);
 * its window starts at the first hit and lasts `windowMs` (or, `sliding`, lasts while hits come
 * less than `windowMs` apart); a hit after the window starts a new one. Counting is one upsert
 * per attempt.
 */
import { createHash } from 'node:crypto';
import { sql } from 'kysely';
import type { Db } from '../db/index.ts';

export interface Hits {
  /** Hits in the current window, this one included. */
  count: number;
  windowStart: number;
  lastAt: number;
}

/** A fixed-length key from the limit's name and its subject (an address, an account, a user id). */
export const throttleKey = (...parts: (string | number)[]) =>
  createHash('sha256').update(parts.join('\u0000')).digest('base64url');

const toHits = (r: { count: number | string; window_start: number | string; last_at: number | string }): Hits => ({
  count: Number(r.count),
  windowStart: Number(r.window_start),
  lastAt: Number(r.last_at),
});

export interface WindowOptions {
  /** The window ends `windowMs` after the last hit instead of the first. */
  sliding?: boolean;
}

/** Count one hit and answer the window's count (concurrent hits each get their own number). */
export async function hit(db: Db, key: string, windowMs: number, at = Date.now(), opts: WindowOptions = {}): Promise<Hits> {
  const since = opts.sliding ? sql.ref('throttles.last_at') : sql.ref('throttles.window_start');
  const open = sql<boolean>`${since} > cast(${at - windowMs} as bigint)`;
  const row = await db
    .insertInto('throttles')
    .values({ key, window_start: at, count: 1, last_at: at })
    .onConflict((oc) =>
      oc.column('key').doUpdateSet({
        count: sql<number>`case when ${open} then throttles.count + 1 else 1 end`,
        window_start: sql<number>`case when ${open} then throttles.window_start else cast(${at} as bigint) end`,
        last_at: at,
      }),
    )
    .returning(['count', 'window_start', 'last_at'])
    .executeTakeFirstOrThrow();
  return toHits(row);
}

/** The current window's hits without counting one; null when there are none. */
export async function peek(
  db: Db,
  key: string,
  windowMs: number,
  at = Date.now(),
  opts: WindowOptions = {},
): Promise<Hits | null> {
  const row = await db
    .selectFrom('throttles')
    .select(['count', 'window_start', 'last_at'])
    .where('key', '=', key)
    .where(opts.sliding ? 'last_at' : 'window_start', '>', at - windowMs)
    .executeTakeFirst();
  return row ? toHits(row) : null;
}

/**
 * Take the turn that `seen` (a peek) allowed: of several callers that saw the same hits, exactly
 * one gets true; the turn moves the last hit to `at`.
 */
export async function takeTurn(db: Db, key: string, seen: Hits, at = Date.now()): Promise<boolean> {
  const res = await db
    .updateTable('throttles')
    .set({ last_at: at })
    .where('key', '=', key)
    .where('count', '=', seen.count)
    .where('last_at', '=', seen.lastAt)
    .executeTakeFirst();
  return Number(res.numUpdatedRows) === 1;
}

/** Forget a subject's hits (a success that ends a run of failures). */
export async function clearHits(db: Db, key: string): Promise<void> {
  await db.deleteFrom('throttles').where('key', '=', key).execute();
}

/** Drop counters untouched for `idleMs` (longer than any window): they count nothing any more. */
export async function pruneThrottles(db: Db, idleMs: number, at = Date.now()): Promise<number> {
  const res = await db
    .deleteFrom('throttles')
    .where('last_at', '<', at - idleMs)
    .executeTakeFirst();
  return Number(res.numDeletedRows);
}
