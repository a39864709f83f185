/**
 * Sessions and refresh tokens. A refresh token is random, stored only as its SHA-256, and
 * rotated on every use; presenting a token that was already used revokes the whole session
 * (RFC 9700 §4.14: one of the two holders is an attacker).
 */
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { Db } from '../../db/index.ts';
import { now } from '../../db/index.ts';
import * as repo from './sessions.repo.ts';

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
    await repo.insertSession(trx, {
      id,
      user_id: userId,
      created_at: t,
      expires_at: t + ttlSec * 1000,
      revoked_at: null,
      last_seen_at: t,
      user_agent: info.userAgent?.slice(0, 255) ?? null,
      ip: info.ip ?? null,
    });
    await repo.insertRefreshToken(trx, sha256(refreshToken), id, t);
  });
  return { sessionId: id, refreshToken };
}

export type RotateResult =
  | { ok: true; sessionId: string; userId: number; refreshToken: string }
  | { ok: false; reason: 'unknown' | 'reused' | 'revoked' | 'expired' };

export async function rotateRefreshToken(db: Db, presented: string, ttlSec: number): Promise<RotateResult> {
  const hash = sha256(presented);
  return db.transaction().execute(async (trx) => {
    const row = await repo.refreshTokenSession(trx, hash);
    const t = now();
    if (!row) return { ok: false, reason: 'unknown' } as const;
    if (row.revoked_at !== null) return { ok: false, reason: 'revoked' } as const;
    if (row.expires_at <= t) return { ok: false, reason: 'expired' } as const;
    // Mark used only if still unused: two concurrent refreshes with one token cannot both win.
    const marked = await repo.markTokenUsed(trx, hash, t);
    if (row.used_at !== null || !marked) {
      await repo.revokeSessionAt(trx, row.sessionId, t);
      return { ok: false, reason: 'reused' } as const;
    }
    const refreshToken = newRefreshToken();
    await repo.insertRefreshToken(trx, sha256(refreshToken), row.sessionId, t);
    await repo.extendSession(trx, row.sessionId, t, t + ttlSec * 1000);
    return { ok: true, sessionId: row.sessionId, userId: row.userId, refreshToken } as const;
  });
}

export async function revokeSession(db: Db, sessionId: string) {
  await repo.revokeLiveSession(db, sessionId, now());
}

/** Revoke every session of a user, except perhaps one (the caller's own, after a password change). */
export async function revokeUserSessions(db: Db, userId: number, except?: string) {
  await repo.revokeLiveSessionsOf(db, userId, now(), except);
}

/** The session behind an access token, if it is still live. */
/** The user of a live session (not revoked, not expired, theirs), in one query; else undefined. */
export async function sessionUser(db: Db, sessionId: string, userId: number) {
  return repo.liveSessionUser(db, sessionId, userId, now());
}
