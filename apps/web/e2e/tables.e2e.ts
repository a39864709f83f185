/**
 * The list tables in the real portal at 1366×768, with the demo fleet (15 plants): the plant
 * list's body fills the window's height (it follows a taller window, and shrinks when the bulk
 * bar appears, the pagination staying on screen), its header stays visible while the body scrolls,
 * its first column stays put when the body scrolls sideways, and every cut text has a tooltip;
 * selected plants a filter hides are counted as hidden in the bulk bar (English and Spanish).
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({
    SIMULATOR: 'on',
    SIMULATOR_GATEWAYS: '12',
    SIMULATOR_BACKFILL_DAYS: '0',
    SIMULATOR_INTERVAL: '60',
  });
  // The server provisions the fleet after it starts listening.
  const file = path.join(portal.dataDir, 'demo-fleet.json');
  for (const until = Date.now() + 30_000; !fs.existsSync(file) && Date.now() < until; )
    await new Promise((r) => setTimeout(r, 250));
});
afterAll(() => portal?.close());

const WAIT = { timeout: 15_000 };
const VIEW = { width: 1366, height: 768 };
/** The table's scrolling body (a virtual table's holder). */
const BODY = '[data-testid="plant-table"] :is(.ant-table-body, .ant-table-tbody-virtual-holder)';

async function plantList(locale = 'en-US') {
  const { page, context } = await portal.page({ locale });
  await page.setViewportSize(VIEW);
  await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
  const listed = async () => {
    await page.goto('/plants');
    await expect
      .poll(
        () =>
          page
            .locator('.ant-pagination-total-text')
            .innerText()
            .then((text) => Number.parseInt(text, 10)),
        WAIT,
      )
      .toBeGreaterThanOrEqual(12);
    await page.locator('[data-testid^="plant-link-"]').first().waitFor(WAIT);
  };
  await listed();
  // The interface language is the profile's (an earlier test may have changed it): set it through the switch.
  const language = locale.slice(0, 2);
  const lang = () => page.evaluate(() => document.documentElement.lang);
  if ((await lang()) !== language) {
    await page.getByTestId('language-switch').click();
    await page.getByTestId(`language-${language}`).click();
    await expect.poll(lang, WAIT).toBe(language);
    await listed();
  }
  return { page, context };
}

/** Where the plant table's body and pagination end, in the window. */
function layout(page: Page) {
  return page.evaluate(() => {
    const table = document.querySelector('[data-testid="plant-table"]')!;
    const wrapper = table.closest('.ant-table-wrapper')!;
    const body = table.querySelector<HTMLElement>('.ant-table-body, .ant-table-tbody-virtual-holder')!;
    return {
      window: window.innerHeight,
      bodyBottom: Math.round(body.getBoundingClientRect().bottom),
      bodyHeight: body.clientHeight,
      paginationBottom: Math.round(wrapper.querySelector('.ant-pagination')!.getBoundingClientRect().bottom),
      scrolls: body.scrollHeight > body.clientHeight,
    };
  });
}

/** The body ends near the window's bottom (the pagination and the card's padding below it), all on screen. */
async function expectFilled(page: Page) {
  await expect
    .poll(async () => {
      const l = await layout(page);
      return l.paginationBottom <= l.window && l.bodyBottom >= l.window - 130 && l.scrolls;
    }, WAIT)
    .toBe(true);
}

describe('list tables', () => {
  it('the plant list fills the window height, follows a taller window, and keeps its pagination on screen under the bulk bar', async () => {
    const { page, context } = await plantList();
    await expectFilled(page);
    const at768 = await layout(page);

    await page.setViewportSize({ width: VIEW.width, height: 1300 });
    await expectFilled(page);
    expect((await layout(page)).bodyHeight).toBeGreaterThan(at768.bodyHeight + 400);

    // Back at 768 px, selecting a plant brings the bulk bar above the table: the body gives way.
    await page.setViewportSize(VIEW);
    await expectFilled(page);
    await page.locator('[data-testid="plant-table"] .ant-table-row .ant-checkbox-input').first().check();
    await page.getByTestId('bulk-bar').waitFor();
    await expectFilled(page);
    await context.close();
  });

  it('keeps the header visible while the body scrolls and the first column in place when it scrolls sideways', async () => {
    const { page, context } = await plantList();
    const header = page.locator('[data-testid="plant-table"] .ant-table-thead th', { hasText: 'Plant' }).first();
    const firstCell = page
      .locator('[data-testid="plant-table"] .ant-table-row .ant-table-cell:has([data-testid^="plant-link-"])')
      .first();
    const before = await firstCell.boundingBox();

    /** Whether what the window shows at the middle of `box` belongs to the element (nothing covers it). */
    const onTop = (selector: string, index: number) =>
      page.evaluate(
        ([sel, i]) => {
          const el = document.querySelectorAll(sel as string)[i as number] as HTMLElement;
          const r = el.getBoundingClientRect();
          const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
          return r.top >= 0 && r.bottom <= window.innerHeight && hit !== null && el.contains(hit);
        },
        [selector, index] as const,
      );

    // Down: the rows move under the header, which stays where it was.
    const headerBefore = await header.boundingBox();
    await page.locator(BODY).evaluate((b) => {
      b.scrollTop = 400;
    });
    await expect.poll(() => firstCell.boundingBox().then((b) => b!.y), WAIT).toBeLessThan(before!.y - 300);
    expect((await header.boundingBox())!.y).toBe(headerBefore!.y);
    expect(
      await onTop('[data-testid="plant-table"] .ant-table-thead th.ant-table-cell-fix-start:not(.ant-table-selection-column)', 0),
    ).toBe(true);

    // Sideways: the other columns move, the first stays put and uncovered.
    const capacity = page.locator('[data-testid="plant-table"] .ant-table-thead th', { hasText: 'Capacity' }).first();
    const capacityX = (await capacity.boundingBox())!.x;
    const moved = await page.locator(BODY).evaluate((b) => {
      b.scrollTop = 0;
      b.scrollLeft = 400;
      return b.scrollLeft;
    });
    // The columns are wider than the card at 1366 px: the body scrolls sideways (to its end).
    expect(moved).toBeGreaterThan(40);
    await expect.poll(() => capacity.boundingBox().then((b) => Math.round(b!.x)), WAIT).toBe(Math.round(capacityX - moved));
    const after = await firstCell.boundingBox();
    expect(after!.x).toBe(before!.x);
    expect(await onTop('[data-testid="plant-table"] .ant-table-row .ant-table-cell:has([data-testid^="plant-link-"])', 0)).toBe(
      true,
    );
    await context.close();
  });

  it('every cut text in the first rows and the header has a tooltip with the whole text', async () => {
    const { page, context } = await plantList('es-ES');
    const cut = await page.evaluate(() => {
      const table = document.querySelector('[data-testid="plant-table"]')!;
      const rows = [...table.querySelectorAll('.ant-table-row')].slice(0, 3);
      const cells = [
        ...table.querySelectorAll('.ant-table-thead th'),
        ...rows.flatMap((r) => [...r.querySelectorAll('.ant-table-cell')]),
      ];
      const found: Array<{ id: number; text: string; title: string | null }> = [];
      for (const cell of cells) {
        for (const el of [cell, ...cell.querySelectorAll<HTMLElement>('*')]) {
          if (el.scrollWidth <= el.clientWidth + 1 || getComputedStyle(el).textOverflow !== 'ellipsis') continue;
          const titled = el.closest('[title]') ?? el.querySelector('[title]');
          el.setAttribute('data-cut', String(found.length));
          found.push({
            id: found.length,
            text: (el.textContent ?? '').trim(),
            title: titled && cell.contains(titled) ? titled.getAttribute('title') : null,
          });
        }
      }
      return found;
    });
    // At 1366 px some text is cut (long plant types and owners in Spanish).
    expect(cut.length).toBeGreaterThan(0);
    for (const c of cut) {
      if (c.title !== null) {
        expect(c.title.length).toBeGreaterThan(0);
        continue;
      }
      await page.locator(`[data-cut="${c.id}"]`).hover();
      await expect
        .poll(() => page.locator('.ant-tooltip:not(.ant-tooltip-hidden)').allInnerTexts(), WAIT)
        .toContainEqual(expect.stringContaining(c.text.replace(/…$/, '')));
      await page.mouse.move(0, 0);
    }
    await context.close();
  });

  for (const [locale, hidden] of [
    ['en-US', ['(1 hidden)', '(2 hidden)']],
    ['es-ES', ['(1 oculta)', '(2 ocultas)']],
  ] as const) {
    it(`counts the selected plants a filter hides (${locale}), and clears them all`, async () => {
      const { page, context } = await plantList(locale);
      const rows = page.locator('[data-testid="plant-table"] .ant-table-row');
      const names = await rows.locator('[data-testid^="plant-link-"]').allInnerTexts();
      await rows.nth(0).locator('.ant-checkbox-input').check();
      await rows.nth(1).locator('.ant-checkbox-input').check();
      await expect.poll(() => page.getByTestId('bulk-count').innerText(), WAIT).toMatch(/^2 /);
      expect(await page.getByTestId('bulk-hidden').count()).toBe(0);

      // A name only the first selected plant has: the second is hidden.
      await page.getByTestId('plant-search').fill(names[0]!);
      await expect
        .poll(
          () =>
            page
              .getByTestId('bulk-hidden')
              .innerText()
              .catch(() => ''),
          WAIT,
        )
        .toBe(hidden[0]);
      // A name neither has: both are hidden, and still selected.
      await page.getByTestId('plant-search').fill(names[2]!);
      await expect
        .poll(
          () =>
            page
              .getByTestId('bulk-hidden')
              .innerText()
              .catch(() => ''),
          WAIT,
        )
        .toBe(hidden[1]);
      expect(await page.getByTestId('bulk-count').innerText()).toMatch(/^2 /);

      await page
        .getByTestId('bulk-bar')
        .getByRole('button', { name: /Clear selection|Quitar selección/ })
        .click();
      await expect.poll(() => page.getByTestId('bulk-bar').count(), WAIT).toBe(0);
      await context.close();
    });
  }
});
