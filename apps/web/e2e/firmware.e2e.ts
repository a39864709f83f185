/**
 * The firmware library in the real portal: the operator adds an inverter type and a product,
 * uploads a firmware image for it through the dialog (a real .bin file), sees it in the list and
 * stored under its SHA-256 in the data folder, is refused a lower version by the dialog itself,
 * disables the image and deletes it after confirming; the image's file goes with it. A company
 * administrator does not see the firmware menu, and the page answers 403 when typed.
 */

import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const WAIT = { timeout: 15_000, interval: 250 };
let portal: Portal;
let tmp: string;

beforeAll(async () => {
  portal = await startPortal();
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'fwlib-e2e-'));
});
afterAll(async () => {
  await portal?.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

/** Pick `option` in the antd Select inside the element with `testId`. */
async function choose(page: Page, testId: string, option: string) {
  await page.getByTestId(testId).click();
  await page.locator('.ant-select-dropdown:visible').getByText(option, { exact: true }).click();
}

const blobs = () => {
  const dir = path.join(portal.dataDir, 'firmware');
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((f) => f.endsWith('.bin')) : [];
};

describe('firmware library', () => {
  it('adds a type and a product, uploads, lists, refuses a lower version, disables and deletes an image', async () => {
    // The library starts empty for each attempt (an image an earlier attempt left is deleted), and
    // the type and product are named anew: a retry does not meet the first attempt's.
    const admin = await portal.api(ADMIN.account, ADMIN.password);
    const left = await admin<{ list: { id: number }[] }>('/api/v1/firmware/page?size=100');
    for (const { id } of left.data.list) expect((await admin(`/api/v1/firmware/${id}/delete`)).code).toBe(ErrorCode.ok);
    const tag = Date.now().toString(36).toUpperCase();
    const type = `Hybrid ${tag}`;
    const product = `HY-5K-${tag}`;
    const { context, page } = await portal.page();
    await portal.login(page, ADMIN.account, ADMIN.password);
    await page.goto('/firmware/inv');
    await page.getByTestId('firmware-page-inverter').waitFor();

    await page.getByRole('tab', { name: 'Inverter types' }).click();
    await page.getByTestId('type-add').click();
    await page.getByTestId('type-name').fill(type);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('types-table').getByText(type).waitFor();

    await page.getByRole('tab', { name: 'Products' }).click();
    await page.getByTestId('product-add').click();
    await page.getByTestId('product-name').fill(product);
    await choose(page, 'product-type', type);
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByTestId('products-table').getByText(product).waitFor();

    await page.getByRole('tab', { name: 'Firmware' }).click();
    const bytes = randomBytes(300_000);
    const file = path.join(tmp, 'HY5K-V1_2.bin');
    fs.writeFileSync(file, bytes);
    await page.getByTestId('firmware-upload').click();
    await choose(page, 'firmware-upload-product', product);
    await page.getByTestId('firmware-upload-version').fill('V1_2');
    await page.getByTestId('firmware-upload-form').locator('input[type=file]').setInputFiles(file);
    await page.getByTestId('firmware-upload-send').click();
    const table = page.getByTestId('firmware-table');
    await table.getByText('HY5K-V1_2.bin').waitFor();
    await expect.poll(blobs, WAIT).toEqual([`${createHash('sha256').update(bytes).digest('hex')}.bin`]);

    // A lower version is refused in the dialog, before anything is sent.
    await page.getByTestId('firmware-upload').click();
    await choose(page, 'firmware-upload-product', product);
    await page.getByText('Latest version of this product: V1_2').waitFor();
    await page.getByTestId('firmware-upload-version').fill('V1_10');
    await page.getByTestId('firmware-upload-version').fill('V1_1');
    await page.getByTestId('firmware-upload-send').click();
    await page.getByText('The version must be higher than V1_2').waitFor();
    await page.getByRole('button', { name: 'Cancel' }).click();

    const id = await table.locator('[data-testid^="firmware-enable-"]').first().getAttribute('data-testid');
    const fwId = Number(id!.replace('firmware-enable-', ''));
    await page.getByTestId(`firmware-enable-${fwId}`).click();
    await expect.poll(() => page.getByTestId(`firmware-enable-${fwId}`).getAttribute('aria-checked'), WAIT).toBe('false');

    await page.getByTestId(`firmware-detail-${fwId}`).click();
    await page.getByTestId('firmware-drawer').getByText(createHash('sha256').update(bytes).digest('hex')).waitFor();
    await page.keyboard.press('Escape');

    await page.getByTestId(`firmware-delete-${fwId}`).click();
    await page.getByRole('dialog').getByText('Delete HY5K-V1_2.bin?').last().waitFor();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete' }).click();
    await page.getByText('No firmware uploaded yet').waitFor();
    await expect.poll(blobs, WAIT).toEqual([]);
    await context.close();
  });

  it('a company administrator has no firmware menu and gets the 403 page', async () => {
    const { context, page } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await expect(page.getByRole('menuitem', { name: 'Firmware' }).count()).resolves.toBe(0);
    await page.goto('/firmware/gate');
    await expect.poll(() => page.getByTestId('forbidden').count(), WAIT).toBe(1);
    expect(await page.getByTestId('firmware-page-gateway').count()).toBe(0);
    await context.close();
  });
});
