/**
 * The maintenance log, the system update log and the public firmware release notes in the real
 * portal: the installer restarts a demo gateway through the API and finds the restart in Logs ›
 * Maintenance log, filters it and opens it; the administrator publishes, edits and deletes system
 * versions on /systemupdate and the owner reads them; anyone reads /firmwareLogging without
 * signing in, enabled firmware only. Screenshots go to SHOTS when it is set.
 */

import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import Database from 'better-sqlite3';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 20_000 };
const SHOTS = process.env.SHOTS ?? '';

let portal: Portal;
let db: Database.Database;
beforeAll(async () => {
  // A small simulated fleet: the demo plants get their gateways (this test needs no live data).
  portal = await startPortal({
    SIMULATOR: 'on',
    SIMULATOR_GATEWAYS: '2',
    SIMULATOR_INTERVAL: '60',
    SIMULATOR_BACKFILL_DAYS: '0',
  });
  db = new Database(path.join(portal.dataDir, 'sunfleet.db'));
  db.pragma('busy_timeout = 10000');
  if (SHOTS) fs.mkdirSync(SHOTS, { recursive: true });
});
afterAll(async () => {
  db?.close();
  await portal?.close();
});

const shot = async (page: Page, name: string) => {
  if (!SHOTS) return;
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SHOTS}/${name}.png`, fullPage: true });
};

async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible .ant-select-item-option', { hasText: option }).first().click();
}

describe('maintenance log', () => {
  it('a restart made through the API is in Logs › Maintenance log, filtered and opened', async () => {
    const call = await portal.api(demo.companyAdmin);
    let sn = '';
    await expect
      .poll(async () => {
        sn = (await call<{ list: { sn: string }[] }>('/api/v1/gateways?size=10')).data?.list[0]?.sn ?? '';
        return sn;
      }, WAIT)
      .not.toBe('');
    expect((await call(`/api/v1/gateway/${sn}/restart`, { method: 'POST' })).code).toBe(ErrorCode.ok);

    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await page.getByTestId('side-menu').getByText('Logs', { exact: true }).click();
    await page.getByTestId('side-menu').getByText('Maintenance log').click();
    await page.waitForURL('**/log/uphold');
    const table = page.getByTestId('log-table');
    await expect.poll(() => table.innerText(), WAIT).toContain(sn);
    expect(await table.innerText()).toContain('Restart');
    expect(await table.innerText()).toMatch(/Running|Succeeded/);
    await shot(page, 'maintenance-log');

    await choose(page, 'log-kind-filter', 'Debug');
    await expect.poll(() => table.innerText(), WAIT).toContain('No maintenance actions match these filters');
    expect(page.url()).toContain('kind=debug');
    await page.getByTestId('log-filters-reset').click();
    await page.getByTestId('log-sn-filter').fill(sn);
    await expect.poll(() => page.url(), WAIT).toContain(`sn=${sn}`);
    await expect.poll(() => table.innerText(), WAIT).toContain(sn);

    await page.getByTestId('log-sn-filter').fill('NOSUCHSN1');
    await expect.poll(() => page.getByTestId('log-filters').innerText(), WAIT).toContain('No device or gateway you can see');
    await page.getByTestId('log-filters-reset').click();

    await expect.poll(() => table.locator('[data-testid^="log-detail-"]').count(), WAIT).toBeGreaterThan(0);
    await table.locator('[data-testid^="log-detail-"]').first().click();
    const drawer = page.getByTestId('log-drawer');
    await expect.poll(() => drawer.innerText(), WAIT).toContain('Queued');
    expect(await drawer.innerText()).toContain(sn);
    await shot(page, 'maintenance-log-drawer');
    await context.close();
  });

  it('the demo owner has no Logs menu and the page typed in is refused', async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await expect.poll(() => page.getByTestId('side-menu').innerText(), WAIT).toContain('Plants');
    expect(await page.getByTestId('side-menu').innerText()).not.toContain('Logs');
    await page.goto('/log/uphold');
    await expect.poll(() => page.getByTestId('forbidden').count(), WAIT).toBe(1);
    await context.close();
  });
});

describe('system update log', () => {
  it('the administrator publishes, edits and deletes versions; the owner reads them', async () => {
    // No version published yet, for each attempt: a retry does not meet the first attempt's.
    db.prepare('delete from system_versions').run();
    const { page, context } = await portal.page();
    await portal.login(page, ADMIN.account, ADMIN.password);
    await page.goto('/systemupdate');
    await expect.poll(() => page.getByTestId('versions-empty').count(), WAIT).toBe(1);

    const publish = async (number: string, en: string, zh: string) => {
      await page.getByTestId('version-add').click();
      await page.getByTestId('version-number').fill(number);
      await page.getByTestId('version-content-en').fill(en);
      await page.getByTestId('version-content-zh').fill(zh);
      await page.locator('.ant-modal:visible .ant-btn-primary').click();
    };
    await publish('V250110', 'First release\nPlants and devices', '首个版本');
    await expect.poll(() => page.getByTestId('version-timeline').innerText(), WAIT).toContain('V250110');
    await publish('V250120', 'Maintenance log', '维护日志');
    await expect.poll(() => page.getByTestId('version-timeline').innerText(), WAIT).toContain('V250120');
    // Lower than the latest: refused on the number field, nothing published.
    await publish('V250101', 'Too old', '太旧');
    await expect.poll(() => page.locator('.ant-modal:visible').innerText(), WAIT).toContain('Must be higher than V250120');
    await shot(page, 'systemupdate-refused');
    await page.locator('.ant-modal:visible .ant-btn').filter({ hasText: 'Cancel' }).click();
    await shot(page, 'systemupdate');

    const rows = db.prepare('select id, number from system_versions order by id').all() as { id: number; number: string }[];
    expect(rows.map((r) => r.number)).toEqual(['V250110', 'V250120']);
    const latest = rows[1]!.id;
    await page.getByTestId(`version-edit-${latest}`).click();
    await page.getByTestId('version-content-en').fill('Maintenance log and system versions');
    await page.locator('.ant-modal:visible .ant-btn-primary').click();
    await expect
      .poll(() => page.getByTestId(`version-notes-${latest}`).innerText(), WAIT)
      .toBe('Maintenance log and system versions');

    await page.getByTestId(`version-delete-${rows[0]!.id}`).click();
    await page.getByTestId('version-delete-ok').click();
    await expect.poll(() => page.getByTestId(`version-${rows[0]!.id}`).count(), WAIT).toBe(0);
    await context.close();

    const owner = await portal.page({ locale: 'es-ES' });
    await portal.login(owner.page, demo.owner, DEMO_PASSWORD);
    await owner.page.goto('/systemupdate');
    await expect
      .poll(() => owner.page.getByTestId(`version-notes-${latest}`).innerText(), WAIT)
      .toBe('Maintenance log and system versions');
    expect(await owner.page.getByTestId('version-add').count()).toBe(0);
    expect(await owner.page.getByTestId(`version-edit-${latest}`).count()).toBe(0);
    await owner.context.close();
  });
});

describe('firmware release notes', () => {
  it('are public and show enabled firmware only', async () => {
    // A retry finds the rows the first attempt wrote (file names are unique) and keeps them.
    const insert = db.prepare(
      `insert or ignore into firmware (type, product_name, epn, brand, hardware_version, compatible_software, upgrade_mode, file_name,
        version, size, sha256, signature, change_log, enabled, created_by, created_at, updated_at)
       values (?, ?, null, null, null, null, 'IAP', ?, ?, 1000, ?, 'sig', ?, ?, 1, ?, ?)`,
    );
    const t = Date.now();
    insert.run('gateway', 'Sunfleet Gateway', 'gw-3.bin', '3.0.0', 'a'.repeat(64), 'Faster uploads\nFewer reconnects', 1, t, t);
    insert.run('inverter', 'Hybrid 5K', 'h5k-2.bin', '2.1.0', 'b'.repeat(64), 'Withdrawn image', 0, t + 1, t);
    insert.run('inverter', 'Hybrid 5K', 'h5k-1.bin', '2.0.0', 'c'.repeat(64), 'Grid code update', 1, t - 1000, t);

    const { page, context } = await portal.page();
    await page.goto('/firmwareLogging');
    const list = page.getByTestId('firmware-log-list');
    await expect.poll(() => list.innerText(), WAIT).toContain('Faster uploads');
    const text = await list.innerText();
    expect(text).toContain('Grid code update');
    expect(text).not.toContain('Withdrawn image');
    expect(page.url()).toContain('/firmwareLogging');
    await shot(page, 'firmware-logging');
    await page.getByTestId('firmware-log-type').getByText('Inverter').click();
    await expect.poll(() => list.innerText(), WAIT).not.toContain('Faster uploads');
    expect(await list.innerText()).toContain('Grid code update');
    await context.close();
  });
});
