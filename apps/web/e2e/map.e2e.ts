/**
 * The plant map in the real portal, with the demo fleet (plants in Europe and the Americas):
 * offline it draws the bundled country outlines and asks nothing of another host; plants close
 * together are a cluster at world zoom that falls apart when clicked; a plant opens on a click
 * or on Enter; the list's filters apply to the map. With MAP_TILE_URL the tiles of that server
 * load (the page's CSP lets them in) under its attribution.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 15_000 };
/** The demo owner's own three plants (Andalusia) besides the fleet's. */
const OWN_PLANTS = 3;

interface FleetPlant {
  name: string;
  lat: number;
  lon: number;
}

async function openMap(portal: Portal) {
  const { page, context } = await portal.page();
  await portal.login(page, demo.owner, DEMO_PASSWORD);
  await page.goto('/plants?view=map');
  await page.locator('.sf-plant-marker, .sf-plant-cluster').first().waitFor(WAIT);
  return { page, context };
}

/** Plants the map shows: single markers plus the counts of the clusters. */
async function plantsShown(page: Page): Promise<number> {
  const singles = await page.locator('.sf-plant-marker').count();
  const counts = await page.locator('.sf-plant-cluster').allInnerTexts();
  return singles + counts.reduce((n, c) => n + Number(c), 0);
}

describe('the plant map without a tile server', () => {
  let portal: Portal;
  let fleet: FleetPlant[];
  beforeAll(async () => {
    portal = await startPortal({
      SIMULATOR: 'on',
      SIMULATOR_GATEWAYS: '12',
      SIMULATOR_BACKFILL_DAYS: '0',
      SIMULATOR_INTERVAL: '5',
    });
    const file = path.join(portal.dataDir, 'demo-fleet.json');
    // The server provisions the fleet after it starts listening.
    for (const until = Date.now() + 30_000; !fs.existsSync(file) && Date.now() < until; )
      await new Promise((r) => setTimeout(r, 250));
    fleet = (JSON.parse(fs.readFileSync(file, 'utf8')) as Array<{ plant: FleetPlant }>).map((g) => g.plant);
  });
  afterAll(() => portal?.close());

  it('draws the country outlines and a marker or cluster for every plant, fetching nothing from another host', async () => {
    const { page, context } = await portal.page();
    const elsewhere: string[] = [];
    page.on('request', (r) => {
      if (!r.url().startsWith(portal.url) && !r.url().startsWith('data:')) elsewhere.push(r.url());
    });
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await page.goto('/plants?view=map');
    expect(await page.getByTestId('plant-map').getAttribute('data-base')).toBe('outlines');
    // Natural Earth's 1:110m countries: 177 shapes.
    await expect.poll(() => page.locator('.leaflet-overlay-pane path').count(), WAIT).toBeGreaterThan(170);
    await expect.poll(() => plantsShown(page), WAIT).toBe(fleet.length + OWN_PLANTS);
    expect(await page.locator('.leaflet-tile').count()).toBe(0);
    expect(elsewhere).toEqual([]);
    await context.close();
  });

  it('a cluster at world zoom falls apart when clicked', async () => {
    const { page, context } = await openMap(portal);
    // The Iberian plants (the demo owner's three and the fleet's) are one cluster at world zoom.
    const largest = async () => Math.max(0, ...(await page.locator('.sf-plant-cluster').allInnerTexts()).map(Number));
    await expect.poll(largest, WAIT).toBeGreaterThanOrEqual(4);
    const before = await largest();
    await page.locator('.sf-plant-cluster', { hasText: new RegExp(`^${before}$`) }).click();
    await expect.poll(largest, WAIT).toBeLessThan(before);
    await context.close();
  });

  it('a click on a plant opens it; so does Enter on a focused plant', async () => {
    const { page, context } = await openMap(portal);
    const marker = page.locator('.sf-plant-marker').first();
    const id = await marker.locator('[data-plant]').getAttribute('data-plant');
    await marker.click();
    await page.waitForURL(new RegExp(`/plants/overview/${id}/\\d$`), WAIT);

    await page.goto('/plants?view=map');
    const next = page.locator('.sf-plant-marker').first();
    await next.waitFor(WAIT);
    const other = await next.locator('[data-plant]').getAttribute('data-plant');
    expect(await next.getAttribute('aria-label')).toMatch(/\(.+\): open the plant$/);
    await next.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(new RegExp(`/plants/overview/${other}/\\d$`), WAIT);
    await context.close();
  });

  it('the list’s filters apply: the name search and the status cards hide markers', async () => {
    const { page, context } = await openMap(portal);
    const far = fleet.find((p) => p.lat < 25 && p.lon < -50)!;
    await page.getByTestId('plant-search').fill(far.name.slice(0, 32));
    await expect.poll(() => plantsShown(page), WAIT).toBe(1);
    expect(await page.locator('.sf-plant-marker').count()).toBe(1);

    await page.getByTestId('plant-search').fill('');
    await expect.poll(() => plantsShown(page), WAIT).toBe(fleet.length + OWN_PLANTS);
    // The demo owner's own plants have no gateway and stay offline; the fleet's leave offline once
    // their gateways report (the counts refresh on a reload). Waiting for every fleet plant to
    // report leaves a count that no longer changes (the simulated gateways stay connected): read
    // while gateways were still connecting, the card and the filtered map (two requests) could
    // each see another number.
    const card = async (status: string) =>
      Number((await page.getByTestId(`status-card-${status}`).innerText()).match(/\d+/)?.[0] ?? Number.NaN);
    await expect
      .poll(
        async () => {
          await page.reload();
          await page.locator('.sf-plant-marker, .sf-plant-cluster').first().waitFor(WAIT);
          return card('offline');
        },
        { timeout: 45_000, interval: 2_000 },
      )
      .toBe(OWN_PLANTS);
    expect(await card('normal')).toBeGreaterThan(0);
    await page.getByTestId('status-card-offline').click();
    await expect.poll(() => plantsShown(page), WAIT).toBe(OWN_PLANTS);
    await context.close();
  });
});

describe('the plant map with MAP_TILE_URL', () => {
  let portal: Portal;
  let tiles: http.Server;
  const asked: string[] = [];
  // A 1×1 PNG for every tile.
  const PNG = Buffer.from(
    'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
    'base64',
  );
  beforeAll(async () => {
    tiles = http.createServer((req, res) => {
      asked.push(req.url ?? '');
      res.writeHead(200, { 'content-type': 'image/png' }).end(PNG);
    });
    await new Promise<void>((resolve) => tiles.listen(0, '127.0.0.1', resolve));
    const { port } = tiles.address() as AddressInfo;
    portal = await startPortal({
      MAP_TILE_URL: `http://127.0.0.1:${port}/tiles/{z}/{x}/{y}.png`,
      MAP_TILE_ATTRIBUTION: 'Test tiles',
    });
  });
  afterAll(async () => {
    await portal?.close();
    await new Promise((r) => tiles?.close(r));
  });

  it('fits the view to the plants: the demo owner’s three, some 100 km apart, each a marker of its own', async () => {
    const { page, context } = await openMap(portal);
    await expect.poll(() => page.locator('.sf-plant-marker').count(), WAIT).toBe(OWN_PLANTS);
    expect(await page.locator('.sf-plant-cluster').count()).toBe(0);
    await context.close();
  });

  it('shows the tile server’s tiles (allowed by the CSP) with its attribution, and no outlines', async () => {
    const { page, context } = await openMap(portal);
    expect(await page.getByTestId('plant-map').getAttribute('data-base')).toBe('tiles');
    await expect.poll(() => page.locator('img.leaflet-tile-loaded').count(), WAIT).toBeGreaterThan(0);
    expect(asked.some((u) => /^\/tiles\/\d+\/\d+\/\d+\.png$/.test(u))).toBe(true);
    expect(await page.locator('.leaflet-control-attribution').innerText()).toContain('Test tiles');
    expect(await page.locator('.leaflet-overlay-pane path').count()).toBe(0);
    await context.close();
  });
});
