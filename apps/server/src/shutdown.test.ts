/**
 * A stop signal ends the real server within its bound, with rate limits on, even while a client
 * holds a request open (a body that never finishes): both ports stop listening at once, the
 * request gets the drain time, and the process exits.
 */
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { freePort, waitFor } from '../test/mqtt.ts';
import { exited, type ServerProcess, startServerProcess } from '../test/server-process.ts';
import { SHUTDOWN_LIMIT_MS } from './shutdown.ts';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-shutdown-'));
let server: ServerProcess | null = null;
const sockets: net.Socket[] = [];
afterAll(async () => {
  for (const s of sockets) s.destroy();
  if (server && server.child.exitCode === null && server.child.signalCode === null) {
    server.child.kill('SIGKILL');
    await exited(server.child);
  }
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Whether something accepts connections on the port. */
const listening = (port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect(port, '127.0.0.1');
    s.once('connect', () => {
      s.destroy();
      resolve(true);
    });
    s.once('error', () => resolve(false));
  });

describe('shutdown', () => {
  it('closes the HTTP and MQTT ports and exits within its bound while a request is held open', async () => {
    const httpPort = await freePort();
    const mqttPort = await freePort();
    server = await startServerProcess(
      {
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DEMO: 'off',
        SIMULATOR: 'off',
        RATE_LIMITS: 'on',
        MQTT_PORT: String(mqttPort),
        MQTT_HOST: '127.0.0.1',
        LOG_LEVEL: 'warn',
        JWT_SECRET: 'shutdown-test-secret-shutdown-test-0123',
        DATABASE_URL: '',
      },
      httpPort,
    );
    expect(await listening(mqttPort)).toBe(true);
    // A sign-in whose body never finishes: the request stays in flight.
    const held = net.connect(httpPort, '127.0.0.1');
    sockets.push(held);
    held.on('error', () => {});
    await new Promise((resolve) => held.once('connect', resolve));
    held.write(
      'POST /oauth/token HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 1000\r\n\r\n{"a',
    );
    await new Promise((r) => setTimeout(r, 300));

    const signalled = Date.now();
    server.child.kill('SIGTERM');
    await waitFor(async () => !(await listening(mqttPort)) && !(await listening(httpPort)), 2_000, 'both ports to close');
    const closedAfter = Date.now() - signalled;
    await Promise.race([exited(server.child), new Promise((r) => setTimeout(r, SHUTDOWN_LIMIT_MS + 3_000))]);
    const exitedAfter = Date.now() - signalled;
    expect(server.child.exitCode ?? server.child.signalCode).not.toBeNull();
    expect(exitedAfter).toBeLessThan(SHUTDOWN_LIMIT_MS + 1_000);
    // Cut off at the end of the drain, not by the limit: the rest of the shutdown ran and it exited cleanly.
    expect(server.child.exitCode).toBe(0);
    console.log(`ports closed after ${closedAfter} ms, exited after ${exitedAfter} ms`);
  }, 120_000);
});
