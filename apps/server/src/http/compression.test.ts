/**
 * The API's JSON answers go out compressed when large and asked for; small ones, other
 * types and requests that accept no encoding go out as they are.
 */
import zlib from 'node:zlib';
import { endpoint } from '@sunfleet/contracts';
import Type from 'typebox';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { sendXlsx } from '../modules/events/xlsx.ts';
import { COMPRESS_MIN_BYTES } from './compression.ts';
import { route } from './route.ts';

const rows = endpoint({
  method: 'GET',
  path: '/api/v1/test/rows',
  access: 'user',
  summary: 'test only',
  query: Type.Object({ count: Type.Integer() }),
  data: Type.Object({ list: Type.Array(Type.Object({ id: Type.Integer(), name: Type.String() })) }),
});

let s: TestServer;
let token: string;
beforeAll(async () => {
  s = await startServer({}, (app) => {
    route(app, rows, async ({ query }) => ({
      list: Array.from({ length: query.count }, (_, i) => ({ id: i, name: `inverter ${i}` })),
    }));
    app.get('/api/v1/test/sheet', async (_req, reply) => {
      await sendXlsx(reply, {
        filename: 'rows.xlsx',
        sheet: 'Data',
        columns: [{ header: 'id' }, { header: 'name' }],
        rows: (async function* () {
          yield Array.from({ length: 500 }, (_, i) => [i, `inverter ${i}`]);
        })(),
      });
      return reply;
    });
  });
  token = (await s.login((await s.user()).account)).access;
});
afterAll(() => s.close());

const get = (url: string, acceptEncoding?: string) =>
  s.app.inject({
    method: 'GET',
    url,
    headers: { authorization: `Bearer ${token}`, ...(acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding }) },
  });

const decode = (encoding: string | undefined, body: Buffer) =>
  encoding === 'br' ? zlib.brotliDecompressSync(body) : encoding === 'gzip' ? zlib.gunzipSync(body) : body;

describe('JSON compression', () => {
  it('a large answer is brotli when accepted, else gzip, and decodes to the same JSON', async () => {
    const plain = await get('/api/v1/test/rows?count=200');
    expect(plain.rawPayload.length).toBeGreaterThan(4 * COMPRESS_MIN_BYTES);
    for (const [accept, expected] of [
      ['gzip, deflate, br', 'br'],
      ['br', 'br'],
      ['gzip', 'gzip'],
      ['deflate;q=1, gzip;q=0.5', 'gzip'],
    ] as const) {
      const res = await get('/api/v1/test/rows?count=200', accept);
      expect(res.headers['content-encoding'], accept).toBe(expected);
      expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
      expect(res.rawPayload.length).toBeLessThan(plain.rawPayload.length / 4);
      expect(JSON.parse(decode(expected, res.rawPayload).toString())).toEqual(plain.json());
    }
  });

  it('not compressed without Accept-Encoding, with identity, or with an encoding it does not offer', async () => {
    for (const accept of [undefined, 'identity', 'deflate', 'compress']) {
      const res = await get('/api/v1/test/rows?count=200', accept);
      expect(res.headers['content-encoding'], String(accept)).toBeUndefined();
      expect(res.json().data.list).toHaveLength(200);
    }
  });

  it('an answer under 1 KiB goes out as it is', async () => {
    const res = await get('/api/v1/test/rows?count=3', 'br, gzip');
    expect(res.rawPayload.length).toBeLessThan(COMPRESS_MIN_BYTES);
    expect(res.headers['content-encoding']).toBeUndefined();
    expect(res.json().data.list).toHaveLength(3);
  });

  it('a real endpoint: the permission tree', async () => {
    const res = await get('/api/v1/permission', 'br');
    const plain = await get('/api/v1/permission');
    expect(plain.rawPayload.length).toBeGreaterThan(COMPRESS_MIN_BYTES);
    expect(res.headers['content-encoding']).toBe('br');
    expect(JSON.parse(decode('br', res.rawPayload).toString())).toEqual(plain.json());
  });

  it('an xlsx download streams as it is: never encoded a second time', async () => {
    const res = await get('/api/v1/test/sheet', 'br, gzip');
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/spreadsheetml/);
    expect(res.headers['content-encoding']).toBeUndefined();
    // A zip file: the local file header's signature.
    expect(res.rawPayload.subarray(0, 4)).toEqual(Buffer.from([0x50, 0x4b, 0x03, 0x04]));
  });
});
