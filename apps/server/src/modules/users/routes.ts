/** One's own account: profile, password, personal settings, notifications, avatar. */
import { account as api, ErrorCode, limits, toLanguage } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { fail } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { codeLimits } from '../auth/code-limits.ts';
import { uploadLimit } from './avatar.ts';
import { profileOf } from './profile.ts';
import * as users from './users.service.ts';

export function userRoutes(app: FastifyInstance) {
  const { db, config, mailer } = app.deps;

  /** Only one's own id; another id answers as if it did not exist. */
  const own = (id: number, callerId: number) => {
    if (id !== callerId) fail(ErrorCode.noPermission);
  };

  route(app, api.getUser, async ({ caller, query }) => profileOf(db, caller.user, toLanguage(query.lan ?? caller.user.language)));

  route(app, api.updateUser, async ({ params, body, caller, lan }) => {
    own(params.id, caller.user.id);
    return users.updateProfile(db, caller.user, body, lan);
  });

  // Rate limited per account: a stolen access token must not become a way to guess the old password.
  route(
    app,
    api.changePassword,
    async ({ params, body, caller }) => {
      own(params.id, caller.user.id);
      return users.changePassword(db, config, caller.user, caller.sessionId, body);
    },
    { limit: { max: 10, minutes: 10, byAccount: true } },
  );

  route(app, api.getPersonalized, async ({ caller }) => users.personalized(caller.user));

  route(app, api.savePersonalized, async ({ body, caller }) => users.savePersonalized(db, caller.user, body));

  route(app, api.notifyCode, async ({ query, caller, lan }) => users.sendNotifyCode(db, mailer, caller.user, query.email, lan), {
    limit: [
      { max: 5, minutes: 10, byAccount: true },
      ...codeLimits((req) => (req.query as { email?: string }).email ?? req.caller?.user.account),
    ],
  });

  route(app, api.setNotify, async ({ body, caller }) => {
    return users.setNotify(db, caller.user, body);
  });

  route(app, api.getNotify, async ({ caller }) => users.notifySettings(caller.user));

  route(
    app,
    api.uploadAvatar,
    async ({ params, caller, req }) => {
      own(params.id, caller.user.id);
      return users.setAvatar(db, config, caller.user, await req.file({ limits: { fileSize: limits.avatarBytes, files: 1 } }));
    },
    { limit: uploadLimit },
  );
}
