/**
 * `kill -9` of the server during a steady publish: every frame it acknowledged is stored after a
 * restart, none twice. The real server process (main.ts) with its embedded broker, on a SQLite
 * file or a PostgreSQL schema; the publishers behave as the protocol asks of gateways (persistent
 * session, keep what is not acknowledged, send it again after a reconnect).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DataMessage, topics } from '@sunfleet/contracts';
import { sql } from 'kysely';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, sleep, waitFor } from '../../test/mqtt.ts';
import { exited, type ServerProcess, startServerProcess } from '../../test/server-process.ts';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { deviceFrame, HYBRID, uniqueSn } from '../../test/telemetry.ts';
import { createDb, type Db } from '../db/index.ts';
import { provisionGateway } from './gateways.ts';

const GATEWAYS = 5;
const DEVICES = 10;
/** Messages per second per gateway: 5 × 10 × 100 = 5,000 frames/s. */
const RATE = 100;
/** 4 s of publishing: the kill (1.5 to 3.5 s in) always falls inside it. */
const MESSAGES = 400;

interface Publisher {
  sn: string;
  client: MqttClient;
  devices: string[];
  /** Message numbers the server acknowledged. */
  acked: Set<number>;
  sent: number;
}

describe('a server killed while gateways publish', () => {
  let store: TestStore;
  let db: Db;
  let dataDir: string;
  let server: ServerProcess | null = null;
  const publishers: Publisher[] = [];

  beforeAll(async () => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-crash-'));
    store = await openTestStore(2);
  });
  afterAll(async () => {
    for (const p of publishers) p.client.end(true);
    if (server && server.child.exitCode === null) {
      server.child.kill('SIGKILL');
      await exited(server.child);
    }
    if (db && db !== store.db) await db.destroy();
    await store?.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  it('has stored every frame it acknowledged, once, after a kill -9 and a restart', async () => {
    const httpPort = await freePort();
    const mqttPort = await freePort();
    const env: Record<string, string> = {
      PORT: String(httpPort),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      DEMO: 'off',
      SIMULATOR: 'off',
      MQTT_PORT: String(mqttPort),
      MQTT_HOST: '127.0.0.1',
      MQTT_RATE_LIMIT: 'off',
      LOG_LEVEL: 'warn',
      JWT_SECRET: 'crash-test-secret-crash-test-secret-0123',
      ...(store.databaseUrl ? { DATABASE_URL: store.databaseUrl } : {}),
    };
    server = await startServerProcess(env, httpPort);
    // SQLite: the server's own file, read and written beside it (WAL); PostgreSQL: the test's schema.
    db = store.databaseUrl ? store.db : createDb({ databaseUrl: null, sqliteFile: path.join(dataDir, 'sunfleet.db') }).db;

    const base = Date.now() - 20 * 60_000;
    for (let g = 0; g < GATEWAYS; g++) {
      const gw = await provisionGateway(db, { sn: uniqueSn('CRASH') });
      const devices = Array.from({ length: DEVICES }, () => uniqueSn('CINV'));
      const client = mqtt.connect(`mqtt://127.0.0.1:${mqttPort}`, {
        clientId: gw.sn,
        username: gw.sn,
        password: gw.secret,
        protocolVersion: 4,
        clean: false,
        reconnectPeriod: 200,
        connectTimeout: 5000,
      });
      client.on('error', () => {}); // refused while the server is down: it reconnects
      publishers.push({ sn: gw.sn, client, devices, acked: new Set(), sent: 0 });
    }
    await waitFor(() => publishers.every((p) => p.client.connected), 10_000, 'publishers connected');

    const frames = new Map(publishers.map((p) => [p.sn, p.devices.map((sn) => deviceFrame({ sn, protocol: HYBRID }))]));
    const publishNext = (p: Publisher) => {
      const n = p.sent++;
      const message: DataMessage = { v: 1, seq: n, ts: base + n * 1000, devices: frames.get(p.sn)! };
      p.client.publish(topics.up(p.sn, 'data'), JSON.stringify(message), { qos: 1 }, (err) => {
        if (!err) p.acked.add(n);
      });
    };
    const started = Date.now();
    const pacer = setInterval(() => {
      const due = Math.min(MESSAGES, Math.floor(((Date.now() - started) / 1000) * RATE));
      for (const p of publishers) while (p.sent < due) publishNext(p);
    }, 5);

    // Kill at a random moment of the steady publish.
    await sleep(1500 + Math.random() * 2000);
    server.child.kill('SIGKILL');
    await exited(server.child);
    const ackedAtKill = publishers.map((p) => new Set(p.acked));
    const ackedCount = ackedAtKill.reduce((n, s) => n + s.size, 0);
    expect(ackedCount).toBeGreaterThan(0);

    server = await startServerProcess(env, httpPort);
    await waitFor(() => publishers.every((p) => p.sent === MESSAGES), 30_000, 'every message published');
    clearInterval(pacer);
    // Patient: on a loaded 2-core machine (CI runs the browser tests beside this suite) the restarted
    // server takes its time; what is checked is that nothing acknowledged is lost or stored twice.
    await waitFor(() => publishers.every((p) => p.acked.size === MESSAGES), 150_000, 'every message acknowledged');

    for (const [i, p] of publishers.entries()) {
      const rows = await db
        .selectFrom('inverter_samples as s')
        .innerJoin('devices as d', 'd.id', 's.device_id')
        .select(['d.sn', 's.ts'])
        .where('d.sn', 'in', p.devices)
        .execute();
      const stored = new Map<string, Set<number>>();
      for (const r of rows) {
        const times = stored.get(r.sn) ?? new Set<number>();
        stored.set(r.sn, times);
        times.add(Number(r.ts));
      }
      // None twice: one row per device and time.
      expect(rows.length).toBe([...stored.values()].reduce((n, s) => n + s.size, 0));
      for (const sn of p.devices) {
        const times = stored.get(sn) ?? new Set<number>();
        const lost = [...ackedAtKill[i]!].filter((n) => !times.has(base + n * 1000));
        expect(lost, `frames of ${sn} acknowledged before the kill and not stored`).toEqual([]);
        expect(times.size).toBe(MESSAGES);
      }
    }
    const [{ n }] = (await sql<{ n: number }>`select count(*) as n from inverter_samples`.execute(db)).rows as [{ n: number }];
    expect(Number(n)).toBe(GATEWAYS * DEVICES * MESSAGES);

    server.child.kill('SIGTERM');
    await exited(server.child);
  }, 300_000);
});
