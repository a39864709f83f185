/**
 * The signed firmware download: the whole image, a range (206 with Content-Range) and a download
 * resumed from where it stopped giving the same bytes; 416 for a range past the end; 403 for an
 * expired link, a forged signature, or a signature of another image; links signed by one process
 * work in another sharing the data folder.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type StoredFirmware, storeFirmware } from '../../../test/kits/upgrades.ts';
import { parseRange } from './download.ts';
import { linkKey, linkSigner } from './links.ts';

let s: TestServer;
let fw: StoredFirmware;
let other: StoredFirmware;

beforeAll(async () => {
  s = await startServer();
  fw = await storeFirmware(s, { type: 'gateway', version: '3.0.0', size: 100_000 });
  other = await storeFirmware(s, { type: 'gateway', version: '3.0.1', size: 10 });
});
afterAll(() => s.close());

const signer = () => linkSigner(s.config.upgrades.baseUrl, linkKey(s.config.dataDir, s.config.upgrades.linkSecret));
const path = (url: string) => {
  const u = new URL(url);
  return u.pathname + u.search;
};
const get = (url: string, headers: Record<string, string> = {}) => s.app.inject({ method: 'GET', url: path(url), headers });

describe('the signed firmware download', () => {
  it('serves the whole image, and a range as 206 so that an interrupted download resumes', async () => {
    const url = signer().url(fw.id, Date.now() + 60_000);
    expect(url.startsWith(`${s.config.upgrades.baseUrl}/anonymous/firmware/${fw.id}?exp=`)).toBe(true);
    const whole = await get(url);
    expect(whole.statusCode).toBe(200);
    expect(whole.headers['accept-ranges']).toBe('bytes');
    expect(Number(whole.headers['content-length'])).toBe(fw.bytes.length);
    expect(whole.rawPayload.equals(fw.bytes)).toBe(true);
    // The first 30,000 bytes arrived, then the link dropped: the rest from there.
    const first = await get(url, { range: 'bytes=0-29999' });
    expect(first.statusCode).toBe(206);
    expect(first.headers['content-range']).toBe(`bytes 0-29999/${fw.bytes.length}`);
    const rest = await get(url, { range: 'bytes=30000-' });
    expect(rest.statusCode).toBe(206);
    expect(rest.headers['content-range']).toBe(`bytes 30000-99999/${fw.bytes.length}`);
    expect(Number(rest.headers['content-length'])).toBe(70_000);
    expect(Buffer.concat([first.rawPayload, rest.rawPayload]).equals(fw.bytes)).toBe(true);
    const tail = await get(url, { range: 'bytes=-10' });
    expect(tail.rawPayload.equals(fw.bytes.subarray(-10))).toBe(true);
    const past = await get(url, { range: 'bytes=100000-' });
    expect(past.statusCode).toBe(416);
    expect(past.headers['content-range']).toMatch(/^bytes \*\/\d+$/);
    expect(JSON.parse(past.body)).toMatchObject({ code: ErrorCode.validation, data: null });
    // A range for another image than the one the download began with: the whole new one.
    expect((await get(url, { range: 'bytes=10-', 'if-range': '"0000"' })).statusCode).toBe(200);
  });

  it('403 for an expired link, a forged signature, another image’s signature; 404 for an image that is gone', async () => {
    const expired = signer().url(fw.id, Date.now() - 1000);
    expect((await get(expired)).statusCode).toBe(403);
    const good = new URL(signer().url(fw.id, Date.now() + 60_000));
    const forged = new URL(good);
    forged.searchParams.set(
      'sig',
      `${good.searchParams.get('sig')!.slice(0, -1)}${good.searchParams.get('sig')!.endsWith('A') ? 'B' : 'A'}`,
    );
    const refused = await get(forged.toString());
    expect(refused.statusCode).toBe(403);
    expect(refused.headers['content-type']).toMatch(/^application\/json/);
    expect(JSON.parse(refused.body)).toMatchObject({ code: ErrorCode.noPermission, data: null });
    // A later expiry with the old signature.
    const stretched = new URL(good);
    stretched.searchParams.set('exp', String(Number(good.searchParams.get('exp')) + 3600));
    expect((await get(stretched.toString())).statusCode).toBe(403);
    // The signature of one image does not open another.
    const swapped = new URL(good.toString().replace(`/firmware/${fw.id}?`, `/firmware/${other.id}?`));
    expect((await get(swapped.toString())).statusCode).toBe(403);
    // Signed by another key (another server's data folder).
    const stranger = linkSigner(s.config.upgrades.baseUrl, Buffer.alloc(32, 7)).url(fw.id, Date.now() + 60_000);
    expect((await get(stranger)).statusCode).toBe(403);
    const gone = await get(signer().url(999_999, Date.now() + 60_000));
    expect(gone.statusCode).toBe(404);
    expect(JSON.parse(gone.body)).toMatchObject({ code: ErrorCode.notFound, data: null });
    // The same key every time for the data folder: a second process signs links the first accepts.
    expect(linkKey(s.config.dataDir, null).equals(linkKey(s.config.dataDir, null))).toBe(true);
  });

  it('reads ranges as HTTP does', () => {
    expect(parseRange(undefined, 100)).toBeNull();
    expect(parseRange('bytes=0-9', 100)).toEqual({ start: 0, end: 9 });
    expect(parseRange('bytes=90-200', 100)).toEqual({ start: 90, end: 99 });
    expect(parseRange('bytes=-5', 100)).toEqual({ start: 95, end: 99 });
    expect(parseRange('bytes=100-', 100)).toBe('bad');
    expect(parseRange('bytes=5-2', 100)).toBe('bad');
    expect(parseRange('bytes=0-1,5-6', 100)).toBeNull();
  });
});
