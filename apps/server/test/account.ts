/** Helpers for the account tests: codes by e-mail, multipart uploads, store look-ups. */

import type { TestServer } from './harness.ts';
import type { ReceivedMail } from './smtp.ts';

/** A new account (TestServer.user's options), signed in: its id and account with both tokens. */
export async function signedIn(s: TestServer, opts: Parameters<TestServer['user']>[0] = {}) {
  const u = await s.user(opts);
  return { ...u, ...(await s.login(u.account)) };
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The 6-digit code in a mail's subject (the text carries it too). */
export function codeIn(mail: ReceivedMail): string {
  const code = mail.subject.match(/(\d{6})\s*$/)?.[1];
  if (!code) throw new Error(`no code in mail: ${mail.subject}`);
  return code;
}

const q = (params: Record<string, string | undefined>) =>
  Object.entries(params)
    .filter(([, v]) => v !== undefined)
    .map(([k, v]) => `${k}=${encodeURIComponent(v as string)}`)
    .join('&');

/** GET /anonymous/getCode without waiting for any mail. */
export const getCode = (s: TestServer, account: string, type: 'signup' | 'reset', lan?: string) =>
  s.call(null, 'GET', `/anonymous/getCode?${q({ account, type, lan })}`);

/** Ask for a code and wait for the mail that carries it (the mail is sent after the answer). */
export async function requestCode(s: TestServer, account: string, type: 'signup' | 'reset', lan?: string) {
  const next = s.smtp.waitFor(account);
  const res = await getCode(s, account, type, lan);
  const mail = await next;
  return { res, mail, code: codeIn(mail) };
}

/** No mail reached `account` within `ms` (long enough for a background send on loopback). */
export async function expectNoMail(s: TestServer, account: string, ms = 300) {
  await sleep(ms);
  const got = s.smtp.messages.filter((m) => m.to.includes(account.toLowerCase()));
  if (got.length) throw new Error(`unexpected mail to ${account}: ${got.map((m) => m.subject).join('; ')}`);
}

export const checkCodeUrl = (account: string, type: 'signup' | 'reset', code: string) =>
  `/anonymous/checkCode?${q({ account, type, code })}`;

/** Make a code expire now, as if ten minutes had passed. */
export const expireCodes = (s: TestServer, account: string) =>
  s.db
    .updateTable('verification_codes')
    .set({ expires_at: Date.now() - 1 })
    .where('account', '=', account)
    .execute();

export const userRow = (s: TestServer, id: number) =>
  s.db.selectFrom('users').selectAll().where('id', '=', id).executeTakeFirstOrThrow();

export const countUsers = async (s: TestServer, account: string) =>
  (await s.db.selectFrom('users').select('id').where('account', '=', account).execute()).length;

/** A multipart/form-data body with one file field. */
export function multipart(field: string, filename: string, contentType: string, bytes: Buffer) {
  const boundary = `----sunfleet${Math.random().toString(16).slice(2)}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  return { payload: Buffer.concat([head, bytes, tail]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A real 1×1 PNG and a minimal JPEG (JFIF header); their first bytes are what the server checks. */
export const PNG_1PX = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==',
  'base64',
);
export const JPEG_MIN = Buffer.concat([
  Buffer.from([
    0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
  ]),
  // Its frame header (SOF0): 1 × 1 pixels, one component.
  Buffer.from([0xff, 0xc0, 0x00, 0x0b, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00]),
  Buffer.alloc(64, 0),
  Buffer.from([0xff, 0xd9]),
]);
