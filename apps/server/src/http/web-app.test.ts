/**
 * The built web app as the server sends it: precompressed copies chosen by Accept-Encoding
 * (brotli before gzip, the file itself otherwise), Vary, the cache rules (hashed assets a year
 * and immutable, HTML revalidated), robots.txt as a file, client-side routes as index.html.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';

const html = `<!doctype html><html lang="en"><head><meta name="description" content="x"><title>Sunfleet</title>${' '.repeat(400)}</head><body><div id="root"></div><script type="module" src="/assets/app-Ab12Cd.js"></script></body></html>`;
const js = `console.log(${JSON.stringify('sunfleet '.repeat(200))});\n`;
const robots = 'User-agent: *\nDisallow: /api/\nAllow: /\n';

let s: TestServer;
let dist: string;
beforeAll(async () => {
  dist = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-dist-'));
  fs.mkdirSync(path.join(dist, 'assets'));
  fs.mkdirSync(path.join(dist, 'brands'));
  const put = (name: string, text: string, compressed = true) => {
    fs.writeFileSync(path.join(dist, name), text);
    if (!compressed) return;
    // Marked so the test can tell which copy was sent.
    fs.writeFileSync(path.join(dist, `${name}.br`), zlib.brotliCompressSync(text));
    fs.writeFileSync(path.join(dist, `${name}.gz`), zlib.gzipSync(text));
  };
  put('index.html', html);
  put('assets/app-Ab12Cd.js', js);
  put('brands/default.svg', `<svg xmlns="http://www.w3.org/2000/svg">${'<g/>'.repeat(100)}</svg>`);
  put('robots.txt', robots, false);
  s = await startServer({ webDist: dist });
});
afterAll(async () => {
  await s.close();
  fs.rmSync(dist, { recursive: true, force: true });
});

const get = (url: string, acceptEncoding?: string) =>
  s.app.inject({ method: 'GET', url, headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } });

const body = (res: { rawPayload: Buffer; headers: Record<string, unknown> }) => {
  const enc = res.headers['content-encoding'];
  if (enc === 'br') return zlib.brotliDecompressSync(res.rawPayload).toString();
  if (enc === 'gzip') return zlib.gunzipSync(res.rawPayload).toString();
  return res.rawPayload.toString();
};

describe('web app delivery', () => {
  it('sends the brotli copy when accepted, gzip when only that is, the file itself otherwise; always Vary', async () => {
    const br = await get('/assets/app-Ab12Cd.js', 'gzip, deflate, br, zstd');
    expect(br.statusCode).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
    expect(br.rawPayload.length).toBeLessThan(js.length / 5);
    expect(body(br)).toBe(js);

    const gz = await get('/assets/app-Ab12Cd.js', 'gzip, deflate');
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(body(gz)).toBe(js);

    // A refused encoding is not sent even when listed first.
    const noBr = await get('/assets/app-Ab12Cd.js', 'br;q=0, gzip');
    expect(noBr.headers['content-encoding']).toBe('gzip');

    for (const ae of [undefined, 'identity', 'compress']) {
      const plain = await get('/assets/app-Ab12Cd.js', ae);
      expect(plain.statusCode).toBe(200);
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(js);
    }
    for (const res of [br, gz, noBr]) expect(String(res.headers.vary)).toMatch(/accept-encoding/i);
    expect(String((await get('/assets/app-Ab12Cd.js')).headers.vary)).toMatch(/accept-encoding/i);
  });

  it('hashed assets are cached a year and immutable, without the headers only a document reads; other files an hour', async () => {
    for (const ae of ['br', 'gzip', 'identity']) {
      const res = await get('/assets/app-Ab12Cd.js', ae);
      expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      for (const name of ['content-security-policy', 'x-frame-options', 'cross-origin-opener-policy', 'etag', 'last-modified'])
        expect(res.headers[name], name).toBeUndefined();
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['cross-origin-resource-policy']).toBe('same-origin');
      expect(res.headers['strict-transport-security']).toBeDefined();
    }
    const logo = await get('/brands/default.svg', 'br');
    expect(logo.headers['content-encoding']).toBe('br');
    expect(logo.headers['content-type']).toMatch(/^image\/svg\+xml/);
    expect(logo.headers['cache-control']).toBe('public, max-age=3600');
  });

  it('the HTML, at / and at any client-side route, is compressed too and revalidated on each use', async () => {
    for (const url of ['/', '/index.html', '/login', '/plants/overview/7/2']) {
      const res = await get(url, 'gzip, br');
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type'], url).toMatch(/^text\/html/);
      expect(res.headers['content-encoding'], url).toBe('br');
      expect(res.headers['cache-control'], url).toBe('no-cache');
      expect(String(res.headers.vary), url).toMatch(/accept-encoding/i);
      expect(body(res), url).toBe(html);
      // The page itself keeps every security header.
      expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
      expect(res.headers['x-frame-options'], url).toBe('SAMEORIGIN');
      const plain = await get(url);
      expect(plain.headers['content-encoding'], url).toBeUndefined();
      expect(plain.headers['cache-control'], url).toBe('no-cache');
      expect(plain.body, url).toBe(html);
    }
  });

  it('robots.txt is the file, not the page; the compressed copies are no URLs of their own; the API stays JSON', async () => {
    const r = await get('/robots.txt', 'br, gzip');
    expect(r.statusCode).toBe(200);
    expect(r.headers['content-type']).toMatch(/^text\/plain/);
    expect(r.headers['content-encoding']).toBeUndefined(); // no copy was built: the file itself
    expect(r.body).toBe(robots);
    expect((await get('/assets/app-Ab12Cd.js.br')).headers['content-type']).toMatch(/^text\/html/); // a client-side route
    const api = await get('/api/v1/nothing-here', 'br');
    expect(api.statusCode).toBe(404);
    expect(api.json()).toMatchObject({ code: ErrorCode.notFound });
  });
});
