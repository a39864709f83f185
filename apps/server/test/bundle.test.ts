/**
 * The production bundle (build.mjs into dist/, what `npm start` runs) builds and runs: the server answers /healthz, the demo
 * simulator child process starts from the bundle, the ingest edge worker decodes its frames
 * into the store, and SIGTERM stops everything cleanly. A broken bundle fails here.
 */
import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, describe, expect, it } from 'vitest';

const serverDir = path.resolve(import.meta.dirname, '..');
// Its own folder beside src/ (the depth the bundle's paths expect), not the dist/ that `npm start`
// and the browser tests run from.
const outdir = path.join(serverDir, `dist-test-${process.pid}`);
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-bundle-'));
let server: ChildProcess | null = null;
let output = '';

afterAll(() => {
  server?.kill('SIGKILL');
  fs.rmSync(dataDir, { recursive: true, force: true });
  fs.rmSync(outdir, { recursive: true, force: true });
});

async function until<T>(what: string, probe: () => T | Promise<T>, ms: number): Promise<NonNullable<T>> {
  const end = Date.now() + ms;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}; server output:\n${output}`);
    await new Promise((r) => setTimeout(r, 200));
  }
}

describe('production bundle', () => {
  it('builds, serves, runs its workers and the demo simulator, and stops on SIGTERM', { timeout: 90_000 }, async () => {
    execFileSync(process.execPath, [path.join(serverDir, 'build.mjs'), path.basename(outdir)], {
      stdio: 'pipe',
      timeout: 60_000,
    });
    for (const file of ['main.js', 'edge-worker.js', 'simulator.js', 'sheet-reader.worker.mjs']) {
      expect(fs.existsSync(path.join(outdir, file)), file).toBe(true);
    }

    server = spawn(process.execPath, [path.join(outdir, 'main.js')], {
      env: {
        PATH: process.env.PATH,
        HOST: '127.0.0.1',
        PORT: '0',
        MQTT_HOST: '127.0.0.1',
        MQTT_PORT: '0',
        DATA_DIR: dataDir,
        WEB_DIST: '',
        DEMO: 'on',
        PASSWORD_COST: 'test',
        SIMULATOR_GATEWAYS: '1',
        SIMULATOR_INTERVAL: '5',
        SIMULATOR_BACKFILL_DAYS: '0',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    server.stdout!.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    server.stderr!.on('data', (chunk: Buffer) => {
      output += chunk;
    });
    const exited = new Promise<number | null>((resolve) => server!.once('exit', (code) => resolve(code)));

    const url = await until(
      'the listening line',
      () => output.match(/Server listening at (http:\/\/127\.0\.0\.1:\d+)/)?.[1],
      30_000,
    );
    const health = await fetch(`${url}/healthz`);
    expect(health.status).toBe(200);
    const docs = await fetch(`${url}/api/docs/json`);
    expect(docs.status).toBe(200);

    // The simulator (a child process run from the bundle) publishes; the edge worker decodes
    // its frames and ingest stores each device's latest values.
    const store = new Database(path.join(dataDir, 'sunfleet.db'), { readonly: true, fileMustExist: true });
    try {
      const stored = await until(
        'a decoded frame in the store',
        () => (store.prepare('select count(*) as n from device_latest').get() as { n: number }).n,
        45_000,
      );
      expect(stored).toBeGreaterThan(0);
    } finally {
      store.close();
    }
    expect(output).toMatch(/"part":"simulator"/);
    expect(output).not.toMatch(/"level":(50|60)/);

    server.kill('SIGTERM');
    expect(await exited).toBe(0);
    server = null;
  });
});
