/**
 * The user's language and units in the real portal, with the demo fleet uploading: the language
 * switch stores the choice in the profile; in Spanish a device table and a card write a decimal
 * comma and no menu item is cut off at 1366×768; with
 * °F in the profile, the weather stations' temperatures and a battery's show °F with the
 * converted value. Screenshots in English and Spanish at 1366×768 and 1920×1080 go to
 * /tmp/shots/locale-*.png.
 */
import fs from 'node:fs';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type ApiCall, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
/** The API as the demo installer. */
let call: ApiCall;
const WAIT = { timeout: 15_000 };
const SHOTS = '/tmp/shots';

type WeatherRow = { sn: string; ambientTemperature: number | null };

async function api<T>(path: string): Promise<T> {
  return (await call<T>(path)).data;
}

beforeAll(async () => {
  // Uploads every 60 s: a value read from the API stays what the page shows for a while.
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '60', SIMULATOR_BACKFILL_DAYS: '1' });
  call = await portal.api(demo.companyAdmin);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = await api<{ list: WeatherRow[] } | null>('/api/v1/meteorological?size=10');
    if (list?.list.some((w) => w.ambientTemperature !== null)) break;
    if (Date.now() > deadline) throw new Error('no weather station reported within 60 s');
    await new Promise((r) => setTimeout(r, 1000));
  }
});
afterAll(() => portal?.close());

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(600); // charts finish their entry animation
  await page.screenshot({ path: `${SHOTS}/locale-${name}.png`, fullPage: true });
}

/** Menu labels that do not fit their item (ellipsis): every submenu opened first. */
async function cutMenuItems(page: Page): Promise<string[]> {
  const closed = page.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let n = await closed.count(); n > 0; n = await closed.count()) {
    await closed.first().click();
    await page.waitForTimeout(250);
  }
  return page
    .locator('.ant-layout-sider .ant-menu-title-content')
    .evaluateAll((items) => items.filter((el) => el.scrollWidth > el.clientWidth + 1).map((el) => (el.textContent ?? '').trim()));
}

describe('language and units', () => {
  it('the switch saves Spanish in the profile; a decimal comma in a device table and a card; no menu item cut off at 1366×768', async () => {
    const { page, context } = await portal.page({ locale: 'es-ES' });
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    // Signed in, the language switch stores the choice in the profile too (mails follow it).
    await page.getByTestId('language-switch').click();
    await page.getByTestId('language-es').click();
    await expect.poll(() => page.evaluate(() => document.documentElement.lang), WAIT).toBe('es');
    expect((await api<{ language: string }>('/api/v1/user')).language).toBe('es');

    await page.goto('/device/weather');
    const table = page.getByTestId('weather-table');
    await table.locator('.ant-table-row').first().waitFor(WAIT);
    const first = await table.locator('.ant-table-row').first().innerText();
    // Ambient temperature, wind: one decimal after a comma; no figure with a decimal point.
    expect(first).toMatch(/-?\d+,\d °C/);
    expect(first).not.toMatch(/\d\.\d °C|\d\.\d m\/s/);

    await page.goto('/device/battery');
    await page.locator('[data-testid^="battery-link-"]').first().click();
    const hottest = page.getByTestId('battery-hottest');
    await expect.poll(() => hottest.innerText(), WAIT).toMatch(/\d+,\d °C/);

    for (const [w, h] of [
      [1366, 768],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      expect(await cutMenuItems(page)).toEqual([]);
      await shot(page, `battery-es-${w}x${h}`);
      await page.goto('/device/weather');
      await table.locator('.ant-table-row').first().waitFor(WAIT);
      await shot(page, `weather-es-${w}x${h}`);
      await page.goBack();
    }
    await context.close();
  });

  it('with °F in the profile: weather and battery temperatures show °F and the converted value', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await page.goto('/edit');
    const form = page.getByTestId('profile-form');
    await form.waitFor(WAIT);
    await form.getByText('Fahrenheit (°F)').click();
    await page.getByTestId('profile-save').click();
    await expect.poll(async () => (await api<{ temperatureUnit: string }>('/api/v1/user')).temperatureUnit, WAIT).toBe('F');

    await page.goto('/device/weather');
    const table = page.getByTestId('weather-table');
    await table.locator('.ant-table-row').first().waitFor(WAIT);
    // The page's value is the API's °C value converted: °F = °C × 9/5 + 32, one decimal.
    await expect
      .poll(async () => {
        const rows = (await api<{ list: WeatherRow[] }>('/api/v1/meteorological?size=10')).list;
        const row = rows.find((r) => r.ambientTemperature !== null);
        if (!row) return 'no value';
        const text = await table.locator('.ant-table-row', { hasText: row.sn }).first().innerText();
        const shown = /(-?[\d.,]+) °F/.exec(text)?.[1];
        const expected = (((row.ambientTemperature as number) * 9) / 5 + 32).toFixed(1);
        return shown === expected ? 'same' : `${shown} ≠ ${expected} (${row.ambientTemperature} °C)`;
      }, WAIT)
      .toBe('same');
    expect(await table.innerText()).not.toContain('°C');

    await page.goto('/device/battery');
    await page.locator('[data-testid^="battery-link-"]').first().click();
    await expect.poll(() => page.getByTestId('battery-hottest').innerText(), WAIT).toMatch(/^\d+\.\d °F$/);
    const hottest = Number.parseFloat(await page.getByTestId('battery-hottest').innerText());
    expect(hottest).toBeGreaterThan(32); // a battery in service is above 0 °C
    await page.getByTestId('tab-cells').click();
    await page.getByTestId('cell-mode-temperature').click();
    await expect.poll(() => page.getByTestId('cell-spread').innerText(), WAIT).toMatch(/°F$/);
    // Each square: its measured °C value (data-value) written in °F.
    const square = page.locator('[data-testid^="cell-1-"]').first();
    const celsius = Number(await square.getAttribute('data-value'));
    expect(await square.innerText()).toBe(((celsius * 9) / 5 + 32).toFixed(1));

    for (const [w, h] of [
      [1366, 768],
      [1920, 1080],
    ] as const) {
      await page.setViewportSize({ width: w, height: h });
      expect(await cutMenuItems(page)).toEqual([]);
      await shot(page, `battery-cells-en-F-${w}x${h}`);
    }
    await context.close();
  });
});
