/** POST /api/v1/user/{id}/avatar and serving the stored image. */
import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { JPEG_MIN, multipart, PNG_1PX, signedIn, userRow } from '../../../test/account.ts';
import { invalidInput } from '../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { pngOf } from '../../../test/images.ts';

let s: TestServer;
beforeAll(async () => {
  s = await startServer();
});
afterAll(() => s.close());

const avatarsDir = () => path.join(s.config.dataDir, 'uploads', 'avatars');
const storedFiles = () => (fs.existsSync(avatarsDir()) ? fs.readdirSync(avatarsDir()).sort() : []);

const signIn = (opts: Parameters<TestServer['user']>[0] = {}) => signedIn(s, opts);

async function upload(access: string, id: number, filename: string, type: string, bytes: Buffer) {
  const body = multipart('file', filename, type, bytes);
  const res = await s.app.inject({
    method: 'POST',
    url: `/api/v1/user/${id}/avatar`,
    headers: { authorization: `Bearer ${access}`, 'content-type': body.contentType },
    payload: body.payload,
  });
  return { status: res.statusCode, body: res.json() as { code: number; msg: string; data: { avatar: string } | null } };
}

describe('POST /api/v1/user/:id/avatar', () => {
  it('stores a PNG under a random name and serves it as an image with nosniff', async () => {
    const me = await signIn();
    const res = await upload(me.access, me.id, 'me.png', 'image/png', PNG_1PX);
    expect(res.body.code).toBe(ErrorCode.ok);
    const url = res.body.data!.avatar;
    expect(url).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.png$/);
    expect((await userRow(s, me.id)).avatar).toBe(url);
    expect(((await s.call(me.access, 'GET', '/api/v1/user')).body.data as { avatar: string }).avatar).toBe(url);
    const served = await s.app.inject({ method: 'GET', url });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/png');
    expect(served.headers['x-content-type-options']).toBe('nosniff');
    expect(served.rawPayload.equals(PNG_1PX)).toBe(true);
  });

  it('takes a JPEG by its content whatever its name, and two uploads get different names', async () => {
    const me = await signIn();
    const first = await upload(me.access, me.id, 'photo.jpeg', 'image/jpeg', JPEG_MIN);
    expect(first.body.data!.avatar).toMatch(/^\/uploads\/avatars\/[a-f0-9]{32}\.jpg$/);
    const served = await s.app.inject({ method: 'GET', url: first.body.data!.avatar });
    expect(served.headers['content-type']).toBe('image/jpeg');
    const second = await upload(me.access, me.id, 'photo.jpeg', 'image/jpeg', JPEG_MIN);
    expect(second.body.data!.avatar).not.toBe(first.body.data!.avatar);
    // The replaced picture is gone.
    expect((await s.app.inject({ method: 'GET', url: first.body.data!.avatar })).statusCode).toBe(404);
    expect((await s.app.inject({ method: 'GET', url: second.body.data!.avatar })).statusCode).toBe(200);
  });

  it.each([
    ['HTML named .png', 'evil.png', 'image/png', Buffer.from('<html><script>alert(1)</script></html>')],
    ['SVG named .png', 'logo.png', 'image/png', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
    ['SVG as image/svg+xml', 'logo.svg', 'image/svg+xml', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"/>')],
    ['GIF', 'a.gif', 'image/gif', Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1')],
    ['empty file', 'empty.png', 'image/png', Buffer.alloc(0)],
  ])('refuses %s with code 4 and stores nothing', async (_what, filename, type, bytes) => {
    const me = await signIn();
    const before = storedFiles();
    const res = await upload(me.access, me.id, filename, type, bytes);
    expect(res.body).toEqual(invalidInput('file must be a JPG or PNG image'));
    expect(storedFiles()).toEqual(before);
    expect((await userRow(s, me.id)).avatar).toBeNull();
  });

  it('refuses an image of too many pixels (11), over 25 MP or over 4096 on a side, and stores nothing', async () => {
    const me = await signIn();
    const before = storedFiles();
    for (const [width, height] of [
      [14_000, 14_000],
      [4097, 100],
    ] as const) {
      const res = await upload(me.access, me.id, 'huge.png', 'image/png', pngOf(width, height));
      expect(res.body, `${width} × ${height}`).toMatchObject({ code: ErrorCode.imageTooLarge, data: null });
    }
    expect(storedFiles()).toEqual(before);
    expect((await userRow(s, me.id)).avatar).toBeNull();
    expect((await upload(me.access, me.id, 'ok.png', 'image/png', pngOf(4096, 4096))).body.code).toBe(ErrorCode.ok);
  });

  it('refuses a file over 6 MB with HTTP 413 and code 4, and stores nothing', async () => {
    const me = await signIn();
    const before = storedFiles();
    const big = Buffer.concat([PNG_1PX, Buffer.alloc(6 * 1024 * 1024)]);
    const res = await upload(me.access, me.id, 'big.png', 'image/png', big);
    expect(res.status).toBe(413);
    expect(res.body).toEqual(invalidInput('the upload is too large'));
    expect(storedFiles()).toEqual(before);
    expect((await userRow(s, me.id)).avatar).toBeNull();
  });

  it('accepts a file of exactly 6 MB', async () => {
    const me = await signIn();
    const exact = Buffer.concat([PNG_1PX, Buffer.alloc(6 * 1024 * 1024 - PNG_1PX.length)]);
    expect((await upload(me.access, me.id, 'exact.png', 'image/png', exact)).body.code).toBe(ErrorCode.ok);
  });

  it("refuses another user's id with code 2 and stores nothing", async () => {
    const victim = await s.user();
    const me = await signIn();
    const before = storedFiles();
    const res = await upload(me.access, victim.id, 'x.png', 'image/png', PNG_1PX);
    expect(res.body).toEqual({ code: ErrorCode.noPermission, msg: 'You do not have permission for this', data: null });
    expect(storedFiles()).toEqual(before);
    expect((await userRow(s, victim.id)).avatar).toBeNull();
  });

  it('refuses a read-only account (2) and a request without a file (4)', async () => {
    const ro = await signIn({ readOnly: true });
    expect((await upload(ro.access, ro.id, 'x.png', 'image/png', PNG_1PX)).body.code).toBe(ErrorCode.noPermission);
    const me = await signIn();
    const notMultipart = await s.call(me.access, 'POST', `/api/v1/user/${me.id}/avatar`, { file: 'x' });
    expect(notMultipart.body.code).toBe(ErrorCode.validation);
    expect((await userRow(s, me.id)).avatar).toBeNull();
  });
});

describe('GET /uploads/:folder/:file', () => {
  it('answers 404 for a missing file and refuses names that are not random image names', async () => {
    const missing = await s.app.inject({ method: 'GET', url: `/uploads/avatars/${'a'.repeat(32)}.png` });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toEqual({ code: ErrorCode.notFound, msg: 'Not found', data: null });
    for (const url of ['/uploads/avatars/..%2F..%2Fsunfleet.db', '/uploads/avatars/x.html', '/uploads/secret/abc.png']) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(res.json().code, url).not.toBe(ErrorCode.ok);
      expect(res.headers['content-type'], url).toMatch(/^application\/json/);
    }
  });
});
