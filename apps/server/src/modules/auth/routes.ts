/** Sign-in, token refresh, sign-out, and the anonymous account calls. */
import { account as api, toLanguage } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { now } from '../../db/index.ts';
import { AuthError, fail } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { codeMail } from '../../mail/templates.ts';
import { codeLimits } from './code-limits.ts';
import { checkCode, codeError, issueCode } from './codes.ts';
import { decoyHash, hashPassword, verifyPassword } from './passwords.ts';
import { openSession, revokeSession, revokeUserSessions, rotateRefreshToken } from './sessions.ts';
import { awaitTurn, clearFailures, recordFailure } from './sign-in-backoff.ts';

const normalise = (account: string) => account.trim().toLowerCase();

export function authRoutes(app: FastifyInstance) {
  const { db, config, tokens, mailer } = app.deps;

  const issueTokens = async (userId: number, sessionId: string, refreshToken: string) => ({
    access_token: await tokens.sign({ userId, sessionId }),
    refresh_token: refreshToken,
    token_type: 'bearer' as const,
    expires_in: tokens.ttl,
    userId,
  });

  route(
    app,
    api.token,
    async ({ body, req }) => {
      if (body.grant_type === 'refresh_token') {
        const result = await rotateRefreshToken(db, body.refresh_token, config.refreshTokenTtlSec);
        if (!result.ok) {
          req.log.warn({ reason: result.reason }, 'refresh refused');
          throw new AuthError();
        }
        const user = await db.selectFrom('users').select(['id', 'enabled']).where('id', '=', result.userId).executeTakeFirst();
        if (!user?.enabled) throw new AuthError();
        return issueTokens(result.userId, result.sessionId, result.refreshToken);
      }
      const account = normalise(body.username);
      if (config.rateLimits) await awaitTurn(db, account);
      const user = await db.selectFrom('users').selectAll().where('account', '=', account).executeTakeFirst();
      const valid = await verifyPassword(user?.password_hash ?? (await decoyHash(config.passwordCost)), body.password);
      if (!user || !valid) {
        if (config.rateLimits) await recordFailure(db, account);
        return fail(102);
      }
      if (config.rateLimits) await clearFailures(db, account);
      if (!user.enabled) return fail(101);
      const { sessionId, refreshToken } = await openSession(db, user.id, config.refreshTokenTtlSec, {
        userAgent: req.headers['user-agent'],
        ip: req.ip,
      });
      return issueTokens(user.id, sessionId, refreshToken);
    },
    { limit: { max: 20, minutes: 1 } },
  );

  route(app, api.revoke, async ({ caller }) => {
    await revokeSession(db, caller.sessionId);
    return null;
  });

  route(
    app,
    api.getCode,
    async ({ query, lan, req }) => {
      const account = normalise(query.account);
      const exists = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
      // Sign-up codes go only to new addresses, reset codes only to accounts; the answer is the
      // same either way. The code is made and mailed after answering, so neither the time taken
      // nor a mail failure tells whether a code was sent (and so whether the account exists).
      if ((query.type === 'signup') === !exists) {
        const send = async () => {
          const code = await issueCode(db, account, query.type);
          await mailer.send(codeMail(account, code, query.type, lan));
        };
        send().catch((err) => req.log.error({ err, purpose: query.type }, 'verification code not sent'));
      }
      return null;
    },
    { limit: codeLimits((req) => (req.query as { account?: string }).account) },
  );

  route(
    app,
    api.checkCode,
    async ({ query }) => {
      const result = await checkCode(db, normalise(query.account), query.type, query.code, false);
      if (result !== 'ok') fail(codeError(result));
      return null;
    },
    { limit: { max: 30, minutes: 10 } },
  );

  route(
    app,
    api.checkAccount,
    async ({ query }) => {
      const exists = await db.selectFrom('users').select('id').where('account', '=', normalise(query.account)).executeTakeFirst();
      if (exists) fail(query.type === 'signup' ? 103 : 105);
      return { exists: false };
    },
    { limit: { max: 30, minutes: 10 } },
  );

  route(
    app,
    api.signup,
    async ({ body, lan }) => {
      const account = normalise(body.account);
      const result = await checkCode(db, account, 'signup', body.code, true);
      if (result !== 'ok') fail(codeError(result));
      const taken = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
      if (taken) fail(103);
      const t = now();
      const passwordHash = await hashPassword(body.password, config.passwordCost);
      const row = await db
        .insertInto('users')
        .values({
          account,
          password_hash: passwordHash,
          kind: 'end_user',
          nickname: body.nickname?.trim() || null,
          language: body.lan ? toLanguage(body.lan) : lan,
          created_at: t,
          updated_at: t,
        })
        .returning('id')
        .executeTakeFirst()
        .catch(async (err) => {
          // Two sign-ups of one address at once: the unique account column lets one through.
          const existing = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
          if (existing) return fail(103);
          throw err;
        });
      return { userId: row!.id };
    },
    { limit: { max: 10, minutes: 10 } },
  );

  route(
    app,
    api.resetPwd,
    async ({ body }) => {
      const account = normalise(body.account);
      const result = await checkCode(db, account, 'reset', body.code, true);
      if (result !== 'ok') fail(codeError(result));
      const user = await db.selectFrom('users').select('id').where('account', '=', account).executeTakeFirst();
      if (!user) fail(5);
      const passwordHash = await hashPassword(body.password, config.passwordCost);
      await db.updateTable('users').set({ password_hash: passwordHash, updated_at: now() }).where('id', '=', user!.id).execute();
      await revokeUserSessions(db, user!.id);
      return null;
    },
    { limit: { max: 10, minutes: 10 } },
  );

  route(app, api.ip, async ({ req }) => ({ ip: req.ip }), { limit: { max: 60, minutes: 1 } });
}
