/**
 * The plant map's base layer: no tile server by default (the web draws its bundled country
 * outlines, and images come only from the portal); a configured one is handed to the web and
 * its origin, and only it, is added to the images' CSP source.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../../test/harness.ts';
import { type Account, account } from '../../../test/kits/plants.ts';
import { mapTilesSetting } from '../../config.ts';

const imgSrc = (csp: string) =>
  csp
    .split(';')
    .find((d) => d.trim().startsWith('img-src'))
    ?.trim();

describe('without a tile server (the default)', () => {
  let s: TestServer;
  let user: Account;
  beforeAll(async () => {
    s = await startServer();
    user = await account(s);
  });
  afterAll(() => s?.close());

  it('answers no tiles, and images come from the portal only', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: '/api/v1/plants/map/layer',
      headers: { authorization: `Bearer ${user.token}` },
    });
    expect(res.json()).toMatchObject({ code: ErrorCode.ok, data: { tiles: null } });
    expect(imgSrc(String(res.headers['content-security-policy']))).toBe("img-src 'self' data: blob:");
  });

  it('asks for a signed-in account', async () => {
    expect((await s.call(null, 'GET', '/api/v1/plants/map/layer')).status).toBe(401);
  });
});

describe('with MAP_TILE_URL', () => {
  let s: TestServer;
  let user: Account;
  beforeAll(async () => {
    s = await startServer({
      mapTiles: mapTilesSetting({
        MAP_TILE_URL: 'https://{s}.tiles.example.org/osm/{z}/{x}/{y}{r}.png',
        MAP_TILE_ATTRIBUTION: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>',
        MAP_TILE_MAX_ZOOM: '17',
      }),
    });
    user = await account(s);
  });
  afterAll(() => s?.close());

  it('hands the template, attribution and maximum zoom to the web', async () => {
    const res = await s.call(user.token, 'GET', '/api/v1/plants/map/layer');
    expect(res.body.data).toEqual({
      tiles: {
        url: 'https://{s}.tiles.example.org/osm/{z}/{x}/{y}{r}.png',
        attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a>',
        maxZoom: 17,
      },
    });
  });

  it("lets images come from the tile server's subdomains, on every response", async () => {
    for (const url of ['/healthz', '/api/v1/plants/map/layer', '/login']) {
      const res = await s.app.inject({ method: 'GET', url });
      expect(imgSrc(String(res.headers['content-security-policy'])), url).toBe(
        "img-src 'self' data: blob: https://*.tiles.example.org",
      );
    }
  });
});
