/**
 * Two ingest processes (the real server, ROLES=ingest) in one shared-subscription group on
 * Mosquitto, over one PostgreSQL schema; one is killed with SIGKILL while gateways publish and its
 * supervisor (this test) starts it again under the same client id. Every frame Mosquitto
 * acknowledged to a gateway is then stored, and none twice.
 *
 * What Mosquitto 2 does with a member that dies: the QoS 1 messages it had been handed and not
 * acknowledged stay in its persistent session, and the broker goes on handing the dead member its
 * round-robin share of new messages, queued in that session too; neither goes to the live member.
 * They are delivered when a client connects with the dead member's id. The test checks that
 * frames are indeed waiting there before the restart, so it cannot pass without it.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type DataMessage, topics } from '@sunfleet/contracts';
import mqtt, { type MqttClient } from 'mqtt';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, MOSQUITTO_BIN, type Mosquitto, sleep, startMosquitto, waitFor } from '../../../test/mqtt.ts';
import { exited, type ServerProcess, startServerProcess } from '../../../test/server-process.ts';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { deviceFrame, HYBRID, uniqueSn } from '../../../test/telemetry.ts';
import { ensureAdmin } from '../../bootstrap/admin.ts';
import { loadConfig } from '../../config.ts';
import { provisionGateway } from '../gateways.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
if (!MOSQUITTO_BIN) console.warn('SKIPPED: shared ingest — no mosquitto binary (apt-get install mosquitto)');
else if (!pgUrl) console.warn('SKIPPED: shared ingest — several ingest processes need PostgreSQL (TEST_DATABASE_URL)');

const GATEWAYS = 4;
const DEVICES = 2;
/** Messages per second per gateway. */
const RATE = 40;
const MESSAGES = 240;
const ingestUser = { username: 'sunfleet.ingest', password: 'shared-ingest-secret-for-tests' };

interface Publisher {
  sn: string;
  client: MqttClient;
  devices: string[];
  /** Message numbers Mosquitto acknowledged (QoS 1 PUBACK to the gateway). */
  acked: Set<number>;
  sent: number;
}

describe.skipIf(!MOSQUITTO_BIN || !pgUrl)('ingest processes sharing a subscription, one killed', () => {
  let store: TestStore;
  let mosquitto: Mosquitto;
  const dirs: string[] = [];
  const servers: (ServerProcess | null)[] = [null, null];
  const publishers: Publisher[] = [];

  beforeAll(async () => {
    store = await openTestStore(2);
  });
  afterAll(async () => {
    for (const p of publishers) p.client.end(true);
    for (const s of servers) {
      if (s && s.child.exitCode === null && s.child.signalCode === null) {
        s.child.kill('SIGKILL');
        await exited(s.child);
      }
    }
    await mosquitto?.stop();
    await store?.close();
    for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
  });

  /** Ingest process `slot` (1 or 2): its client id is its slot's, the same after every restart. */
  const startIngest = async (slot: number) => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-shared-ingest-'));
    dirs.push(dataDir);
    // The api role only for /healthz: it answers once ingest has subscribed.
    const server = await startServerProcess(
      {
        ROLES: 'api,ingest',
        HOST: '127.0.0.1',
        DATA_DIR: dataDir,
        DATABASE_URL: store.databaseUrl!,
        MQTT_URL: mosquitto.serverUrl(ingestUser),
        MQTT_CLIENT_ID: `sunfleet.ingest.${slot}`,
        MQTT_RATE_LIMIT: 'off',
        DEMO: 'off',
        SIMULATOR: 'off',
        LOG_LEVEL: 'warn',
        JWT_SECRET: 'shared-ingest-test-secret-0123456789abcdef',
      },
      await freePort(),
    );
    servers[slot - 1] = server;
    return server;
  };

  /** Stored sample times per device of the publishers, and how many rows in all. */
  const stored = async () => {
    const rows = await store.db
      .selectFrom('inverter_samples as s')
      .innerJoin('devices as d', 'd.id', 's.device_id')
      .select(['d.sn', 's.ts'])
      .where(
        'd.sn',
        'in',
        publishers.flatMap((p) => p.devices),
      )
      .execute();
    const times = new Map<string, Set<number>>();
    for (const r of rows) {
      const set = times.get(r.sn) ?? new Set<number>();
      times.set(r.sn, set);
      set.add(Number(r.ts));
    }
    return { rows: rows.length, times };
  };

  it('stores every frame the broker acknowledged, once, after kill -9 of one process and its restart under the same client id', async () => {
    const gateways = [];
    for (let g = 0; g < GATEWAYS; g++) gateways.push(await provisionGateway(store.db, { sn: uniqueSn('SHARE') }));
    mosquitto = await startMosquitto({
      users: gateways.map((g) => ({ username: g.sn, password: g.secret })),
      serverUsers: [ingestUser],
    });
    // The first administrator exists already, as after a first start: two processes starting
    // together on an empty store would both try to make it.
    await ensureAdmin(store.db, loadConfig({ PASSWORD_COST: 'test' }));
    await Promise.all([startIngest(1), startIngest(2)]);

    const base = Date.now() - 20 * 60_000;
    for (const gw of gateways) {
      const client = mqtt.connect(`mqtt://127.0.0.1:${mosquitto.gatewayPort}`, {
        clientId: gw.sn,
        username: gw.sn,
        password: gw.secret,
        protocolVersion: 4,
        clean: false,
        reconnectPeriod: 200,
      });
      client.on('error', () => {});
      const devices = Array.from({ length: DEVICES }, () => uniqueSn('SINV'));
      publishers.push({ sn: gw.sn, client, devices, acked: new Set(), sent: 0 });
    }
    await waitFor(() => publishers.every((p) => p.client.connected), 10_000, 'gateways connected');
    const frames = new Map(publishers.map((p) => [p.sn, p.devices.map((sn) => deviceFrame({ sn, protocol: HYBRID }))]));
    // Message n of a gateway carries seq n and ts = base + n s: each frame is one (device, ts) row.
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

    try {
      await sleep(1200 + Math.random() * 800);
      const killed = servers[0]!;
      killed.child.kill('SIGKILL');
      await exited(killed.child);
      // Down for a while: the broker acknowledges what gateways publish and keeps the dead member's share.
      await sleep(1500);
      const ackedWhileDown = publishers.map((p) => new Set(p.acked));
      // The live process stores its share; the dead one's waits in its session on the broker.
      let previous = -1;
      await waitFor(
        async () => {
          const { rows } = await stored();
          const still = rows === previous;
          previous = rows;
          await sleep(300);
          return still;
        },
        15_000,
        'the live process to settle',
      );
      const { times: before } = await stored();
      const waiting = publishers.reduce(
        (n, p, i) =>
          n +
          p.devices.reduce((m, sn) => m + [...ackedWhileDown[i]!].filter((k) => !before.get(sn)?.has(base + k * 1000)).length, 0),
        0,
      );
      expect(waiting, 'acknowledged frames waiting in the killed member’s session').toBeGreaterThan(0);

      await startIngest(1);
      await waitFor(() => publishers.every((p) => p.sent === MESSAGES), 20_000, 'every message published');
      await waitFor(() => publishers.every((p) => p.acked.size === MESSAGES), 20_000, 'every message acknowledged');
      const expected = GATEWAYS * DEVICES * MESSAGES;
      await waitFor(async () => (await stored()).rows >= expected, 20_000, 'every frame stored');
      await sleep(300);

      const { rows, times } = await stored();
      // None twice: one row per device and time, and no more rows than frames.
      expect(rows).toBe([...times.values()].reduce((n, s) => n + s.size, 0));
      expect(rows).toBe(expected);
      for (const p of publishers) {
        for (const sn of p.devices) {
          const missing = [...p.acked].filter((k) => !times.get(sn)?.has(base + k * 1000));
          expect(missing, `frames of ${sn} acknowledged and not stored`).toEqual([]);
        }
      }
    } finally {
      clearInterval(pacer);
    }
  }, 90_000);
});
