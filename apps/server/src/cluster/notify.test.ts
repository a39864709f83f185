/**
 * Changes every process hears of at once: delivered here at once, and on PostgreSQL to the other
 * processes by NOTIFY (two buses here stand for two processes: each has its own listener);
 * another schema's messages are not ours; a listener that lost its connection comes back and
 * tells its handlers to reload. End to end: a gateway deleted through an API process is cut off
 * by the embedded broker of an ingest process at once, not when its cached secret expires.
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode } from '@sunfleet/contracts';
import { sql } from 'kysely';
import type { MqttClient } from 'mqtt';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { closed, connectGateway, tryConnect, waitFor } from '../../test/mqtt.ts';
import { openTestStore, type TestStore } from '../../test/store.ts';
import { uniqueSn } from '../../test/telemetry.ts';
import { type EmbeddedBroker, startEmbeddedBroker } from '../telemetry/broker/embedded.ts';
import { provisionGateway } from '../telemetry/gateways.ts';
import { type ClusterBus, type ClusterMessage, clusterEffects, createClusterBus, telemetryHandler } from './notify.ts';

const pgUrl = process.env.TEST_DATABASE_URL || null;
const buses: ClusterBus[] = [];
const bus = (store: { db: TestStore['db']; databaseUrl: string | null }, applicationName?: string) => {
  const b = createClusterBus({ db: store.db, databaseUrl: store.databaseUrl, ...(applicationName ? { applicationName } : {}) });
  buses.push(b);
  return b;
};
const recorder = (b: ClusterBus) => {
  const got: ClusterMessage[] = [];
  let resyncs = 0;
  b.subscribe({ message: (m) => got.push(m), resync: () => resyncs++ });
  return { got, resyncs: () => resyncs };
};

let store: TestStore;
beforeAll(async () => {
  store = await openTestStore(2);
});
afterAll(async () => {
  for (const b of buses) await b.close();
  await store.close();
});

describe('cluster messages', () => {
  it("reach this process's handlers at once, once", async () => {
    const a = bus(store);
    await a.ready();
    const mine = recorder(a);
    a.publish({ kind: 'ingest.forget', gatewaySn: 'GW0001' });
    expect(mine.got).toEqual([{ kind: 'ingest.forget', gatewaySn: 'GW0001' }]);
    await new Promise((r) => setTimeout(r, 200));
    expect(mine.got).toHaveLength(1);
  });

  it.runIf(!!pgUrl)('reach the other processes of the same schema, and only those', async () => {
    const a = bus(store);
    const b = bus(store);
    const other = await openTestStore(1);
    try {
      const c = bus(other);
      await Promise.all([a.ready(), b.ready(), c.ready()]);
      const theirs = recorder(b);
      const foreign = recorder(c);
      a.publish({ kind: 'ingest.forget', deviceSn: 'INV0001' });
      await waitFor(() => theirs.got.length === 1, 3000, 'the other process to hear it');
      expect(theirs.got).toEqual([{ kind: 'ingest.forget', deviceSn: 'INV0001' }]);
      // Over the 8000-byte limit of one notification: sent in parts.
      const sns = Array.from({ length: 250 }, (_, i) => `GW${String(i).padStart(28, '0')}`);
      a.publish({ kind: 'gateway.revoked', sns });
      await waitFor(() => theirs.got.length === 4, 3000, 'three parts');
      expect(theirs.got.slice(1).flatMap((m) => (m.kind === 'gateway.revoked' ? m.sns : []))).toEqual(sns);
      await new Promise((r) => setTimeout(r, 200));
      expect(foreign.got).toEqual([]);
    } finally {
      await other.close();
    }
  });

  it.runIf(!!pgUrl)('a listener whose connection was cut comes back and tells its handlers to reload', async () => {
    const name = `sunfleet-cluster-${randomBytes(4).toString('hex')}`;
    const a = bus(store);
    const b = bus(store, name);
    await Promise.all([a.ready(), b.ready()]);
    const theirs = recorder(b);
    await sql`select pg_terminate_backend(pid) from pg_stat_activity where application_name = ${name}`.execute(store.db);
    await waitFor(() => theirs.resyncs() === 1, 5000, 'the listener to come back and resync');
    a.publish({ kind: 'ingest.forget' });
    await waitFor(() => theirs.got.length === 1, 3000, 'messages heard again');
  });
});

describe('a gateway deleted through an API process', () => {
  let api: TestServer;
  let broker: EmbeddedBroker;
  let apiBus: ClusterBus;
  let ingestBus: ClusterBus;
  let admin: string;
  const forgotten: unknown[] = [];
  beforeAll(async () => {
    let effects: ReturnType<typeof clusterEffects> | null = null;
    api = await startServer({}, undefined, {
      ingest: { forget: (o) => effects?.ingest.forget(o) },
      revokeGateways: (sns) => effects?.revokeGateways(sns),
    });
    // The API process and the ingest process share the store, nothing else.
    const url = pgUrl ? new URL(pgUrl) : null;
    if (url) {
      const schema = (await sql<{ s: string }>`select current_schema() as s`.execute(api.db)).rows[0]!.s;
      url.searchParams.set('options', `-c search_path=${schema}`);
    }
    const shared = { db: api.db, databaseUrl: url?.toString() ?? null };
    apiBus = bus(shared);
    // SQLite is one process: the API and the broker hear the same bus.
    ingestBus = pgUrl ? bus(shared) : apiBus;
    await Promise.all([apiBus.ready(), ingestBus.ready()]);
    effects = clusterEffects(apiBus);
    broker = await startEmbeddedBroker({
      db: api.db,
      log: pino({ level: 'silent' }),
      handler: { message: (_sn, _ch, _p, _at, ack) => ack?.() },
      port: 0,
      host: '127.0.0.1',
      serverCredentials: { username: 'sunfleet.server', password: 'server-secret-for-tests' },
      rateLimit: false,
      presence: { flushMs: 20 },
    });
    ingestBus.subscribe(
      telemetryHandler({ ingest: { forget: (o) => forgotten.push(o ?? 'all') }, revoke: (sn) => broker.revoke(sn) }),
    );
    admin = (await api.login((await api.user({ kind: 'sysadmin' })).account)).access;
  });
  afterAll(async () => {
    await broker?.close();
    await api?.close();
  });

  it('is cut off and refused at once by the broker of another process, and that ingest forgets it', async () => {
    const gw = await provisionGateway(api.db, { sn: uniqueSn('DEL') });
    const client: MqttClient = await connectGateway(broker.port, gw.sn, gw.secret);
    const res = await api.call(admin, 'GET', `/api/v1/gateway/${gw.id}/delete`);
    expect(res.body).toMatchObject({ code: ErrorCode.ok });
    // Its secret was cached by the connect above (60 s): only the message cuts it off now.
    expect(await closed(client, 3000)).toBe(true);
    const again = await tryConnect(broker.port, { clientId: gw.sn, username: gw.sn, password: gw.secret });
    expect(again.ok).toBe(false);
    await waitFor(() => forgotten.some((o) => (o as { gatewaySn?: string }).gatewaySn === gw.sn), 3000, 'ingest to forget it');
  });
});
