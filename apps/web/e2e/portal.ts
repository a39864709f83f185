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
  /** A fresh browser context (its own storage) with a page, English unless told. */
  /** `timezoneId`: the browser's zone (the machine's when left out). */
  page(opts?: { locale?: string; timezoneId?: string }): Promise<{ context: BrowserContext; page: Page }>;
  /** Sign in through the login form. */
  login(page: Page, account: string, password: string): Promise<void>;
  close(): Promise<void>;
}

/**
 * When the test that opened `page` fails, print what the page went through: its API calls (time,
 * HTTP status, the envelope's code), failed loads, console errors and uncaught errors. A browser
 * test's log is all a CI run keeps.
 */
function printTrailIfFailed(page: Page) {
  const trail: string[] = [];
  const started = Date.now();
  const note = (line: string) => trail.push(`+${((Date.now() - started) / 1000).toFixed(1)}s ${line}`);
  page.on('response', (r) => {
    const u = new URL(r.url());
    const api = /^\/(api|oauth|anonymous)\//.test(u.pathname);
    if (!api && r.status() < 400) return;
    const line = `${r.status()} ${r.request().method()} ${u.pathname}${u.search}`;
    if (!api || !(r.headers()['content-type'] ?? '').includes('json')) return note(line);
    r.json()
      .then((body: { code?: number }) => note(`${line} code ${body.code}`))
      .catch(() => note(line));
  });
  page.on('requestfailed', (r) => {
    // Loads a navigation cut short are not failures.
    if (r.failure()?.errorText !== 'net::ERR_ABORTED') note(`failed ${r.method()} ${r.url()}: ${r.failure()?.errorText}`);
  });
  page.on('console', (m) => {
    if (m.type() === 'error') note(`console: ${m.text()}`);
  });
  page.on('pageerror', (e) => note(`page error: ${e.message}`));
  try {
    onTestFailed(() => {
      console.log(`what the page went through (${page.url()}):\n${trail.slice(-60).join('\n')}`);
    });
  } catch {
    // Opened outside a test (a hook): nothing to attach to.
  }
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
      ...(mqttPort !== null ? { MQTT_PORT: String(mqttPort), MQTT_HOST: '127.0.0.1' } : {}),
      RATE_LIMITS: 'off',
      LOG_LEVEL: 'warn',
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
  return { server, port, mqttPort, dataDir };
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
  const { server, port, mqttPort, dataDir } = started;
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
        viewport: { width: 1366, height: 860 },
      });
      const page = await context.newPage();
      printTrailIfFailed(page);
      return { context, page };
    },
    async login(page, account, password) {
      await page.goto('/login');
      await page.getByTestId('login-email').fill(account);
      await page.getByTestId('login-password').fill(password);
      await page.getByTestId('login-submit').click();
      await page.waitForURL((u) => !u.pathname.startsWith('/login'));
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
