/** Plant pictures (spec §5: JPG or PNG by content, at most 10 MB) through plant/thumbnail. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { uploadsDir } from '../users/avatar.ts';
import { type Account, account, createPlant, multipart, PNG } from './testkit.ts';

let s: TestServer;
let owner: Account;
const post = (who: Account, url: string, body?: unknown) => s.call(who.token, 'POST', url, body);
const get = (who: Account, url: string) => s.call(who.token, 'GET', url);

beforeAll(async () => {
  s = await startServer();
  owner = await account(s);
});
afterAll(() => s.close());

describe('pictures', () => {
  it('stores a PNG by content and the plant refers to it; a replaced picture is removed', async () => {
    const upload = async () => {
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/v1/plant/thumbnail',
        headers: { authorization: `Bearer ${owner.token}`, ...multipart(PNG).headers },
        payload: multipart(PNG).payload,
      });
      return res.json() as { code: number; data: { url: string } };
    };
    const first = await upload();
    expect(first.code).toBe(0);
    expect(first.data.url).toMatch(/^\/uploads\/plants\/[a-f0-9]{32}\.png$/);
    const file = (url: string) => path.join(uploadsDir(s.config.dataDir), 'plants', url.split('/').pop()!);
    expect(fs.existsSync(file(first.data.url))).toBe(true);
    const id = await createPlant(s, owner, { picture: first.data.url, thumbnail: first.data.url });
    expect((await get(owner, `/api/v1/plant/${id}`)).body.data).toMatchObject({
      picture: first.data.url,
      thumbnail: first.data.url,
    });
    const second = await upload();
    await post(owner, `/api/v1/plant/${id}/info`, { picture: second.data.url });
    expect(fs.existsSync(file(second.data.url))).toBe(true);
    // Still the thumbnail: kept until nothing refers to it.
    expect(fs.existsSync(file(first.data.url))).toBe(true);
    await post(owner, `/api/v1/plant/${id}/info`, { thumbnail: second.data.url });
    expect(fs.existsSync(file(first.data.url))).toBe(false);
    expect((await s.app.inject({ method: 'GET', url: second.data.url })).statusCode).toBe(200);
  });

  it('refuses a file that is not a JPG or PNG whatever its name, and a file over 10 MB', async () => {
    const fake = multipart(Buffer.from('GIF89a not allowed here'), 'x.png');
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/plant/thumbnail',
      headers: { authorization: `Bearer ${owner.token}`, ...fake.headers },
      payload: fake.payload,
    });
    expect(res.json()).toMatchObject({ code: 4, data: null });
    const big = multipart(Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]));
    const tooBig = await s.app.inject({
      method: 'POST',
      url: '/api/v1/plant/thumbnail',
      headers: { authorization: `Bearer ${owner.token}`, ...big.headers },
      payload: big.payload,
    });
    expect(tooBig.json()).toMatchObject({ code: 4, data: null });
  });

  it('a read-only account may not upload (2)', async () => {
    const ro = await account(s, { readOnly: true });
    const body = multipart(PNG);
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/plant/thumbnail',
      headers: { authorization: `Bearer ${ro.token}`, ...body.headers },
      payload: body.payload,
    });
    expect(res.json().code).toBe(2);
  });
});
