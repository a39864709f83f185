/**
 * Sign-in back-off per account, wherever the attempts come from: after 5 failed sign-ins, each
 * further attempt waits 2 s after the last failure, doubling with every failure, at most 5
 * minutes; an attempt before its time is refused (429 with the wait) without the password being
 * checked. Failures are forgotten 15 minutes after the last one, and at once by a success. The
 * owner is never locked out for good: the right password after the wait signs in.
 * Of several attempts that find the wait over at once, one is let through.
 */
import type { Db } from '../../db/index.ts';
import { TooManyRequests } from '../../http/errors.ts';
import { clearHits, hit, peek, takeTurn, throttleKey } from '../../http/throttle.ts';

export const signInBackoff = { freeFailures: 5, forgetMs: 15 * 60_000, firstWaitMs: 2000, maxWaitMs: 5 * 60_000 };
const { freeFailures, forgetMs, firstWaitMs, maxWaitMs } = signInBackoff;

/** The wait after `failures` failed attempts in a row. */
export const backoffWaitMs = (failures: number) =>
  failures < freeFailures ? 0 : Math.min(maxWaitMs, firstWaitMs * 2 ** (failures - freeFailures));

export const signInKey = (account: string) => throttleKey('sign-in failures', account);

/** Refuse an attempt on `account` that comes before its wait is over (TooManyRequests). */
export async function awaitTurn(db: Db, account: string, at = Date.now()): Promise<void> {
  const key = signInKey(account);
  const seen = await peek(db, key, forgetMs, at, { sliding: true });
  if (!seen || seen.count < freeFailures) return;
  const readyAt = seen.lastAt + backoffWaitMs(seen.count);
  if (at < readyAt) throw new TooManyRequests((readyAt - at) / 1000);
  if (!(await takeTurn(db, key, seen, at))) throw new TooManyRequests(backoffWaitMs(seen.count) / 1000);
}

export const recordFailure = (db: Db, account: string, at = Date.now()) =>
  hit(db, signInKey(account), forgetMs, at, { sliding: true });

export const clearFailures = (db: Db, account: string) => clearHits(db, signInKey(account));
