/** Presence writes: merged per gateway, grouped per flush, throttled `last_seen_at`. */
import type { KyselyPlugin } from 'kysely';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { waitFor } from '../../../test/mqtt.ts';
import { openTestStore, type TestStore } from '../../../test/store.ts';
import { secretHash } from '../gateways.ts';
import { Presence } from './presence.ts';

const log = pino({ level: 'silent' });
let store: TestStore;
const STORM = 10_000;
const stormSns = Array.from({ length: STORM }, (_, i) => `STORM-${String(i).padStart(5, '0')}`);

const row = (sn: string) => store.db.selectFrom('gateways').selectAll().where('sn', '=', sn).executeTakeFirstOrThrow();
async function addGateways(sns: string[]) {
  const t = Date.now();
  for (let i = 0; i < sns.length; i += 500) {
    await store.db
      .insertInto('gateways')
      .values(
        sns
          .slice(i, i + 500)
          .map((sn) => ({ sn, secret_hash: secretHash(sn), claim_key_hash: secretHash(sn), created_at: t, updated_at: t })),
      )
      .execute();
  }
}
// A long flush interval: these tests flush by hand.
const presence = () => new Presence({ db: store.db, log, flushMs: 60_000, seenEveryMs: 30_000 });

beforeAll(async () => {
  store = await openTestStore();
  await addGateways([...stormSns, 'P-0001', 'P-0002', 'P-0003', 'P-0004', 'P-0005', 'P-0006', 'P-0007', 'P-0008']);
});
afterAll(async () => {
  await store?.close();
});

describe('presence', () => {
  it('writes a reconnect storm of 10,000 gateways in a few grouped statements', async () => {
    const p = presence();
    const t0 = Date.now();
    for (const sn of stormSns) p.connected(sn, t0);
    await p.flush();
    expect(p.stats.statements).toBeLessThanOrEqual(STORM / 500);
    const online = await store.db
      .selectFrom('gateways')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('sn', 'like', 'STORM-%')
      .where('online', '=', 1)
      .where('last_online_at', '=', t0)
      .executeTakeFirstOrThrow();
    expect(Number(online.n)).toBe(STORM);

    for (const sn of stormSns) p.disconnected(sn);
    await p.flush();
    expect(p.stats.statements).toBeLessThanOrEqual((2 * STORM) / 500);
    expect((await row(stormSns[1234]!)).online).toBe(0);
    await p.close();
  });

  it('writes last_seen_at at most once per gateway per interval', async () => {
    const p = presence();
    p.seen('P-0001', 1_700_000_000_000);
    await p.flush();
    const first = p.stats.statements;
    p.seen('P-0001', 1_700_000_010_000);
    p.seen('P-0001', 1_700_000_029_999);
    await p.flush();
    expect(p.stats.statements).toBe(first);
    expect((await row('P-0001')).last_seen_at).toBe(1_700_000_000_000);
    p.seen('P-0001', 1_700_000_030_000);
    await p.flush();
    expect((await row('P-0001')).last_seen_at).toBe(1_700_000_030_000);
    await p.close();
  });

  it('keeps last_online_at of a gateway already online when only its messages say so', async () => {
    const p = presence();
    p.connected('P-0002', 1_700_000_000_000);
    await p.flush();
    p.seen('P-0002', 1_700_000_100_000);
    p.state('P-0002', Buffer.from('{"v":1,"online":true,"rssi":-80}'), 1_700_000_100_001);
    await p.flush();
    expect(await row('P-0002')).toMatchObject({ online: 1, last_online_at: 1_700_000_000_000, rssi: -80 });
    // …but an offline → online turn within one window is a new session.
    p.disconnected('P-0002');
    p.seen('P-0002', 1_700_000_200_000);
    await p.flush();
    expect(await row('P-0002')).toMatchObject({ online: 1, last_online_at: 1_700_000_200_000 });
    await p.close();
  });

  it("does not mark offline a gateway that came online through another process after this one's disconnect", async () => {
    const a = presence();
    const b = presence();
    a.connected('P-0008', 1_700_000_500_000);
    await a.flush();
    // It leaves A's broker and connects to B's; B's write lands first, A's late offline after it.
    a.disconnected('P-0008', 1_700_000_600_000);
    b.connected('P-0008', 1_700_000_600_005);
    await b.flush();
    await a.flush();
    expect(await row('P-0008')).toMatchObject({ online: 1, last_online_at: 1_700_000_600_005 });
    // Its session at B ends: that offline applies.
    b.disconnected('P-0008', 1_700_000_700_000);
    await b.flush();
    expect((await row('P-0008')).online).toBe(0);
    await a.close();
    await b.close();
  });

  it('records a session that came and went within one window', async () => {
    const p = presence();
    p.connected('P-0003', 1_700_000_300_000);
    p.disconnected('P-0003');
    await p.flush();
    expect(await row('P-0003')).toMatchObject({ online: 0, last_online_at: 1_700_000_300_000, last_seen_at: 1_700_000_300_000 });
    await p.close();
  });

  it('keeps the connection history: a period per session, closed on disconnect, reopened on reconnect', async () => {
    const p = presence();
    const sessions = async () =>
      (
        await store.db
          .selectFrom('gateway_sessions')
          .innerJoin('gateways', 'gateways.id', 'gateway_sessions.gateway_id')
          .select(['online_at', 'offline_at'])
          .where('gateways.sn', '=', 'P-0005')
          .orderBy('online_at')
          .execute()
      ).map((r) => [Number(r.online_at), r.offline_at === null ? null : Number(r.offline_at)]);
    const t = 1_700_001_000_000;
    p.connected('P-0005', t);
    await p.flush();
    expect(await sessions()).toEqual([[t, null]]);
    p.connected('P-0005', t + 1000); // a reconnect while the period is open: still one period
    await p.flush();
    expect(await sessions()).toEqual([[t, null]]);
    p.disconnected('P-0005', t + 60_000);
    await p.flush();
    expect(await sessions()).toEqual([[t, t + 60_000]]);
    p.connected('P-0005', t + 120_000);
    p.disconnected('P-0005', t + 130_000); // came and went within one window
    await p.flush();
    expect(await sessions()).toEqual([
      [t, t + 60_000],
      [t + 120_000, t + 130_000],
    ]);
    await p.close();
  });

  it('keeps what the store refused during an outage and writes it, merged with later events, once it is back', async () => {
    let down = true;
    // Every statement refused as a terminated connection is while the store is down.
    const outage: KyselyPlugin = {
      transformQuery: (args) => {
        if (down) throw Object.assign(new Error('terminating connection due to administrator command'), { code: '57P01' });
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const p = new Presence({ db: store.db.withPlugin(outage), log, flushMs: 60_000, seenEveryMs: 30_000 });
    const history = async (sn: string) =>
      (
        await store.db
          .selectFrom('gateway_sessions')
          .innerJoin('gateways', 'gateways.id', 'gateway_sessions.gateway_id')
          .select(['online_at', 'offline_at'])
          .where('gateways.sn', '=', sn)
          .orderBy('online_at')
          .execute()
      ).map((r) => [Number(r.online_at), r.offline_at === null ? null : Number(r.offline_at)]);
    const t = 1_700_002_000_000;
    p.connected('P-0006', t);
    p.state('P-0006', Buffer.from(JSON.stringify({ v: 1, online: true, rssi: -61, sw: '2.0.1' })), t);
    p.connected('P-0007', t);
    await p.flush();
    expect(p.stats.failedFlushes).toBeGreaterThan(0);
    expect((await row('P-0006')).online).toBe(0);
    // Later events while still down: P-0007 goes away and comes back.
    p.disconnected('P-0007', t + 10_000);
    await p.flush();
    p.connected('P-0007', t + 20_000);
    p.seen('P-0006', t + 40_000);
    down = false;
    // Retried on its own (within a second), though this presence flushes only every minute.
    await waitFor(async () => (await row('P-0007')).last_online_at === t + 20_000, 3000, 'the retried write');
    expect(await row('P-0006')).toMatchObject({
      online: 1,
      last_online_at: t,
      last_seen_at: t + 40_000,
      rssi: -61,
      sw_version: '2.0.1',
    });
    expect(await row('P-0007')).toMatchObject({ online: 1, last_online_at: t + 20_000, last_seen_at: t + 20_000 });
    expect(await history('P-0006')).toEqual([[t, null]]);
    expect(await history('P-0007')).toEqual([
      [t, t + 10_000],
      [t + 20_000, null],
    ]);
    await p.close();
  });

  it('refuses and counts state payloads that are not valid', async () => {
    const p = presence();
    for (const bad of ['', 'nope', '{"v":2,"online":true}', '{"v":1}', '{"v":1,"online":true,"comm":"carrier-pigeon"}', '[]']) {
      expect(p.state('P-0004', Buffer.from(bad))).toBe(false);
    }
    expect(p.stats.badState).toBe(6);
    await p.flush();
    expect((await row('P-0004')).online).toBe(0);
    await p.close();
  });

  it('counts the gateways with a live session: connects, online states and messages open one, disconnects and offline states end it', async () => {
    const p = presence();
    expect(p.stats.online).toBe(0);
    p.connected('P-0001');
    p.connected('P-0001'); // a session taken over by the same gateway is still one
    p.seen('P-0002');
    p.state('P-0003', Buffer.from('{"v":1,"online":true}'));
    expect(p.stats.online).toBe(3);
    p.disconnected('P-0001');
    p.state('P-0003', Buffer.from('{"v":1,"online":false}'));
    expect(p.stats.online).toBe(1);
    await p.close();
  });

  it('ignores events after close', async () => {
    const p = presence();
    await p.close();
    p.connected('P-0004');
    await p.flush();
    expect((await row('P-0004')).online).toBe(0);
  });
});
