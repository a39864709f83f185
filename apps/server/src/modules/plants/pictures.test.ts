/** Plant pictures (JPG or PNG by content, at most 10 MB) through plant/thumbnail. */
import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { pngOf } from '../../../test/images.ts';
import { type Account, account, company, createPlant, multipart, PNG } from '../../../test/kits/plants.ts';
import { housekeep } from '../../jobs/housekeeping.ts';
import { uploadsDir } from '../users/avatar.ts';

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
    expect(first.code).toBe(ErrorCode.ok);
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

  it('refuses a picture of too many pixels (11): over 25 MP, or over 8192 on a side', async () => {
    const send = async (bytes: Buffer) => {
      const body = multipart(bytes);
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/v1/plant/thumbnail',
        headers: { authorization: `Bearer ${owner.token}`, ...body.headers },
        payload: body.payload,
      });
      return res.json() as { code: number; data: unknown };
    };
    const pending = async () =>
      (await s.db.selectFrom('pending_uploads').select('url').where('user_id', '=', owner.id).execute()).length;
    const before = await pending();
    expect(await send(pngOf(14_000, 14_000))).toMatchObject({ code: ErrorCode.imageTooLarge, data: null });
    expect(await send(pngOf(8193, 1000))).toMatchObject({ code: ErrorCode.imageTooLarge, data: null });
    // A refused picture reserves nothing against the account's pending pictures.
    expect(await pending()).toBe(before);
    expect(await send(pngOf(6000, 4000))).toMatchObject({ code: ErrorCode.ok });
  });

  it('refuses a file that is not a JPG or PNG whatever its name, and a file over 10 MB', async () => {
    const fake = multipart(Buffer.from('GIF89a not allowed here'), 'x.png');
    const res = await s.app.inject({
      method: 'POST',
      url: '/api/v1/plant/thumbnail',
      headers: { authorization: `Bearer ${owner.token}`, ...fake.headers },
      payload: fake.payload,
    });
    expect(res.json()).toMatchObject({ code: ErrorCode.validation, data: null });
    const big = multipart(Buffer.concat([PNG, Buffer.alloc(10 * 1024 * 1024)]));
    const tooBig = await s.app.inject({
      method: 'POST',
      url: '/api/v1/plant/thumbnail',
      headers: { authorization: `Bearer ${owner.token}`, ...big.headers },
      payload: big.payload,
    });
    expect(tooBig.json()).toMatchObject({ code: ErrorCode.validation, data: null });
  });

  it('both the create and the edit form may upload: either permission is enough, station.view alone is not', async () => {
    const holding = async (permissions: string[]) =>
      account(s, { kind: 'company_admin', companyId: await company(s, undefined, permissions) });
    const upload = async (who: Account) => {
      const body = multipart(PNG);
      const res = await s.app.inject({
        method: 'POST',
        url: '/api/v1/plant/thumbnail',
        headers: { authorization: `Bearer ${who.token}`, ...body.headers },
        payload: body.payload,
      });
      return res.json() as { code: number; data: unknown };
    };
    expect((await upload(await holding(['station.view', 'station.create']))).code).toBe(ErrorCode.ok);
    expect((await upload(await holding(['station.view', 'station.edit']))).code).toBe(ErrorCode.ok);
    expect(await upload(await holding(['station.view']))).toMatchObject({ code: ErrorCode.noPermission, data: null });
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
    expect(res.json().code).toBe(ErrorCode.noPermission);
  });
});

describe('pending pictures', () => {
  const uploadAs = async (who: Account, on = s, file = PNG) => {
    const body = multipart(file);
    const res = await on.app.inject({
      method: 'POST',
      url: '/api/v1/plant/thumbnail',
      headers: { authorization: `Bearer ${who.token}`, ...body.headers },
      payload: body.payload,
    });
    return { status: res.statusCode, headers: res.headers, body: res.json() as { code: number; data: { url: string } | null } };
  };
  const file = (url: string) => path.join(uploadsDir(s.config.dataDir), 'plants', url.split('/').pop()!);
  const pending = (userId: number) =>
    s.db.selectFrom('pending_uploads').select('url').where('user_id', '=', userId).orderBy('id').execute();
  const hourAndABit = 60 * 60_000 + 1000;

  it('a picture a plant takes stops being pending and outlives the clean-up', async () => {
    const me = await account(s);
    const { url } = (await uploadAs(me)).body.data!;
    expect(await pending(me.id)).toEqual([{ url }]);
    const id = await createPlant(s, me, { picture: url });
    expect(await pending(me.id)).toEqual([]);
    await housekeep({ db: s.db, dataDir: s.config.dataDir, now: () => Date.now() + hourAndABit });
    expect(fs.existsSync(file(url))).toBe(true);
    expect((await get(me, `/api/v1/plant/${id}`)).body.data).toMatchObject({ picture: url });
  });

  it('a picture nothing took within an hour is deleted, and no plant can take it afterwards', async () => {
    const me = await account(s);
    const old = (await uploadAs(me)).body.data!.url;
    const young = (await uploadAs(me)).body.data!.url;
    await s.db
      .updateTable('pending_uploads')
      .set({ created_at: Date.now() - hourAndABit })
      .where('url', '=', old)
      .execute();
    const done = await housekeep({ db: s.db, dataDir: s.config.dataDir });
    expect(done.pictures).toBe(1);
    expect(fs.existsSync(file(old))).toBe(false);
    expect(fs.existsSync(file(young))).toBe(true);
    expect(await pending(me.id)).toEqual([{ url: young }]);
    const id = await createPlant(s, me);
    const late = await post(me, `/api/v1/plant/${id}/info`, { picture: old });
    expect(late.body).toMatchObject(badInput('picture'));
    expect(late.body.msg).toContain('upload it again');
    expect((await post(me, `/api/v1/plant/${id}/info`, { picture: young })).body.code).toBe(ErrorCode.ok);
  });

  it('clean-ups running at once in several processes delete each picture once, without error', async () => {
    const me = await account(s);
    const urls = [];
    for (let i = 0; i < 6; i++) urls.push((await uploadAs(me)).body.data!.url);
    const later = () => Date.now() + hourAndABit;
    const runs = await Promise.all([1, 2, 3].map(() => housekeep({ db: s.db, dataDir: s.config.dataDir, now: later })));
    expect(runs.reduce((n, r) => n + r.pictures, 0)).toBe(6);
    for (const url of urls) expect(fs.existsSync(file(url))).toBe(false);
    expect(await pending(me.id)).toEqual([]);
  });

  it("one may not use another account's pending picture (4), nor a name never uploaded", async () => {
    const me = await account(s);
    const other = await account(s);
    const theirs = (await uploadAs(other)).body.data!.url;
    const res = await post(me, '/api/v1/plant', { name: 'Borrowed pic', capacity: 1, type: 0, timezone: 'UTC', picture: theirs });
    expect(res.body).toMatchObject(badInput('picture'));
    expect(res.body.msg).toContain('not an uploaded picture of yours');
    expect(await pending(other.id)).toEqual([{ url: theirs }]);
    const made = await post(me, '/api/v1/plant', {
      name: 'Invented pic',
      capacity: 1,
      type: 0,
      timezone: 'UTC',
      thumbnail: `/uploads/plants/${'a'.repeat(32)}.png`,
    });
    expect(made.body).toMatchObject(badInput('picture'));
    expect(made.body.msg).toContain('not an uploaded picture of yours');
    expect(await s.db.selectFrom('plants').select('id').where('name', 'in', ['Borrowed pic', 'Invented pic']).execute()).toEqual(
      [],
    );
  });

  it('an account has at most 20 pictures pending: the 21st is refused (429) and not stored', async () => {
    const me = await account(s);
    for (let i = 0; i < 20; i++) expect((await uploadAs(me)).body.code, `upload ${i + 1}`).toBe(ErrorCode.ok);
    const dir = path.join(uploadsDir(s.config.dataDir), 'plants');
    const files = fs.readdirSync(dir).length;
    const over = await uploadAs(me);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: ErrorCode.tooManyRequests, data: null });
    expect(Number(over.headers['retry-after'])).toBeGreaterThan(3500);
    expect(fs.readdirSync(dir).length).toBe(files);
    expect(await pending(me.id)).toHaveLength(20);
    // Using one frees a place.
    await createPlant(s, me, { picture: (await pending(me.id))[0]!.url });
    expect((await uploadAs(me)).body.code).toBe(ErrorCode.ok);
    // Another account has its own quota.
    expect((await uploadAs(await account(s))).body.code).toBe(ErrorCode.ok);
  });

  it('at most 10 uploads a minute per account, pictures and avatars together', async () => {
    const limited = await startServer({ rateLimits: true });
    try {
      const me = await account(limited);
      const avatar = async () => {
        const body = multipart(PNG);
        return limited.app.inject({
          method: 'POST',
          url: `/api/v1/user/${me.id}/avatar`,
          headers: { authorization: `Bearer ${me.token}`, ...body.headers },
          payload: body.payload,
        });
      };
      for (let i = 0; i < 5; i++) expect((await uploadAs(me, limited)).status).toBe(200);
      for (let i = 0; i < 5; i++) expect((await avatar()).json().code).toBe(ErrorCode.ok);
      const over = await uploadAs(me, limited);
      expect(over.status).toBe(429);
      expect(over.body).toMatchObject({ code: ErrorCode.tooManyRequests });
      expect((await avatar()).statusCode).toBe(429);
      expect((await uploadAs(await account(limited), limited)).status).toBe(200);
    } finally {
      await limited.close();
    }
  });
});
