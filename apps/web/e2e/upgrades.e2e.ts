/**
 * A firmware upgrade in the real portal, the demo fleet's simulated gateways doing it for real:
 * an inverter image stored as the firmware library stores one (its blob and the server's
 * signature); the demo owner opens an online inverter, picks the image in the upgrade dialog
 * (which names the device), starts it, follows the link to the rollout page and sees it complete
 * once the inverter reports the new version; the inverter's page shows the upgrade's success.
 * The demo visitor finds no upgrade button.
 */

import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createDb } from '../../server/src/db/index.ts';
import { firmwareBlobPath, loadFirmwareSigner } from '../../server/src/firmware/signing.ts';
import { seriousViolations } from './axe.ts';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 30_000 };
const VERSION = '7.1.0.2';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '5', SIMULATOR_BACKFILL_DAYS: '0' });
  const image = randomBytes(256 * 1024);
  const sha256 = createHash('sha256').update(image).digest('hex');
  fs.mkdirSync(path.dirname(firmwareBlobPath(portal.dataDir, sha256)), { recursive: true });
  fs.writeFileSync(firmwareBlobPath(portal.dataDir, sha256), image);
  const store = createDb({ databaseUrl: null, sqliteFile: path.join(portal.dataDir, 'sunfleet.db') });
  try {
    const t = Date.now();
    await store.db
      .insertInto('firmware')
      .values({
        type: 'inverter',
        product_name: 'Hybrid 3P',
        epn: null,
        brand: null,
        hardware_version: null,
        compatible_software: null,
        upgrade_mode: 'IAP',
        file_name: 'hybrid-3p-7.1.0.2.bin',
        version: VERSION,
        size: image.length,
        sha256,
        signature: loadFirmwareSigner(portal.dataDir).sign(sha256),
        change_log: 'Faster MPPT tracking',
        created_by: 1,
        created_at: t,
        updated_at: t,
      })
      .execute();
  } finally {
    await store.db.destroy();
  }
}, 90_000);
afterAll(() => portal?.close());

type Inverter = { sn: string; alias: string | null; status: string; gateway: { sn: string } };

/**
 * An inverter of the account that reports now, behind an online gateway; with `neverUpgraded`, one
 * that has had no upgrade, so a retry does not pick the inverter an earlier attempt upgraded (its
 * upgrade running, or already on the version).
 */
async function onlineInverter(account: string, neverUpgraded = false): Promise<Inverter> {
  const call = await portal.api(account);
  const get = async <T>(p: string): Promise<T> => (await call<T>(p)).data;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const gateways = (await get<{ list: { sn: string }[] }>('/api/v1/gateways?status=online&size=100'))?.list ?? [];
    const inverters = (await get<{ list: Inverter[] }>('/api/v1/inverters?size=100'))?.list ?? [];
    for (const found of inverters.filter((i) => i.status !== 'offline' && gateways.some((g) => g.sn === i.gateway.sn))) {
      if (!neverUpgraded) return found;
      const upgrade = await call(`/api/v1/inverter/${encodeURIComponent(found.sn)}/upgrade/progress`);
      if (upgrade.code === ErrorCode.ok && upgrade.data === null) return found;
    }
    if (Date.now() > deadline) throw new Error(`no online inverter for ${account} within 60 s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('firmware upgrade', () => {
  it('upgrades an inverter from its page and follows the rollout to completed', async () => {
    const inverter = await onlineInverter(demo.owner, true);
    const { page, context } = await portal.page();
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await page.goto(`/device/inverter/${inverter.sn}`);
    await page.getByTestId('inverter-upgrade').click(WAIT);
    await page.getByTestId('upgrade-form').waitFor(WAIT);
    // The dialog names the device before anything is sent.
    expect(await page.getByTestId(`upgrade-target-${inverter.sn}`).innerText()).toContain(inverter.alias ?? inverter.sn);
    expect(await page.getByTestId('upgrade-ok').isDisabled()).toBe(true);
    await page.getByTestId('upgrade-firmware').click();
    await page.getByText(`Hybrid 3P · ${VERSION}`).click();
    expect(await page.getByTestId('upgrade-changelog').innerText()).toContain('Faster MPPT tracking');
    await page.getByTestId('upgrade-ok').click();
    await page.getByTestId('upgrade-result').waitFor(WAIT);
    await page.getByTestId('upgrade-rollout-link').click();

    await page.getByTestId('rollout-page').waitFor(WAIT);
    expect(await page.getByTestId('rollout-title').innerText()).toContain(VERSION);
    await expect.poll(() => page.getByTestId('rollout-state').innerText(), { timeout: 60_000, interval: 1000 }).toBe('Completed');
    expect(await page.getByTestId('rollout-counts-success').innerText()).toContain('1');
    expect(await seriousViolations(page)).toEqual([]);

    await page.goto(`/device/inverter/${inverter.sn}`);
    const card = page.getByTestId('upgrade-card');
    await expect.poll(() => card.getAttribute('data-state'), WAIT).toBe('success');
    expect(await card.innerText()).toContain(VERSION);
    await context.close();
  }, 150_000);

  it('the demo visitor finds no upgrade button', async () => {
    const inverter = await onlineInverter(demo.visitor);
    const { page, context } = await portal.page();
    await portal.login(page, demo.visitor, DEMO_PASSWORD);
    await page.goto(`/device/inverter/${inverter.sn}`);
    await page.getByTestId('inverter-tabs').waitFor(WAIT);
    expect(await page.getByTestId('inverter-upgrade').count()).toBe(0);
    await context.close();
  }, 90_000);
});
