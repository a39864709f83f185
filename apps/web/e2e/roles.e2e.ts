/**
 * Roles in the screens, in the real portal: the demo visitor (a read-only account, visitor of the
 * owner's plants) types the plant forms' addresses and gets the 403 page, and finds no add, edit,
 * share, transfer or delete button on the plant list or a plant's overview; the owner, on the same
 * pages, has them. The app download page shows the configured store pages as links and QR codes
 * that decode to them.
 *
 * With SHOTS_DIR set, the 403 page and the app download page are saved there in English and
 * Spanish at 1366×768 and 1920×1080 (for looking at, not compared).
 */
import fs from 'node:fs';
import path from 'node:path';
import jsQR from 'jsqr';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

const IOS = 'https://apps.apple.com/app/sunfleet/id6400000001';
const ANDROID = 'https://play.google.com/store/apps/details?id=com.sunfleet.app';
const WAIT = { timeout: 10_000 };
const SHOTS = process.env.SHOTS_DIR;
const SIZES = [
  { width: 1366, height: 768 },
  { width: 1920, height: 1080 },
];

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({ APP_IOS_URL: IOS, APP_ANDROID_URL: ANDROID });
});
afterAll(() => portal?.close());

async function signIn(account: string) {
  const { page, context } = await portal.page();
  await portal.login(page, account, DEMO_PASSWORD);
  await page.waitForURL('**/plants');
  await page.getByTestId('plant-table').waitFor();
  return { page, context };
}

/** The list row ids (the demo owner's three plants, which the visitor visits). */
async function rowIds(page: Page): Promise<string[]> {
  await expect.poll(() => page.locator('.ant-table-row').count(), WAIT).toBeGreaterThanOrEqual(3);
  return page.locator('.ant-table-row').evaluateAll((rows) => rows.map((r) => r.getAttribute('data-row-key') ?? ''));
}

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.waitForTimeout(300);
    await page.screenshot({ path: path.join(SHOTS, `${name}-${size.width}x${size.height}.png`) });
  }
}

describe('roles in the screens', () => {
  let plantIds: string[] = [];

  it('a visitor gets the 403 page on the plant forms and sees no writing button', async () => {
    const { page, context } = await signIn(demo.visitor);
    plantIds = await rowIds(page);
    expect(await page.getByTestId('add-plant').count()).toBe(0);
    for (const id of plantIds)
      for (const action of ['edit', 'share', 'transfer', 'delete'])
        expect(await page.getByTestId(`plant-${action}-${id}`).count(), `${action} ${id}`).toBe(0);

    // The plant's overview: no edit.
    await page.locator(`[data-testid="plant-link-${plantIds[0]}"]`).click();
    await page.getByTestId('overview-name').waitFor(WAIT);
    expect(await page.getByTestId('overview-edit').count()).toBe(0);

    // Typed addresses of the forms: the 403 page, inside the portal, at the typed address.
    for (const address of ['/plant-add', `/plants/edit/${plantIds[0]}`, '/edit']) {
      await page.goto(address);
      await page.getByTestId('forbidden').waitFor(WAIT);
      expect(new URL(page.url()).pathname).toBe(address);
      expect(await page.getByTestId('plant-create-page').count()).toBe(0);
      expect(await page.getByTestId('plant-edit-page').count()).toBe(0);
    }
    expect(await page.getByTestId('forbidden').innerText()).toContain('No access to this page');
    expect(await page.getByTestId('side-menu').count()).toBe(1);
    await shoot(page, 'forbidden-en');
    // A way back: the start page.
    await page.getByTestId('forbidden-home').click();
    await page.waitForURL('**/plants');
    await context.close();
  });

  it('the 403 page in Spanish', async () => {
    const { page, context } = await portal.page({ locale: 'es-ES' });
    await context.addInitScript(() => localStorage.setItem('language', 'es'));
    await portal.login(page, demo.visitor, DEMO_PASSWORD);
    await page.goto('/plant-add');
    await page.getByTestId('forbidden').waitFor(WAIT);
    expect(await page.getByTestId('forbidden').innerText()).toContain('Sin acceso a esta página');
    await shoot(page, 'forbidden-es');
    await context.close();
  });

  it('the owner, on the same pages, has the buttons and the forms', async () => {
    const { page, context } = await signIn(demo.owner);
    const ids = await rowIds(page);
    expect(ids).toEqual(expect.arrayContaining(plantIds));
    await expect.poll(() => page.getByTestId('add-plant').count(), WAIT).toBe(1);
    for (const action of ['edit', 'share', 'transfer', 'delete'])
      expect(await page.getByTestId(`plant-${action}-${plantIds[0]}`).count(), action).toBe(1);
    await page.locator(`[data-testid="plant-link-${plantIds[0]}"]`).click();
    await page.getByTestId('overview-edit').waitFor(WAIT);
    await page.goto('/plant-add');
    await page.getByTestId('plant-create-page').waitFor(WAIT);
    await page.goto(`/plants/edit/${plantIds[0]}`);
    await page.getByTestId('plant-edit-page').waitFor(WAIT);
    expect(await page.getByTestId('forbidden').count()).toBe(0);
    await context.close();
  });
});

/** Draw an <img> on a canvas and read the QR code in it. */
async function decodeQr(page: Page, testId: string): Promise<string | null> {
  const img = page.getByTestId(testId);
  await img.waitFor(WAIT);
  const pixels = await img.evaluate(async (el: HTMLImageElement) => {
    await el.decode();
    const size = 360;
    const canvas = document.createElement('canvas');
    canvas.width = size;
    canvas.height = size;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#fff';
    ctx.fillRect(0, 0, size, size);
    ctx.drawImage(el, 0, 0, size, size);
    return { data: Array.from(ctx.getImageData(0, 0, size, size).data), size };
  });
  return jsQR(Uint8ClampedArray.from(pixels.data), pixels.size, pixels.size)?.data ?? null;
}

describe('app download page', () => {
  it('shows the configured store pages as links and QR codes that decode to them', async () => {
    for (const locale of ['en-US', 'es-ES']) {
      const { page, context } = await portal.page({ locale });
      await context.addInitScript((lng) => localStorage.setItem('language', lng), locale.slice(0, 2));
      await page.goto('/app/download');
      await page.getByTestId('store-ios-link').waitFor(WAIT);
      expect(await page.getByTestId('store-ios-link').getAttribute('href')).toBe(IOS);
      expect(await page.getByTestId('store-android-link').getAttribute('href')).toBe(ANDROID);
      expect(await decodeQr(page, 'store-ios-qr')).toBe(IOS);
      expect(await decodeQr(page, 'store-android-qr')).toBe(ANDROID);
      await shoot(page, `app-download-${locale.slice(0, 2)}`);
      await context.close();
    }
  });
});
