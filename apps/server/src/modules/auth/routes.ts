/** Sign-in, token refresh, sign-out, and the anonymous account calls. */
import { account as api } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { route } from '../../http/route.ts';
import * as accounts from './accounts.service.ts';
import { codeLimits } from './code-limits.ts';
import { revokeSession } from './sessions.ts';

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

  route(app, api.checkAccount, async ({ query }) => accounts.checkAccount(db, query.account, query.type), {
    limit: { max: 30, minutes: 10 },
  });

  route(app, api.signup, async ({ body, lan }) => accounts.signup(db, config, body, lan), { limit: { max: 10, minutes: 10 } });

  route(app, api.resetPwd, async ({ body }) => accounts.resetPassword(db, config, body), { limit: { max: 10, minutes: 10 } });

  route(app, api.ip, async ({ req }) => ({ ip: req.ip }), { limit: { max: 60, minutes: 1 } });
}
