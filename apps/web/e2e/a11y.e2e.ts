/**
 * Every page of the route table passes axe-core with no serious or critical violation, in
 * English and in Spanish: the public pages signed out, the portal's pages signed in as the
 * demo installer (a company administrator: every menu of a company), with a simulated gateway
 * so that the device pages have devices. Pages with parameters get the first plant and device.
 *
 * Keyboard: on the sign-in page and on a device list, Tab alone reaches every control the page
 * shows, and the sign-in works from the keyboard only.
 */
import { ErrorCode } from '@sunfleet/contracts';
import type { BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { menuRoutes, type PageRoute, publicRoutes } from '../src/app/routes.tsx';
import { type AxeProblem, seriousViolations } from './axe.ts';
import { type ApiCall, DEMO_PASSWORD, demo, type Portal, startPortal } from './portal.ts';
import { watchApi } from './quiet.ts';

let portal: Portal;
/** The API as the demo installer. */
let call: ApiCall;

async function api<T>(path: string): Promise<T> {
  const body = await call<T>(path);
  if (body.code !== ErrorCode.ok) throw new Error(`${path}: ${JSON.stringify(body)}`);
  return body.data;
}
const first = async <T>(path: string) => (await api<{ list: T[] }>(`${path}?page=1&size=1`)).list[0];

/** Every route with a page, children included. */
const withPages = (routes: PageRoute[]): PageRoute[] =>
  routes.flatMap((r) => [...(r.page ? [r] : []), ...withPages(r.children ?? [])]);

/** Concrete paths: the parameters filled with the first plant and the first device of each kind. */
async function signedInPaths(): Promise<string[]> {
  const plant = await first<{ id: number; type: number }>('/api/v1/plants');
  const gateway = await first<{ id: number }>('/api/v1/gateways');
  const sn = {
    inverter: (await first<{ sn: string }>('/api/v1/inverters'))?.sn,
    battery: (await first<{ sn: string }>('/api/v1/batteries'))?.sn,
    meter: (await first<{ sn: string }>('/api/v1/meters'))?.sn,
    weather: (await first<{ sn: string }>('/api/v1/meteorological'))?.sn,
  };
  const fill: Record<string, string | undefined> = {
    '/plants/overview/:id/:type': plant && `/plants/overview/${plant.id}/${plant.type}`,
    '/plants/edit/:id': plant && `/plants/edit/${plant.id}`,
    '/device/gateway/:id': gateway && `/device/gateway/${gateway.id}`,
    // The demo has no firmware rollout: the page's not-found state is what is checked here (a
    // running rollout's page is checked in upgrades.e2e.ts).
    '/firmware/rollout/:id': '/firmware/rollout/00000000-0000-7000-8000-000000000000',
    ...Object.fromEntries(
      Object.entries(sn).map(([kind, value]) => [`/device/${kind}/:sn`, value && `/device/${kind}/${value}`]),
    ),
  };
  return withPages(menuRoutes).map((r) => {
    if (!r.path.includes(':')) return r.path;
    const path = fill[r.path];
    if (!path) throw new Error(`no value for the parameters of ${r.path}`);
    return path;
  });
}

/**
 * Open each path and collect its serious and critical violations. A few tabs of the same context
 * (one sign-in) take the paths in turn: most of a page's time is waiting for its calls. A tab
 * loads the app once and then moves from page to page inside it, as a user does from the menu
 * (the address changed by the router, no reload of the app). Each page is scrolled to its end
 * first, so the parts that render only when near the viewport are audited too.
 */
async function audit(context: BrowserContext, paths: string[], tabs = 3): Promise<Record<string, AxeProblem[]>> {
  const found: Record<string, AxeProblem[]> = {};
  const queue = [...paths];
  const worker = async (page: Page) => {
    const api = watchApi(page);
    let loaded = false;
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (!loaded) {
        await page.goto(path);
        await page.waitForLoadState('networkidle');
        loaded = true;
      } else {
        await page.evaluate((to) => {
          window.history.pushState(null, '', to);
          window.dispatchEvent(new PopStateEvent('popstate'));
        }, path);
        // The router renders the new page (or its loading state) in a task of its own. (Not a
        // wait for an animation frame: a tab in the background gets none.)
        await page.waitForTimeout(100);
      }
      await page.getByTestId('page-loading').waitFor({ state: 'detached', timeout: 20_000 });
      await api.settled(500);
      // A tab that lost the session would audit the sign-in page instead.
      if (!path.startsWith('/login') && new URL(page.url()).pathname.startsWith('/login')) {
        throw new Error(`${path} went to the sign-in page`);
      }
      await page.evaluate(() => window.scrollTo(0, document.body.scrollHeight));
      await page
        .locator('.ant-skeleton')
        .first()
        .waitFor({ state: 'detached', timeout: 10_000 })
        .catch(() => {});
      // A background tab may hold a colour transition half way (the company colour arriving):
      // the audit reads the page as it ends up, every transition and animation at its end.
      await page.evaluate(() => {
        for (const a of document.getAnimations()) {
          try {
            a.finish();
          } catch {
            // An endless animation (a spinner, a skeleton's shimmer) has no end to jump to.
          }
        }
      });
      const problems = await seriousViolations(page);
      if (problems.length) found[path] = problems;
    }
  };
  const pages = [...context.pages()];
  while (pages.length < tabs) pages.push(await context.newPage());
  await Promise.all(pages.map(worker));
  return found;
}

/**
 * Press Tab until every visible focusable control of the page has had the focus (or twice their
 * number of presses went by); the ones never reached, described by their test id or text.
 */
async function tabThrough(page: Page): Promise<{ reached: string[]; missed: string[] }> {
  const count = await page.evaluate(() => {
    const focusable =
      'a[href], button:not([disabled]), input:not([disabled]):not([type="hidden"]), select:not([disabled]), textarea:not([disabled]), [tabindex]:not([tabindex="-1"])';
    const controls = [...document.querySelectorAll<HTMLElement>(focusable)].filter(
      (e) => e.checkVisibility({ visibilityProperty: true }) && e.tabIndex >= 0 && !e.closest('[aria-hidden="true"], [inert]'),
    );
    controls.forEach((e, i) => {
      e.dataset.kb = String(i);
    });
    (document.activeElement as HTMLElement | null)?.blur();
    return controls.length;
  });
  const seen = new Set<string>();
  for (let i = 0; i < count * 2 + 5 && seen.size < count; i++) {
    await page.keyboard.press('Tab');
    const id = await page.evaluate(
      () => (document.activeElement?.closest('[data-kb]') as HTMLElement | null)?.dataset.kb ?? null,
    );
    if (id !== null) seen.add(id);
  }
  return page.evaluate(
    (reachedIds) => {
      const name = (e: HTMLElement) =>
        e.dataset.testid ?? e.getAttribute('aria-label') ?? (e.textContent?.trim() || e.outerHTML.slice(0, 80));
      const all = [...document.querySelectorAll<HTMLElement>('[data-kb]')];
      return {
        reached: all.filter((e) => reachedIds.includes(e.dataset.kb ?? '')).map(name),
        missed: all.filter((e) => !reachedIds.includes(e.dataset.kb ?? '')).map(name),
      };
    },
    [...seen],
  );
}

beforeAll(async () => {
  // Two simulated gateways (inverters, a battery, meters, a weather station) for the device pages.
  portal = await startPortal({ SIMULATOR: 'on', SIMULATOR_GATEWAYS: '2', SIMULATOR_BACKFILL_DAYS: '1', SIMULATOR_INTERVAL: '5' });
  call = await portal.api(demo.companyAdmin);
  const deadline = Date.now() + 60_000;
  while (!(await first('/api/v1/inverters')) || !(await first('/api/v1/meteorological'))) {
    if (Date.now() > deadline) throw new Error('the simulated gateway brought no devices');
    await new Promise((r) => setTimeout(r, 1000));
  }
});

afterAll(async () => {
  await portal?.close();
});

describe.each([
  ['en', 'en-US'],
  ['es', 'es-ES'],
])('accessibility (%s)', (_lan, locale) => {
  it('every public page: no serious or critical axe violation', async () => {
    const { context } = await portal.page({ locale });
    const found = await audit(
      context,
      withPages(publicRoutes).map((r) => r.path),
    );
    await context.close();
    expect(found).toEqual({});
  }, 180_000);

  it('every page of the portal, signed in as the installer: no serious or critical axe violation', async () => {
    const { context, page } = await portal.page({ locale });
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    const found = await audit(context, await signedInPaths());
    await context.close();
    expect(found).toEqual({});
  }, 300_000);
});

describe('keyboard', () => {
  it('the sign-in page: Tab reaches every control, and the keyboard alone signs in', async () => {
    const { context, page } = await portal.page();
    await page.goto('/login');
    await page.getByTestId('login-email').waitFor();
    const { reached, missed } = await tabThrough(page);
    expect(missed).toEqual([]);
    expect(reached).toEqual(expect.arrayContaining(['language-switch', 'login-email', 'login-password', 'login-submit']));

    await page.getByTestId('login-email').focus();
    await page.keyboard.type(demo.companyAdmin);
    await page.keyboard.press('Tab');
    await page.keyboard.type(DEMO_PASSWORD);
    await page.keyboard.press('Enter');
    await page.waitForURL((u) => !u.pathname.startsWith('/login'));
    await context.close();
  });

  it('a device list: Tab reaches every control the page shows', async () => {
    const { context, page } = await portal.page();
    await portal.login(page, demo.companyAdmin, DEMO_PASSWORD);
    await page.goto('/device/inverter');
    await page.waitForLoadState('networkidle');
    await page.locator('.ant-table-row').first().waitFor();
    const { reached, missed } = await tabThrough(page);
    expect(missed).toEqual([]);
    expect(reached.length).toBeGreaterThan(10);
    await context.close();
  }, 120_000);
});

describe('motion', () => {
  /** The CSS animations that start as the plant list's delete confirmation opens. */
  async function confirmationAnimations(reducedMotion: 'reduce' | 'no-preference') {
    const { context, page } = await portal.page({ reducedMotion });
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    await page.waitForURL('**/plants');
    const row = page.locator('.ant-table-row').first();
    await row.waitFor();
    await page.evaluate(() => {
      const started: string[] = [];
      (window as unknown as { started: string[] }).started = started;
      document.addEventListener('animationstart', (e) => started.push(e.animationName), true);
    });
    await page.getByTestId(`plant-delete-${await row.getAttribute('data-row-key')}`).click();
    await page.getByTestId('delete-confirm-ok').waitFor();
    // The zoom takes 0.3 s.
    await page.waitForTimeout(1000);
    const started = await page.evaluate(() => (window as unknown as { started: string[] }).started);
    await context.close();
    return started.filter((name) => /Zoom|Fade/.test(name));
  }

  it('a user who asks the system for reduced motion gets dialogs without their zoom; others see it', async () => {
    expect(await confirmationAnimations('reduce')).toEqual([]);
    expect((await confirmationAnimations('no-preference')).some((name) => name.endsWith('antZoomIn'))).toBe(true);
  });
});
