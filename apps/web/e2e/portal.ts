/**
 * A real portal for browser tests: the server process (as `npm start` runs it, on a free
 * port, private data folder, demo on, known administrator), a real SMTP server receiving its
 * mail, and the system Chromium driven by playwright-core.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { ErrorCode } from '@sunfleet/contracts';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { onTestFailed } from 'vitest';
import { startSmtp, type TestSmtp } from '../../server/test/smtp.ts';

export const ADMIN = { account: 'admin@e2e.sunfleet.local', password: 'AdminPass1' };
export const DEMO_PASSWORD = 'Demo2026!';
export const demo = {
  companyAdmin: 'installer@demo.sunfleet.local',
  companyUser: 'tech@demo.sunfleet.local',
  owner: 'owner@demo.sunfleet.local',
  visitor: 'visitor@demo.sunfleet.local',
};

const root = path.resolve(import.meta.dirname, '../../..');
const chromiumPath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

export interface PortalOptions {
  /**
   * Give the embedded MQTT broker a known free port on 127.0.0.1 and expose it as `mqttUrl`, so a
   * test can connect simulated gateways of its own (the default broker port is picked by the
   * server and not told).
   */
  mqtt?: boolean;
}

export interface Portal {
  url: string;
  /** The embedded broker's URL when started with `{ mqtt: true }`, else null. */
  mqttUrl: string | null;
  smtp: TestSmtp;
  browser: Browser;
  dataDir: string;
  /**
   * A fresh browser context (its own storage) with a page, English unless told. `timezoneId`: the
   * browser's zone (the machine's when left out). `reducedMotion`: the system's setting the page
   * sees, 'reduce' unless told. `phone`: a 390×844 touch screen (a mobile browser) instead of a
   * 1366×860 desktop window.
   */
  page(opts?: {
    locale?: string;
    timezoneId?: string;
    reducedMotion?: 'reduce' | 'no-preference';
    phone?: boolean;
  }): Promise<{ context: BrowserContext; page: Page }>;
  /** Sign in through the login form. */
  login(page: Page, account: string, password: string): Promise<void>;
  /** The access token of `account` (the demo password unless told), signed in through the API. */
  token(account: string, password?: string): Promise<string>;
  /** The portal's API as `account` (the demo password unless told): a call returns the envelope. */
  api(account: string, password?: string): Promise<ApiCall>;
  close(): Promise<void>;
}

export type ApiCall = <T = unknown>(
  path: string,
  init?: { method?: 'GET' | 'POST' | 'PUT' | 'DELETE'; body?: unknown },
) => Promise<{ code: number; msg?: string; data: T }>;

/** The portal's API calls, as opposed to the app's own files. */
const API_PATH = /^\/(api|oauth|anonymous)\//;

/**
 * When the test that opened `page` fails, print what the page went through: its API calls (time,
 * HTTP status, the envelope's code), the ones still waiting for an answer, failed loads, console
 * errors and uncaught errors; then the state of its dialogs (classes, running animations, buttons)
 * and the server's log of the last requests. A browser test's log is all a CI run keeps.
 */
function printTrailIfFailed(page: Page, serverLog: () => string[]) {
  const trail: string[] = [];
  const started = Date.now();
  const pending = new Map<unknown, string>();
  const at = () => `+${((Date.now() - started) / 1000).toFixed(1)}s`;
  const note = (line: string) => trail.push(`${at()} ${line}`);
  const isApi = (url: string) => API_PATH.test(new URL(url).pathname);
  const label = (r: { method(): string; url(): string }) => {
    const u = new URL(r.url());
    return `${r.method()} ${u.pathname}${u.search}`;
  };
  page.on('request', (r) => {
    if (isApi(r.url())) pending.set(r, `${at()} ${label(r)}`);
  });
  page.on('response', (r) => {
    pending.delete(r.request());
    const api = isApi(r.url());
    if (!api && r.status() < 400) return;
    const line = `${r.status()} ${label(r.request())}`;
    if (!api || !(r.headers()['content-type'] ?? '').includes('json')) return note(line);
    r.json()
      .then((body: { code?: number }) => note(`${line} code ${body.code}`))
      .catch(() => note(line));
  });
  page.on('requestfailed', (r) => {
    pending.delete(r);
    // Loads a navigation cut short are not failures.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') note(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') note(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => note(`page error: ${e.message}`));
  try {
    onTestFailed(async () => {
      const waiting = [...pending.values()].map((line) => `  sent ${line}, no answer`);
      const dialogs = await describeDialogs(page).catch((err) => `  (could not read the page: ${err})`);
      // E2E_FAILURE_DIR: a folder to keep a screenshot of the page as the test failed.
      const dir = process.env.E2E_FAILURE_DIR;
      if (dir) await page.screenshot({ path: path.join(dir, `failed-${Date.now()}.png`) }).catch(() => {});
      console.log(
        [
          `what the page went through (${page.url()}):`,
          ...trail.slice(-60),
          ...(waiting.length ? ['still waiting:', ...waiting] : []),
          'its dialogs:',
          dialogs,
          "the server's last requests:",
          ...serverLog().slice(-30),
        ].join('\n'),
      );
    });
  } catch {
    // Opened outside a test (a hook): nothing to attach to.
  }
}

/** The open dialogs of a page as text: classes, display, animations under way and the buttons. */
async function describeDialogs(page: Page): Promise<string> {
  return page.evaluate(() => {
    const lines = [
      `  visibility ${document.visibilityState}, focus ${document.hasFocus()}, active ${document.activeElement?.outerHTML.slice(0, 120)}`,
    ];
    for (const wrap of document.querySelectorAll<HTMLElement>('.ant-modal-wrap')) {
      const modal = wrap.querySelector<HTMLElement>('.ant-modal');
      const style = modal ? getComputedStyle(modal) : null;
      lines.push(
        `  wrap display=${getComputedStyle(wrap).display} modal class="${modal?.className}" opacity=${style?.opacity} transform=${style?.transform}`,
      );
      for (const input of wrap.querySelectorAll<HTMLInputElement | HTMLTextAreaElement>('input, textarea'))
        lines.push(`    field ${input.id || input.name}: "${input.value.slice(0, 40)}"`);
      for (const error of wrap.querySelectorAll('.ant-form-item-explain-error')) lines.push(`    error "${error.textContent}"`);
      for (const b of wrap.querySelectorAll<HTMLButtonElement>('button'))
        lines.push(`    button "${b.textContent}" class="${b.className}" disabled=${b.disabled} testid=${b.dataset.testid}`);
    }
    for (const a of document.getAnimations())
      lines.push(
        `  animation ${(a as CSSAnimation).animationName ?? a.id} ${a.playState} t=${a.currentTime} on ${(a.effect as KeyframeEffect | null)?.target?.className}`,
      );
    return lines.join('\n');
  });
}

/** The request lines of the server's log (method, path, status, time taken), oldest first. */
function requestLines(output: string): string[] {
  const lines: string[] = [];
  const asked = new Set<string | undefined>();
  for (const raw of output.split('\n')) {
    if (!raw.includes('"req') && !raw.includes('"res')) continue;
    try {
      const e = JSON.parse(raw) as {
        time?: number;
        reqId?: string;
        req?: { method?: string; url?: string };
        res?: { statusCode?: number };
        responseTime?: number;
      };
      const time = e.time ? new Date(e.time).toISOString().slice(11, 23) : '';
      if (e.req) {
        // The app's files are not what a test waits on.
        if (!API_PATH.test(e.req.url ?? '')) continue;
        asked.add(e.reqId);
        lines.push(`  ${time} ${e.reqId} in ${e.req.method} ${e.req.url}`);
      } else if (e.res && asked.has(e.reqId))
        lines.push(`  ${time} ${e.reqId} out ${e.res.statusCode} ${Math.round(e.responseTime ?? 0)} ms`);
    } catch {
      // Not a JSON log line.
    }
  }
  return lines;
}

async function startServer(smtp: TestSmtp, env: Record<string, string>, options: PortalOptions) {
  const port = await freePort();
  const mqttPort = options.mqtt ? await freePort() : null;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-e2e-'));
  const server: ChildProcess = spawn(process.execPath, ['apps/server/dist/main.js'], {
    cwd: root,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      SMTP_URL: smtp.url,
      ADMIN_EMAIL: ADMIN.account,
      ADMIN_PASSWORD: ADMIN.password,
      DEMO: 'on',
      // A test that needs live data turns the simulator on itself; the broker takes a free port.
      SIMULATOR: 'off',
      MQTT_PORT: '0',
      // MQTT over TLS on a free port too (its certificate made in the test's data folder).
      MQTT_TLS_PORT: '0',
      ...(mqttPort !== null ? { MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1' } : {}),
      RATE_LIMITS: 'off',
      // The overload guard answers 503 while the event loop lags, which a machine running the
      // browser tests beside the other suites makes it do; it has tests of its own on the server.
      PRESSURE: 'off',
      // Request lines: printed with the page's trail when a test fails.
      LOG_LEVEL: 'info',
      JWT_SECRET: 'e2e-secret-e2e-secret-e2e-secret-0123',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  server.stdout?.on('data', (d) => {
    output += d;
  });
  server.stderr?.on('data', (d) => {
    output += d;
  });
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (server.exitCode !== null) throw new Error(`server exited: ${output}`);
    const ok = await fetch(`${url}/healthz`)
      .then((r) => r.ok)
      .catch(() => false);
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`server did not start: ${output}`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return { server, port, mqttPort, dataDir, log: () => output };
}

/**
 * The demo company back at the default colour through the API: a test that sets a colour starts
 * from the default, its retry too.
 */
export async function resetCompanyColour(portal: Portal) {
  const admin = await portal.api(demo.companyAdmin);
  const { id } = (await admin<{ id: number }>('/api/v1/company/info')).data;
  const reset = await admin(`/api/v1/company/${id}/themeColor`, { method: 'POST', body: { themeColor: null } });
  if (reset.code !== ErrorCode.ok) throw new Error(`company colour not reset: ${JSON.stringify(reset)}`);
}

export async function startPortal(env: Record<string, string> = {}, options: PortalOptions = {}): Promise<Portal> {
  const smtp = await startSmtp();
  // Ports are free when picked, but another test file running alongside may take one before the
  // server binds it: that start is tried again on other ports.
  let started: Awaited<ReturnType<typeof startServer>> | null = null;
  for (let attempt = 1; !started; attempt++) {
    try {
      started = await startServer(smtp, env, options);
    } catch (err) {
      if (attempt >= 3 || !String(err).includes('EADDRINUSE')) throw err;
    }
  }
  const { server, port, mqttPort, dataDir, log } = started;
  const url = `http://127.0.0.1:${port}`;
  const browser = await chromium.launch({
    executablePath: chromiumPath,
    args: [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
      '--disable-quic',
    ],
  });
  const token: Portal['token'] = async (account, password = DEMO_PASSWORD) => {
    const signIn = await fetch(`${url}/oauth/token`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify({ grant_type: 'password', username: account, password }),
    }).then((r) => r.json() as Promise<{ code: number; data: { access_token: string } }>);
    if (signIn.code !== ErrorCode.ok) throw new Error(`${account} could not sign in: ${JSON.stringify(signIn)}`);
    return signIn.data.access_token;
  };
  return {
    url,
    mqttUrl: mqttPort !== null ? `mqtt://127.0.0.1:${mqttPort}` : null,
    smtp,
    browser,
    dataDir,
    async page(opts = {}) {
      const context = await browser.newContext({
        baseURL: url,
        locale: opts.locale ?? 'en-US',
        ...(opts.timezoneId ? { timezoneId: opts.timezoneId } : {}),
        viewport: opts.phone ? { width: 390, height: 844 } : { width: 1366, height: 860 },
        ...(opts.phone ? { isMobile: true, hasTouch: true, deviceScaleFactor: 2 } : {}),
        // The portal then opens dialogs and popups without their animation. A click that starts
        // while a dialog zooms in is lost: the mouse goes down on the button at its place in the
        // first frame and comes up outside it once the zoom has shrunk the dialog, so no click
        // reaches the button.
        reducedMotion: opts.reducedMotion ?? 'reduce',
      });
      const page = await context.newPage();
      printTrailIfFailed(page, () => requestLines(log()));
      return { context, page };
    },
    async login(page, account, password) {
      await page.goto('/login');
      await page.getByTestId('login-email').fill(account);
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
      // The router draws the next page in a transition: until it is drawn, the sign-in page (its
      // language switch too) stays on screen with the new address, and a click there is lost.
      await page.getByTestId('login-submit').waitFor({ state: 'detached' });
    },
    token,
    async api(account, password = DEMO_PASSWORD) {
      const auth = { Authorization: `Bearer ${await token(account, password)}` };
      return (path, init = {}) =>
        fetch(`${url}${path}`, {
          method: init.method ?? 'GET',
          headers: init.body === undefined ? auth : { ...auth, 'Content-Type': 'application/json' },
          ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
        }).then((r) => r.json());
    },
    async close() {
      await browser.close();
      server.kill('SIGTERM');
      await new Promise((r) => server.once('exit', r));
      await smtp.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
