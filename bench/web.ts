/**
 * `npm run bench -- web`: what a browser downloads and how fast the pages show, against the real
 * server serving the production build (the browser tests' portal), in the system Chromium.
 *
 * - Bytes on the wire per route, each from a cold cache (a fresh browser context): the sum of
 *   CDP `Network.loadingFinished` encodedDataLength (headers and compressed bodies), by type.
 * - The page's own timings: first and largest contentful paint, layout shift, long tasks and
 *   the blocking time past 50 ms each (PerformanceObserver from before the first script).
 * - Lighthouse (desktop preset, simulated throttling) on /login and on a signed-in plant
 *   overview: the four category scores.
 *
 * Writes bench/results/web-routes.json and web-lighthouse.json and prints each budget met or
 * not (exit code 1 when one is not). BENCH_SKIP_BUILD=1 uses the build in apps/web/dist;
 * BENCH_LIGHTHOUSE=off skips Lighthouse.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import * as chromeLauncher from 'chrome-launcher';
import lighthouse from 'lighthouse';
import desktopConfig from 'lighthouse/core/config/desktop-config.js';
import { type BrowserContext, chromium } from 'playwright-core';
import { DEMO_PASSWORD, demo, startPortal } from '../apps/web/e2e/portal.ts';

const root = path.resolve(import.meta.dirname, '..');
const results = path.join(root, 'bench/results');
const KiB = 1024;

/** The budgets: bytes on the wire (cold) and the Lighthouse scores. */
export const budgets = {
  firstRouteBytes: 350 * KiB,
  anyRouteBytes: 600 * KiB,
  overviewLayoutShift: 0,
  lighthouse: { performance: 0.95, accessibility: 0.98, 'best-practices': 1, seo: 0.9 },
} as const;

// Browser-side code as text: the TypeScript loader would otherwise add helpers the page lacks.
const observeTimings = `
  window.__perf = { fcp: null, lcp: null, cls: 0, longTasks: 0, blocking: 0 };
  const p = window.__perf;
  const watch = (type, fn) => { try { new PerformanceObserver((l) => l.getEntries().forEach(fn)).observe({ type, buffered: true }); } catch {} };
  watch('paint', (e) => { if (e.name === 'first-contentful-paint') p.fcp = e.startTime; });
  watch('largest-contentful-paint', (e) => { p.lcp = e.startTime; });
  watch('layout-shift', (e) => { if (!e.hadRecentInput) p.cls += e.value; });
  watch('longtask', (e) => { p.longTasks++; p.blocking += Math.max(0, e.duration - 50); });
`;
const readTimings = `(() => {
  const nav = performance.getEntriesByType('navigation')[0];
  const p = window.__perf;
  const ms = (x) => (x === null || x === undefined ? null : Math.round(x));
  return { fcp: ms(p.fcp), lcp: ms(p.lcp), cls: Math.round(p.cls * 1000) / 1000, longTasks: p.longTasks,
    blocking: ms(p.blocking), domContentLoaded: ms(nav?.domContentLoadedEventEnd), load: ms(nav?.loadEventEnd) };
})()`;

interface RouteResult {
  route: string;
  url: string;
  requests: number;
  bytes: number;
  byType: Record<string, { requests: number; bytes: number }>;
  uncompressedText: string[];
  /** Each response: path, resource type, bytes on the wire. */
  resources: { path: string; type: string; bytes: number }[];
  timings: Record<string, number | null>;
}

/** Load `route` in a fresh context (cold cache) and count what came over the wire. */
async function measure(
  newContext: () => Promise<BrowserContext>,
  base: string,
  route: string,
  ready?: string,
): Promise<RouteResult> {
  const context = await newContext();
  await context.addInitScript(observeTimings);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const seen = new Map<string, { url: string; type: string; encoding: string | undefined; mime: string }>();
  const result: RouteResult = {
    route,
    url: '',
    requests: 0,
    bytes: 0,
    byType: {},
    uncompressedText: [],
    resources: [],
    timings: {},
  };
  cdp.on('Network.responseReceived', (e) => {
    const headers = Object.fromEntries(Object.entries(e.response.headers).map(([k, v]) => [k.toLowerCase(), String(v)]));
    seen.set(e.requestId, {
      url: e.response.url,
      type: e.type,
      encoding: headers['content-encoding'],
      mime: e.response.mimeType,
    });
  });
  cdp.on('Network.loadingFinished', (e) => {
    const r = seen.get(e.requestId);
    if (!r || r.url.startsWith('data:')) return;
    result.requests++;
    result.bytes += e.encodedDataLength;
    const t = result.byType[r.type] ?? { requests: 0, bytes: 0 };
    result.byType[r.type] = t;
    t.requests++;
    t.bytes += e.encodedDataLength;
    result.resources.push({ path: new URL(r.url).pathname, type: r.type, bytes: e.encodedDataLength });
    if (!r.encoding && /javascript|css|html|svg|json/.test(r.mime) && e.encodedDataLength > 1500)
      result.uncompressedText.push(`${new URL(r.url).pathname} ${e.encodedDataLength}`);
  });
  await page.goto(`${base}${route}`, { waitUntil: 'networkidle' });
  if (ready) await page.waitForSelector(ready, { timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.waitForTimeout(1000);
  result.url = new URL(page.url()).pathname;
  result.timings = await page.evaluate(readTimings);
  await context.close();
  return result;
}

type Scores = Record<string, number | null>;
interface LighthouseResult {
  page: string;
  url: string;
  scores: Scores;
  metrics: Record<string, string | undefined>;
  /** Audits that lost points, with their score. */
  failing: { id: string; score: number | null; title: string }[];
  /** Where the main thread went: the scripts that ran longest (ms) and the work by kind (ms). */
  mainThread: { scripts: { url: string; scripting: number; total: number }[]; byKind: Record<string, number> };
}

type AuditItems = { details?: { items?: Record<string, unknown>[] } } | undefined;

/** Lighthouse (desktop) in its own Chromium; `storage` (localStorage items) signs it in first. */
async function runLighthouse(
  chromePath: string,
  base: string,
  pages: { page: string; route: string; storage?: Record<string, string> }[],
): Promise<LighthouseResult[]> {
  const chrome = await chromeLauncher.launch({
    chromePath,
    chromeFlags: ['--headless=new', '--no-sandbox', '--disable-gpu', '--disable-background-networking', '--no-first-run'],
  });
  const out: LighthouseResult[] = [];
  try {
    for (const p of pages) {
      if (p.storage) {
        const browser = await chromium.connectOverCDP(`http://127.0.0.1:${chrome.port}`);
        const page = await browser.contexts()[0]!.newPage();
        await page.goto(`${base}/robots.txt`);
        await page.evaluate(`Object.entries(${JSON.stringify(p.storage)}).forEach(([k, v]) => localStorage.setItem(k, v))`);
        await page.close();
        await browser.close();
      }
      const run = await lighthouse(
        `${base}${p.route}`,
        { port: chrome.port, output: 'json', logLevel: 'error', disableStorageReset: Boolean(p.storage) },
        desktopConfig,
      );
      if (!run) throw new Error(`lighthouse gave no result for ${p.route}`);
      const lhr = run.lhr;
      const audit = (id: string) => lhr.audits[id]?.displayValue;
      out.push({
        page: p.page,
        url: lhr.finalDisplayedUrl,
        scores: Object.fromEntries(Object.entries(lhr.categories).map(([k, c]) => [k, c.score])),
        metrics: {
          fcp: audit('first-contentful-paint'),
          lcp: audit('largest-contentful-paint'),
          tbt: audit('total-blocking-time'),
          cls: audit('cumulative-layout-shift'),
          speedIndex: audit('speed-index'),
        },
        failing: Object.values(lhr.audits)
          .filter(
            (a) => a.score !== null && a.score < 1 && !['informative', 'manual', 'notApplicable'].includes(a.scoreDisplayMode),
          )
          .map((a) => ({ id: a.id, score: a.score, title: a.title })),
        mainThread: {
          scripts: ((lhr.audits['bootup-time'] as AuditItems)?.details?.items ?? []).slice(0, 8).map((i) => ({
            url: String(i.url).replace(base, ''),
            scripting: Math.round(Number(i.scripting)),
            total: Math.round(Number(i.total)),
          })),
          byKind: Object.fromEntries(
            ((lhr.audits['mainthread-work-breakdown'] as AuditItems)?.details?.items ?? []).map((i) => [
              String(i.group),
              Math.round(Number(i.duration)),
            ]),
          ),
        },
      });
    }
  } finally {
    chrome.kill();
  }
  return out;
}

const kib = (n: number) => `${(n / KiB).toFixed(1)} KiB`;

async function main() {
  if (process.env.BENCH_SKIP_BUILD !== '1')
    execFileSync('npm', ['run', 'build', '--silent', '-w', '@sunfleet/web'], { cwd: root, stdio: 'inherit' });
  const portal = await startPortal({ LOG_LEVEL: 'error' });
  const chromePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  let failed = false;
  try {
    const newContext = () => portal.browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 860 } });
    // Sign in once for the session's localStorage, then measure each signed-in route cold.
    const { context, page } = await portal.page();
    await portal.login(page, demo.owner, DEMO_PASSWORD);
    const state = await context.storageState();
    const storage = Object.fromEntries(
      (state.origins.find((o) => o.origin === portal.url)?.localStorage ?? []).map((i) => [i.name, i.value]),
    );
    const token = (JSON.parse(storage.user ?? '{}') as { access_token?: string }).access_token;
    const plants = await page.evaluate(
      `fetch('/api/v1/plants?page=1&pageSize=10', { headers: { authorization: 'Bearer ' + ${JSON.stringify(token ?? '')} } }).then((r) => r.json())`,
    );
    await context.close();
    const first = (plants as { data?: { list?: { id: number; type: number }[] } }).data?.list?.[0];
    const overview = first ? `/plants/overview/${first.id}/${first.type}` : null;
    const signedIn = () =>
      portal.browser.newContext({ locale: 'en-US', viewport: { width: 1366, height: 860 }, storageState: state });

    const routes: RouteResult[] = [await measure(newContext, portal.url, '/login', '[data-testid="login-email"]')];
    for (const route of ['/plants', overview, '/device/inverter', '/device/event', '/workdata/list', '/edit']) {
      if (route) routes.push(await measure(signedIn, portal.url, route));
    }
    // The plant map: Leaflet, the clusters and the country outlines come with this page only.
    routes.push(await measure(signedIn, portal.url, '/plants?view=map', '.sf-plant-marker, .sf-plant-cluster'));

    console.log('\nroute (cold)                      requests   on the wire   FCP ms   LCP ms   CLS     long tasks  blocking ms');
    for (const r of routes) {
      const t = r.timings;
      console.log(
        `${r.route.padEnd(34)}${String(r.requests).padStart(8)}${kib(r.bytes).padStart(14)}${String(t.fcp).padStart(9)}${String(t.lcp).padStart(9)}${String(t.cls).padStart(7)}${String(t.longTasks).padStart(12)}${String(t.blocking).padStart(13)}`,
      );
      if (r.uncompressedText.length) console.log(`  sent uncompressed: ${r.uncompressedText.join(', ')}`);
    }

    const checks: [string, boolean][] = [];
    const login = routes[0]!;
    checks.push([
      `first route /login ${kib(login.bytes)} ≤ ${kib(budgets.firstRouteBytes)}`,
      login.bytes <= budgets.firstRouteBytes,
    ]);
    // The overview's cards hold their final size while data and the chart code load.
    const overviewRoute = routes.find((r) => r.route === overview);
    if (overviewRoute)
      checks.push([
        `plant overview layout shift ${overviewRoute.timings.cls} = ${budgets.overviewLayoutShift}`,
        overviewRoute.timings.cls === budgets.overviewLayoutShift,
      ]);
    const largest = routes.reduce((a, b) => (b.bytes > a.bytes ? b : a));
    checks.push([
      `any route: largest ${largest.route} ${kib(largest.bytes)} ≤ ${kib(budgets.anyRouteBytes)}`,
      largest.bytes <= budgets.anyRouteBytes,
    ]);

    fs.mkdirSync(results, { recursive: true });
    const date = new Date().toISOString();
    fs.writeFileSync(path.join(results, 'web-routes.json'), `${JSON.stringify({ date, budgets, routes }, null, 2)}\n`);

    if (process.env.BENCH_LIGHTHOUSE !== 'off') {
      const pages = [{ page: 'login', route: '/login' }];
      if (overview) pages.push({ page: 'plant overview (signed in)', route: overview, storage } as never);
      const lh = await runLighthouse(chromePath, portal.url, pages);
      console.log(
        '\nLighthouse (desktop)              performance  accessibility  best-practices  seo     FCP      LCP      TBT      CLS',
      );
      for (const r of lh) {
        const s = r.scores;
        const m = r.metrics;
        console.log(
          `${r.page.padEnd(34)}${String(s.performance).padStart(11)}${String(s.accessibility).padStart(15)}${String(s['best-practices']).padStart(16)}${String(s.seo).padStart(5)}   ${[m.fcp, m.lcp, m.tbt, m.cls].map((x) => String(x).padEnd(9)).join('')}`,
        );
        const lost = r.failing.filter((f) => (f.score ?? 0) < 0.9).map((f) => f.id);
        if (lost.length) console.log(`  audits below 0.9: ${lost.join(', ')}`);
        for (const [category, min] of Object.entries(budgets.lighthouse)) {
          const score = s[category] ?? 0;
          checks.push([`Lighthouse ${r.page} ${category} ${score} ≥ ${min}`, score >= min]);
        }
      }
      fs.writeFileSync(
        path.join(results, 'web-lighthouse.json'),
        `${JSON.stringify({ date, budgets: budgets.lighthouse, pages: lh }, null, 2)}\n`,
      );
    }

    console.log('\nbudgets');
    for (const [text, ok] of checks) console.log(`  ${ok ? 'met    ' : 'NOT MET'}  ${text}`);
    failed = checks.some(([, ok]) => !ok);
    console.log(failed ? '\nweb budgets: not all met' : '\nweb budgets: all met');
  } finally {
    await portal.close();
  }
  if (failed) process.exitCode = 1;
}

await main();
