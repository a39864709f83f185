/** SQL of sessions and refresh tokens (stored as their SHA-256). */
import type { Db } from '../../db/index.ts';

export interface NewSession {
  id: string;
  user_id: number;
  created_at: number;
  expires_at: number;
  revoked_at: null;
  last_seen_at: number;
  user_agent: string | null;
  ip: string | null;
}

export const insertSession = (trx: Db, session: NewSession) => trx.insertInto('sessions').values(session).execute();

export const insertRefreshToken = (trx: Db, tokenHash: string, sessionId: string, t: number) =>
  trx
    .insertInto('refresh_tokens')
    .values({ token_hash: tokenHash, session_id: sessionId, created_at: t, used_at: null })
    .execute();

/** A refresh token with its session. */
export const refreshTokenSession = (trx: Db, tokenHash: string) =>
  trx
    .selectFrom('refresh_tokens')
    .innerJoin('sessions', 'sessions.id', 'refresh_tokens.session_id')
    .select([
      'refresh_tokens.used_at',
      'sessions.id as sessionId',
      'sessions.user_id as userId',
      'sessions.revoked_at',
      'sessions.expires_at',
    ])
    .where('refresh_tokens.token_hash', '=', tokenHash)
    .executeTakeFirst();

/** Mark the token used if it is still unused; whether this call did. */
export async function markTokenUsed(trx: Db, tokenHash: string, t: number): Promise<boolean> {
  const marked = await trx
    .updateTable('refresh_tokens')
    .set({ used_at: t })
    .where('token_hash', '=', tokenHash)
    .where('used_at', 'is', null)
    .executeTakeFirst();
  return Number(marked.numUpdatedRows) !== 0;
}

export const revokeSessionAt = (trx: Db, sessionId: string, t: number) =>
  trx.updateTable('sessions').set({ revoked_at: t }).where('id', '=', sessionId).execute();

export const extendSession = (trx: Db, sessionId: string, t: number, expiresAt: number) =>
  trx.updateTable('sessions').set({ last_seen_at: t, expires_at: expiresAt }).where('id', '=', sessionId).execute();

/** Revoke the session if it is live. */
export const revokeLiveSession = (db: Db, sessionId: string, t: number) =>
  db.updateTable('sessions').set({ revoked_at: t }).where('id', '=', sessionId).where('revoked_at', 'is', null).execute();

/** Revoke every live session of a user, except perhaps one. */
export async function revokeLiveSessionsOf(db: Db, userId: number, t: number, except?: string) {
  let q = db.updateTable('sessions').set({ revoked_at: t }).where('user_id', '=', userId).where('revoked_at', 'is', null);
  if (except) q = q.where('id', '!=', except);
  await q.execute();
}

/** The user of a live session (not revoked, not expired at `t`, theirs). */
export const liveSessionUser = (db: Db, sessionId: string, userId: number, t: number) =>
  db
    .selectFrom('sessions')
    .innerJoin('users', 'users.id', 'sessions.user_id')
    .selectAll('users')
    .where('sessions.id', '=', sessionId)
    .where('sessions.user_id', '=', userId)
    .where('sessions.revoked_at', 'is', null)
    .where('sessions.expires_at', '>', t)
    .executeTakeFirst();

// ——— verification codes ———

export interface NewCode {
  account: string;
  purpose: string;
  code_hash: string;
  expires_at: number;
  created_at: number;
}

/** Replace the account's code of this purpose. */
export async function replaceCode(trx: Db, code: NewCode) {
  await trx.deleteFrom('verification_codes').where('account', '=', code.account).where('purpose', '=', code.purpose).execute();
  await trx
    .insertInto('verification_codes')
    .values({
      account: code.account,
      purpose: code.purpose,
      code_hash: code.code_hash,
      expires_at: code.expires_at,
      attempts: 0,
      used_at: null,
      created_at: code.created_at,
    })
    .execute();
}

/** The account's newest code of this purpose. */
export const newestCode = (trx: Db, account: string, purpose: string) =>
  trx
    .selectFrom('verification_codes')
    .selectAll()
    .where('account', '=', account)
    .where('purpose', '=', purpose)
    .orderBy('id', 'desc')
    .executeTakeFirst();

/** One more wrong try, counted in SQL. */
export const countWrongTry = (trx: Db, id: number) =>
  trx
    .updateTable('verification_codes')
    .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
    .where('id', '=', id)
    .execute();

/** Use the code up if it is still unused and has tries left; whether this call did. */
export async function useCode(trx: Db, id: number, maxTries: number, t: number): Promise<boolean> {
  const used = await trx
    .updateTable('verification_codes')
    .set({ used_at: t })
    .where('id', '=', id)
    .where('used_at', 'is', null)
    .where('attempts', '<', maxTries)
    .executeTakeFirst();
  return Number(used.numUpdatedRows) === 1;
}
