/**
 * PostgreSQL outages while gateways upload through the real embedded broker: the server's
 * connections are terminated (pg_terminate_backend: a restart, a failover), the database goes
 * away (connections cut and refused) and hangs (connections accepted, never answered). The
 * process stays up, requests answer 503 with the envelope while it lasts and succeed after,
 * /healthz follows the store, and every frame the gateway got a PUBACK for is stored once.
 */
import { randomBytes } from 'node:crypto';
import { ErrorCode, topics } from '@sunfleet/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { type MqttIngest, mqttIngest } from '../../test/ingest.ts';
import { sleep, waitFor } from '../../test/mqtt.ts';
import { startTcpProxy, type TcpProxy } from '../../test/tcp-proxy.ts';
import { dataMessage, HYBRID, uniqueSn } from '../../test/telemetry.ts';
import { createDb, type Db } from './index.ts';

const pgUrl = process.env.TEST_DATABASE_URL;
const MIN = 60_000;
const T0 = Math.floor((Date.now() - 20 * 86_400_000) / MIN) * MIN;

describe.skipIf(!pgUrl)('PostgreSQL outage', () => {
  const appName = `sunfleet-outage-${randomBytes(4).toString('hex')}`;
  let proxy: TcpProxy;
  let s: TestServer;
  let admin: Db;
  let link: MqttIngest;
  const connectionErrors: Error[] = [];
  const inverter = uniqueSn('INV');

  beforeAll(async () => {
    const url = new URL(pgUrl!);
    proxy = await startTcpProxy({ host: url.hostname, port: Number(url.port || 5432) });
    const viaProxy = new URL(pgUrl!);
    viaProxy.hostname = '127.0.0.1';
    viaProxy.port = String(proxy.port);
    s = await startServer(
      {},
      undefined,
      {},
      {
        databaseUrl: viaProxy.toString(),
        applicationName: appName,
        onConnectionError: (e) => connectionErrors.push(e),
      },
    );
    ({ db: admin } = createDb({ databaseUrl: pgUrl!, poolSize: 1 }));
    link = await mqttIngest(s);
  });

  afterAll(async () => {
    await link?.close();
    await admin?.destroy();
    await proxy?.restore();
    await s?.close();
    await proxy?.close();
  });

  /** Numbered frames, one a few milliseconds, at most 50 unacknowledged; `acked` holds those PUBACKed. */
  function publishFrames() {
    const acked = new Set<number>();
    let sent = 0;
    let running = true;
    const inflight = new Set<Promise<void>>();
    const done = (async () => {
      while (running) {
        if (inflight.size >= 50) {
          await Promise.race(inflight);
          continue;
        }
        const i = sent++;
        const payload = dataMessage(T0 + i * MIN, [{ sn: inverter, protocol: HYBRID }]);
        const p: Promise<void> = link.gateway
          .publishAsync(topics.up(link.gw.sn, 'data'), payload, { qos: 1 })
          .then(
            () => void acked.add(i),
            () => undefined,
          )
          .finally(() => inflight.delete(p));
        inflight.add(p);
        await sleep(4);
      }
      await Promise.all(inflight);
    })();
    return {
      acked,
      sent: () => sent,
      async stop() {
        running = false;
        await done;
      },
    };
  }

  const health = () => s.app.inject({ method: 'GET', url: '/healthz' });
  const terminateBackends = async () =>
    // Materialised first: only this server's connections reach pg_terminate_backend.
    (
      await sql<{ ok: boolean }>`with mine as materialized (
          select pid from pg_stat_activity
          where usename = current_user and application_name = ${appName} and pid <> pg_backend_pid()
        )
        select pg_terminate_backend(pid) as ok from mine`.execute(admin)
    ).rows.filter((r) => r.ok).length;

  it('survives its connections being terminated, a cut and a hang, and stores every acknowledged frame once', async () => {
    const { access } = await s.login((await s.user()).account);
    const me = () => s.call(access, 'GET', '/api/v1/user');
    expect((await me()).status).toBe(200);

    const frames = publishFrames();
    await waitFor(() => frames.acked.size >= 100, 10_000, '100 frames acknowledged');

    // Every connection of this server's pool ends (idle ones included) while frames flow.
    const terminated = await terminateBackends();
    expect(terminated).toBeGreaterThan(0);
    await waitFor(() => connectionErrors.length > 0, 5000, 'the pool to hear of the lost connections');
    const afterTerminate = frames.acked.size;
    await waitFor(async () => (await health()).statusCode === 200, 10_000, '/healthz 200 after the termination');
    await waitFor(async () => (await me()).status === 200, 10_000, 'requests to succeed again');
    await waitFor(() => frames.acked.size >= afterTerminate + 100, 10_000, 'ingest to go on');

    // The database goes away: connections cut, new ones refused.
    await proxy.cut();
    const down = await health();
    expect(down.statusCode).toBe(503);
    expect(down.json()).toEqual({ code: ErrorCode.storeUnavailable, msg: expect.any(String), data: null });
    const refused = await me();
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: ErrorCode.storeUnavailable, data: null });
    await sleep(500); // frames keep arriving during the outage

    // It hangs: /healthz still answers, and fast.
    await proxy.restore();
    proxy.blackhole();
    await terminateBackends(); // the pool's connections must reconnect into the black hole
    const started = performance.now();
    const hung = await health();
    const hungMs = performance.now() - started;
    expect(hung.statusCode).toBe(503);
    expect(hungMs).toBeLessThan(2500);

    // Back.
    await proxy.restore();
    await waitFor(async () => (await health()).statusCode === 200, 15_000, '/healthz 200 once the database is back');
    await waitFor(async () => (await me()).status === 200, 15_000, 'requests to succeed once the database is back');
    const beforeStop = frames.acked.size;
    await waitFor(() => frames.acked.size >= beforeStop + 50, 15_000, 'frames acknowledged after the outage');
    await frames.stop();
    await link.ingest.flush();

    const device = await s.db.selectFrom('devices').select('id').where('sn', '=', inverter).executeTakeFirstOrThrow();
    const rows = await s.db
      .selectFrom('inverter_samples')
      .select(['ts', sql<number>`count(*)`.as('n')])
      .where('device_id', '=', device.id)
      .groupBy('ts')
      .execute();
    const stored = new Map(rows.map((r) => [Number(r.ts), Number(r.n)]));
    const missing = [...frames.acked].filter((i) => stored.get(T0 + i * MIN) !== 1);
    expect(missing).toEqual([]);
    console.log(
      `PostgreSQL outage: ${terminated} backends terminated, ${connectionErrors.length} connection errors heard, /healthz answered a hung store in ${Math.round(hungMs)} ms; ${frames.acked.size} of ${frames.sent()} frames acknowledged, all stored once; ${link.ingest.stats().failedBatches} batches retried`,
    );
    // Acknowledged only once stored: the outage held acknowledgements back (and with them the
    // publisher's window), and in the end every frame sent was acknowledged.
    expect(frames.acked.size).toBe(frames.sent());
    expect(frames.acked.size).toBeGreaterThanOrEqual(250);
    expect(link.ingest.stats().failedBatches).toBeGreaterThan(0); // the outage did reach ingest
  }, 90_000);
});
