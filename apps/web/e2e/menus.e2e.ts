/**
 * Every menu entry of every demo role and of the operator (the system administrator) leads to a
 * page that loads: no "could not be loaded", no 403 page, no 404 page, and none of the page's API
 * calls refused as forbidden (2, 403) or not found (404). The operator belongs to no company, so
 * the company pages are not in their menu. Walked in English, and for the operator in Spanish too.
 */
import { ErrorCode } from '@sunfleet/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import enCommon from '../src/locales/en/common.json' with { type: 'json' };
import esCommon from '../src/locales/es/common.json' with { type: 'json' };
import { ADMIN, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';
import { watchApi } from './quiet.ts';

let portal: Portal;

beforeAll(async () => {
  portal = await startPortal();
});

afterAll(async () => {
  await portal?.close();
});

const loadFailed = [enCommon.state.errorTitle, esCommon.state.errorTitle];
/** Envelope codes that mean the page asked for what the account may not have or cannot reach (HTTP 403 and 404 are caught by their status). */
const refusedCodes = new Set<number>([ErrorCode.noPermission, ErrorCode.notFound]);

/** The paths of the menu's entries, every group opened. */
async function menuEntries(page: Page): Promise<string[]> {
  const menu = page.getByTestId('side-menu');
  await menu.waitFor();
  const closed = menu.locator('.ant-menu-submenu:not(.ant-menu-submenu-open) > .ant-menu-submenu-title');
  for (let left = await closed.count(); left > 0; left--) await closed.first().click();
  const ids = await menu
    .locator('li.ant-menu-item')
    .evaluateAll((items) => items.map((li) => li.getAttribute('data-menu-id') ?? ''));
  return ids.map((id) => id.slice(id.indexOf('-/') + 1)).filter((path) => path.startsWith('/'));
}

/** Open each menu entry by clicking it; the problems seen on the page it leads to. */
async function walk(account: string, password: string, locale = 'en-US'): Promise<{ entries: string[]; problems: string[] }> {
  const { page, context } = await portal.page({ locale });
  const problems: string[] = [];
  let current = '';
  page.on('response', (res) => {
    const url = new URL(res.url());
    if (!url.pathname.startsWith('/api/')) return;
    const at = current;
    if (res.status() >= 400) problems.push(`${at}: ${res.request().method()} ${url.pathname} answered HTTP ${res.status()}`);
    if (!(res.headers()['content-type'] ?? '').includes('json')) return;
    res
      .json()
      .then((body: { code?: number }) => {
        if (body.code !== undefined && refusedCodes.has(body.code))
          problems.push(`${at}: ${res.request().method()} ${url.pathname} answered code ${body.code}`);
      })
      .catch(() => {});
  });
  const api = watchApi(page);
  await portal.login(page, account, password);
  const entries = await menuEntries(page);
  for (const path of entries) {
    current = path;
    await page.locator(`[data-testid="side-menu"] li.ant-menu-item[data-menu-id$="-${path}"]`).click();
    await page.waitForURL((u) => u.pathname === path);
    await page.getByTestId('page-loading').waitFor({ state: 'detached', timeout: 20_000 });
    // The page's first calls answered (a page may poll: no waiting for the network to fall idle).
    await api.settled(500);
    const main = page.locator('main');
    if (await page.getByTestId('forbidden').count()) problems.push(`${path}: the 403 page`);
    if (await page.getByTestId('not-found').count()) problems.push(`${path}: the 404 page`);
    const text = await main.innerText();
    for (const failed of loadFailed) if (text.includes(failed)) problems.push(`${path}: "${failed}"`);
  }
  await context.close();
  return { entries, problems };
}

describe('every menu entry opens a page that loads', () => {
  it('the operator (system administrator): every menu but the company pages, which need a company', async () => {
    const { entries, problems } = await walk(ADMIN.account, ADMIN.password);
    expect(problems).toEqual([]);
    expect(entries).toContain('/management/status');
    expect(entries).toContain('/firmware/gate');
    expect(entries.filter((p) => p.startsWith('/enterprise'))).toEqual([]);
  }, 240_000);

  it('the operator in Spanish', async () => {
    const { problems } = await walk(ADMIN.account, ADMIN.password, 'es-ES');
    expect(problems).toEqual([]);
  }, 240_000);

  it('the installer (company administrator): the company pages too', async () => {
    const { entries, problems } = await walk(demo.companyAdmin, DEMO_PASSWORD);
    expect(problems).toEqual([]);
    expect(entries).toEqual(expect.arrayContaining(['/enterprise/company', '/enterprise/user', '/enterprise/roles']));
  }, 240_000);

  it('the technician (company user)', async () => {
    const { entries, problems } = await walk(demo.companyUser, DEMO_PASSWORD);
    expect(problems).toEqual([]);
    expect(entries).toContain('/plants');
  }, 240_000);

  it('the owner', async () => {
    const { entries, problems } = await walk(demo.owner, DEMO_PASSWORD);
    expect(problems).toEqual([]);
    expect(entries).toContain('/plants');
  }, 240_000);

  it('the visitor (read-only)', async () => {
    const { entries, problems } = await walk(demo.visitor, DEMO_PASSWORD);
    expect(problems).toEqual([]);
    expect(entries).toContain('/plants');
  }, 240_000);
});
