/**
 * Company administration in the real portal, as the demo company's administrator: the theme
 * colour chosen on the company page reaches the whole shell at once and after a reload (the
 * primary button's computed colours, and pixels of a screenshot), also for another account of
 * the company; the logo reaches the menu; accounts are added, refused when already in a company
 * (106) and taken out; a role is added from the permission tree and one in use is deleted with
 * its accounts moved; every change is in the audit log.
 *
 * With SHOTS_DIR set, the four pages are saved there at 1366×768 (for looking at, not compared).
 */

import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import { theme } from 'antd';
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PNG_1PX } from '../../server/test/account.ts';
import { DEMO_PASSWORD, demo, type Portal, resetCompanyColour, startPortal } from './portal.ts';

const WAIT = { timeout: 15_000 };
const SHOTS = process.env.SHOTS_DIR;
const COLOUR = '#aa3300';

/**
 * The primary colour antd shows for a seed under the portal's brand here (127.0.0.1: the dark
 * default brand, whose algorithm derives a darker shade of the seed), as [r, g, b].
 */
function shown(seed: string): [number, number, number] {
  const hex = theme.getDesignToken({ algorithm: theme.darkAlgorithm, token: { colorPrimary: seed } }).colorPrimary;
  const n = (i: number) => Number.parseInt(hex.slice(i, i + 2), 16);
  return [n(1), n(3), n(5)];
}
const css = (rgb: readonly number[]) => `rgb(${rgb.join(', ')})`;

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal();
});
afterAll(() => portal?.close());

/** The company's accounts whose account contains `keyword`. */
async function companyUsers(keyword: string) {
  const admin = await portal.api(demo.companyAdmin);
  const users = await admin<{ list: { id: number; account: string; roleName: string | null }[] }>(
    `/api/v1/company/user/list?size=100&keyword=${encodeURIComponent(keyword)}`,
  );
  return users.data.list;
}

async function signIn(account: string) {
  const { page, context } = await portal.page();
  await page.setViewportSize({ width: 1366, height: 768 });
  await portal.login(page, account, DEMO_PASSWORD);
  return { page, context };
}

const colours = (el: Locator) =>
  el.evaluate((e) => {
    const s = getComputedStyle(e);
    return { background: s.backgroundColor, text: s.color };
  });

/** The colour of one pixel of a screenshot of the page, read back through a canvas. */
async function pixel(page: Page, shot: Buffer, x: number, y: number): Promise<number[]> {
  return page.evaluate(
    async ({ src, x, y }) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      return Array.from(ctx.getImageData(x, y, 1, 1).data.slice(0, 3));
    },
    { src: `data:image/png;base64,${shot.toString('base64')}`, x, y },
  );
}

const near = (a: readonly number[], b: readonly number[], tolerance = 6) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(300);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

describe('company administration', () => {
  it('the theme colour applies to the whole shell, at once, after a reload and for the other accounts of the company', async () => {
    await resetCompanyColour(portal);
    const { page, context } = await signIn(demo.companyAdmin);
    await page.goto('/enterprise/company');
    await page.getByTestId('company-details').waitFor(WAIT);
    const edit = page.getByTestId('company-edit');
    // The default colour #00cc00 takes black text (white would not reach 4.5:1 on it).
    expect(await colours(edit)).toEqual({ background: css(shown('#00cc00')), text: 'rgb(0, 0, 0)' });

    await page.getByTestId('brand-color').locator('.ant-color-picker-trigger').click();
    const hex = page.locator('.ant-color-picker-input input').first();
    await hex.waitFor(WAIT);
    await hex.fill(COLOUR.slice(1));
    await hex.press('Enter');
    await page.keyboard.press('Escape');
    await expect.poll(() => page.getByTestId('color-contrast').textContent(), WAIT).toContain('white');
    await page.getByTestId('color-save').click();
    const applied = { background: css(shown(COLOUR)), text: 'rgb(255, 255, 255)' };
    await expect.poll(() => colours(edit), WAIT).toEqual(applied);
    await shoot(page, 'company');

    // A screenshot of the page: the button's face away from its text is the company colour.
    const box = (await edit.boundingBox())!;
    const shot = await page.screenshot();
    expect(near(await pixel(page, shot, Math.round(box.x + 4), Math.round(box.y + box.height / 2)), shown(COLOUR))).toBe(true);

    await page.reload();
    await page.getByTestId('company-details').waitFor(WAIT);
    expect(await colours(page.getByTestId('company-edit'))).toEqual(applied);
    await context.close();

    // Another account of the company: the shell's primary colour is the company's.
    const other = await signIn(demo.companyUser);
    await other.page.goto('/account');
    const save = other.page.locator('.ant-btn-primary').first();
    await save.waitFor(WAIT);
    await expect.poll(() => colours(save), WAIT).toEqual(applied);
    await other.context.close();
  });

  it('an uploaded logo becomes the menu logo, under a name made of its content', async () => {
    const { page, context } = await signIn(demo.companyAdmin);
    await page.goto('/enterprise/company');
    await page.getByTestId('brand-field-logo').waitFor(WAIT);
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'logo-')), 'logo.png');
    fs.writeFileSync(file, PNG_1PX);
    await page.getByTestId('brand-field-logo').locator('input[type=file]').setInputFiles(file);
    await expect
      .poll(() => page.locator('img[data-testid="brand-logo"]').getAttribute('src'), WAIT)
      .toMatch(/^\/uploads\/logos\/[a-f0-9]{32}\.png$/);
    await context.close();
  });

  it('adds an account with a role, refuses one already in a company (106), and takes one out after a confirmation', async () => {
    // The account is new for each attempt (one taken out keeps its sign-in), and one an earlier
    // attempt added is taken out first: the next test counts the Technician role's accounts.
    const admin = await portal.api(demo.companyAdmin);
    for (const left of await companyUsers('new.tech.'))
      expect((await admin(`/api/v1/company/user/delete/${left.id}`, { method: 'POST' })).code).toBe(ErrorCode.ok);
    const account = `new.tech.${Date.now().toString(36)}@demo.sunfleet.local`;
    const { page, context } = await signIn(demo.companyAdmin);
    await page.goto('/enterprise/user');
    await page.getByTestId('users-page').waitFor(WAIT);
    await expect.poll(() => page.locator('.ant-table-row').count(), WAIT).toBeGreaterThanOrEqual(2);

    await page.getByTestId('user-add').click();
    await page.getByTestId('user-account').fill(account);
    await page.getByTestId('user-password').fill('secret12');
    await page.getByTestId('user-name').fill('Nuria Tech');
    await page.getByTestId('user-role').click();
    await page.locator('.ant-select-item-option[title="Technician"]').click();
    await page.getByTestId('user-save').click();
    await page.getByText(account).waitFor(WAIT);
    await shoot(page, 'users');

    // The demo technician is in the company already: the form says so on leaving the field.
    await page.getByTestId('user-add').click();
    await page.getByTestId('user-account').fill(demo.companyUser);
    await page.getByTestId('user-password').click();
    await page.getByText('This account already belongs to a company').waitFor(WAIT);
    await page.keyboard.press('Escape');

    const row = page.locator('.ant-table-row', { hasText: account });
    const id = await row.getAttribute('data-row-key');
    await page.getByTestId(`user-remove-${id}`).click();
    await page.getByTestId('remove-confirm-ok').click();
    await expect.poll(() => page.getByText(account).count(), WAIT).toBe(0);
    await context.close();
  });

  it('adds a role from the permission tree and deletes a role in use, moving its accounts', async () => {
    // The new role is named anew for each attempt, and the role deleted is the demo technician's
    // now (Technician, or the role an earlier attempt moved it to): a retry does not meet the
    // first attempt's role under the same name, nor look for a role it deleted.
    const viewersName = `Viewers ${Date.now().toString(36)}`;
    const [technicianAccount] = (await companyUsers(demo.companyUser)).filter((u) => u.account === demo.companyUser);
    const inUse = technicianAccount!.roleName!;
    const { page, context } = await signIn(demo.companyAdmin);
    await page.goto('/enterprise/roles');
    await page.getByTestId('roles-page').waitFor(WAIT);
    await page.getByTestId('role-add').click();
    await page.getByTestId('role-name').fill(viewersName);
    const tree = page.getByTestId('role-tree');
    await tree.waitFor(WAIT);
    // Checking a button checks its page.
    await tree.locator('.ant-tree-treenode', { hasText: 'Edit plant' }).locator('.ant-tree-checkbox').click();
    await expect
      .poll(
        () =>
          tree
            .locator('.ant-tree-treenode', { hasText: /^Plants/ })
            .locator('.ant-tree-checkbox-checked')
            .count(),
        WAIT,
      )
      .toBeGreaterThan(0);
    await shoot(page, 'role-dialog');
    await page.getByTestId('role-save').click();
    const viewers = page.locator('.ant-table-row', { hasText: viewersName });
    await viewers.waitFor(WAIT);
    // Read beside the role's name, whose mark may hold digits of its own.
    expect((await viewers.textContent())?.replace(viewersName, '')).toContain('2');

    const technician = page.locator('.ant-table-row', { hasText: inUse });
    const id = await technician.getAttribute('data-row-key');
    await page.getByTestId(`role-delete-${id}`).click();
    const ok = page.getByTestId('role-delete-ok');
    expect(await ok.isDisabled()).toBe(true);
    await page.getByTestId('role-move-to').click();
    await page.locator(`.ant-select-item-option[title="${viewersName}"]`).click();
    await ok.click();
    await expect.poll(() => page.locator('.ant-table-row', { hasText: inUse }).count(), WAIT).toBe(0);
    await expect.poll(() => viewers.textContent(), WAIT).toMatch(new RegExp(`${viewersName}\\s*2\\s*1`));
    await shoot(page, 'roles');
    await context.close();
  });

  it('the audit log, reached from the company page, lists the changes and filters them', async () => {
    const { page, context } = await signIn(demo.companyAdmin);
    await page.goto('/enterprise/company');
    await page.getByTestId('audit-link').click();
    await page.getByTestId('audit-page').waitFor(WAIT);
    await expect.poll(() => page.locator('.ant-table-row').count(), WAIT).toBeGreaterThanOrEqual(5);
    await page.getByText('themeColor').first().waitFor(WAIT);
    await shoot(page, 'audit');
    await page.getByTestId('audit-entity').click();
    await page.locator('.ant-select-item-option[title="Role"]').click();
    await expect.poll(() => new URL(page.url()).searchParams.get('entity'), WAIT).toBe('role');
    await expect
      .poll(async () => (await page.locator('.ant-table-row').allTextContents()).every((t) => t.includes('Role')), WAIT)
      .toBe(true);
    await context.close();
  });
});
