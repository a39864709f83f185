/**
 * Ingest as the tests run it: over a private store (test/store.ts), in the same process as a
 * test server (frames fed to it land in the server's store; tests outside telemetry feed data
 * through here rather than importing ingest), or behind an embedded broker with a gateway
 * connected to it over MQTT.
 */

import type { FieldValue } from '@sunfleet/protocols';
import type { MqttClient } from 'mqtt';
import pino from 'pino';
import type { DeviceKind } from '../src/db/schema.ts';
import { sampleColumns } from '../src/energy/samples.ts';
import { silentLogger } from '../src/log.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../src/telemetry/broker/embedded.ts';
import { provisionGateway } from '../src/telemetry/gateways.ts';
import { createIngest, type Ingest, ruleEvents } from '../src/telemetry/ingest/index.ts';
import { kinds } from '../src/telemetry/ingest/kinds.ts';
import { startServer, type TestServer } from './harness.ts';
import { connectGateway } from './mqtt.ts';
import { openTestStore, type TestStore } from './store.ts';
import { makePlant, uniqueSn } from './telemetry.ts';

export type { Ingest };

export interface IngestStore extends TestStore {
  ingest: Ingest;
}

/** A private store with ingest writing into it (frames flushed every 20 ms); `close` stops ingest, then drops the store. */
export async function openIngestStore(): Promise<IngestStore> {
  const store = await openTestStore();
  const ingest = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 20 });
  return {
    ...store,
    ingest,
    async close() {
      await ingest.close();
      await store.close();
    },
  };
}

export interface MqttIngest {
  /** The gateway's credentials. */
  gw: { sn: string; secret: string };
  ingest: Ingest;
  broker: EmbeddedBroker;
  /** The gateway's MQTT connection. */
  gateway: MqttClient;
  /** Disconnects the gateway, then closes the broker and ingest. */
  close(): Promise<void>;
}

/**
 * Over the server's store: ingest (frames flushed every 50 ms, SQLite statements prepared on
 * the connection) behind an embedded broker on a free loopback port, and a gateway of a new
 * plant connected to it.
 */
export async function mqttIngest(s: TestServer): Promise<MqttIngest> {
  const plantId = await makePlant(s.db);
  const { sn, secret } = await provisionGateway(s.db, { sn: uniqueSn('GW'), plantId });
  const ingest = createIngest({ db: s.db, dialect: s.store.dialect, sqlite: s.store.sqlite, log: silentLogger, flushMs: 50 });
  const broker = await startEmbeddedBroker({
    db: s.db,
    log: pino({ level: 'silent' }),
    handler: ingest,
    port: 0,
    host: '127.0.0.1',
    serverCredentials: { username: 'sunfleet.server', password: 'server-secret-for-tests' },
    rateLimit: false,
  });
  const gateway = await connectGateway(broker.port, sn, secret);
  return {
    gw: { sn, secret },
    ingest,
    broker,
    gateway,
    async close() {
      gateway.end(true);
      await broker.close();
      await ingest.close();
    },
  };
}

export interface IngestServer {
  s: TestServer;
  ingest: Ingest;
  /** deviceSn / gatewaySn arguments of every `deps.ingest.forget` call. */
  forgotten: Array<{ gatewaySn?: string; deviceSn?: string }>;
  close(): Promise<void>;
}

export async function ingestServer(): Promise<IngestServer> {
  // The ingest needs the server's store, and the server needs the ingest: built in that order.
  const deps: { ingest?: Ingest } = {};
  const forgotten: IngestServer['forgotten'] = [];
  const s = await startServer({}, undefined, {
    ingest: {
      forget: (o) => {
        forgotten.push(o ?? {});
        deps.ingest?.forget(o);
      },
    },
  });
  const ingest = createIngest({ db: s.db, dialect: s.store.dialect, log: silentLogger, flushMs: 10 });
  deps.ingest = ingest;
  return {
    s,
    ingest,
    forgotten,
    async close() {
      await ingest.close();
      await s.close();
    },
  };
}

/** The codes of the events the server's own rules raise (ingest's rules and the offline job). */
export const ruleEventCodes: readonly string[] = Object.keys(ruleEvents);

/** The samples-table row ingest stores for a device's decoded values: its columns and their values. */
export function storedSample(kind: DeviceKind, values: Record<string, FieldValue>) {
  return { columns: sampleColumns[kind], sample: kinds[kind].sample(values) };
}
