/**
 * The company colour reaches charts, statuses and the shell in the real portal (the dark default
 * brand, the demo fleet with a day of history), as the demo company's administrator: after the
 * colour is saved on the company page, the month chart's generation bars are drawn in the
 * palette's generation colour (pixels of the chart's canvas), the overview's status tag in the
 * theme's status colour seeded from the palette, the device list's status cards and the map's
 * CSS variables in the palette's meaning colours; a screenshot of the shell (menu and header)
 * before and after differs only where the company colour shows (the selected menu item), compared
 * pixel by pixel with a tolerance.
 *
 * With SHOTS_DIR set, the overview and the inverter list are saved there at 1366×768 per colour.
 */
import fs from 'node:fs';
import path from 'node:path';
import { theme } from 'antd';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defaultBrand } from '../src/app/brands.ts';
import { brandPalettes, brandTheme } from '../src/app/theme.tsx';
import { readableShade } from '../src/lib/colour.ts';
import { DEMO_PASSWORD, demo, type Portal, resetCompanyColour, startPortal } from './portal.ts';

const WAIT = { timeout: 20_000 };
const SHOTS = process.env.SHOTS_DIR;
const DEFAULT = '#00cc00';
const RED = '#e01010';
const BLUE = '#1f5fd6';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '5', SIMULATOR_BACKFILL_DAYS: '1' });
});
afterAll(() => portal?.close());

type Rgb = [number, number, number];
const rgbOf = (hex: string): Rgb => [1, 3, 5].map((i) => Number.parseInt(hex.slice(i, i + 2), 16)) as Rgb;
const css = (hex: string) => `rgb(${rgbOf(hex).join(', ')})`;

/** What 127.0.0.1 shows: the dark default brand's palette and antd tokens for a company colour. */
const looks = (colour: string) => ({
  palette: brandPalettes(defaultBrand, colour).screen,
  token: theme.getDesignToken(brandTheme(defaultBrand, colour)),
});

/** Save a company colour through the company page's colour picker. */
async function chooseColour(page: Page, colour: string) {
  await page.goto('/enterprise/company');
  await page.getByTestId('company-details').waitFor(WAIT);
  await page.getByTestId('brand-color').locator('.ant-color-picker-trigger').click();
  const hex = page.locator('.ant-color-picker-input input').first();
  await hex.waitFor(WAIT);
  await hex.fill(colour.slice(1));
  await hex.press('Enter');
  await page.keyboard.press('Escape');
  await page.getByTestId('color-save').click();
  const primary = theme.getDesignToken({ algorithm: theme.darkAlgorithm, token: { colorPrimary: colour } }).colorPrimary;
  await expect
    .poll(() => page.getByTestId('company-edit').evaluate((e) => getComputedStyle(e).backgroundColor), WAIT)
    .toBe(css(primary));
}

/** The first plant of the list whose month has generation bars. */
async function plantWithBars(page: Page): Promise<string> {
  const deadline = Date.now() + 90_000;
  for (;;) {
    await page.goto('/plants');
    const links = page.locator('[data-testid^="plant-link-"]');
    await links.first().waitFor(WAIT);
    const hrefs = await links.evaluateAll((l) => l.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      await page.goto(`${href}?period=month`);
      const chart = page.getByTestId('chart-month').or(page.getByTestId('chart-empty'));
      await chart.first().waitFor(WAIT);
      if ((await page.getByTestId('chart-month').count()) > 0) return href;
    }
    if (Date.now() > deadline) throw new Error('no plant with generation bars this month within 90 s');
    await page.waitForTimeout(3000);
  }
}

/** How many pixels of the chart's canvas are `colour` (±2 a channel: solid bars, not anti-aliased edges). */
async function pixelsOf(page: Page, testId: string, colour: string): Promise<number> {
  const [r, g, b] = rgbOf(colour);
  return page.getByTestId(testId).evaluate(
    (el, { r, g, b }) => {
      let n = 0;
      for (const canvas of el.querySelectorAll('canvas')) {
        const data = canvas.getContext('2d')!.getImageData(0, 0, canvas.width, canvas.height).data;
        for (let i = 0; i < data.length; i += 4)
          if (Math.abs(data[i]! - r) <= 2 && Math.abs(data[i + 1]! - g) <= 2 && Math.abs(data[i + 2]! - b) <= 2) n++;
      }
      return n;
    },
    { r, g, b },
  );
}

/** The RGB pixels of a screenshot region, read back through a canvas in the page. */
async function regionPixels(page: Page, shot: Buffer, box: { x: number; y: number; width: number; height: number }) {
  return page.evaluate(
    async ({ src, box }) => {
      const img = new Image();
      img.src = src;
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.width;
      canvas.height = img.height;
      const ctx = canvas.getContext('2d')!;
      ctx.drawImage(img, 0, 0);
      const data = ctx.getImageData(box.x, box.y, box.width, box.height).data;
      const out: number[] = [];
      for (let i = 0; i < data.length; i += 4) out.push(data[i]!, data[i + 1]!, data[i + 2]!);
      return out;
    },
    { src: `data:image/png;base64,${shot.toString('base64')}`, box },
  );
}

/** Share of pixels (0–1) whose colour differs by more than `tolerance` in some channel. */
function changed(a: readonly number[], b: readonly number[], tolerance = 8): number {
  let n = 0;
  for (let i = 0; i < a.length; i += 3) if ([0, 1, 2].some((c) => Math.abs(a[i + c]! - b[i + c]!) > tolerance)) n++;
  return n / (a.length / 3);
}

/** The most common colour of a region (the face of a menu item, not its text). */
function dominant(px: readonly number[]): Rgb {
  const count = new Map<string, number>();
  for (let i = 0; i < px.length; i += 3) {
    const key = `${px[i]},${px[i + 1]},${px[i + 2]}`;
    count.set(key, (count.get(key) ?? 0) + 1);
  }
  const [top] = [...count.entries()].sort((x, y) => y[1] - x[1]);
  return top![0].split(',').map(Number) as Rgb;
}
const near = (a: readonly number[], b: readonly number[], tolerance = 6) => a.every((v, i) => Math.abs(v - b[i]!) <= tolerance);

async function shoot(page: Page, name: string) {
  if (!SHOTS) return;
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.waitForTimeout(600);
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
}

/** The status tag's token key for a plant status word. */
const statusToken = { normal: 'colorSuccess', warning: 'colorWarning', fault: 'colorError', upgrading: 'colorInfo' } as const;

describe('the company colour drives chart and status colours', () => {
  it('chart series, status tag, status cards and the shell follow the company colour', async () => {
    await resetCompanyColour(portal);
    const { page, context } = await portal.page();
    await page.setViewportSize({ width: 1366, height: 768 });
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    const overview = await plantWithBars(page);

    const check = async (colour: string) => {
      const { palette, token } = looks(colour);
      await page.goto(`${overview}?period=month`);
      await page.getByTestId('chart-month').waitFor(WAIT);
      // Bars in the generation colour, drawn by the chart (animation over).
      await expect.poll(() => pixelsOf(page, 'chart-month', palette.generation.energy), WAIT).toBeGreaterThan(200);
      // The status tag: antd's status colour, seeded from the palette.
      const tag = page.getByTestId('overview-status');
      const status = (await tag.getAttribute('class'))?.match(/ant-tag-(success|warning|error|processing|default)/)?.[1];
      const word = { success: 'normal', warning: 'warning', error: 'fault', processing: 'upgrading' }[status ?? ''] as
        | keyof typeof statusToken
        | undefined;
      if (word) expect(await tag.evaluate((e) => getComputedStyle(e).color)).toBe(css(token[statusToken[word]]));
      // Map markers and CSS modules: the meaning colours as variables on the document.
      expect(await page.evaluate(() => getComputedStyle(document.documentElement).getPropertyValue('--sf-bad').trim())).toBe(
        palette.meaning.bad,
      );
      await shoot(page, `overview-month-${colour.slice(1)}`);
      if (SHOTS) {
        await page.goto(overview);
        await page.getByTestId('chart-day').or(page.getByTestId('chart-empty')).first().waitFor(WAIT);
        await shoot(page, `overview-day-${colour.slice(1)}`);
      }

      await page.goto('/device/inverter');
      await page.getByTestId('inverter-table').waitFor(WAIT);
      for (const [card, meaning] of [
        ['normal', 'good'],
        ['fault', 'bad'],
        ['warning', 'warning'],
      ] as const)
        expect(await page.getByTestId(`status-card-${card}`).evaluate((e) => e.style.getPropertyValue('--accent'))).toBe(
          palette.meaning[meaning],
        );
      // The list's status dots: antd's badge colours, seeded from the palette.
      const dot = page.locator('.ant-badge-status-dot.ant-badge-status-success').first();
      if ((await dot.count()) > 0)
        expect(await dot.evaluate((e) => getComputedStyle(e).backgroundColor)).toBe(css(token.colorSuccess));
      await shoot(page, `inverters-${colour.slice(1)}`);
      return palette;
    };

    const standard = await check(DEFAULT);
    expect(standard.generation.energy).toBe(DEFAULT);

    // The shell before: the menu (with its selected item) and the header, on the inverter list.
    const shell = async () => {
      const menu = (await page.locator('.ant-layout-sider').boundingBox())!;
      const header = (await page.locator('.ant-layout-header').boundingBox())!;
      const selected = (await page.locator('.ant-menu-item-selected').first().boundingBox())!;
      const shot = await page.screenshot();
      const r = (b: { x: number; y: number; width: number; height: number }) => ({
        x: Math.round(b.x),
        y: Math.round(b.y),
        width: Math.floor(b.width),
        height: Math.floor(b.height),
      });
      return {
        selected: await regionPixels(page, shot, r(selected)),
        header: await regionPixels(page, shot, r(header)),
        // The menu below its items: the sider's own background.
        below: await regionPixels(page, shot, r({ x: menu.x, y: menu.y + menu.height - 120, width: menu.width, height: 100 })),
      };
    };
    await page.mouse.move(1300, 700);
    const before = await shell();

    await chooseColour(page, RED);
    const red = await check(RED);
    expect(red.generation.energy).toBe(RED);
    // Nothing red reads as a fault: the fault colour moved off the company's hue.
    expect(red.meaning.bad).not.toBe(standard.meaning.bad);
    await page.mouse.move(1300, 700);
    const after = await shell();

    // The selected menu item took the company colour (white text on it); the rest of the shell is as it was.
    const face = (colour: string) => rgbOf(readableShade(looks(colour).token.colorPrimary, ['#ffffff']));
    expect(near(dominant(before.selected), face(DEFAULT))).toBe(true);
    expect(near(dominant(after.selected), face(RED))).toBe(true);
    expect(changed(before.selected, after.selected)).toBeGreaterThan(0.5);
    expect(changed(before.header, after.header)).toBeLessThan(0.01);
    expect(changed(before.below, after.below)).toBeLessThan(0.01);

    await chooseColour(page, BLUE);
    const blue = await check(BLUE);
    expect(blue.generation.energy).toBe(BLUE);

    await chooseColour(page, DEFAULT);
    await context.close();
  }, 240_000);
});
