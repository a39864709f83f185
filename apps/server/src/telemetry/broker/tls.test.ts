/**
 * MQTT over TLS on the embedded broker: the self-signed pair made once in the data folder, a
 * gateway that trusts (pins) that certificate connects and publishes, one that does not is
 * refused at the handshake, a plain client gets nothing from the TLS port, and with the plain
 * listener off there is no unencrypted port at all. The simulator's gateways connect the same way.
 */
import { X509Certificate } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { topics } from '@sunfleet/contracts';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClock } from '../../../../simulator/src/clock.ts';
import { VirtualGateway } from '../../../../simulator/src/gateway.ts';
import { stringPlant } from '../../../../simulator/src/testing/plants.ts';
import { connectGateway, tryConnect, waitFor } from '../../../test/mqtt.ts';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { ConfigError, loadConfig } from '../../config.ts';
import { provisionGateway } from '../gateways.ts';
import type { TelemetryHandler } from '../types.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from './embedded.ts';
import { type BrokerTls, brokerTls } from './tls.ts';

const log = pino({ level: 'silent' });

describe('MQTT over TLS', () => {
  let dir: string;
  let store: TestStore;
  let broker: EmbeddedBroker;
  let pair: BrokerTls;
  const got: { sn: string; payload: string }[] = [];
  const handler: TelemetryHandler = {
    message(sn, _channel, payload, _at, ack) {
      got.push({ sn, payload: payload.toString() });
      ack?.();
    },
  };
  let gw: { sn: string; secret: string };

  beforeAll(async () => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sunfleet-tls-'));
    store = await openTestStore();
    gw = { sn: 'GWT-0001', secret: (await provisionGateway(store.db, { sn: 'GWT-0001' })).secret };
    pair = await brokerTls({ certFile: null, keyFile: null }, dir, log);
    broker = await startEmbeddedBroker({
      db: store.db,
      log,
      handler,
      port: null,
      host: '127.0.0.1',
      tls: { port: 0, key: pair.key, cert: pair.cert },
      serverCredentials: { username: 'sunfleet.server', password: 'server-secret-for-tests' },
      rateLimit: false,
    });
  });
  afterAll(async () => {
    await broker.close();
    await store.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('makes a self-signed pair once in the data folder, the key readable by its owner only', async () => {
    const crt = path.join(dir, 'keys', 'mqtt-tls.crt');
    const key = path.join(dir, 'keys', 'mqtt-tls.key');
    expect(fs.statSync(key).mode & 0o077).toBe(0);
    const cert = new X509Certificate(fs.readFileSync(crt));
    expect(cert.fingerprint256).toBe(pair.fingerprint);
    expect(cert.subjectAltName).toMatch(/DNS:localhost/);
    expect(cert.subjectAltName).toMatch(/IP Address:127\.0\.0\.1/);
    // Again: the same pair.
    expect((await brokerTls({ certFile: null, keyFile: null }, dir, log)).fingerprint).toBe(pair.fingerprint);
  });

  it('a gateway that trusts the broker’s certificate connects and publishes over TLS', async () => {
    expect(broker.tlsPort).toBeGreaterThan(0);
    const client = await connectGateway(broker.tlsPort!, gw.sn, gw.secret, {
      protocol: 'mqtts',
      host: '127.0.0.1',
      ca: pair.cert,
    });
    await client.publishAsync(topics.up(gw.sn, 'event'), 'over-tls', { qos: 1 });
    await waitFor(() => got.some((m) => m.payload === 'over-tls'), 5000, 'the message');
    await client.endAsync();
  });

  it('a client that does not trust the certificate, or speaks plain MQTT to the TLS port, gets nowhere', async () => {
    const untrusted = await tryConnect(broker.tlsPort!, {
      protocol: 'mqtts',
      host: '127.0.0.1',
      clientId: gw.sn,
      username: gw.sn,
      password: gw.secret,
    });
    expect(untrusted.ok).toBe(false);
    if (!untrusted.ok) expect(untrusted.message).toMatch(/self[- ]signed/i);
    const plain = await tryConnect(broker.tlsPort!, {
      clientId: gw.sn,
      username: gw.sn,
      password: gw.secret,
      connectTimeout: 1500,
    });
    expect(plain.ok).toBe(false);
  });

  it('with the plain listener off, the broker has no other port than its TLS one', () => {
    expect(broker.port).toBe(broker.tlsPort);
  });

  it('the simulator’s gateways connect over TLS with the certificate pinned', async () => {
    const [plant, devices] = stringPlant();
    const gateway = new VirtualGateway(
      { sn: gw.sn, secret: gw.secret, plant, devices },
      { url: `mqtts://127.0.0.1:${broker.tlsPort}`, ca: pair.cert, clock: createClock({ speed: 120 }), interval: 60 },
    );
    const before = got.length;
    gateway.start();
    try {
      await waitFor(() => got.slice(before).some((m) => m.sn === gw.sn), 10_000, 'a message from the simulated gateway');
    } finally {
      await gateway.stop();
    }
  });

  it('production: the plain listener is off unless switched on, and TLS needs its certificate files', () => {
    const base = { DATA_DIR: dir, NODE_ENV: 'production', JWT_SECRET: 'x'.repeat(32), DEMO: 'off' };
    expect(() => loadConfig(base)).toThrow(ConfigError);
    const files = { MQTT_TLS_CERT: path.join(dir, 'keys', 'mqtt-tls.crt'), MQTT_TLS_KEY: path.join(dir, 'keys', 'mqtt-tls.key') };
    const prod = loadConfig({ ...base, ...files });
    expect(prod.mqtt.plain).toBe(false);
    expect(prod.mqtt.tls).toMatchObject({ port: 8883, certFile: files.MQTT_TLS_CERT });
    expect(loadConfig({ ...base, ...files, MQTT_PLAIN: 'on' }).mqtt.plain).toBe(true);
    const dev = loadConfig({ DATA_DIR: dir });
    expect([dev.mqtt.plain, dev.mqtt.tls?.certFile]).toEqual([true, null]);
    expect(() => loadConfig({ DATA_DIR: dir, MQTT_TLS_CERT: files.MQTT_TLS_CERT })).toThrow(/go together/);
  });
});
