/**
 * Sessions and refresh tokens. A refresh token is random, stored only as its SHA-256, and
 * rotated on every use; presenting a token that was already used revokes the whole session
 * (RFC 9700 §4.14: one of the two holders is an attacker).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';

export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
const newRefreshToken = () => randomBytes(32).toString('base64url');

export interface SessionInfo {
  userAgent?: string | undefined;
  ip?: string | undefined;
}

export async function openSession(db: Db, userId: number, ttlSec: number, info: SessionInfo) {
  const id = randomUUID();
  const t = now();
  const refreshToken = newRefreshToken();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto('sessions')
      .values({
        id,
        user_id: userId,
        created_at: t,
        expires_at: t + ttlSec * 1000,
        revoked_at: null,
        last_seen_at: t,
        user_agent: info.userAgent?.slice(0, 255) ?? null,
        ip: info.ip ?? null,
      })
      .execute();
    await trx
      .insertInto('refresh_tokens')
      .values({ token_hash: sha256(refreshToken), session_id: id, created_at: t, used_at: null })
      .execute();
  });
  return { sessionId: id, refreshToken };
}

export type RotateResult =
  | { ok: true; sessionId: string; userId: number; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'reused' | 'revoked' | 'expired' };

export async function rotateRefreshToken(db: Db, presented: string, ttlSec: number): Promise<RotateResult> {
  const hash = sha256(presented);
  return db.transaction().execute(async (trx) => {
    const row = await trx
      .selectFrom('refresh_tokens')
      .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
      .select([
        'refresh_tokens.used_at',
        'sessions.id as sessionId',
        'sessions.user_id as userId',
        'sessions.revoked_at',
        'sessions.expires_at',
      ])
      .where('refresh_tokens.token_hash', '=', hash)
      .executeTakeFirst();
    const t = now();
    if (!row) return { ok: false, reason: 'unknown' } as const;
    if (row.revoked_at !== null) return { ok: false, reason: 'revoked' } as const;
    if (row.expires_at <= t) return { ok: false, reason: 'expired' } as const;
    // Mark used only if still unused: two concurrent refreshes with one token cannot both win.
    const marked = await trx
      .updateTable('refresh_tokens')
      .set({ used_at: t })
      .where('token_hash', '=', hash)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    if (row.used_at !== null || Number(marked.numUpdatedRows) === 0) {
      await trx.updateTable('sessions').set({ revoked_at: t }).where('id', '=', row.sessionId).execute();
      return { ok: false, reason: 'reused' } as const;
    }
    const refreshToken = newRefreshToken();
    await trx
      .insertInto('refresh_tokens')
      .values({ token_hash: sha256(refreshToken), session_id: row.sessionId, created_at: t, used_at: null })
      .execute();
    await trx
      .updateTable('sessions')
      .set({ last_seen_at: t, expires_at: t + ttlSec * 1000 })
      .where('id', '=', row.sessionId)
      .execute();
    return { ok: true, sessionId: row.sessionId, userId: row.userId, refreshToken } as const;
  });
}

export async function revokeSession(db: Db, sessionId: string) {
  await db
    .updateTable('sessions')
    .set({ revoked_at: now() })
    .where('id', '=', sessionId)
    .where('revoked_at', 'is', null)
    .execute();
}

/** Revoke every session of a user, except perhaps one (the caller's own, after a password change). */
export async function revokeUserSessions(db: Db, userId: number, except?: string) {
  let q = db.updateTable('sessions').set({ revoked_at: now() }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (except) q = q.where('id', '!=', except);
  await q.execute();
}

/** The session behind an access token, if it is still live. */
/** The user of a live session (not revoked, not expired, theirs), in one query; else undefined. */
export async function sessionUser(db: Db, sessionId: string, userId: number) {
  return db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', now())
    .executeTakeFirst();
}
