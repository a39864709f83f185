/**
 * Malformed input is answered in the envelope with a client status, never a 500 or a raw body:
 * a repeated `lan`, non-finite numbers, broken multipart bodies, an oversized path or query.
 */
import net from 'node:net';
import { type Endpoint, ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startServer();
  token = (await s.login((await s.user({ kind: 'sysadmin' })).account)).access;
});
afterAll(() => s.close());

const auth = () => ({ authorization: `Bearer ${token}` });
const envelope = (body: string) => JSON.parse(body) as { code: number; msg: string; data: unknown };

describe('a repeated lan parameter', () => {
  it('takes the first value, in the answer and in the error handler', async () => {
    const ok = await s.app.inject({ method: 'GET', url: '/healthz?lan=es&lan=en' });
    expect(ok.statusCode).toBe(200);
    const missing = await s.app.inject({ method: 'GET', url: '/api/v1/nothing-here?lan=es&lan=en' });
    expect(missing.statusCode).toBe(404);
    expect(envelope(missing.body)).toEqual({ code: ErrorCode.notFound, msg: 'No encontrado', data: null });
    const refused = await s.app.inject({ method: 'GET', url: '/api/v1/customers?page=0&lan=a&lan=b', headers: auth() });
    expect(refused.statusCode).toBe(400);
    expect(envelope(refused.body).code).toBe(ErrorCode.validation);
  });
});

describe('non-finite page and size', () => {
  it.each(['page=Infinity', 'page=1e309', 'size=Infinity', 'size=-Infinity', 'page=-Infinity', 'size=1e309'])(
    '%s is bad input (400, code 4) naming the field',
    async (q) => {
      const res = await s.app.inject({ method: 'GET', url: `/api/v1/customers?${q}`, headers: auth() });
      expect(res.statusCode).toBe(400);
      const body = envelope(res.body);
      expect(body.code).toBe(ErrorCode.validation);
      expect(body.msg).toContain(q.split('=')[0]);
    },
  );
  it('every list operation refuses page=Infinity and size=1e309 as bad input (none reaches the store)', async () => {
    const lists = s.app.routeTable.filter((r) => {
      const ep = r.config?.endpoint as Endpoint | undefined;
      const props = (ep?.query as { properties?: Record<string, unknown> } | undefined)?.properties;
      return r.method === 'GET' && !!props?.page && !!props?.size;
    });
    expect(lists.length).toBeGreaterThanOrEqual(25);
    for (const r of lists) {
      for (const q of ['page=Infinity', 'size=1e309']) {
        const url = `${r.url.replace(/:([A-Za-z]+)/g, '1')}?${q}`;
        const res = await s.app.inject({ method: 'GET', url, headers: auth() });
        const body = envelope(res.body);
        // A route the administrator may not call refuses it first (code 2); every other: 400, code 4.
        if (body.code === ErrorCode.noPermission) continue;
        expect([res.statusCode, body.code], url).toEqual([400, ErrorCode.validation]);
      }
    }
  });
  it('a finite page still lists', async () => {
    const res = await s.app.inject({ method: 'GET', url: '/api/v1/customers?page=2&size=5', headers: auth() });
    expect(res.statusCode).toBe(200);
    expect(envelope(res.body).code).toBe(ErrorCode.ok);
  });
});

describe('integers past the store’s range', () => {
  const queryOf = (r: { config?: unknown }) =>
    ((r.config as { endpoint?: Endpoint } | undefined)?.endpoint?.query as { properties?: Record<string, unknown> } | undefined)
      ?.properties;
  it('every list refuses a page past 2^63 and every GET with an :id a 2^31 id as bad input (none reaches the store)', async () => {
    const gets = s.app.routeTable.filter((r) => {
      const ep = r.config?.endpoint as Endpoint | undefined;
      return r.method === 'GET' && ep !== undefined && ep.access !== 'public' && (!!queryOf(r)?.page || /:id\b/.test(r.url));
    });
    expect(gets.length).toBeGreaterThanOrEqual(40);
    for (const r of gets) {
      const page = queryOf(r)?.page ? '?page=9223372036854775808' : '';
      const url = `${r.url.replace(/:id\b/g, '2147483648').replace(/:([A-Za-z]+)/g, '1')}${page}`;
      const res = await s.app.inject({ method: 'GET', url, headers: auth() });
      const body = envelope(res.body);
      // A route the administrator may not call refuses it first (code 2); every other: 400, code 4.
      if (body.code === ErrorCode.noPermission) continue;
      expect([res.statusCode, body.code], url).toEqual([400, ErrorCode.validation]);
    }
  });
});

describe('broken multipart bodies', () => {
  const upload = (payload: string, contentType: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/company/uploadLogo',
      payload,
      headers: { ...auth(), 'content-type': contentType },
    });
  const part = '--XYZ\r\nContent-Disposition: form-data; name="file"; filename="a.png"\r\nContent-Type: image/png\r\n\r\n\x89PNG';
  it('every upload route answers a body without a boundary with 400 in the envelope', async () => {
    const uploads = s.app.routeTable.filter((r) => (r.config?.endpoint as Endpoint | undefined)?.encoding === 'multipart');
    expect(uploads.length).toBeGreaterThanOrEqual(9);
    for (const r of uploads) {
      const url = r.url.replace(/:([A-Za-z]+)/g, '1');
      for (const [payload, type] of [
        ['', 'multipart/form-data'],
        ['garbage', 'multipart/form-data; boundary=XYZ'],
      ]) {
        const res = await s.app.inject({ method: 'POST', url, payload, headers: { ...auth(), 'content-type': type } });
        const body = envelope(res.body);
        if (body.code === ErrorCode.noPermission) continue;
        expect([res.statusCode, body.code], `${url} ${type}`).toEqual([400, ErrorCode.validation]);
      }
    }
  });
  it.each([
    ['without a boundary', '', 'multipart/form-data'],
    ['cut off mid-part', part, 'multipart/form-data; boundary=XYZ'],
    ['garbage', 'not a multipart body at all', 'multipart/form-data; boundary=XYZ'],
  ])('%s is 400 in the envelope', async (_name, payload, type) => {
    const res = await upload(payload, type);
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(envelope(res.body)).toMatchObject({ code: ErrorCode.validation, data: null });
  });
});

/** A raw HTTP/1.1 request on a real socket (inject does not go through Node's parser). */
function rawGet(port: number, target: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => {
      socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`);
    });
    let data = '';
    socket.on('data', (d) => {
      data += d;
    });
    socket.on('error', reject);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const status = Number(head.split(' ')[1]);
      const type = /content-type: *([^\r\n]*)/i.exec(head)?.[1] ?? '';
      resolve({ status, type, body });
    });
  });
}

describe('oversized requests', () => {
  let port: number;
  beforeAll(async () => {
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    port = (s.app.server.address() as net.AddressInfo).port;
  });
  it('a 100 KB query value is 431 in the envelope', async () => {
    const res = await rawGet(port, `/healthz?x=${'a'.repeat(100_000)}`);
    expect(res.status).toBe(431);
    expect(res.type).toMatch(/^application\/json/);
    expect(envelope(res.body)).toMatchObject({ code: ErrorCode.validation, data: null });
  });
  it('a 10 KB path parameter is 414 in the envelope', async () => {
    const res = await rawGet(port, `/api/v1/user/${'1'.repeat(10_000)}/avatar`);
    expect(res.status).toBe(414);
    expect(res.type).toMatch(/^application\/json/);
    expect(envelope(res.body)).toMatchObject({ code: ErrorCode.validation, data: null });
  });
});

describe('the OpenADR callback without a VTN', () => {
  it.each([
    ['GET', '/api/v1/oadr/callback?echo=abc'],
    ['GET', '/api/v1/oadr/callback/echo?echo=abc'],
    ['POST', '/api/v1/oadr/callback'],
  ] as const)('%s %s is 404 in the envelope', async (method, url) => {
    const res = await s.app.inject({ method, url, ...(method === 'POST' ? { payload: {} } : {}) });
    expect(res.statusCode).toBe(404);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(envelope(res.body)).toEqual({ code: ErrorCode.notFound, msg: 'Not found', data: null });
  });
});
