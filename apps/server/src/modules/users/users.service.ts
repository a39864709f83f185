/**
 * One's own account: profile fields, password, personal settings (at most 64 keys of at most
 * 16 KB each), fault notifications (the address confirmed by a code) and the avatar.
 */

import type { MultipartFile } from '@fastify/multipart';
import { ErrorCode, type Language } from '@sunfleet/contracts';
import type { Config } from '../../config.ts';
import type { Db } from '../../db/index.ts';
import { parseJson } from '../../db/index.ts';
import type { User } from '../../db/schema.ts';
import { fail } from '../../http/errors.ts';
import type { Mailer } from '../../mail/mailer.ts';
import { codeMail } from '../../mail/templates.ts';
import { checkCode, codeError, issueCode } from '../auth/codes.ts';
import { hashPassword, verifyPassword } from '../auth/passwords.ts';
import { revokeUserSessions } from '../auth/sessions.ts';
import { removeImage, storeImage } from './avatar.ts';
import { profileOf } from './profile.ts';
import { updateUser, userById } from './users.repo.ts';

const PERSONALIZED_VALUE_BYTES = 16 * 1024;
const PERSONALIZED_KEYS = 64;

export interface ProfilePatch {
  nickname?: string | null | undefined;
  name?: string | null | undefined;
  gender?: string | null | undefined;
  phone?: string | null | undefined;
  temperatureUnit?: string | null | undefined;
  language?: string | null | undefined;
}

/** Blank texts clear a field; temperature unit and language are never cleared. */
export async function updateProfile(db: Db, user: User, body: ProfilePatch, lan: Language) {
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
  await updateUser(db, user.id, patch);
  return profileOf(db, await userById(db, user.id), lan);
}

/** The old password must match (108); every other session of the account ends. */
export async function changePassword(
  db: Db,
  config: Config,
  user: User,
  sessionId: string,
  body: { oldPassword: string; password: string },
) {
  if (!(await verifyPassword(user.password_hash, body.oldPassword))) fail(ErrorCode.oldPasswordWrong);
  const hash = await hashPassword(body.password, config.passwordCost);
  await updateUser(db, user.id, { password_hash: hash });
  // Every other session ends; the one that changed the password stays signed in.
  await revokeUserSessions(db, user.id, sessionId);
  return null;
}

export const personalized = (user: User) => parseJson<Record<string, unknown>>(user.personalized, {});

export async function savePersonalized(db: Db, user: User, body: { key: string; value?: unknown }) {
  const settings = personalized(user);
  // null (or no value) removes the key, so a full set of keys can be freed again.
  if (body.value === null || body.value === undefined) delete settings[body.key];
  else {
    if (Buffer.byteLength(JSON.stringify(body.value)) > PERSONALIZED_VALUE_BYTES)
      fail(ErrorCode.validation, `body.value must be at most ${PERSONALIZED_VALUE_BYTES / 1024} KB`);
    settings[body.key] = body.value;
    if (Object.keys(settings).length > PERSONALIZED_KEYS)
      fail(ErrorCode.validation, `body.key: at most ${PERSONALIZED_KEYS} settings`);
  }
  await updateUser(db, user.id, { personalized: JSON.stringify(settings) });
  return settings;
}

/** A code to confirm the address fault notifications go to (the account's by default). */
export async function sendNotifyCode(db: Db, mailer: Mailer, user: User, email: string | undefined, lan: Language) {
  const to = (email ?? user.account).trim().toLowerCase();
  const code = await issueCode(db, `${user.id}:${to}`, 'notify');
  await mailer.send(codeMail(to, code, 'notify', lan)).catch((err: { code?: string; permanent?: boolean }) => {
    // The mail server refusing the address for good (a 5xx reply to RCPT TO) is bad input, not a fault.
    if (err?.code === 'EENVELOPE' && err.permanent) fail(ErrorCode.validation, 'the mail server refuses this e-mail address');
    throw err;
  });
  return null;
}

/** Turning notifications on needs the code sent to the address (5 without one). */
export async function setNotify(
  db: Db,
  user: User,
  body: { enable: boolean; email?: string | undefined; code?: string | undefined },
) {
  if (!body.enable) {
    await updateUser(db, user.id, { notify_enabled: 0 });
    return { enabled: false, email: user.notify_email };
  }
  const email = (body.email ?? user.account).trim().toLowerCase();
  if (!body.code) return fail(ErrorCode.codeWrong);
  const result = await checkCode(db, `${user.id}:${email}`, 'notify', body.code, true);
  if (result !== 'ok') fail(codeError(result));
  await updateUser(db, user.id, { notify_enabled: 1, notify_email: email });
  return { enabled: true, email };
}

export const notifySettings = (user: User) => ({ enabled: user.notify_enabled === 1, email: user.notify_email });

/** A JPG or PNG; the account refers to it at once, so nothing is left pending. */
export async function setAvatar(db: Db, config: Config, user: User, file: MultipartFile | undefined) {
  if (!file) return fail(ErrorCode.validation, 'file is required');
  const bytes = await file.toBuffer();
  const url = await storeImage(config.dataDir, 'avatars', bytes, ['png', 'jpeg']);
  if (!url) return fail(ErrorCode.validation, 'file must be a JPG or PNG image');
  await updateUser(db, user.id, { avatar: url });
  await removeImage(config.dataDir, 'avatars', user.avatar);
  return { avatar: url };
}
