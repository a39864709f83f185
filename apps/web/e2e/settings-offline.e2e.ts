/**
 * Remote settings of an inverter whose gateway is offline (a demo gateway the store is told has
 * gone, as presence records a disconnect): the group cannot be read, and the page shows the
 * offline notice with the group's form built from its field definitions, disabled, instead of
 * nothing.
 */
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 20_000 };

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '5', SIMULATOR_BACKFILL_DAYS: '0' });
});
afterAll(() => portal?.close());

/** A demo inverter the account sees whose protocol has setting groups, with its first group. */
async function settingsInverter(account: string) {
  const get = await portal.api(account);
  // The demo fleet's devices appear with their gateways' first uploads.
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = await get<{ list: Array<{ sn: string }> }>('/api/v1/inverters?size=100');
    for (const inv of list.data?.list ?? []) {
      const s = await get<{
        definitions: Array<{ group: string; fields: Array<{ key: string; unit: string | null }> }>;
      }>(`/api/v1/inverter/setting/${inv.sn}/support`);
      const first = s.data?.definitions[0];
      if (first && first.fields.length > 0) return { sn: inv.sn, group: first.group, fields: first.fields };
    }
    if (Date.now() > deadline) throw new Error(`no inverter with settings for ${account} within 60 s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('remote settings of an offline inverter', () => {
  it('shows the offline notice and the group’s form from its definitions, disabled', async () => {
    const { sn, group, fields } = await settingsInverter(demo.companyAdmin);
    // Its gateway gone, as the broker's presence records it.
    const store = new Database(path.join(portal.dataDir, 'sunfleet.db'));
    try {
      store.pragma('busy_timeout = 5000');
      store.prepare('update gateways set online = 0 where id = (select gateway_id from devices where sn = ?)').run(sn);
    } finally {
      store.close();
    }
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await page.goto(`/device/setting?sn=${sn}`);
    await page.getByTestId(`setting-tab-${group}`).waitFor(WAIT);
    const offline = page.getByTestId('setting-offline-form');
    await offline.waitFor(WAIT);
    await offline.getByTestId('settings-error-offline').waitFor(WAIT);
    const form = offline.getByTestId('setting-form');
    expect(await form.getAttribute('data-disabled')).toBe('true');
    // Every field of the group is labelled (with its unit), none can be typed in, nothing can be written.
    const text = await form.innerText();
    const withUnit = fields.find((f) => f.unit);
    if (withUnit) expect(text).toContain(`(${withUnit.unit})`);
    expect(await form.locator('input:not([disabled])').count()).toBe(0);
    expect(await page.getByTestId('setting-write').isDisabled()).toBe(true);
    await context.close();
  });
});
