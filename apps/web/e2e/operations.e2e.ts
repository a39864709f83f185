/**
 * Power and diagnostics in the real portal, the demo fleet's simulated gateways answering over
 * the command channel: the installer restarts an online demo gateway from its page and follows
 * the job to "succeeded", then runs a debug code on an inverter behind another gateway and reads
 * the device's diagnostic text. The demo visitor finds neither the restart nor the debug.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 30_000 };

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '5', SIMULATOR_BACKFILL_DAYS: '0' });
});
afterAll(() => portal?.close());

type Gateway = { id: number; sn: string; alias: string | null; plant: { name: string } | null };
type Inverter = { sn: string; status: string; gateway: { sn: string } };

/** Two online gateways the account sees, and an inverter reporting through the second. */
async function fleet(account: string): Promise<{ restart: Gateway; inverter: Inverter }> {
  const get = await portal.api(account);
  const deadline = Date.now() + 60_000;
  for (;;) {
    const gateways = (await get<{ list: Gateway[] }>('/api/v1/gateways?status=online&size=100')).data?.list ?? [];
    const inverters = (await get<{ list: Inverter[] }>('/api/v1/inverters?size=100')).data?.list ?? [];
    for (const restart of gateways) {
      const inverter = inverters.find(
        (i) => i.status !== 'offline' && i.gateway.sn !== restart.sn && gateways.some((g) => g.sn === i.gateway.sn),
      );
      if (inverter) return { restart, inverter };
    }
    if (Date.now() > deadline) throw new Error(`no two online gateways with an inverter for ${account} within 60 s`);
    await new Promise((r) => setTimeout(r, 1000));
  }
}

describe('gateway restart and debug', () => {
  it('restarts a demo gateway from its page and sees it succeed; runs an inverter debug and reads the reply', async () => {
    const { restart, inverter } = await fleet(demo.companyAdmin);
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);

    await page.goto(`/device/gateway/${restart.id}`);
    await page.getByTestId('gateway-restart').click(WAIT);
    const title = page.locator('[data-testid="restart-confirm-title"]:visible');
    await expect.poll(() => title.innerText(), WAIT).toContain(restart.alias ?? restart.sn);
    expect(await title.innerText()).toContain(restart.plant?.name ?? 'no plant');
    await page.getByTestId('restart-confirm-ok').click();
    const job = page.getByTestId(`restart-job-${restart.sn}`);
    await expect.poll(() => job.getAttribute('data-state'), WAIT).toBe('succeeded');
    expect(await job.innerText()).toContain('Restarted');
    await page.keyboard.press('Escape');

    await page.goto(`/device/inverter/${inverter.sn}?tab=debug`);
    await page.getByTestId('debug-code').fill('status', WAIT);
    await page.getByTestId('debug-send').click();
    const text = page.getByTestId('debug-text');
    await text.waitFor(WAIT);
    const reply = await text.innerText();
    expect(reply).toContain('debug status');
    expect(reply).toContain(`device ${inverter.sn}`);
    await context.close();
  }, 120_000);

  it('the demo visitor sees no restart on a gateway and no debug on an inverter', async () => {
    const get = await portal.api(demo.visitor);
    const gateways = (await get<{ list: Gateway[] }>('/api/v1/gateways?size=5')).data?.list ?? [];
    const inverters = (await get<{ list: Inverter[] }>('/api/v1/inverters?size=5')).data?.list ?? [];
    expect(gateways.length).toBeGreaterThan(0);
    expect(inverters.length).toBeGreaterThan(0);
    const { page, context } = await portal.page();
    await portal.login(page, demo.visitor, DEMO_PASSWORD);
    await page.goto(`/device/gateway/${gateways[0]!.id}`);
    await page.getByTestId('gateway-info').waitFor(WAIT);
    expect(await page.getByTestId('gateway-restart').count()).toBe(0);
    expect(await page.getByTestId('gateway-debug').count()).toBe(0);
    await page.goto(`/device/inverter/${inverters[0]!.sn}?tab=debug`);
    await page.getByTestId('inverter-tabs').waitFor(WAIT);
    expect(await page.getByTestId('inverter-debug').count()).toBe(0);
    await context.close();
  }, 60_000);
});
