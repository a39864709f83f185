/** The menu and buttons follow the granted permission tree, for each kind of account. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal?.close());

/** A typed address is a full page load (the app, the session, the page's code): more than expect.poll's 1 s default. */
const LOAD = { timeout: 15_000 };

async function menuOf(account: string, password: string) {
  const { page, context } = await portal.page();
  await portal.login(page, account, password);
  const menu = page.getByTestId('side-menu');
  await expect.poll(() => menu.innerText(), LOAD).toContain('Plants');
  return { page, context, text: await menu.innerText() };
}

describe('menus by account kind', () => {
  it('a system administrator sees the platform menus', async () => {
    const { text, context } = await menuOf(ADMIN.account, ADMIN.password);
    for (const entry of ['Plants', 'Devices', 'Firmware', 'Customers', 'Logs', 'System']) expect(text).toContain(entry);
    await context.close();
  });

  it('a company administrator sees the company menu but no platform menu', async () => {
    const { text, context, page } = await menuOf(demo.companyAdmin, DEMO_PASSWORD);
    expect(text).toContain('Company');
    for (const entry of ['Firmware', 'Customers', 'System']) expect(text).not.toContain(entry);
    // A platform page typed in by hand is not for this account: the 403 page.
    await page.goto('/firmware');
    await expect.poll(() => page.getByTestId('forbidden').count(), LOAD).toBe(1);
    // An address the portal does not have: 404.
    await page.goto('/no-such-page');
    await expect.poll(() => page.getByTestId('not-found').count(), LOAD).toBe(1);
    await context.close();
  });

  it('a company user sees only what the role grants', async () => {
    const { text, context } = await menuOf(demo.companyUser, DEMO_PASSWORD);
    expect(text).toContain('Devices');
    for (const entry of ['Company', 'Firmware', 'Energy programmes']) expect(text).not.toContain(entry);
    await context.close();
  });

  it('a visitor sees no button it may not use, and no account settings', async () => {
    const visitor = await menuOf(demo.visitor, DEMO_PASSWORD);
    expect(await visitor.page.getByTestId('add-plant').count()).toBe(0);
    await visitor.page.getByTestId('user-menu').click();
    await expect.poll(() => visitor.page.getByTestId('logout').count()).toBe(1);
    expect(await visitor.page.getByTestId('account-settings').count()).toBe(0);
    await visitor.page.goto('/edit');
    await expect.poll(() => visitor.page.getByTestId('forbidden').count(), LOAD).toBe(1);
    await visitor.context.close();

    // The owner, on the same page, has the button: the difference is the permission tree.
    const owner = await menuOf(demo.owner, DEMO_PASSWORD);
    await expect.poll(() => owner.page.getByTestId('add-plant').count(), LOAD).toBe(1);
    await owner.context.close();
  });
});
