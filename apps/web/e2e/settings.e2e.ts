/**
 * Remote settings in the real portal, the demo fleet's simulated gateways answering over the
 * command channel: the installer opens a hybrid inverter's settings, the first group is read from
 * the device, one value is changed, the diff confirmed, and the job ends with the value read back
 * and a row in the device's history. The demo visitor (a read-only account, visitor of the
 * owner's plants) opens the same page and finds the values but no write control.
 *
 * The first test needs the server's command channel (`deps.commands`) wired to the broker: without
 * it every read answers 1001 (offline) and the test fails at the read.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 20_000 };

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '5', SIMULATOR_BACKFILL_DAYS: '0' });
});
afterAll(() => portal?.close());

interface Field {
  key: string;
  type: string;
  min: number | null;
  max: number | null;
  step: number | null;
  writable: boolean;
  value: number | string | null;
}

/** A hybrid inverter the account sees whose gateway is online, with its setting family and first group. */
async function settingsInverter(account: string) {
  const get = await portal.api(account);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const list = await get<{ list: Array<{ sn: string; status: string }> }>('/api/v1/inverters?size=100');
    for (const inv of list.data?.list ?? []) {
      if (inv.status === 'offline') continue;
      const s = await get<{ family: string | null; groups: string[] }>(`/api/v1/inverter/setting/${inv.sn}/support`);
      if (s.data?.family && s.data.groups.length > 0) return { sn: inv.sn, family: s.data.family, group: s.data.groups[0]!, get };
    }
    if (Date.now() > deadline) throw new Error(`no online inverter with settings for ${account} within 60 s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

/** A writable number field of the group and a value one step from the current one, within range. */
function oneStep(fields: Field[]) {
  for (const f of fields) {
    if (!f.writable || f.type !== 'number' || typeof f.value !== 'number') continue;
    const step = f.step ?? 1;
    const up = f.value + step;
    const next = f.max === null || up <= f.max ? up : f.value - step;
    if (f.min !== null && next < f.min) continue;
    return { key: f.key, from: f.value, to: Math.round(next * 1e6) / 1e6 };
  }
  throw new Error('no writable number field in the group');
}

describe('remote settings', () => {
  it('reads a group of a demo inverter, writes one changed value after the confirmation, shows the read-back and the history row', async () => {
    const { sn, group } = await settingsInverter(demo.companyAdmin);
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await page.goto(`/device/setting?sn=${sn}`);
    await page.getByTestId(`setting-tab-${group}`).waitFor(WAIT);
    // The group is read from the device when its tab opens.
    await page.getByTestId('setting-form').waitFor(WAIT);

    // A writable number field of the group (as the API reads it) and a value one step away.
    const admin = await portal.api(demo.companyAdmin);
    const { data: groupRead } = await admin<{ groups: Array<{ group: string; fields: Field[] }> }>(
      `/api/v1/${await supportPath(sn)}/${group}/read`,
    );
    const change = oneStep(groupRead.groups.find((g) => g.group === group)!.fields);
    const input = page.locator(`#setting-${change.key}`);
    await input.fill(String(change.to));
    await page.getByTestId(`setting-changed-${change.key}`).waitFor(WAIT);
    await page.getByTestId('setting-write').click();
    const diff = page.getByTestId('setting-diff');
    await diff.waitFor(WAIT);
    expect(await diff.locator('tbody tr').count()).toBe(1);
    await page.getByTestId('setting-confirm-ok').click();

    const result = page.getByTestId('setting-result');
    await expect.poll(() => result.getAttribute('data-state'), WAIT).toBe('succeeded');
    const after = await page.getByTestId(`result-after-${change.key}`).innerText();
    expect(after).toContain(new Intl.NumberFormat('en').format(change.to));
    expect(await page.locator('[data-mismatch="true"]').count()).toBe(0);

    // The history has the job with its difference.
    const rows = page.locator('[data-testid^="history-row-"]');
    await expect.poll(() => rows.count(), WAIT).toBeGreaterThanOrEqual(1);
    expect(await rows.first().innerText()).toContain(demo.companyAdmin);
    await context.close();
  });

  it('a visitor sees the settings but no write control', async () => {
    const { sn, group } = await settingsInverter(demo.visitor);
    const { page, context } = await portal.page();
    await portal.login(page, demo.visitor, DEMO_PASSWORD);
    await page.goto(`/device/setting?sn=${sn}`);
    await page.getByTestId(`setting-tab-${group}`).waitFor(WAIT);
    expect(await page.getByTestId('device-settings').getAttribute('data-can-write')).toBe('false');
    await page.getByTestId('settings-read-only').waitFor(WAIT);
    // Whatever the read answers (values, or the device's code), nothing can be written.
    await page.locator('[data-testid="setting-form"], [data-testid^="settings-error-"]').first().waitFor(WAIT);
    expect(await page.getByTestId('setting-write').count()).toBe(0);
    expect(await page.locator('[data-testid="setting-form"] input').count()).toBe(0);
    expect(await page.locator('[data-testid^="revert-"]').count()).toBe(0);
    // Nor is a batch offered on the inverter list.
    await page.goto('/device/inverter');
    await page.getByTestId('inverter-table').waitFor(WAIT);
    expect(await page.locator('.ant-table-row .ant-checkbox-input').count()).toBe(0);
    await context.close();
  });
});

async function supportPath(sn: string): Promise<string> {
  const get = await portal.api(demo.companyAdmin);
  const { data } = await get<{ path: string }>(`/api/v1/inverter/setting/${sn}/support`);
  return data.path.replace(/^\/api\/v1\//, '');
}
