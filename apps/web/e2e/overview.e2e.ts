/**
 * The plant overview in the real portal, fed by a simulated gateway: the demo owner's new storage
 * plant gets a freshly provisioned gateway, bound through the plant's edit page; the simulator
 * (in this process, against the portal's broker) uploads every 5 s from a place where the sun is
 * up now; the overview shows its live power within one upload interval plus the page's 10 s
 * refresh, and the exported PDF (read back with pdftotext) carries the plant's name and the
 * figures the page shows. Once in English, once in Spanish.
 *
 * With SHOTS_DIR set, screenshots of the list, the map and the overview in both languages are
 * saved there (for looking at, not compared).
 */

import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/src/db/index.ts';
import { provisionGateway } from '../../server/src/telemetry/gateways.ts';
import { createFleet, deviceSn, type Fleet, type GatewaySpec } from '../../simulator/src/index.ts';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const INTERVAL_S = 5;
/** One upload, the page's 10 s refresh, and room for a loaded machine. */
const LIVE_WITHIN_MS = (INTERVAL_S + 10 + 10) * 1000;
const PLANT = 'E2E Sunny Storage';
const SHOTS = process.env.SHOTS_DIR;

/** Minutes east of UTC of a zone at an instant ("GMT+05:30" → 330). */
function offsetMinutes(timezone: string, at: Date): number {
  const name = new Intl.DateTimeFormat('en-US', { timeZone: timezone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = name?.match(/GMT([+-])(\d{2}):(\d{2})/);
  if (!m) return 0;
  return (m[1] === '-' ? -1 : 1) * (Number(m[2]) * 60 + Number(m[3]));
}

/**
 * A place where it is about half past noon (solar time) now, at 15° N (a high sun all year), and
 * the real time zone whose offset is closest to its longitude.
 */
function daylightPlace(now = new Date()) {
  const utcHours = now.getUTCHours() + now.getUTCMinutes() / 60;
  const lon = Math.max(-179, Math.min(179, (((12.5 - utcHours) * 15 + 540) % 360) - 180));
  const want = (lon / 15) * 60;
  let best = { timezone: 'UTC', distance: Number.POSITIVE_INFINITY };
  // Cities only: a plant in Antarctica/… would be correct but odd on screenshots.
  for (const timezone of Intl.supportedValuesOf('timeZone').filter((z) =>
    /^(Africa|America|Asia|Atlantic|Australia|Europe|Indian|Pacific)\//.test(z),
  )) {
    const distance = Math.abs(offsetMinutes(timezone, now) - want);
    if (distance < best.distance) best = { timezone, distance };
  }
  return { lat: 15, lon: Math.round(lon * 100) / 100, timezone: best.timezone };
}

/** Displayed power ("3.2 kW") → W; 0 for "--" or anything unreadable. */
function watts(text: string): number {
  const m = text.trim().match(/^(-?[\d,]+(?:\.\d+)?) (W|kW|MW)$/);
  if (!m) return 0;
  return Number(m[1]!.replace(/,/g, '')) * { W: 1, kW: 1e3, MW: 1e6 }[m[2] as 'W' | 'kW' | 'MW'];
}

function pdfText(file: string): string {
  return execFileSync('pdftotext', ['-layout', file, '-'], { encoding: 'utf8' });
}

let portal: Portal;
let fleet: Fleet | null = null;
let plantId = 0;
let gateway = { sn: '', secret: '', claimKey: '' };
let gatewayStartedAt = 0;
const place = daylightPlace();

beforeAll(async () => {
  portal = await startPortal({}, { mqtt: true });
});

/**
 * The storage plant and its unbound gateway, made anew for each attempt of the first test: a retry
 * does not meet the gateway the first attempt bound and started (its simulator is stopped, its
 * plant deleted, which unbinds the gateway).
 */
async function newPlantAndGateway() {
  await fleet?.stop();
  fleet = null;
  const owner = await portal.api(demo.owner);
  if (plantId) {
    const deleted = await owner(`/api/v1/plant/${plantId}/delete`, { method: 'POST' });
    if (deleted.code !== ErrorCode.ok) throw new Error(`plant not deleted: ${JSON.stringify(deleted)}`);
  }
  // A gateway "from the factory": provisioned in the portal's store, its label key for the binding.
  const store = createDb({ databaseUrl: null, sqliteFile: path.join(portal.dataDir, 'sunfleet.db') });
  try {
    gateway = await provisionGateway(store.db, { sn: `E2EOV${Date.now().toString(36).toUpperCase()}` });
  } finally {
    await store.db.destroy();
  }
  // The demo owner's storage plant with a constant price, where the sun is up.
  const created = await owner<{ id: number }>('/api/v1/plant', {
    method: 'POST',
    body: {
      name: PLANT,
      capacity: 8,
      type: 2,
      timezone: place.timezone,
      latitude: place.lat,
      longitude: place.lon,
      address: 'Sunny Street 1',
      currency: 'EUR',
      valuationMethod: 'constant',
      price: 0.2,
    },
  });
  if (created.code !== ErrorCode.ok) throw new Error(`plant not created: ${JSON.stringify(created)}`);
  plantId = created.data.id;
}

afterAll(async () => {
  await fleet?.stop();
  await portal?.close();
});

async function signIn(language: 'en' | 'es') {
  const { page, context } = await portal.page({ locale: language === 'es' ? 'es-ES' : 'en-US' });
  await context.addInitScript((lng) => localStorage.setItem('language', lng), language);
  await portal.login(page, demo.owner, DEMO_PASSWORD);
  await page.waitForURL('**/plants');
  return { page, context };
}

function startGateway() {
  const { sn, secret } = gateway;
  const spec: GatewaySpec = {
    sn,
    secret,
    plant: {
      name: PLANT,
      lat: place.lat,
      lon: place.lon,
      timezone: place.timezone,
      capacityKw: 8,
      type: 'dc',
      climate: { sunny: 1 },
      grid: { hz: 50, voltage: 230 },
      ageDays: 200,
    },
    devices: [
      {
        kind: 'hybrid',
        sn: deviceSn(sn, 'HY', 1),
        unit: 1,
        phases: 1,
        ratedW: 6000,
        pvKwp: 8,
        mppts: 2,
        battery: { packs: 2, highVoltage: false },
      },
      { kind: 'battery', sn: deviceSn(sn, 'BT', 1), unit: 2 },
      { kind: 'meter', sn: deviceSn(sn, 'MT', 1), unit: 3 },
      { kind: 'weather', sn: deviceSn(sn, 'WS', 1), unit: 4 },
    ],
    comm: 'wifi',
  };
  fleet = createFleet({
    url: portal.mqttUrl!,
    gateways: [spec],
    interval: INTERVAL_S,
    faultRate: 0,
    offlineRate: 0,
    // A day of history (5-minute readings) first, so the day curve and the bars have something.
    backfillDays: 1,
    backfillIntervalS: 300,
  });
  gatewayStartedAt = Date.now();
  return fleet.start();
}

/**
 * Wait until the realtime card shows a power above zero. On failure, say what the gateway sent
 * and what the server answers, so a slow machine can be told from a broken page.
 */
async function waitForLivePower(page: Page, timeout: number) {
  try {
    await expect
      .poll(async () => watts(await page.getByTestId('realtime-power').innerText()), { timeout, interval: 500 })
      .toBeGreaterThan(0);
  } catch (err) {
    // The answer as it came, JSON or not.
    const token = await portal.token(demo.owner);
    const realtime = await fetch(`${portal.url}/api/v1/plant/${plantId}/realtime`, {
      headers: { Authorization: `Bearer ${token}` },
    }).then((r) => r.text());
    console.error('live power not shown', { gateway: fleet?.gatewayStats()[0], realtime, now: new Date().toISOString() });
    throw err;
  }
}

/** Export the PDF and read its text; also the page's power and today's energy around the click. */
async function exportPdf(page: Page, shot: string) {
  const before = {
    power: await page.getByTestId('realtime-power').innerText(),
    today: await page.getByTestId('realtime-today').innerText(),
  };
  const download = page.waitForEvent('download');
  await page.getByTestId('overview-pdf').click();
  const file = await download;
  const after = {
    power: await page.getByTestId('realtime-power').innerText(),
    today: await page.getByTestId('realtime-today').innerText(),
  };
  const saved = path.join(portal.dataDir, file.suggestedFilename());
  await file.saveAs(saved);
  if (SHOTS) execFileSync('pdftoppm', ['-png', '-r', '60', '-f', '1', '-l', '1', saved, path.join(SHOTS, shot)]);
  return { name: file.suggestedFilename(), text: pdfText(saved), bytes: fs.statSync(saved).size, before, after };
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(1200); // the charts' entry animation
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe('plant overview', () => {
  it('binds a simulated gateway, shows its live power within one interval, exports the PDF (English)', async () => {
    await newPlantAndGateway();
    const { page, context } = await signIn('en');
    // Bind the gateway on the plant's edit page, with the key from its label.
    await page.goto(`/plants/edit/${plantId}`);
    await page.getByTestId('gateway-bind').click();
    await page.getByTestId('gateway-sn').fill(gateway.sn);
    await page.getByTestId('gateway-key').fill(gateway.claimKey);
    await page.getByTestId('gateway-check').click();
    await page.getByTestId('gateway-ok').waitFor();
    await page.getByTestId('gateway-bind-submit').click();
    await page.getByTestId(`gateway-${gateway.sn}`).waitFor();

    await page.goto(`/plants/overview/${plantId}/1`);
    expect(await page.getByTestId('overview-name').innerText()).toBe(PLANT);
    expect(await page.getByTestId('realtime-power').innerText()).toBe('--');
    await startGateway();
    await waitForLivePower(page, LIVE_WITHIN_MS - (Date.now() - gatewayStartedAt));
    // Without a reload: the flow shows PV producing and the battery of this storage plant.
    await expect.poll(() => page.getByTestId('flow-line-pv').getAttribute('data-direction'), { timeout: 12_000 }).toBe('in');
    expect(await page.getByTestId('flow-node-battery').count()).toBe(1);
    expect(await page.getByTestId('realtime-today').innerText()).toMatch(/\d (k|M)?Wh$/);

    // The day curve refreshes every minute; a reload shows the history the gateway sent first.
    await page.reload();
    await page.getByTestId('chart-day').waitFor({ timeout: 15_000 });
    const pdf = await exportPdf(page, 'overview-pdf-en');
    expect(pdf.name).toMatch(new RegExp(`^${PLANT}-\\d{4}-\\d{2}-\\d{2}\\.pdf$`));
    expect(pdf.text).toContain(PLANT);
    expect(pdf.text).toContain('Current power');
    // Two pages with both charts: the images are stored compressed (once 12.9 MB of raw pixels).
    expect(pdf.bytes).toBeLessThanOrEqual(1024 * 1024);
    expect([pdf.before.power, pdf.after.power].some((p) => pdf.text.includes(p))).toBe(true);
    expect([pdf.before.today, pdf.after.today].some((e) => pdf.text.includes(e))).toBe(true);
    expect(pdf.text).toContain(place.timezone);
    await shoot(page, 'overview-en');
    await context.close();
  });

  it('the same in Spanish: live power, Spanish labels, the PDF in Spanish', async () => {
    const { page, context } = await signIn('es');
    await page.goto(`/plants/overview/${plantId}/1`);
    await waitForLivePower(page, LIVE_WITHIN_MS);
    expect(await page.getByTestId('realtime-card').innerText()).toContain('Potencia actual');
    await page.getByTestId('chart-day').waitFor({ timeout: 15_000 });

    const pdf = await exportPdf(page, 'overview-pdf-es');
    expect(pdf.text).toContain(PLANT);
    expect(pdf.text).toContain('Potencia actual');
    expect(pdf.text).toContain('Energía hoy');
    expect([pdf.before.power, pdf.after.power].some((p) => pdf.text.includes(p))).toBe(true);

    // The generation data of the shown day, as a workbook (a zip: "PK").
    const download = page.waitForEvent('download');
    await page.getByTestId('overview-download').click();
    const sheet = await download;
    expect(sheet.suggestedFilename()).toMatch(new RegExp(`^${PLANT}-generation-\\d{4}-\\d{2}-\\d{2}\\.xlsx$`));
    const saved = path.join(portal.dataDir, sheet.suggestedFilename());
    await sheet.saveAs(saved);
    expect(fs.readFileSync(saved).subarray(0, 2).toString()).toBe('PK');
    await shoot(page, 'overview-es');
    await context.close();
  });

  it('the list bulk bar exports the energy report of two selected plants', async () => {
    const { page, context } = await signIn('en');
    await page.getByTestId('plant-table').waitFor();
    const other = 'Casa Marta Rooftop';
    for (const name of [PLANT, other])
      await page.locator('.ant-table-row', { hasText: name }).locator('input[type="checkbox"]').check();
    await expect.poll(() => page.getByTestId('bulk-count').innerText(), { timeout: 10_000 }).toBe('2 plants selected');
    const download = page.waitForEvent('download');
    await page.getByTestId('bulk-export-button').click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^energy-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const saved = path.join(portal.dataDir, file.suggestedFilename());
    await file.saveAs(saved);

    // One summary row per plant; the simulated plant generated energy, the demo plant has no data.
    const book = new ExcelJS.Workbook();
    await book.xlsx.readFile(saved);
    const summary = book.getWorksheet('Summary');
    expect(summary).toBeDefined();
    const rows: unknown[][] = [];
    summary!.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
    const ours = rows.find((r) => r.includes(PLANT));
    const theirs = rows.find((r) => r.includes(other));
    expect(ours).toBeDefined();
    expect(theirs).toBeDefined();
    expect(ours!.some((v) => typeof v === 'number' && v > 0)).toBe(true);
    await context.close();
  });

  it.runIf(SHOTS)('screenshots of the list, the map and the month bars in both languages', async () => {
    for (const language of ['en', 'es'] as const) {
      const { page, context } = await signIn(language);
      await page.getByTestId('plant-table').waitFor();
      await shoot(page, `list-${language}`);
      await page.goto('/plants?view=map');
      await page.locator('.sf-plant-marker, .sf-plant-cluster').first().waitFor();
      await shoot(page, `map-${language}`);
      await page.goto(`/plants/overview/${plantId}/1?period=month`);
      await page.getByTestId('chart-month').waitFor();
      await shoot(page, `overview-month-${language}`);
      await context.close();
    }
  });
});
