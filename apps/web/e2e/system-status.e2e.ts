/**
 * The operators' figures with a live fleet: /metrics answers this machine without a token, and a
 * system administrator's System status page shows gateways connected and frames stored, updating
 * as the fleet uploads. A company administrator has no such page.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({
    SIMULATOR: 'on',
    SIMULATOR_GATEWAYS: '3',
    SIMULATOR_INTERVAL: '5',
    SIMULATOR_BACKFILL_DAYS: '0',
    METRICS_TOKEN: 'e2e-metrics-token-0123456789',
  });
});
afterAll(() => portal?.close());

const figure = async (name: string) => {
  const text = await (await fetch(`${portal.url}/metrics`)).text();
  return Number(text.match(new RegExp(`^${name} (\\S+)$`, 'm'))?.[1] ?? Number.NaN);
};

describe('system status', () => {
  it('/metrics counts the live fleet: connections and stored frames', async () => {
    const res = await fetch(`${portal.url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/plain/);
    await expect.poll(() => figure('sunfleet_mqtt_connections'), { timeout: 30_000 }).toBe(3);
    await expect.poll(() => figure('sunfleet_ingest_frames_stored_total'), { timeout: 30_000 }).toBeGreaterThan(0);
    expect(await figure('sunfleet_db_sqlite_file_bytes')).toBeGreaterThan(0);
  });

  it('a system administrator opens System › System status and sees the figures update', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, ADMIN.account, ADMIN.password);
    await page.getByTestId('side-menu').getByText('System', { exact: true }).click();
    await page.getByTestId('side-menu').getByText('System status').click();
    await page.waitForURL('**/management/status');
    await expect.poll(() => page.getByTestId('summary-connections').innerText(), { timeout: 20_000 }).toContain('3');
    const stored = async () => Number((await page.getByTestId('ingest-stored').innerText()).replace(/\D/g, ''));
    await expect.poll(stored, { timeout: 20_000 }).toBeGreaterThan(0);
    const first = await stored();
    // The fleet uploads every 5 s and the page polls every 5 s: the count grows without a reload.
    await expect.poll(stored, { timeout: 30_000 }).toBeGreaterThan(first);
    expect(await page.getByTestId('store-panel').innerText()).toContain('SQLite');
    expect(await page.getByTestId('http-panel').innerText()).toContain('/api/v1/system/status');
    await page.screenshot({ path: process.env.SCREENSHOT ?? '/tmp/system-status.png', fullPage: true });
    await context.close();
  });

  it('a company administrator has no System menu, and the status page typed in is refused (403)', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await expect.poll(() => page.getByTestId('side-menu').innerText()).toContain('Plants');
    expect(await page.getByTestId('side-menu').innerText()).not.toContain('System');
    await page.goto('/management/status');
    await expect.poll(() => page.getByTestId('forbidden').count(), { timeout: 10_000 }).toBe(1);
    expect(await page.getByTestId('system-status-page').count()).toBe(0);
    await context.close();
  });
});
