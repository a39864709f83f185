/** One's own account: profile, password, personal settings, notifications, avatar. */
import { account as api, limits, toLanguage } from '@sunfleet/contracts';
import type { FastifyInstance } from 'fastify';
import { now, parseJson } from '../../db/index.ts';
import { fail } from '../../http/errors.ts';
import { route } from '../../http/route.ts';
import { codeMail } from '../../mail/templates.ts';
import { codeLimits } from '../auth/code-limits.ts';
import { checkCode, codeError, issueCode } from '../auth/codes.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { removeImage, storeImage, uploadLimit } from './avatar.ts';
import { profileOf } from './profile.ts';

const PERSONALIZED_VALUE_BYTES = 16 * 1024;
const PERSONALIZED_KEYS = 64;

export function userRoutes(app: FastifyInstance) {
  const { db, config, mailer } = app.deps;

  /** Only one's own id; another id answers as if it did not exist. */
  const own = (id: number, callerId: number) => {
    if (id !== callerId) fail(2);
  };

  route(app, api.getUser, async ({ caller, query }) => profileOf(db, caller.user, toLanguage(query.lan ?? caller.user.language)));

  route(app, api.updateUser, async ({ params, body, caller, lan }) => {
    own(params.id, caller.user.id);
    const patch: Record<string, unknown> = {};
    for (const [key, column] of [
      ['nickname', 'nickname'],
      ['name', 'name'],
      ['gender', 'gender'],
      ['phone', 'phone'],
      ['temperatureUnit', 'temperature_unit'],
      ['language', 'language'],
    ] as const) {
      const value = body[key];
      if (value !== undefined) patch[column] = typeof value === 'string' ? value.trim() || null : value;
    }
    if (patch.temperature_unit === null) delete patch.temperature_unit;
    if (patch.language === null) delete patch.language;
    await db
      .updateTable('users')
      .set({ ...patch, updated_at: now() })
      .where('id', '=', caller.user.id)
      .execute();
    const user = await db.selectFrom('users').selectAll().where('id', '=', caller.user.id).executeTakeFirstOrThrow();
    return profileOf(db, user, lan);
  });

  // Rate limited per account: a stolen access token must not become a way to guess the old password.
  route(
    app,
    api.changePassword,
    async ({ params, body, caller }) => {
      own(params.id, caller.user.id);
      if (!(await verifyPassword(caller.user.password_hash, body.oldPassword))) fail(108);
      const hash = await hashPassword(body.password, config.passwordCost);
      await db.updateTable('users').set({ password_hash: hash, updated_at: now() }).where('id', '=', caller.user.id).execute();
      // Every other session ends; the one that changed the password stays signed in.
      await revokeUserSessions(db, caller.user.id, caller.sessionId);
      return null;
    },
    { limit: { max: 10, minutes: 10, byAccount: true } },
  );

  route(app, api.getPersonalized, async ({ caller }) => parseJson<Record<string, unknown>>(caller.user.personalized, {}));

  route(app, api.savePersonalized, async ({ body, caller }) => {
    const settings = parseJson<Record<string, unknown>>(caller.user.personalized, {});
    // null (or no value) removes the key, so a full set of keys can be freed again.
    if (body.value === null || body.value === undefined) delete settings[body.key];
    else {
      if (Buffer.byteLength(JSON.stringify(body.value)) > PERSONALIZED_VALUE_BYTES)
        fail(4, `body.value must be at most ${PERSONALIZED_VALUE_BYTES / 1024} KB`);
      settings[body.key] = body.value;
      if (Object.keys(settings).length > PERSONALIZED_KEYS) fail(4, `body.key: at most ${PERSONALIZED_KEYS} settings`);
    }
    await db
      .updateTable('users')
      .set({ personalized: JSON.stringify(settings), updated_at: now() })
      .where('id', '=', caller.user.id)
      .execute();
    return settings;
  });

  route(
    app,
    api.notifyCode,
    async ({ query, caller, lan }) => {
      const email = (query.email ?? caller.user.account).trim().toLowerCase();
      const code = await issueCode(db, `${caller.user.id}:${email}`, 'notify');
      await mailer.send(codeMail(email, code, 'notify', lan));
      return null;
    },
    {
      limit: [
        { max: 5, minutes: 10, byAccount: true },
        ...codeLimits((req) => (req.query as { email?: string }).email ?? req.caller?.user.account),
      ],
    },
  );

  route(app, api.setNotify, async ({ body, caller }) => {
    if (!body.enable) {
      await db.updateTable('users').set({ notify_enabled: 0, updated_at: now() }).where('id', '=', caller.user.id).execute();
      return { enabled: false, email: caller.user.notify_email };
    }
    const email = (body.email ?? caller.user.account).trim().toLowerCase();
    if (!body.code) return fail(5);
    const result = await checkCode(db, `${caller.user.id}:${email}`, 'notify', body.code, true);
    if (result !== 'ok') fail(codeError(result));
    await db
      .updateTable('users')
      .set({ notify_enabled: 1, notify_email: email, updated_at: now() })
      .where('id', '=', caller.user.id)
      .execute();
    return { enabled: true, email };
  });

  route(app, api.getNotify, async ({ caller }) => ({
    enabled: caller.user.notify_enabled === 1,
    email: caller.user.notify_email,
  }));

  // The account refers to its avatar at once: nothing is left pending.
  route(
    app,
    api.uploadAvatar,
    async ({ params, caller, req }) => {
      own(params.id, caller.user.id);
      const file = await req.file({ limits: { fileSize: limits.avatarBytes, files: 1 } });
      if (!file) return fail(4, 'file is required');
      const bytes = await file.toBuffer();
      const url = await storeImage(config.dataDir, 'avatars', bytes, ['png', 'jpeg']);
      if (!url) return fail(4, 'file must be a JPG or PNG image');
      await db.updateTable('users').set({ avatar: url, updated_at: now() }).where('id', '=', caller.user.id).execute();
      await removeImage(config.dataDir, 'avatars', caller.user.avatar);
      return { avatar: url };
    },
    { limit: uploadLimit },
  );
}
