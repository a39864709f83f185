/**
 * "Download data" on a plant overview, walked as a user meets it: a portal as `npm start` runs it
 * with the demo fleet uploading (plant 4 is the fleet's first plant, with history and live data),
 * the demo installer (company administrator) signs in through the form, opens plant 4 from the
 * plant list and presses "Download data" — in a desktop window and on a phone (touch, 390 px), in
 * English and Spanish, on the day and on the month chart, on a new plant without data, and after
 * the access token has expired while the page was open (tokens live 10 s here, so the page
 * refreshes them as it polls). Each time the request must go out, the server answer with the
 * workbook, the browser save a file, and the file hold the plant's rows: the same 5-minute points
 * or daily bars the API gives for that plant and date.
 *
 * With SHOTS_DIR set, a screenshot of each step is saved there (for looking at, not compared).
 */

import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import ExcelJS from 'exceljs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

/** The demo fleet's first plant: the first id after the demo's three plants without gateways. */
const PLANT_ID = 4;
const SHOTS = process.env.SHOTS_DIR;
const DOWNLOAD_PATH = '/api/v1/plant/generation/download';

interface PowerDay {
  date: string;
  timezone: string;
  points: {
    time: string;
    pv: number | null;
    load: number | null;
    grid: number | null;
    battery: number | null;
    soc: number | null;
  }[];
  forecast: { time: string; power: number }[];
}
interface Series {
  bars: { label: string; energy: number; income: number | null; peakPower: number | null }[];
  energy: number;
}

let portal: Portal;
let plant: { name: string; type: number; timezone: string };

/** The installer's API; signs in at each call (access tokens live only 10 s in this portal). */
async function asInstaller<T>(p: string, init?: Parameters<Awaited<ReturnType<Portal['api']>>>[1]) {
  const api = await portal.api(demo.companyAdmin);
  const answer = await api<T>(p, init);
  if (answer.code !== ErrorCode.ok) throw new Error(`${p}: ${JSON.stringify(answer)}`);
  return answer.data;
}

beforeAll(async () => {
  // One fleet gateway with two days of history is enough for plant 4 (a settled day and today) and
  // leaves the machine's cores to the browser: under a lagging event loop the server refuses even
  // the app's files with 503.
  portal = await startPortal({
    SIMULATOR: 'on',
    SIMULATOR_GATEWAYS: '1',
    SIMULATOR_BACKFILL_DAYS: '2',
    ACCESS_TOKEN_TTL: '10',
  });
  // The fleet uploads its history on first start, oldest first (the server may answer 503 while
  // it does): wait until plant 4's curve of today reaches the last quarter of an hour.
  const deadline = Date.now() + 100_000;
  for (;;) {
    const ready = await asInstaller<PowerDay>(`/api/v1/plant/${PLANT_ID}/power/day`).then(
      (day) => Date.parse(day.points.at(-1)?.time ?? '1970-01-01T00:00:00Z') > Date.now() - 15 * 60_000,
      () => false,
    );
    if (ready) break;
    if (Date.now() > deadline) throw new Error(`plant ${PLANT_ID} has no recent data after 100 s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
  plant = await asInstaller<{ name: string; type: number; timezone: string }>(`/api/v1/plant/${PLANT_ID}`);
});

afterAll(async () => {
  await portal?.close();
});

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `download-${name}.png`) });
}

/** Sign in through the form and open plant `id` from the plant list (a tap on a phone). */
async function openFromList(opts: { language: 'en' | 'es'; phone: boolean; id?: number }) {
  const id = opts.id ?? PLANT_ID;
  const { page, context } = await portal.page({ locale: opts.language === 'es' ? 'es-ES' : 'en-US', phone: opts.phone });
  await context.addInitScript((lng) => localStorage.setItem('language', lng), opts.language);
  await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
  await page.waitForURL('**/plants');
  const link = page.getByTestId(`plant-link-${id}`);
  await link.waitFor();
  await shoot(page, `${opts.language}-${opts.phone ? 'phone' : 'desktop'}-${id}-list`);
  if (opts.phone) await link.tap();
  else await link.click();
  await page.waitForURL(`**/plants/overview/${id}/*`);
  await page.getByTestId('overview-name').waitFor();
  return { page, context, tag: `${opts.language}-${opts.phone ? 'phone' : 'desktop'}-${id}` };
}

/**
 * Press "Download data" and wait for the file: the button must be visible and enabled, the request
 * go out, the server answer the workbook and the browser save it. Returns the statuses the
 * download requests got, the date asked for and the saved file.
 */
async function pressDownload(page: Page, opts: { phone: boolean; tag: string; plantId?: number }) {
  const button = page.getByTestId('overview-download');
  await button.scrollIntoViewIfNeeded();
  expect(await button.isVisible()).toBe(true);
  expect(await button.isEnabled()).toBe(true);
  await shoot(page, `${opts.tag}-before`);
  const asked: URL[] = [];
  const statuses: number[] = [];
  page.on('request', (r) => {
    if (new URL(r.url()).pathname === DOWNLOAD_PATH) asked.push(new URL(r.url()));
  });
  page.on('response', (r) => {
    if (new URL(r.url()).pathname === DOWNLOAD_PATH) statuses.push(r.status());
  });
  const answered = page.waitForResponse((r) => new URL(r.url()).pathname === DOWNLOAD_PATH && r.status() === 200, {
    timeout: 30_000,
  });
  const downloaded = page.waitForEvent('download', { timeout: 30_000 });
  if (opts.phone) await button.tap();
  else await button.click();
  const [file, answer] = await Promise.all([downloaded, answered]);
  await shoot(page, `${opts.tag}-after`);
  expect(answer.headers()['content-type']).toBe('application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
  expect(await file.failure()).toBeNull();
  const saved = path.join(portal.dataDir, `${Date.now()}-${file.suggestedFilename()}`);
  await file.saveAs(saved);
  const query = asked.at(-1)!.searchParams;
  expect(query.get('plantId')).toBe(String(opts.plantId ?? PLANT_ID));
  return { name: file.suggestedFilename(), saved, statuses, period: query.get('period'), date: query.get('date') ?? '' };
}

/** The first sheet's name and rows (cell values, from column A). */
async function readSheet(file: string) {
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const sheet = book.worksheets[0]!;
  const rows: unknown[][] = [];
  sheet.eachRow((row) => rows.push((row.values as unknown[]).slice(1)));
  return { name: sheet.name, rows };
}

/** "YYYY-MM-DD HH:mm" of an instant on the plant's wall clock. */
function wallClock(iso: string, timezone: string): string {
  return new Intl.DateTimeFormat('sv-SE', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    hourCycle: 'h23',
  }).format(new Date(iso));
}

/** Blank cells read back as undefined; the API says null. */
const cell = (v: unknown) => (v === undefined ? null : v);

/**
 * The day sheet holds the plant's 5-minute points of that date as the API gives them (read after
 * the download, so it may have one more point; the last, still filling bucket may have moved).
 */
async function expectDayRows(rows: unknown[][], date: string) {
  const day = await asInstaller<PowerDay>(`/api/v1/plant/${PLANT_ID}/power/day?date=${date}`);
  expect(day.forecast).toEqual([]);
  const data = rows.slice(2);
  expect(data.length).toBeGreaterThan(0);
  expect(data.length).toBeLessThanOrEqual(day.points.length);
  expect(day.points.length - data.length).toBeLessThanOrEqual(1);
  const times = data.map((r) => (r[0] as Date).toISOString().slice(0, 16).replace('T', ' '));
  expect(times).toEqual(day.points.slice(0, data.length).map((p) => wallClock(p.time, day.timezone)));
  const settled = data.slice(0, -1);
  expect(settled.map((r) => r.slice(1, 6).map(cell))).toEqual(
    day.points.slice(0, settled.length).map((p) => [p.pv, p.load, p.grid, p.battery, p.soc]),
  );
  // A real plant's curve: some of the day's buckets carry a load.
  expect(data.some((r) => typeof r[2] === 'number' && r[2] > 0)).toBe(true);
}

describe('Download data on a plant overview', () => {
  it('desktop, English: the installer opens plant 4 from the list; the day curve arrives as a workbook with its rows', async () => {
    const { page, context, tag } = await openFromList({ language: 'en', phone: false });
    expect(await page.getByTestId('overview-download').innerText()).toBe('Download data');
    const got = await pressDownload(page, { phone: false, tag });
    // 200, or 401 and 200 when the 10 s token ran out just before (the client refreshes and asks again).
    expect(got.statuses.filter((s) => s !== 401)).toEqual([200]);
    expect(got.period).toBe('day');
    expect(got.name).toBe(`${plant.name}-generation-${got.date}.xlsx`);
    const sheet = await readSheet(got.saved);
    expect(sheet.name).toBe('Generation');
    expect(sheet.rows[0]).toEqual([`${plant.name} – power on ${got.date} (${plant.timezone})`]);
    expect(sheet.rows[1]?.[0]).toBe('Time');
    await expectDayRows(sheet.rows, got.date);
    expect(await page.locator('.ant-message-notice').count()).toBe(0);
    await context.close();
  });

  it('phone, Spanish: a tap on "Descargar datos" gives the day, then the month, with the plant rows', async () => {
    const { page, context, tag } = await openFromList({ language: 'es', phone: true });
    expect(await page.getByTestId('overview-download').innerText()).toBe('Descargar datos');
    const day = await pressDownload(page, { phone: true, tag: `${tag}-day` });
    const daySheet = await readSheet(day.saved);
    expect(daySheet.name).toBe('Generación');
    expect(daySheet.rows[1]?.[0]).toBe('Hora');
    await expectDayRows(daySheet.rows, day.date);

    // The month chart, then the same button: one row per day with data, and the total.
    await page.getByTestId('chart-tabs').getByText('Mes', { exact: true }).tap();
    await page.getByTestId('chart-month').waitFor();
    const month = await pressDownload(page, { phone: true, tag: `${tag}-month` });
    expect(month.period).toBe('month');
    expect(month.name).toBe(`${plant.name}-generation-${month.date.slice(0, 7)}.xlsx`);
    const sheet = await readSheet(month.saved);
    expect(sheet.rows[1]?.slice(0, 2)).toEqual(['Día', 'Energía (kWh)']);
    const series = await asInstaller<Series>(`/api/v1/plant/${PLANT_ID}/power/month?date=${month.date}`);
    const bars = sheet.rows.slice(2, -1);
    expect(bars.length).toBeGreaterThan(0);
    expect(bars.map((r) => r[0])).toEqual(series.bars.map((b) => b.label));
    // Past days are settled: their energy is the API's (kWh in the file, Wh in the API); today's
    // may have grown since the file was made, so the total lies between the two.
    const settled = series.bars.slice(0, -1);
    for (const [i, bar] of settled.entries()) expect(bars[i]?.[1]).toBeCloseTo(bar.energy / 1000, 6);
    const total = sheet.rows.at(-1)!;
    expect(total[0]).toBe('Total');
    expect(total[1]).toBeGreaterThanOrEqual(settled.reduce((sum, bar) => sum + bar.energy, 0) / 1000 - 1e-6);
    expect(total[1]).toBeLessThanOrEqual(series.energy / 1000 + 1e-6);
    await context.close();
  });

  it('a new plant without data yet: the file arrives with its headers and no rows (desktop and phone)', async () => {
    const fresh = await asInstaller<{ id: number }>('/api/v1/plant', {
      method: 'POST',
      body: { name: 'E2E Download Fresh', capacity: 5, type: 0, timezone: 'Europe/Madrid' },
    });
    for (const phone of [false, true]) {
      const { page, context, tag } = await openFromList({ language: 'en', phone, id: fresh.id });
      const got = await pressDownload(page, { phone, tag, plantId: fresh.id });
      expect(got.name).toBe(`E2E Download Fresh-generation-${got.date}.xlsx`);
      const sheet = await readSheet(got.saved);
      expect(sheet.rows[0]).toEqual([`E2E Download Fresh – power on ${got.date} (Europe/Madrid)`]);
      expect(sheet.rows).toHaveLength(2);
      await context.close();
    }
  });

  it('after the page was open past its access token: the download refreshes the session and the file arrives', async () => {
    const { page, context, tag } = await openFromList({ language: 'en', phone: false });
    const token = () => page.evaluate(() => JSON.parse(localStorage.getItem('user') ?? '{}').access_token as string);
    const first = await token();
    // The token lives 10 s: once the page's polling has replaced it (after a 401), it has expired.
    await expect.poll(token, { timeout: 30_000, interval: 1000 }).not.toBe(first);
    // A tab that held on to the expired token (asleep, or in the background) presses the button.
    await page.evaluate((expired) => {
      const user = JSON.parse(localStorage.getItem('user') ?? '{}');
      localStorage.setItem('user', JSON.stringify({ ...user, access_token: expired }));
    }, first);
    const got = await pressDownload(page, { phone: false, tag: `${tag}-expired` });
    expect(got.statuses).toEqual([401, 200]);
    await expectDayRows((await readSheet(got.saved)).rows, got.date);
    await context.close();
  });
});
