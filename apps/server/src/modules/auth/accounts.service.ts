/**
 * Sign-in, token refresh and the anonymous account calls (codes, sign-up, password reset).
 * Account names are compared trimmed and lower-case. Answers never tell whether an account
 * exists, except `checkAccount`, which is rate-limited.
 */
import { ErrorCode, type Language, toLanguage } from '@sunfleet/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { AuthError, fail } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { codeMail } from '../../mail/templates.ts';
import { accountId, enabledOf, insertEndUser, setPasswordHash, userByAccount } from './accounts.repo.ts';
import { type CodePurpose, checkCode, codeError, issueCode } from './codes.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { openSession, revokeUserSessions, rotateRefreshToken, type SessionInfo } from './sessions.ts';
import { awaitTurn, clearFailures, recordFailure } from './sign-in-backoff.ts';
import type { AccessTokens } from './tokens.ts';

export const normalise = (account: string) => account.trim().toLowerCase();

export interface OpenedSession {
  userId: number;
  sessionId: string;
  refreshToken: string;
}

/** The token endpoint's answer for a session. */
export const tokenReply = async (tokens: AccessTokens, s: OpenedSession) => ({
  access_token: await tokens.sign({ userId: s.userId, sessionId: s.sessionId }),
  refresh_token: s.refreshToken,
  token_type: 'bearer' as const,
  expires_in: tokens.ttl,
  userId: s.userId,
});

/** A refresh token for a new one; a refused token or a disabled account is HTTP 401. */
export async function refresh(db: Db, config: Config, refreshToken: string, log: FastifyBaseLogger): Promise<OpenedSession> {
  const result = await rotateRefreshToken(db, refreshToken, config.refreshTokenTtlSec);
  if (!result.ok) {
    log.warn({ reason: result.reason }, 'refresh refused');
    throw new AuthError();
  }
  const user = await enabledOf(db, result.userId);
  if (!user?.enabled) throw new AuthError();
  return { userId: result.userId, sessionId: result.sessionId, refreshToken: result.refreshToken };
}

/**
 * Account and password for a new session: an unknown account and a wrong password are the same
 * 102 (a decoy hash is checked so both take as long); a disabled account is 101. Failures back
 * off per account.
 */
export async function signIn(
  db: Db,
  config: Config,
  username: string,
  password: string,
  info: SessionInfo,
): Promise<OpenedSession> {
  const account = normalise(username);
  if (config.rateLimits) await awaitTurn(db, account);
  const user = await userByAccount(db, account);
  const valid = await verifyPassword(user?.password_hash ?? (await decoyHash(config.passwordCost)), password);
  if (!user || !valid) {
    if (config.rateLimits) await recordFailure(db, account);
    return fail(ErrorCode.wrongCredentials);
  }
  if (config.rateLimits) await clearFailures(db, account);
  if (!user.enabled) return fail(ErrorCode.accountDisabled);
  const { sessionId, refreshToken } = await openSession(db, user.id, config.refreshTokenTtlSec, info);
  return { userId: user.id, sessionId, refreshToken };
}

/**
 * Sign-up codes go only to new addresses, reset codes only to accounts; the answer is the
 * same either way. The code is made and mailed after answering, so neither the time taken
 * nor a mail failure tells whether a code was sent (and so whether the account exists).
 */
export async function requestCode(
  db: Db,
  mailer: Mailer,
  rawAccount: string,
  purpose: Exclude<CodePurpose, 'notify'>,
  lan: Language,
  log: FastifyBaseLogger,
) {
  const account = normalise(rawAccount);
  const exists = await accountId(db, account);
  if ((purpose === 'signup') === !exists) {
    const send = async () => {
      const code = await issueCode(db, account, purpose);
      await mailer.send(codeMail(account, code, purpose, lan));
    };
    send().catch((err) => log.error({ err, purpose }, 'verification code not sent'));
  }
  return null;
}

/** Checks a code without using it up. */
export async function checkCodeOnly(db: Db, account: string, purpose: CodePurpose, code: string) {
  const result = await checkCode(db, normalise(account), purpose, code, false);
  if (result !== 'ok') fail(codeError(result));
  return null;
}

/** An account that exists is 103 for a sign-up and 105 for a reset. */
export async function checkAccount(db: Db, account: string, purpose: string | undefined) {
  const exists = await accountId(db, normalise(account));
  if (exists) fail(purpose === 'signup' ? ErrorCode.accountRegistered : ErrorCode.isAccount);
  return { exists: false };
}

export async function signup(
  db: Db,
  config: Config,
  body: { account: string; code: string; password: string; nickname?: string | undefined; lan?: string | undefined },
  lan: Language,
) {
  const account = normalise(body.account);
  const result = await checkCode(db, account, 'signup', body.code, true);
  if (result !== 'ok') fail(codeError(result));
  if (await accountId(db, account)) fail(ErrorCode.accountRegistered);
  const passwordHash = await hashPassword(body.password, config.passwordCost);
  const userId = await insertEndUser(db, {
    account,
    passwordHash,
    nickname: body.nickname?.trim() || null,
    language: body.lan ? toLanguage(body.lan) : lan,
  }).catch(async (err) => {
    // Two sign-ups of one address at once: the unique account column lets one through.
    if (await accountId(db, account)) return fail(ErrorCode.accountRegistered);
    throw err;
  });
  return { userId };
}

/** A used reset code sets the password and ends every session of the account. */
export async function resetPassword(db: Db, config: Config, body: { account: string; code: string; password: string }) {
  const account = normalise(body.account);
  const result = await checkCode(db, account, 'reset', body.code, true);
  if (result !== 'ok') fail(codeError(result));
  const user = await accountId(db, account);
  if (!user) return fail(ErrorCode.codeWrong);
  const passwordHash = await hashPassword(body.password, config.passwordCost);
  await setPasswordHash(db, user.id, passwordHash);
  await revokeUserSessions(db, user.id);
  return null;
}
