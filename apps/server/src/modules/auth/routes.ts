/** Sign-in, token refresh, sign-out, and the anonymous account calls. */
import { account as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { TooManyRequests } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { hit, throttleKey } from '../../http/throttle.ts';
import * as accounts from './accounts.service.ts';
import { codeLimits } from './code-limits.ts';
import { revokeSession } from './sessions.ts';

/**
 * checkAccount tells whether an account exists: at most 10 look-ups from one client address in
 * 10 minutes (a sign-up or reset checks once or twice), and 300 from all addresses together, so
 * many addresses cannot enumerate accounts either.
 */
export const accountChecksPerClient = { max: 10, minutes: 10 };
export const accountChecksOverall = { max: 300, minutes: 10 };

export function authRoutes(app: FastifyInstance) {
  const { db, config, tokens, mailer } = app.deps;

  route(
    app,
    api.token,
    async ({ body, req }) => {
      const session =
        body.grant_type === 'refresh_token'
          ? await accounts.refresh(db, config, body.refresh_token, req.log)
          : await accounts.signIn(db, config, body.username, body.password, { userAgent: req.headers['user-agent'], ip: req.ip });
      return accounts.tokenReply(tokens, session);
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
    async ({ query, lan, req }) => accounts.requestCode(db, mailer, query.account, query.type, lan, req.log),
    { limit: codeLimits((req) => (req.query as { account?: string }).account) },
  );

  route(app, api.checkCode, async ({ query }) => accounts.checkCodeOnly(db, query.account, query.type, query.code), {
    limit: { max: 30, minutes: 10 },
  });

  // The overall count takes only the look-ups a client's own limit let through: one client
  // refused over and over does not use up everyone's.
  const overall = throttleKey('account checks overall');
  route(
    app,
    api.checkAccount,
    async ({ query }) => {
      if (config.rateLimits) {
        const windowMs = accountChecksOverall.minutes * 60_000;
        const hits = await hit(db, overall, windowMs);
        if (hits.count > accountChecksOverall.max) throw new TooManyRequests((hits.windowStart + windowMs - Date.now()) / 1000);
      }
      return accounts.checkAccount(db, query.account, query.type);
    },
    { limit: { ...accountChecksPerClient, name: 'account checks by client' } },
  );

  route(app, api.signup, async ({ body, lan }) => accounts.signup(db, config, body, lan), { limit: { max: 10, minutes: 10 } });

  route(app, api.resetPwd, async ({ body }) => accounts.resetPassword(db, config, body), { limit: { max: 10, minutes: 10 } });

  route(app, api.ip, async ({ req }) => ({ ip: req.ip }), { limit: { max: 60, minutes: 1 } });
}
