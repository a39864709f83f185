/**
 * Charts that say what they show, in the real portal with the demo fleet (one day of history):
 * an inverter's today reads the same on its overview tab and beside its day chart (one value,
 * one rounding rule), and a day before the fleet's history says "No data for this period"
 * (en) / "Sin datos para este periodo" (es) instead of empty axes.
 */
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';

let portal: Portal;
beforeAll(async () => {
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_INTERVAL: '5', SIMULATOR_BACKFILL_DAYS: '1' });
});
afterAll(() => portal?.close());

const WAIT = { timeout: 20_000 };

/** The first inverter of the list with some energy today (the fleet's first uploads may take a moment). */
async function inverterWithEnergy(page: Page): Promise<string> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    await page.goto('/device/inverter');
    const links = page.locator('[data-testid^="inverter-link-"]');
    await links.first().waitFor(WAIT);
    const hrefs = await links.evaluateAll((l) => l.map((a) => a.getAttribute('href') ?? ''));
    for (const href of hrefs) {
      await page.goto(href);
      const today = page.getByTestId('inverter-today');
      await today.waitFor(WAIT);
      if (/[1-9]/.test(await today.innerText())) return href;
    }
    if (Date.now() > deadline) throw new Error('no inverter reported energy today within 60 s');
    await page.waitForTimeout(3000);
  }
}

describe('inverter charts', () => {
  it("shows today's energy as the same text on the overview tab and beside the day chart; a day without data says so", async () => {
    const { page, context } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    const href = await inverterWithEnergy(page);

    // The figures follow ingest: when an upload lands between the two reads, read both again.
    const deadline = Date.now() + 60_000;
    for (;;) {
      await page.goto(`${href}?tab=overview`);
      const overview = await page.getByTestId('inverter-today').innerText();
      await page.getByTestId('tab-charts').click();
      const beside = page.getByTestId('inverter-day-energy-pv');
      await beside.waitFor(WAIT);
      const charts = await beside.innerText();
      if (overview === charts) {
        expect(overview).toMatch(/^\d[\d.,]* k?Wh$/);
        break;
      }
      if (Date.now() > deadline) throw new Error(`today's energy: ${overview} on the overview tab, ${charts} beside the chart`);
    }

    // Three days back: before the fleet's one day of history.
    const card = page.getByTestId('inverter-chart');
    for (let i = 0; i < 3; i++) await card.getByTestId('date-prev').click();
    const empty = card.getByTestId('inverter-chart-empty');
    await empty.waitFor(WAIT);
    expect(await empty.innerText()).toContain('No data for this period');
    expect(await card.getByTestId('inverter-chart-day').count()).toBe(0);

    await page.evaluate(() => localStorage.setItem('language', 'es'));
    await page.reload();
    const cardEs = page.getByTestId('inverter-chart');
    await cardEs.waitFor(WAIT);
    for (let i = 0; i < 3; i++) await cardEs.getByTestId('date-prev').click();
    await cardEs.getByTestId('inverter-chart-empty').waitFor(WAIT);
    expect(await cardEs.getByTestId('inverter-chart-empty').innerText()).toContain('Sin datos para este periodo');
    await context.close();
  }, 180_000);
});
