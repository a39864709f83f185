/**
 * `/metrics` over HTTP: the loopback address scrapes without a token, any other address only with
 * the metrics token (proxies trusted as TRUST_PROXY says, no further); HTTP durations are labelled
 * by route pattern. `/api/v1/system/status`: system administrators only.
 */
import { companyGrantable, ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { parsePrometheus } from '../../../test/prometheus.ts';

const TOKEN = 'scrape-token-0123456789abcdef';
const REMOTE = '203.0.113.7';

let s: TestServer;
let behindProxy: TestServer;
let noToken: TestServer;
beforeAll(async () => {
  s = await startServer({ metricsToken: TOKEN }, (app) => {
    // As @fastify/static registers the web app's files: one plain route per file.
    for (const f of ['app.js', 'app.css']) app.get(`/test/files/${f}`, (_req, reply) => reply.send(f));
  });
  behindProxy = await startServer({ metricsToken: TOKEN, trustProxy: 1 });
  noToken = await startServer({ metricsToken: null });
});
afterAll(async () => {
  await Promise.all([s?.close(), behindProxy?.close(), noToken?.close()]);
});

const scrape = (server: TestServer, remoteAddress: string, headers: Record<string, string> = {}) =>
  server.app.inject({ method: 'GET', url: '/metrics', remoteAddress, headers });

describe('GET /metrics access', () => {
  it('answers the loopback address without a token, in the Prometheus text format', async () => {
    for (const address of ['127.0.0.1', '127.3.2.1', '::1', '::ffff:127.0.0.1']) {
      const res = await scrape(noToken, address);
      expect(res.statusCode, address).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/plain; version=0\.0\.4/);
      expect(parsePrometheus(res.body).get('sunfleet_http_request_duration_seconds')?.type).toBe('histogram');
    }
  });

  it('refuses another address without the token, or with a wrong one, with the 401 envelope', async () => {
    const attempts: Array<Record<string, string>> = [
      {},
      { authorization: 'Bearer wrong-token-0123456789abc' },
      { authorization: TOKEN },
    ];
    for (const headers of attempts) {
      const res = await scrape(s, REMOTE, headers);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: ErrorCode.tokenFailed, data: null });
      expect(res.body).not.toContain('sunfleet_');
    }
  });

  it('answers another address that presents the metrics token', async () => {
    const res = await scrape(s, REMOTE, { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('# TYPE sunfleet_http_request_duration_seconds histogram');
  });

  it('without a configured token, refuses every address but loopback, whatever token it presents', async () => {
    const res = await scrape(noToken, REMOTE, { authorization: `Bearer ${TOKEN}` });
    expect(res.statusCode).toBe(401);
  });

  it('takes the peer address, not X-Forwarded-For, unless the proxy is trusted', async () => {
    // Not behind a proxy: a remote client naming 127.0.0.1 is still remote.
    expect((await scrape(s, REMOTE, { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(401);
    // Behind a trusted proxy on this machine: the client the proxy names is who asks.
    expect((await scrape(behindProxy, '127.0.0.1', { 'x-forwarded-for': REMOTE })).statusCode).toBe(401);
    expect((await scrape(behindProxy, '127.0.0.1', { 'x-forwarded-for': '127.0.0.1' })).statusCode).toBe(200);
    expect(
      (await scrape(behindProxy, '127.0.0.1', { 'x-forwarded-for': REMOTE, authorization: `Bearer ${TOKEN}` })).statusCode,
    ).toBe(200);
  });
});

describe('HTTP request durations', () => {
  it('are labelled by route pattern, method and status class, never by the raw URL', async () => {
    const file = `${'ab'.repeat(16)}.png`;
    await s.app.inject({ method: 'GET', url: `/uploads/avatars/${file}` });
    await s.app.inject({ method: 'GET', url: '/test/files/app.js' });
    await s.app.inject({ method: 'GET', url: '/test/files/app.css' });
    await s.app.inject({ method: 'GET', url: '/healthz' });
    await s.app.inject({ method: 'GET', url: '/no/such/path/4711' });
    const res = await scrape(s, '127.0.0.1');
    const samples = parsePrometheus(res.body).get('sunfleet_http_request_duration_seconds')!.samples;
    const count = (route: string, status: string) =>
      samples.find(
        (x) => x.name.endsWith('_count') && x.labels.route === route && x.labels.status === status && x.labels.method === 'GET',
      )?.value;
    expect(count('/uploads/:folder/:file', '4xx')).toBe(1);
    expect(count('/healthz', '2xx')).toBe(1);
    expect(count('(unmatched)', '4xx')).toBe(1);
    // Files (the web app's assets: one route each) share one label.
    expect(count('(static)', '2xx')).toBe(2);
    expect(res.body).not.toContain(file);
    expect(res.body).not.toContain('4711');
  });
});

describe('GET /api/v1/system/status', () => {
  it('gives system administrators the same figures as JSON', async () => {
    const admin = await s.user({ kind: 'sysadmin' });
    const { access } = await s.login(admin.account);
    await s.app.inject({ method: 'GET', url: '/healthz' });
    const res = await s.call(access, 'GET', '/api/v1/system/status');
    expect(res.body.code).toBe(ErrorCode.ok);
    const data = res.body.data as {
      store: { dialect: string };
      ingest: unknown;
      http: { requests: number; routes: Array<{ method: string; route: string; count: number }> };
    };
    expect(data.store.dialect).toBe(process.env.TEST_DATABASE_URL ? 'postgres' : 'sqlite');
    expect(data.ingest).toBeNull(); // no ingest role in this test server
    expect(data.http.requests).toBeGreaterThan(0);
    expect(data.http.routes).toContainEqual(expect.objectContaining({ method: 'GET', route: '/healthz' }));
  });

  it('refuses a company administrator holding every company permission (code 2), and answers 401 without a token', async () => {
    const t = Date.now();
    const company = await s.db
      .insertInto('companies')
      .values({ name: 'Status Co', permissions: JSON.stringify(companyGrantable), created_at: t, updated_at: t })
      .returning('id')
      .executeTakeFirstOrThrow();
    const a = await s.user({ kind: 'company_admin', companyId: company.id });
    const { access } = await s.login(a.account);
    const res = await s.call(access, 'GET', '/api/v1/system/status');
    expect(res.body).toEqual({ code: ErrorCode.noPermission, msg: expect.any(String), data: null });
    expect((await s.call(null, 'GET', '/api/v1/system/status')).status).toBe(401);
  });
});
