/**
 * Waiting for a page's API calls to be answered, in the browser tests: the page is settled when
 * none of its `/api/` requests has been open for `quietMs`. Unlike Playwright's "networkidle"
 * (no request of any kind for 500 ms), a page that polls every few seconds settles too, and a
 * page whose calls answer at once settles after `quietMs` instead of a fixed wait.
 */
import type { Page } from 'playwright-core';

export interface ApiWatch {
  /** Resolves once no API call has been open for `quietMs` (or after `maxMs` whatever happens). */
  settled(quietMs?: number, maxMs?: number): Promise<void>;
}

export function watchApi(page: Page): ApiWatch {
  let open = 0;
  let lastChange = Date.now();
  const isApi = (url: string) => new URL(url).pathname.startsWith('/api/');
  page.on('request', (req) => {
    if (!isApi(req.url())) return;
    open++;
    lastChange = Date.now();
  });
  const done = (url: string) => {
    if (!isApi(url)) return;
    open = Math.max(0, open - 1);
    lastChange = Date.now();
  };
  page.on('requestfinished', (req) => done(req.url()));
  page.on('requestfailed', (req) => done(req.url()));
  return {
    async settled(quietMs = 300, maxMs = 10_000) {
      const deadline = Date.now() + maxMs;
      // A click's calls may start a moment after it: the quiet time counts from now at the earliest.
      lastChange = Math.max(lastChange, Date.now());
      while (Date.now() < deadline && (open > 0 || Date.now() - lastChange < quietMs)) {
        await new Promise((r) => setTimeout(r, 50));
      }
    },
  };
}
