import { createHash } from 'node:crypto';
import { ErrorCode } from '@sunfleet/contracts';
/** Verification codes by e-mail: /anonymous/getCode, /anonymous/checkCode, /anonymous/checkAccount. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkCodeUrl, codeIn, expectNoMail, expireCodes, getCode, requestCode } from '../../../test/account.ts';
import { invalidInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer, uniqueAccount } from '../../../test/harness.ts';
import { buildApp } from '../../app.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const ok = { code: ErrorCode.ok, msg: 'ok', data: null };

describe('GET /anonymous/getCode', () => {
  it('mails a 6-digit sign-up code in English through SMTP', async () => {
    const account = uniqueAccount('new');
    const { res, mail, code } = await requestCode(s, account, 'signup');
    expect(res).toEqual({ status: 200, body: ok });
    expect(code).toMatch(/^\d{6}$/);
    expect(mail.to).toEqual([account]);
    expect(mail.subject).toBe(`Your Sunfleet verification code: ${code}`);
    expect(mail.raw).toContain(`Your verification code is ${code}.`);
    expect(mail.raw).toContain('expires in 10 minutes');
  });

  it('mails the code in Spanish with lan=es', async () => {
    const account = uniqueAccount('nuevo');
    const { mail, code } = await requestCode(s, account, 'signup', 'es');
    expect(mail.subject).toBe(`Su código de verificación de Sunfleet: ${code}`);
  });

  it('answers a sign-up request for a registered account the same way, and sends nothing', async () => {
    const u = await s.user();
    const free = await requestCode(s, uniqueAccount('free'), 'signup');
    const taken = await getCode(s, u.account, 'signup');
    expect(taken).toEqual(free.res);
    await expectNoMail(s, u.account);
  });

  it('mails a reset code to an account, answers an unknown address the same way and sends it nothing', async () => {
    const u = await s.user();
    const known = await requestCode(s, u.account, 'reset');
    expect(known.mail.subject).toMatch(/^Your Sunfleet verification code: \d{6}$/);
    expect(known.mail.raw).toContain('reset your Sunfleet password');
    const nobody = uniqueAccount('nobody');
    const unknown = await getCode(s, nobody, 'reset');
    expect(unknown).toEqual(known.res);
    await expectNoMail(s, nobody);
  });

  it('normalises the address: upper case and the lower-case account are one', async () => {
    const u = await s.user();
    const next = s.smtp.waitFor(u.account);
    await getCode(s, u.account.toUpperCase(), 'reset');
    const mail = await next;
    const check = await s.call(null, 'GET', checkCodeUrl(u.account, 'reset', codeIn(mail)));
    expect(check.body.code).toBe(ErrorCode.ok);
  });

  it('answers the same when the mail cannot be sent (a failing mail server reveals nothing)', async () => {
    const failing = await buildApp({
      ...s.app.deps,
      mailer: {
        send: () => Promise.reject(new Error('smtp down')),
        close: () => {},
      },
    });
    try {
      const res = await failing.inject({ method: 'GET', url: `/anonymous/getCode?account=${uniqueAccount('x')}&type=signup` });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toEqual(ok);
    } finally {
      await failing.close();
    }
  });

  it.each([
    ['account=not-an-email&type=signup', 'querystring.account must be a valid e-mail address'],
    ['account=a%40b.com&type=login', 'querystring.type must be one of: signup, reset'],
    ['account=a%40b.com', 'querystring.type is required'],
    ['type=signup', 'querystring.account is required'],
  ])('refuses %s with code 4 naming the field and rule, and sends nothing', async (query, message) => {
    const before = s.smtp.messages.length;
    const res = await s.call(null, 'GET', `/anonymous/getCode?${query}`);
    expect(res.body).toEqual(invalidInput(`${message}`));
    await expectNoMail(s, 'a@b.com', 50);
    expect(s.smtp.messages.length).toBe(before);
  });

  it('names the rule in Spanish for a Spanish client', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/anonymous/getCode?account=nope&type=signup',
      headers: { 'accept-language': 'es-ES,es;q=0.9' },
    });
    expect(res.json().msg).toBe('Entrada no válida: querystring.account debe ser una dirección de correo electrónico válida');
  });
});

describe('GET /anonymous/checkCode', () => {
  it('accepts the right code without using it up', async () => {
    const account = uniqueAccount('chk');
    const { code } = await requestCode(s, account, 'signup');
    for (let i = 0; i < 2; i++) {
      expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', code))).body).toEqual(ok);
    }
  });

  it('answers 5 for a wrong code, and for a code of the other purpose', async () => {
    const account = uniqueAccount('chk');
    const { code } = await requestCode(s, account, 'signup');
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', wrong))).body).toEqual({
      code: ErrorCode.codeWrong,
      msg: 'The verification code is wrong',
      data: null,
    });
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'reset', code))).body.code).toBe(ErrorCode.codeWrong);
  });

  it('answers 6 for the right code after it expired, and 5 for a wrong one', async () => {
    const account = uniqueAccount('exp');
    const { code } = await requestCode(s, account, 'signup');
    await expireCodes(s, account);
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', code))).body).toEqual({
      code: ErrorCode.codeExpired,
      msg: 'The verification code has expired',
      data: null,
    });
    const wrong = code === '000000' ? '111111' : '000000';
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', wrong))).body.code).toBe(ErrorCode.codeWrong);
  });

  it('kills the code after 5 wrong tries: the right digits then answer 5', async () => {
    const account = uniqueAccount('brute');
    const { code } = await requestCode(s, account, 'signup');
    const wrong = code === '000000' ? '111111' : '000000';
    for (let i = 0; i < 4; i++)
      expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', wrong))).body.code).toBe(ErrorCode.codeWrong);
    // Four wrong tries leave it alive...
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', code))).body.code).toBe(ErrorCode.ok);
    // ...the fifth kills it.
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', wrong))).body.code).toBe(ErrorCode.codeWrong);
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', code))).body.code).toBe(ErrorCode.codeWrong);
    const signup = await s.call(null, 'POST', '/anonymous/signup', { account, password: 'Passw0rd!', code });
    expect(signup.body.code).toBe(ErrorCode.codeWrong);
  });

  it('counts wrong tries made at the same moment: ten at once kill the code', async () => {
    const account = uniqueAccount('burst');
    const { code } = await requestCode(s, account, 'signup');
    const wrong = code === '000000' ? '111111' : '000000';
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => s.call(null, 'GET', checkCodeUrl(account, 'signup', wrong))),
    );
    expect(answers.map((a) => a.body.code)).toEqual(Array(10).fill(5));
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', code))).body.code).toBe(ErrorCode.codeWrong);
  });

  it('one code makes one account, even when two sign-ups use it at once', async () => {
    const account = uniqueAccount('race');
    const { code } = await requestCode(s, account, 'signup');
    const answers = await Promise.all(
      [1, 2].map(() => s.call(null, 'POST', '/anonymous/signup', { account, password: 'Passw0rd!', code })),
    );
    const codes = answers.map((a) => a.body.code).sort((a, b) => a - b);
    expect(codes[0]).toBe(ErrorCode.ok);
    expect([ErrorCode.codeWrong, ErrorCode.accountRegistered]).toContain(codes[1]);
    expect(answers.every((a) => a.status === 200)).toBe(true);
    expect(await s.db.selectFrom('users').select('id').where('account', '=', account).execute()).toHaveLength(1);
  });

  it('a new code replaces the old one', async () => {
    const account = uniqueAccount('again');
    const first = await requestCode(s, account, 'signup');
    let second = await requestCode(s, account, 'signup');
    // One time in a million the new code repeats the old digits; ask once more then.
    if (second.code === first.code) second = await requestCode(s, account, 'signup');
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', first.code))).body.code).toBe(ErrorCode.codeWrong);
    expect((await s.call(null, 'GET', checkCodeUrl(account, 'signup', second.code))).body.code).toBe(ErrorCode.ok);
  });

  it('once the newest code is used, an older one left by two requests at once does not come back', async () => {
    const u = await s.user();
    const { code: older } = await requestCode(s, u.account, 'reset');
    // A second code stored alongside, as two simultaneous requests could leave it.
    const newer = older === '222222' ? '333333' : '222222';
    const t = Date.now();
    await s.db
      .insertInto('verification_codes')
      .values({
        account: u.account,
        purpose: 'reset',
        code_hash: createHash('sha256').update(`reset:${u.account}:${newer}`).digest('hex'),
        expires_at: t + 600_000,
        attempts: 0,
        used_at: null,
        created_at: t,
      })
      .execute();
    expect((await s.call(null, 'GET', checkCodeUrl(u.account, 'reset', older))).body.code).toBe(ErrorCode.codeWrong);
    const reset = await s.call(null, 'POST', '/anonymous/resetPwd', { account: u.account, password: 'N3w-secret', code: newer });
    expect(reset.body.code).toBe(ErrorCode.ok);
    expect((await s.call(null, 'GET', checkCodeUrl(u.account, 'reset', older))).body.code).toBe(ErrorCode.codeWrong);
    const again = await s.call(null, 'POST', '/anonymous/resetPwd', { account: u.account, password: 'Other-pw1', code: older });
    expect(again.body.code).toBe(ErrorCode.codeWrong);
  });

  it('answers 5 when no code was ever sent', async () => {
    expect((await s.call(null, 'GET', checkCodeUrl(uniqueAccount('none'), 'reset', '123456'))).body.code).toBe(
      ErrorCode.codeWrong,
    );
  });

  it.each([
    ['12345', 'querystring.code must be 6 digits'],
    ['12345a', 'querystring.code must be 6 digits'],
    ['1234567', 'querystring.code must be 6 digits'],
  ])('refuses the code %s with code 4', async (code, message) => {
    const res = await s.call(null, 'GET', checkCodeUrl('a@b.com', 'signup', code));
    expect(res.body).toEqual(invalidInput(`${message}`));
  });

  it('stores only a hash of the code', async () => {
    const account = uniqueAccount('hash');
    const { code } = await requestCode(s, account, 'signup');
    const rows = await s.db.selectFrom('verification_codes').selectAll().where('account', '=', account).execute();
    expect(rows).toHaveLength(1);
    expect(rows[0]!.code_hash).toMatch(/^[0-9a-f]{64}$/);
    expect(JSON.stringify(rows)).not.toContain(code);
    expect(rows[0]!.expires_at - rows[0]!.created_at).toBe(10 * 60 * 1000);
  });
});

describe('GET /anonymous/checkAccount', () => {
  it('answers 103 with type=signup and 105 without for a registered account', async () => {
    const u = await s.user();
    expect((await s.call(null, 'GET', `/anonymous/checkAccount?account=${u.account}&type=signup`)).body).toEqual({
      code: ErrorCode.accountRegistered,
      msg: 'This account is already registered',
      data: null,
    });
    expect((await s.call(null, 'GET', `/anonymous/checkAccount?account=${u.account}`)).body).toEqual({
      code: ErrorCode.isAccount,
      msg: 'This is an account',
      data: null,
    });
    expect((await s.call(null, 'GET', `/anonymous/checkAccount?account=${u.account.toUpperCase()}&type=reset`)).body.code).toBe(
      105,
    );
  });

  it('answers 0 with exists:false for a free address', async () => {
    const res = await s.call(null, 'GET', `/anonymous/checkAccount?account=${uniqueAccount('free')}&type=signup`);
    expect(res.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: { exists: false } });
  });

  it('refuses a bad address with code 4', async () => {
    const res = await s.call(null, 'GET', '/anonymous/checkAccount?account=x%40y');
    expect(res.body).toEqual(invalidInput('querystring.account must be a valid e-mail address'));
  });
});
