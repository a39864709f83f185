/**
 * Events and operation data in the real portal, with the demo fleet uploading: the demo installer
 * filters the events down to one inverter (two events of known content are written into the
 * portal's database first, on an inverter and a battery added beside the fleet's that the
 * simulator does not play: their events are the seeded ones and no others, whatever faults the
 * simulator raises and clears meanwhile), opens
 * one, acknowledges it, and downloads the inverter and battery events (.xlsx, opened and read);
 * then picks plant → inverter on the operation-data page, sees its samples and chart, and
 * exports them (.xlsx with the time and parameter columns and at least one sample row).
 * The search finds events by part of an SN (any case) and by part of the plant's name; times say
 * their zone: the events list the browser's (named in its header), an inverter's events card its
 * plant's. Screenshots of both pages in English and Spanish go to /tmp/shots.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import ExcelJS from 'exceljs';
import type { Download, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 15_000, interval: 250 };
const SHOTS = '/tmp/shots';
const INVERTER_TEXT = 'E2E insulation fault';
const BATTERY_TEXT = 'E2E cell overvoltage';

let portal: Portal;
let db: Database.Database;
/** A plant of the demo fleet with an inverter and a battery that have uploaded samples. */
let fleet: { plantId: number; plantName: string; timezone: string; inverter: string; battery: string; today: string };
/** An inverter and a battery of that plant that the simulator does not play: only the seeded events are theirs. */
let quiet: { inverter: string; battery: string };

beforeAll(async () => {
  portal = await startPortal({
    SIMULATOR: 'on',
    SIMULATOR_INTERVAL: '5',
    SIMULATOR_BACKFILL_DAYS: '1',
    WEB_DIST: await snapshotDist(),
  });
  db = new Database(path.join(portal.dataDir, 'sunfleet.db'));
  db.pragma('busy_timeout = 10000');
  fleet = await waitForFleet();
  quiet = seedDevices();
  seedEvents();
  fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  db?.close();
  await portal?.close();
  if (distCopy) fs.rmSync(distCopy, { recursive: true, force: true });
});

let distCopy: string | null = null;
/**
 * A private copy of the web build (made by the global setup): other browser-test runs in the same
 * checkout rebuild apps/web/dist meanwhile, and a page would then ask for assets that are gone.
 * Copied again until every asset index.html names is there.
 */
async function snapshotDist(): Promise<string> {
  const dist = path.resolve(import.meta.dirname, '../dist');
  for (let attempt = 0; attempt < 20; attempt++) {
    const copy = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-e2e-web-'));
    try {
      fs.cpSync(dist, copy, { recursive: true });
      const html = fs.readFileSync(path.join(copy, 'index.html'), 'utf8');
      const assets = [...html.matchAll(/(?:src|href)="\/(assets\/[^"]+)"/g)].map((m) => m[1]!);
      if (assets.length > 0 && assets.every((a) => fs.existsSync(path.join(copy, a)))) {
        distCopy = copy;
        return copy;
      }
    } catch {
      // A rebuild was replacing the folder: try again.
    }
    fs.rmSync(copy, { recursive: true, force: true });
    await new Promise((r) => setTimeout(r, 1000));
  }
  throw new Error('no complete web build in apps/web/dist');
}

async function waitForFleet() {
  const find = db.prepare(`
    select p.id as plantId, p.name as plantName, p.timezone as timezone, i.sn as inverter, b.sn as battery
    from devices i
    join devices b on b.plant_id = i.plant_id and b.kind = 'battery'
    join plants p on p.id = i.plant_id
    where i.kind = 'inverter'
      and exists (select 1 from inverter_samples s where s.device_id = i.id)
    order by p.id limit 1`);
  const deadline = Date.now() + 45_000;
  for (;;) {
    const row = find.get() as Omit<typeof fleet, 'today'> | undefined;
    if (row) return { ...row, today: new Date().toLocaleDateString('en-CA', { timeZone: row.timezone }) };
    if (Date.now() > deadline) throw new Error('the demo fleet uploaded no inverter samples in 45 s');
    await new Promise((r) => setTimeout(r, 500));
  }
}

/**
 * Copies of the fleet's inverter and battery rows under new SNs (same plant, gateway, protocol):
 * devices no gateway reports, so no event of the simulator's opens or closes on them.
 */
function seedDevices() {
  const suffix = Date.now().toString(36).toUpperCase();
  const copy = db.prepare(`insert into devices
    (sn, gateway_id, plant_id, kind, protocol_id, unit, alias, device_type, rated_power_w, created_at, updated_at)
    select @sn, gateway_id, plant_id, kind, protocol_id, unit, null, device_type, rated_power_w, @now, @now
    from devices where sn = @from`);
  const made = { inverter: `E2EINV${suffix}`, battery: `E2EBAT${suffix}` };
  copy.run({ sn: made.inverter, from: fleet.inverter, now: Date.now() });
  copy.run({ sn: made.battery, from: fleet.battery, now: Date.now() });
  return made;
}

/** Two events of known content: an open inverter fault and a closed battery pack warning. */
function seedEvents() {
  const device = db.prepare('select id, gateway_id from devices where sn = ?');
  const insert = db.prepare(`insert into events
    (plant_id, gateway_id, device_id, sn, source, code, level, text_en, text_es, started_at, ended_at, created_at)
    values (@plant, @gateway, @device, @sn, 'device', @code, @level, @en, @es, @start, @end, @now)`);
  const now = Date.now();
  const add = (sn: string, code: string, level: string, en: string, es: string, start: number, end: number | null) => {
    const d = device.get(sn) as { id: number; gateway_id: number };
    insert.run({ plant: fleet.plantId, gateway: d.gateway_id, device: d.id, sn, code, level, en, es, start, end, now });
  };
  add(quiet.inverter, 'pvInsulation', 'fault', INVERTER_TEXT, 'Fallo de aislamiento E2E', now - 2 * 3600_000, null);
  add(
    quiet.battery,
    'pack2.cellOvervoltage',
    'warning',
    BATTERY_TEXT,
    'Sobretensión de celda E2E',
    now - 3 * 3600_000,
    now - 3000_000,
  );
}

async function signIn(locale: 'en' | 'es' = 'en', timezoneId?: string) {
  const { page, context } = await portal.page({ timezoneId });
  await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
  if (locale === 'es') await page.evaluate(() => localStorage.setItem('language', 'es'));
  return { page, context };
}

/** Click a download button and read the saved workbook's first sheet. */
async function downloadSheet(page: Page, testId: string) {
  const waiting = page.waitForEvent('download');
  await page.getByTestId(testId).click();
  const download: Download = await waiting;
  const file = path.join(portal.dataDir, `e2e-${download.suggestedFilename()}`);
  await download.saveAs(file);
  const book = new ExcelJS.Workbook();
  await book.xlsx.readFile(file);
  const sheet = book.worksheets[0]!;
  const rows: string[][] = [];
  sheet.eachRow((row) => {
    rows.push((row.values as unknown[]).slice(1).map((v) => (v === null || v === undefined ? '' : String(v))));
  });
  return { name: download.suggestedFilename(), rows };
}

/** Type into the search box (part of an SN, alias or plant name) and wait for it in the address. */
async function search(page: Page, text: string) {
  await page.getByTestId('event-sn-filter').fill(text);
  await expect.poll(() => new URL(page.url()).searchParams.get('q'), WAIT).toBe(text);
}

/** The text of the table's only row ('' while it shows another number of rows). */
async function onlyRow(rows: Locator): Promise<string> {
  return (await rows.count()) === 1 ? rows.first().innerText() : '';
}

/** Pick an option of an antd Select by typing and clicking it. */
async function choose(page: Page, testId: string, search: string, option: string) {
  await page.getByTestId(testId).click();
  await page.keyboard.type(search);
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

describe('events and operation data', () => {
  it('filters the events, acknowledges one and downloads inverter and battery events', async () => {
    // The seeded fault is open and unacknowledged for each attempt: a retry can acknowledge it again.
    db.prepare('update events set acked_at = null, acked_by = null, ack_note = null where text_en = ?').run(INVERTER_TEXT);
    const { page, context } = await signIn();
    await page.goto('/device/event');
    await page.getByTestId('event-table').waitFor();

    // One inverter: its open fault is the only event; the level counts follow the filter.
    await search(page, quiet.inverter);
    const rows = page.locator('[data-testid="event-table"] .ant-table-row');
    await expect.poll(() => onlyRow(rows), WAIT).toContain(INVERTER_TEXT);
    await expect.poll(() => page.getByTestId('level-count-fault').innerText(), WAIT).toBe('1');
    expect(await page.getByTestId('level-count-total').innerText()).toBe('1');
    // Closed events only: none for this inverter.
    await page.getByTestId('event-state-filter').getByText('Closed').click();
    await expect.poll(() => page.getByTestId('event-table').innerText(), WAIT).toContain('No events match these filters');
    await page.getByTestId('event-state-filter').getByText('All').click();
    await expect.poll(() => rows.count(), WAIT).toBe(1);

    // The detail: the suggested action of the code, and the acknowledgement with a note.
    await rows.first().click();
    const detail = page.getByTestId('event-detail');
    await detail.waitFor();
    expect(await detail.getByTestId('event-action').innerText()).toContain('measure the insulation');
    await page.waitForTimeout(400); // the drawer's slide-in
    await page.screenshot({ path: `${SHOTS}/events-en-drawer.png` });
    await detail.getByTestId('event-ack-note').fill('Installer called');
    await detail.getByTestId('event-ack').click();
    await expect.poll(() => detail.getByTestId('event-ack-info').innerText(), WAIT).toContain('Installer called');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.locator('[data-testid^="event-acked-"]').count(), WAIT).toBe(1);

    // The inverter events of the filter, as .xlsx: a header and the one event, acknowledged.
    const inverterFile = await downloadSheet(page, 'event-download-inverter');
    expect(inverterFile.name).toMatch(/^events-inverter-\d{4}-\d{2}-\d{2}_\d{4}-\d{2}-\d{2}\.xlsx$/);
    const [header, ...data] = inverterFile.rows;
    expect(header!.slice(0, 7)).toEqual(['Plant', 'SN', 'Device', 'Alias', 'Code', 'Level', 'Event']);
    expect(data).toHaveLength(1);
    expect(data[0]!.slice(0, 2)).toEqual([fleet.plantName, quiet.inverter]);
    expect(data[0]![4]).toBe('pvInsulation');
    expect(data[0]![6]).toBe(INVERTER_TEXT);
    expect(data[0]![13]).toBe('Installer called');

    // The battery: its closed pack warning, and its file.
    await search(page, quiet.battery);
    await expect.poll(() => onlyRow(rows), WAIT).toContain(BATTERY_TEXT);
    await expect.poll(() => page.getByTestId('level-count-warning').innerText(), WAIT).toBe('1');
    const batteryFile = await downloadSheet(page, 'event-download-battery');
    const batteryRows = batteryFile.rows.slice(1);
    expect(batteryRows).toHaveLength(1);
    expect(batteryRows[0]!.slice(1, 2)).toEqual([quiet.battery]);
    expect(batteryRows[0]![4]).toBe('pack2.cellOvervoltage');
    expect(batteryRows[0]![10]).toBe('Closed');

    // A period over 90 days is refused before asking.
    await page.goto(`/device/event?start=2025-01-01&end=2025-06-30`);
    await expect
      .poll(() => page.getByTestId('event-range-problem').innerText(), WAIT)
      .toContain('The period can be at most 90 days');

    await page.goto('/device/event');
    await page.locator('[data-testid="event-table"] .ant-table-row').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/events-en.png`, fullPage: true });
    await context.close();
  });

  it('searches by part of an SN or of the plant name; times say their zone', async () => {
    // A browser far from the plant: the list reads times in the browser's zone and says so, the
    // device page in the plant's.
    const browserZone = fleet.timezone === 'America/New_York' ? 'Asia/Tokyo' : 'America/New_York';
    for (const locale of ['en', 'es'] as const) {
      const { page, context } = await signIn(locale, browserZone);
      await page.goto('/device/event');
      await page.getByTestId('event-table').waitFor();
      const rows = page.locator('[data-testid="event-table"] .ant-table-row');

      // Part of the inverter's SN, in lower case: its seeded fault, text over code.
      await search(page, quiet.inverter.slice(2, -1).toLowerCase());
      await expect
        .poll(() => rows.allInnerTexts(), WAIT)
        .toEqual([expect.stringContaining(locale === 'en' ? INVERTER_TEXT : 'Fallo de aislamiento E2E')]);
      expect(await rows.first().innerText()).toContain('pvInsulation');
      const header = await page.getByTestId('event-time-header').innerText();
      expect(header).toBe(`${locale === 'en' ? 'Started / ended' : 'Inicio / fin'} (${browserZone})`);
      const seeded = db.prepare('select started_at from events where text_en = ?').get(INVERTER_TEXT) as { started_at: number };
      const wall = new Intl.DateTimeFormat('sv-SE', {
        timeZone: browserZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      }).format(new Date(seeded.started_at));
      expect(await rows.first().innerText()).toContain(wall);
      // The suggested action in the tooltip.
      await rows
        .first()
        .getByTestId(/^event-text-/)
        .hover();
      await expect
        .poll(() => page.locator('.ant-tooltip:visible').innerText(), WAIT)
        .toContain(locale === 'en' ? 'measure the insulation' : 'aislamiento');
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.screenshot({ path: `${SHOTS}/events-search-${locale}-1366.png` });

      await page.mouse.move(0, 0);
      // Part of the plant's name: both seeded events, every row on that plant.
      await search(page, fleet.plantName.slice(1, -1).toUpperCase());
      await expect
        .poll(async () => (await rows.allInnerTexts()).join('\n'), WAIT)
        .toContain(locale === 'en' ? BATTERY_TEXT : 'Sobretensión de celda E2E');
      for (const row of await rows.allInnerTexts()) expect(row).toContain(fleet.plantName);
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.screenshot({ path: `${SHOTS}/events-search-${locale}-1920.png` });

      // One letter is not sent: the field says so.
      await page.getByTestId('event-sn-filter').fill('x');
      await expect
        .poll(() => page.getByTestId('event-filters').innerText(), WAIT)
        .toContain(locale === 'en' ? 'Type at least 2 characters' : 'Escriba al menos 2 caracteres');

      // The inverter's page: its events under headers naming the plant's zone.
      await page.goto(`/device/inverter/${quiet.inverter}?tab=events`);
      const card = page.getByTestId('device-events-table');
      await card.locator('.ant-table-row').first().waitFor({ timeout: 15_000 });
      expect(await card.locator('th').allInnerTexts()).toEqual(
        expect.arrayContaining([`${locale === 'en' ? 'Started' : 'Inicio'} (${fleet.timezone})`]),
      );
      await page.setViewportSize({ width: 1366, height: 768 });
      await page.screenshot({ path: `${SHOTS}/device-events-${locale}-1366.png` });
      await page.setViewportSize({ width: 1920, height: 1080 });
      await page.screenshot({ path: `${SHOTS}/device-events-${locale}-1920.png` });
      await context.close();
    }
  });

  it('exports the operation data of one inverter and opens the file', async () => {
    const { page, context } = await signIn();
    await page.goto('/workdata/list');
    await choose(page, 'workdata-plant', fleet.plantName.slice(0, 6), fleet.plantName);
    await choose(page, 'workdata-device', fleet.inverter, fleet.inverter);
    await expect.poll(() => new URL(page.url()).searchParams.get('sn'), WAIT).toBe(fleet.inverter);

    // Samples of today in the table, and a chart canvas.
    await expect.poll(() => page.locator('[data-testid="sample-table"] .ant-table-row').count(), WAIT).toBeGreaterThan(0);
    const total = Number((await page.getByTestId('sample-total').innerText()).replace(/\D/g, ''));
    expect(total).toBeGreaterThan(0);
    await page.getByTestId('workdata-chart').locator('canvas').first().waitFor();
    await page.screenshot({ path: `${SHOTS}/workdata-en.png`, fullPage: true });

    const file = await downloadSheet(page, 'workdata-download');
    // Today of the plant (its zone), one day.
    const day = fleet.today;
    expect(file.name).toBe(`workdata-${fleet.inverter}-${day}_${day}.xlsx`);
    const [header, ...data] = file.rows;
    expect(header![0]).toMatch(/^Time \(.+\)$/);
    // One column per chosen parameter, titled as in the table.
    const columns = await page.locator('[data-testid="sample-table"] .ant-table-thead th').allInnerTexts();
    expect(header!.slice(1)).toEqual(columns.slice(1).map((c) => c.trim()));
    // Every sample of the table's count (more may have come in since).
    expect(data.length).toBeGreaterThanOrEqual(total);
    expect(data[0]![0]).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}/);
    await context.close();
  });

  it('both pages in Spanish', async () => {
    const { page, context } = await signIn('es');
    await page.goto('/device/event');
    await page.locator('[data-testid="event-table"] .ant-table-row').first().waitFor();
    expect(await page.getByTestId('level-card-total').innerText()).toContain('Todos los eventos');
    await page.screenshot({ path: `${SHOTS}/events-es.png`, fullPage: true });
    await page.goto(`/workdata/list?plantId=${fleet.plantId}&sn=${fleet.inverter}`);
    await page.getByTestId('workdata-chart').locator('canvas').first().waitFor();
    await page.locator('[data-testid="sample-table"] .ant-table-row').first().waitFor();
    expect(await page.getByTestId('workdata-download').innerText()).toContain('Descargar');
    await page.screenshot({ path: `${SHOTS}/workdata-es.png`, fullPage: true });
    await context.close();
  });
});
