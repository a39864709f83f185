/**
 * The device pages in the real portal, with the demo fleet uploading every 5 s: the installer
 * goes from a plant's overview to one of its inverters, reads its realtime input (per MPPT) and
 * output (per phase), picks 6 parameters for the day chart (a seventh is locked) and saves them
 * as a profile, which is still there after a reload; then opens a battery's cell view and turns
 * it to temperatures. Screenshots of the inverter list, an inverter and a battery's cells, in
 * English and Spanish, go to /tmp/shots/devices-*.png.
 */

import fs from 'node:fs';
import { ErrorCode } from '@sunfleet/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
/** GET an API path as the installer; the envelope's data. */
let get: (path: string) => Promise<unknown>;
beforeAll(async () => {
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '5', SIMULATOR_BACKFILL_DAYS: '1' });
  get = await fleetReporting();
});

/** Wait until the demo fleet's inverters are listed with fresh power values (first uploads after the start). */
async function fleetReporting(): Promise<(path: string) => Promise<unknown>> {
  const call = await portal.api(demo.companyAdmin);
  const get = async (path: string) => (await call(path)).data;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = (await get('/api/v1/inverters?size=1')) as { list: Array<{ sn: string }> } | null;
    const sn = list?.list[0]?.sn;
    const flow = sn ? ((await get(`/api/v1/inverter/${sn}/flow`)) as { load: number | null } | null) : null;
    if (flow && flow.load !== null) return get;
    if (Date.now() > deadline) throw new Error('the demo fleet did not report within 60 s');
    await new Promise((r) => setTimeout(r, 1000));
  }
}
afterAll(() => portal?.close());

const WAIT = { timeout: 15_000 };
const SHOTS = '/tmp/shots';
const PROFILE = 'E2E six curves';

async function shot(page: Page, name: string) {
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(600); // charts finish their entry animation
  await page.screenshot({ path: `${SHOTS}/devices-${name}.png`, fullPage: true });
}

/** Whether the inverter has PV inputs (a battery-only storage inverter has none). */
async function hasPvInputs(sn: string): Promise<boolean> {
  const input = (await get(`/api/v1/inverter/${encodeURIComponent(sn)}/input/realtime`)) as { inputs: unknown[] } | null;
  return (input?.inputs.length ?? 0) > 0;
}

/** The SN of the first inverter with PV inputs a plant overview lists (the first plant of the list that has one). */
async function inverterFromOverview(page: Page): Promise<string> {
  await page.goto('/plants');
  await page.locator('[data-testid^="plant-link-"]').first().waitFor(WAIT);
  const plants = await page
    .locator('[data-testid^="plant-link-"]')
    .evaluateAll((links) => links.map((a) => a.getAttribute('href') ?? ''));
  let sn = '';
  let item = page.locator('none');
  for (const href of plants) {
    await page.goto(href);
    const count = page.getByTestId('devices-inverters');
    await count.waitFor(WAIT);
    if (Number(await count.innerText()) === 0) continue;
    const items = page.getByTestId('devices-inverter-list').locator('li[data-testid^="inverter-"]');
    await items.first().waitFor(WAIT);
    for (const candidate of await items.all()) {
      const found = ((await candidate.getAttribute('data-testid')) ?? '').replace(/^inverter-/, '');
      if (!(await hasPvInputs(found))) continue;
      sn = found;
      item = candidate;
      break;
    }
    if (sn) break;
  }
  expect(sn).toMatch(/^[A-Za-z0-9_-]+$/);
  // The overview's inverter entry links to the inverter's page.
  await item.locator('a[href^="/device/inverter/"]').first().click();
  await page.waitForURL(`**/device/inverter/${sn}**`);
  return sn;
}

describe('devices', () => {
  it('from the overview to an inverter: realtime input and output, 6 parameters saved as a profile', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);

    const sn = await inverterFromOverview(page);
    await page.getByTestId('detail-name').waitFor(WAIT);
    expect(await page.getByTestId('detail-type').innerText()).not.toBe('');

    // Realtime: one row per MPPT input with a voltage, one per phase with voltage and current.
    await page.getByTestId('tab-realtime').click();
    const input = page.getByTestId('input-table');
    await expect.poll(() => input.locator('tbody tr.ant-table-row').count(), WAIT).toBeGreaterThan(0);
    expect(await input.innerText()).toMatch(/PV1[\s\S]*\d+\.\d V/);
    const phases = page.getByTestId('output-phases');
    await expect.poll(() => phases.innerText(), WAIT).toMatch(/L1[\s\S]*\d+\.\d V[\s\S]*\d+\.\d{2} A/);
    expect(await page.getByTestId('output-frequency').innerText()).toMatch(/^\d+\.\d{2} Hz$/);
    await shot(page, 'inverter-realtime-en');

    // Day chart: pick 6 parameters; the seventh box is locked; save them as a profile.
    await page.getByTestId('tab-charts').click();
    const open = page.getByTestId('param-picker-open');
    await expect.poll(() => open.isEnabled(), WAIT).toBe(true);
    await open.click();
    const dialog = page.getByTestId('param-dialog');
    const boxes = dialog.getByTestId('param-options').locator('input[type="checkbox"]');
    await expect.poll(() => boxes.count(), WAIT).toBeGreaterThan(6);
    for (let i = 0; i < 6; i++) await boxes.nth(i).check();
    expect(await dialog.getByTestId('param-count').innerText()).toBe('6 of 6 parameters chosen');
    expect(await boxes.nth(6).isDisabled()).toBe(true);
    await dialog.getByTestId('profile-name').fill(PROFILE);
    await dialog.getByTestId('profile-save').click();
    await dialog.getByTestId(`profile-${PROFILE}`).waitFor(WAIT);
    await dialog.getByTestId('param-apply').click();
    await expect.poll(() => page.getByTestId('param-picker-open').innerText(), WAIT).toContain('6/6');
    await expect.poll(() => new URL(page.url()).searchParams.get('p')?.split(',').length, WAIT).toBe(6);
    await page.getByTestId('inverter-chart-day').waitFor(WAIT);

    // After a reload the profile is still there (saved on the server) and applies.
    await page.goto(`/device/inverter/${sn}?tab=charts`);
    await expect.poll(() => page.getByTestId('param-picker-open').isEnabled(), WAIT).toBe(true);
    await page.getByTestId('param-picker-open').click();
    await dialog.getByTestId(`profile-${PROFILE}`).waitFor(WAIT);
    await dialog.getByTestId(`profile-use-${PROFILE}`).click();
    expect(await dialog.getByTestId('param-count').innerText()).toBe('6 of 6 parameters chosen');
    await dialog.getByTestId('param-apply').click();
    await expect.poll(() => page.getByTestId('param-picker-open').innerText(), WAIT).toContain('6/6');
    await shot(page, 'inverter-charts-en');
    await context.close();
  });

  it("opens a battery's cell view, by voltage and by temperature", async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await page.goto('/device/battery');
    const first = page.locator('[data-testid^="battery-link-"]').first();
    await first.waitFor(WAIT);
    await first.click();
    await page.waitForURL('**/device/battery/**');
    await page.getByTestId('tab-cells').click();
    const map = page.getByTestId('cell-heatmap');
    await map.waitFor(WAIT);
    // Master and slave packs are rows; each square holds a cell voltage.
    expect(await map.locator('[data-testid^="cell-row-"]').count()).toBeGreaterThanOrEqual(2);
    const volts = await map.locator('[data-testid^="cell-1-"]').first().getAttribute('data-value');
    expect(Number(volts)).toBeGreaterThan(2.5);
    expect(Number(volts)).toBeLessThan(4.5);
    await shot(page, 'battery-cells-en');
    await page.getByTestId('cell-mode-temperature').click();
    await expect.poll(() => map.getAttribute('data-mode')).toBe('temperature');
    const temp = Number(await map.locator('[data-testid^="cell-1-"]').first().getAttribute('data-value'));
    expect(temp).toBeGreaterThan(-20);
    expect(temp).toBeLessThan(70);
    expect(await map.getByTestId('cell-spread').innerText()).toMatch(/°C$/);
    await context.close();
  });

  it('screenshots of the list, an inverter and the cells in English and Spanish', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    for (const lan of ['en', 'es'] as const) {
      await page.evaluate((l) => localStorage.setItem('language', l), lan);
      await page.goto('/device/inverter');
      await page.locator('[data-testid^="inverter-link-"]').first().waitFor(WAIT);
      expect(await page.getByTestId('page-title').innerText()).toBe(lan === 'es' ? 'Inversores' : 'Inverters');
      await shot(page, `inverter-list-${lan}`);
      await page.locator('[data-testid^="inverter-link-"]').first().click();
      await page.getByTestId('inverter-summary').waitFor(WAIT);
      // For the picture: the flow (every 10 s) with a measured load when the fleet keeps up. On a
      // loaded machine the server may count the simulator's latest values as stale (older than
      // 3 × the upload interval) and answer nulls for a while; that is not what this test checks.
      await expect
        .poll(() => page.getByTestId('flow-value-load').textContent(), { timeout: 12_000 })
        .toMatch(/\d/)
        .catch(() => undefined);
      await shot(page, `inverter-${lan}`);
      await page.goto('/device/battery');
      await page.locator('[data-testid^="battery-link-"]').first().click();
      await page.getByTestId('tab-cells').click();
      await page.getByTestId('cell-heatmap').waitFor(WAIT);
      expect(await page.getByTestId('battery-cells').innerText()).toContain(lan === 'es' ? 'Vista de celdas' : 'Cell view');
      await shot(page, `battery-cells-${lan}`);
    }
    await context.close();
  });
});

describe('device list rights', () => {
  /** A new end user (not read-only), registered with the e-mailed code, signed in through the API. */
  async function newEndUser(account: string, password: string) {
    await fetch(`${portal.url}/anonymous/getCode?account=${encodeURIComponent(account)}&type=signup`);
    const code = await portal.smtp.codeFor(account);
    const signup = await fetch(`${portal.url}/anonymous/signup`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ account, password, code }),
    }).then((r) => r.json() as Promise<{ code: number }>);
    expect(signup.code).toBe(ErrorCode.ok);
  }

  it('a visitor of a plant (not read-only) sees its inverters without delete or rename; the owner sees both', async () => {
    const visitor = `visitor.${Date.now()}@e2e.sunfleet.local`;
    await newEndUser(visitor, 'VisitPass1');
    // The share takes a form, not JSON: the bearer token itself.
    const owner = await portal.token(demo.owner);
    const auth = { Authorization: `Bearer ${owner}` };
    const plants = (await fetch(`${portal.url}/api/v1/plants?page=1&pageSize=10`, { headers: auth }).then((r) => r.json())) as {
      data: { list: { id: number }[] };
    };
    for (const p of plants.data.list) {
      const shared = await fetch(`${portal.url}/api/v1/plant/${p.id}/share`, {
        method: 'POST',
        headers: { ...auth, 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ account: visitor, role: 'visitor' }),
      }).then((r) => r.json() as Promise<{ code: number }>);
      expect(shared.code).toBe(ErrorCode.ok);
    }

    const rows = (page: Page) => page.getByTestId('inverter-table').locator('[data-testid^="inverter-link-"]');
    const seen = await portal.page();
    await portal.login(seen.page, visitor, 'VisitPass1');
    await seen.page.goto('/device/inverter');
    await expect.poll(() => rows(seen.page).count(), WAIT).toBeGreaterThan(0);
    expect(await seen.page.locator('[data-testid^="delete-"]').count()).toBe(0);
    expect(await seen.page.locator('[data-testid^="rename-"]').count()).toBe(0);
    await seen.context.close();

    const own = await portal.page();
    await portal.login(own.page, demo.owner, DEMO_PASSWORD);
    await own.page.goto('/device/inverter');
    await expect.poll(() => rows(own.page).count(), WAIT).toBeGreaterThan(0);
    await expect.poll(() => own.page.locator('[data-testid^="delete-"]').count(), WAIT).toBe(await rows(own.page).count());
    await own.context.close();
  }, 90_000);
});
