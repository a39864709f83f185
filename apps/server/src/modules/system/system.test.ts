/** Health, API docs, and what every response carries: security headers, no CORS, limits, no leaked faults. */
import { ErrorCode, endpoint } from '@sunfleet/contracts';
import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invalidInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer, uniqueAccount } from '../../../test/harness.ts';
import { route } from '../../http/route.ts';

const SECRET = 'connection to db-primary.internal:5432 refused for user admin';
const boom = endpoint({
  method: 'GET',
  path: '/api/v1/test/boom',
  access: 'public',
  summary: 'test only: a server fault',
  data: Type.Null(),
});

/** The store errors a request meets while the database is down or locked. */
const storeFaults: Record<string, () => Error> = {
  locked: () => Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' }),
  terminated: () =>
    Object.assign(new Error('terminating connection due to administrator command at db-primary.internal'), { code: '57P01' }),
  refused: () => Object.assign(new Error('connect ECONNREFUSED 10.0.0.7:5432'), { code: 'ECONNREFUSED' }),
};
const storeDown = endpoint({
  method: 'GET',
  path: '/api/v1/test/store/:fault',
  access: 'public',
  summary: 'test only: a store that is down or locked',
  params: Type.Object({ fault: Type.String() }),
  data: Type.Null(),
});

let s: TestServer;
beforeAll(async () => {
  s = await startServer({}, (app) => {
    route(app, boom, () => {
      throw new Error(SECRET);
    });
    route(app, storeDown, ({ params }) => {
      throw storeFaults[params.fault]!();
    });
  });
});
afterAll(() => s.close());

describe('GET /healthz', () => {
  it('reports the store it reached', async () => {
    const res = await s.call(null, 'GET', '/healthz');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({
      code: ErrorCode.ok,
      data: { status: 'ok', store: process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite', uptimeSec: expect.any(Number) },
    });
  });
});

describe('GET /anonymous/appStores', () => {
  it('answers without a token: the configured store pages, null for one not configured', async () => {
    const res = await s.call(null, 'GET', '/anonymous/appStores');
    expect(res.body).toEqual({ code: ErrorCode.ok, msg: 'ok', data: { ios: null, android: null } });
    const ios = 'https://apps.apple.com/app/sunfleet/id123456789';
    const other = await startServer({ appStores: { ios, android: null } });
    try {
      expect((await other.call(null, 'GET', '/anonymous/appStores')).body.data).toEqual({ ios, android: null });
    } finally {
      await other.close();
    }
  });
});

describe('API docs', () => {
  it('serves the OpenAPI document listing the account calls, with their schemas', async () => {
    const ui = await s.app.inject({ method: 'GET', url: '/api/docs' });
    expect([200, 302]).toContain(ui.statusCode);
    const res = await s.app.inject({ method: 'GET', url: '/api/docs/json' });
    expect(res.statusCode).toBe(200);
    const doc = res.json() as {
      openapi: string;
      paths: Record<string, Record<string, { parameters?: Array<{ name: string; in: string }>; security?: unknown }>>;
    };
    expect(doc.openapi).toMatch(/^3\./);
    for (const [p, method] of [
      ['/oauth/token', 'post'],
      ['/anonymous/getCode', 'get'],
      ['/anonymous/checkCode', 'get'],
      ['/anonymous/checkAccount', 'get'],
      ['/anonymous/signup', 'post'],
      ['/anonymous/resetPwd', 'post'],
      ['/anonymous/ip', 'get'],
      ['/api/v1/user', 'get'],
      ['/api/v1/user/{id}', 'post'],
      ['/api/v1/user/{id}/pwd', 'post'],
      ['/api/v1/user/personalized', 'get'],
      ['/api/v1/user/personalized', 'post'],
      ['/api/v1/user/notify', 'post'],
      ['/api/v1/user/notify/code', 'get'],
      ['/api/v1/user/notify/enable', 'get'],
      ['/api/v1/user/{id}/avatar', 'post'],
      ['/healthz', 'get'],
    ] as const) {
      expect(doc.paths[p]?.[method], `${method} ${p}`).toBeDefined();
    }
    expect(doc.paths['/anonymous/getCode']!.get!.parameters?.map((x) => x.name)).toEqual(
      expect.arrayContaining(['account', 'type']),
    );
    expect(doc.paths['/api/v1/user']!.get!.security).toEqual([{ bearer: [] }]);
    expect(doc.paths['/anonymous/ip']!.get!.security).toBeUndefined();
  });
});

describe('every response', () => {
  it('carries the security headers', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/healthz' });
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
    expect(res.headers['strict-transport-security']).toMatch(/max-age=\d+/);
    expect(res.headers['referrer-policy']).toBe('no-referrer');
    expect(res.headers['x-powered-by']).toBeUndefined();
    // Refusals and unknown paths too.
    for (const url of ['/api/v1/user', '/api/v1/no-such-call']) {
      const refused = await s.app.inject({ method: 'GET', url });
      expect(refused.statusCode).toBeGreaterThanOrEqual(400);
      expect(String(refused.headers['content-security-policy'])).toContain("default-src 'self'");
      expect(refused.headers['x-content-type-options']).toBe('nosniff');
    }
  });

  it('has no CORS header, even for a request or preflight from another origin', async () => {
    const u = await s.user();
    const { access } = await s.login(u.account);
    const simple = await s.app.inject({
      method: 'GET',
      url: '/api/v1/user',
      headers: { origin: 'https://evil.example', authorization: `Bearer ${access}` },
    });
    expect(simple.json().code).toBe(ErrorCode.ok);
    const preflight = await s.app.inject({
      method: 'OPTIONS',
      url: '/oauth/token',
      headers: {
        origin: 'https://evil.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    for (const res of [simple, preflight]) {
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    }
    expect(preflight.statusCode).toBe(404);
  });

  it('refuses a body over 1 MB with HTTP 413 and code 4, writing nothing', async () => {
    const account = uniqueAccount('huge');
    const res = await s.app.inject({
      method: 'POST',
      url: '/anonymous/signup',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ account, password: 'Sun-Power1', code: '123456', nickname: 'x'.repeat(1024 * 1024) }),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual(invalidInput('the upload is too large'));
    expect(await s.db.selectFrom('users').select('id').where('account', '=', account).execute()).toHaveLength(0);
  });

  it('answers malformed JSON and an unsupported content type with code 4', async () => {
    const bad = await s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/json' },
      payload: '{"grant_type": "pass',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual(invalidInput('the body is not valid JSON'));
    const xml = await s.app.inject({
      method: 'POST',
      url: '/oauth/token',
      headers: { 'content-type': 'application/xml' },
      payload: '<grant/>',
    });
    expect(xml.statusCode).toBe(415);
    expect(xml.json()).toEqual(invalidInput('unsupported content type'));
  });

  it('a server fault is HTTP 500 with code 500 and never the error message', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/v1/test/boom', headers: { 'accept-language': 'es' } });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ code: ErrorCode.serverError, msg: 'El servidor no respondió, inténtelo más tarde', data: null });
    expect(res.body).not.toContain('db-primary');
    expect(res.body).not.toContain('Error');
  });

  it('a store that is down or locked is HTTP 503 with code 503 and Retry-After, never the error message', async () => {
    for (const fault of Object.keys(storeFaults)) {
      const res = await s.app.inject({ method: 'GET', url: `/api/v1/test/store/${fault}` });
      expect(res.statusCode, fault).toBe(503);
      expect(res.headers['retry-after']).toBe('2');
      expect(res.json()).toEqual({
        code: ErrorCode.storeUnavailable,
        msg: 'The service is briefly unavailable, please try again in a moment',
        data: null,
      });
      expect(res.body).not.toContain('db-primary');
    }
    const es = await s.app.inject({ method: 'GET', url: '/api/v1/test/store/locked', headers: { 'accept-language': 'es' } });
    expect(es.json().msg).toBe('El servicio no está disponible por un momento, inténtelo de nuevo en breve');
  });

  it('an unknown API path is HTTP 404 with code 404', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/v1/no-such-thing' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ code: ErrorCode.notFound, msg: 'Not found', data: null });
  });
});
