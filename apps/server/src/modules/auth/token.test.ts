import { createHash } from 'node:crypto';
import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { invalidInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

describe('POST /oauth/token', () => {
  it('signs in with the password grant and the access token opens the profile', async () => {
    const u = await s.user();
    const { access, refresh } = await s.login(u.account);
    expect(refresh).toMatch(/^[A-Za-z0-9_-]{43}$/);
    const me = await s.call(access, 'GET', '/api/v1/user');
    expect(me.body).toMatchObject({ code: ErrorCode.ok, data: { id: u.id, account: u.account, kind: 'end_user' } });
    expect(JSON.stringify(me.body)).not.toContain('password');
  });

  it('answers 102 for a wrong password and for an unknown account alike', async () => {
    const u = await s.user();
    const wrong = await s.call(null, 'POST', '/oauth/token', {
      grant_type: 'password',
      username: u.account,
      password: 'nope123',
    });
    const unknown = await s.call(null, 'POST', '/oauth/token', {
      grant_type: 'password',
      username: 'nobody@example.com',
      password: 'nope123',
    });
    expect(wrong).toEqual({
      status: 200,
      body: { code: ErrorCode.wrongCredentials, msg: 'Wrong account or password', data: null },
    });
    expect(unknown.body.code).toBe(ErrorCode.wrongCredentials);
  });

  it('answers 101 for a disabled account with the right password', async () => {
    const u = await s.user({ enabled: false });
    const res = await s.call(null, 'POST', '/oauth/token', {
      grant_type: 'password',
      username: u.account,
      password: 'Secret123',
    });
    expect(res.body.code).toBe(ErrorCode.accountDisabled);
  });

  it('accepts the form-encoded grant too', async () => {
    const u = await s.user();
    const res = await s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: `grant_type=password&username=${encodeURIComponent(u.account)}&password=Secret123`,
    });
    expect(res.json().code).toBe(ErrorCode.ok);
  });

  it('rotates the refresh token, and a replayed one revokes the session', async () => {
    const u = await s.user();
    const first = await s.login(u.account);
    const r1 = await s.call(null, 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh });
    expect(r1.body.code).toBe(ErrorCode.ok);
    const second = r1.body.data as { access_token: string; refresh_token: string };
    expect(second.refresh_token).not.toBe(first.refresh);
    // The old token again: refused, and the whole session dies (the new tokens too).
    const replay = await s.call(null, 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: first.refresh });
    expect(replay.status).toBe(401);
    const r2 = await s.call(null, 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: second.refresh_token });
    expect(r2.status).toBe(401);
    const me = await s.call(second.access_token, 'GET', '/api/v1/user');
    expect(me.status).toBe(401);
  });

  it('refuses tampered, foreign-signed and missing tokens with 401', async () => {
    const u = await s.user();
    const { access } = await s.login(u.account);
    const [h, p, sig] = access.split('.');
    const payload = JSON.parse(Buffer.from(p!, 'base64url').toString());
    payload.sub = '1';
    const tampered = `${h}.${Buffer.from(JSON.stringify(payload)).toString('base64url')}.${sig}`;
    for (const token of [tampered, `${access}x`, 'garbage', null]) {
      const res = await s.call(token, 'GET', '/api/v1/user');
      expect(res.status).toBe(401);
      expect(res.body).toMatchObject({ code: ErrorCode.tokenFailed, data: null });
    }
  });

  it('refuses an expired access token', async () => {
    const { AccessTokens } = await import('./tokens.ts');
    const u = await s.user();
    const { access } = await s.login(u.account);
    const claims = await s.app.deps.tokens.verify(access);
    const { SignJWT } = await import('jose');
    const expired = await new SignJWT({ sid: claims!.sessionId })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(u.id))
      .setIssuer('sunfleet')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 3600)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(s.config.jwtSecret));
    expect(await new AccessTokens(s.config.jwtSecret, 60).verify(expired)).toBeNull();
    expect((await s.call(expired, 'GET', '/api/v1/user')).status).toBe(401);
  });

  it('remembers a good token only until it expires, and never a bad one', async () => {
    const { AccessTokens } = await import('./tokens.ts');
    const tokens = new AccessTokens(s.config.jwtSecret, 60);
    const token = await tokens.sign({ userId: 7, sessionId: 'session-7' });
    expect(await tokens.verify(token)).toEqual({ userId: 7, sessionId: 'session-7' });
    expect(await tokens.verify(token)).toEqual({ userId: 7, sessionId: 'session-7' });
    expect(await tokens.verify(`${token.slice(0, -2)}AA`)).toBeNull();
    vi.useFakeTimers({ toFake: ['Date'], now: Date.now() + 61_000 });
    try {
      expect(await tokens.verify(token)).toBeNull();
    } finally {
      vi.useRealTimers();
    }
  });

  it('rejects a bad grant with code 4 naming the field', async () => {
    const res = await s.call(null, 'POST', '/oauth/token', { grant_type: 'client_credentials' });
    expect(res.body.code).toBe(ErrorCode.validation);
    expect(res.body.msg).toContain('body');
  });

  it('names the grant rule, or the missing field of the grant asked for', async () => {
    const cases: Array<[Record<string, unknown>, string]> = [
      [{ grant_type: 'client_credentials' }, 'body.grant_type must be one of: password, refresh_token'],
      [{}, 'body.grant_type must be one of: password, refresh_token'],
      [{ grant_type: 'password', username: 'a@b.com' }, 'body.password is required'],
      [{ grant_type: 'refresh_token' }, 'body.refresh_token is required'],
      [{ grant_type: 'password', username: 'a@b.com', password: 'x'.repeat(65) }, 'body.password must be at most 64 characters'],
    ];
    for (const [body, message] of cases) {
      const res = await s.call(null, 'POST', '/oauth/token', body);
      expect(res.body, JSON.stringify(body)).toEqual(invalidInput(`${message}`));
    }
  });

  it('a disabled account cannot refresh its session', async () => {
    const u = await s.user();
    const { refresh } = await s.login(u.account);
    await s.db.updateTable('users').set({ enabled: 0 }).where('id', '=', u.id).execute();
    const res = await s.call(null, 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: refresh });
    expect(res.status).toBe(401);
  });

  it('an access token carries only the user id and the session id', async () => {
    const u = await s.user();
    const { access } = await s.login(u.account);
    const payload = JSON.parse(Buffer.from(access.split('.')[1]!, 'base64url').toString());
    expect(Object.keys(payload).sort()).toEqual(['exp', 'iat', 'iss', 'sid', 'sub']);
    expect(payload.sub).toBe(String(u.id));
    expect(payload.exp - payload.iat).toBe(900);
  });

  it('stores the refresh token only as a hash', async () => {
    const u = await s.user();
    const { refresh } = await s.login(u.account);
    const rows = await s.db.selectFrom('refresh_tokens').selectAll().execute();
    expect(JSON.stringify(rows)).not.toContain(refresh);
    expect(rows.some((r) => r.token_hash === createHash('sha256').update(refresh).digest('hex'))).toBe(true);
  });

  it('sign-out revokes the session', async () => {
    const u = await s.user();
    const { access, refresh } = await s.login(u.account);
    expect((await s.call(access, 'POST', '/oauth/revoke', {})).body.code).toBe(ErrorCode.ok);
    expect((await s.call(access, 'GET', '/api/v1/user')).status).toBe(401);
    expect((await s.call(null, 'POST', '/oauth/token', { grant_type: 'refresh_token', refresh_token: refresh })).status).toBe(
      401,
    );
  });
});
