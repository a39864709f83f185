/**
 * What the VEN trusts, against VTNs that behave as real ones do (the test VTN's switches): a
 * webhook call is refused without the subscription's bearer token and is only a hint with it; an
 * event counts only when its programme and its targets are the portal's; a report goes out once
 * the window that really ran has closed, with the signs OpenADR 3.1 defines, bound to the event
 * object it answers and given up on a refusal; and a VTN that lost its state is noticed and
 * registered with again, its re-used ids never merged into old rows.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { type Site, site } from '../../test/kits/events.ts';
import { hybridPlant, SimulatedChannel } from '../../test/sim-channel.ts';
import { TestVtn } from '../../test/vtn/vtn.ts';
import type { OadrConfig } from '../config.ts';
import { venOf } from '../modules/demand-response/routes.ts';
import { venStats } from './stats.ts';
import { GONE } from './store.ts';
import type { Ven } from './ven.ts';

const until = async (what: string, check: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

const address = { country: 'ES', region: 'Madrid', locality: 'Madrid', streetAddress: 'Calle Mayor 1', postalCode: '28013' };

describe('what the VEN trusts', () => {
  let s: TestServer;
  let vtn: TestVtn;
  let a: Site;
  let b: Site;
  let channel: SimulatedChannel;
  let programId: string;
  let oadr: OadrConfig;
  let ven: Ven;
  const venName = 'sunfleet-trust';

  const eventRows = (vtnId: string) =>
    s.db.selectFrom('dr_events').selectAll().where('vtn_id', '=', vtnId).orderBy('id').execute();
  const eventRow = async (vtnId: string) => (await eventRows(vtnId)).at(-1);
  const rows = (eventId: number) =>
    s.db.selectFrom('dr_dispatches').selectAll().where('event_id', '=', eventId).orderBy('id').execute();
  const commanded = async (vtnId: string) => {
    const r = await eventRow(vtnId);
    return !!r && (await rows(r.id)).some((x) => x.action !== 'restore' && x.state === 'succeeded');
  };
  const event = (kw: number, start: number, duration: string, extra: Record<string, unknown> = {}) => ({
    programID: programId,
    eventName: 'peak',
    intervalPeriod: { start: new Date(start).toISOString(), duration },
    payloadDescriptors: [{ objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'DISPATCH_SETPOINT', units: 'KW' }],
    reportDescriptors: [
      { payloadType: 'USAGE', readingType: 'DIRECT_READ', units: 'KWH' },
      { payloadType: 'DEMAND', readingType: 'MEAN', units: 'KW' },
    ],
    intervals: [{ id: 0, payloads: [{ type: 'DISPATCH_SETPOINT', values: [-kw] }] }],
    ...extra,
  });
  const enrol = async (x: Site, account: string) => {
    const res = await s.call(x.owner.token, 'POST', '/api/v1/oadr/enrollment', {
      programId,
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'García',
      serviceAddress: address,
      mailingAddress: address,
      sourceAccount: '123',
      utilityAccount: account,
      termsAccepted: true,
      devices: [
        {
          sn: x.inverter.sn,
          manufacturer: 'Sunfleet',
          model: 'Hybrid',
          chargeCapacity: 5,
          dischargeCapacity: 5,
          storageCapacity: 10,
        },
      ],
    });
    expect(res.body, JSON.stringify(res.body)).toMatchObject({ code: ErrorCode.ok });
    return (res.body.data as { id: number }).id;
  };
  const post = (payload: unknown, token?: string) =>
    s.app.inject({
      method: 'POST',
      url: '/api/v1/oadr/callback',
      payload: payload as object,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  const inboxCount = async () =>
    Number(
      (
        await s.db
          .selectFrom('dr_inbox')
          .select((eb) => eb.fn.countAll<number>().as('n'))
          .executeTakeFirstOrThrow()
      ).n,
    );
  /** A 1 kW discharge of one second, sent to the batteries and over by the time this returns. */
  const oneSecondEvent = async () => {
    const start = Date.now();
    const e = await vtn.bl.event(event(1, start, 'PT1S'));
    await until('the dispatch', () => commanded(e.id));
    const row = (await eventRow(e.id))!;
    await sleep(Math.max(0, start + 1100 - Date.now()));
    return { e, row };
  };
  /** Every open event ended at the VTN, so the next test starts from batteries at their settings. */
  const endAll = async () => {
    for (const id of [...vtn.store.events.keys()]) await vtn.bl.deleteEvent(id);
    await ven.upkeep();
    await ven.tick();
  };

  beforeAll(async () => {
    // A VTN that notifies every subscriber and answers every event whatever its targets, and refuses
    // reports on events it no longer has.
    vtn = await new TestVtn({ behaviour: { notifyAllSubscribers: true, ignoreTargets: true, reportsNeedEvent: true } }).start();
    programId = vtn.bl.program({ programName: 'BESS-DR-2026' }).id;
    channel = new SimulatedChannel();
    oadr = { vtnUrl: vtn.url, clientId: 'ven_client', clientSecret: 'ven_secret', venName, callbackUrl: null, pollSeconds: 60 };
    s = await startServer({ oadr, rateLimits: true }, undefined, { commands: channel });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (s.app.server.address() as { port: number }).port;
    oadr.callbackUrl = `http://127.0.0.1:${port}/api/v1/oadr/callback`;
    a = await site(s, { timezone: 'Europe/Madrid' });
    b = await site(s, { timezone: 'Europe/Madrid' });
    channel.attach(a.gatewaySn, hybridPlant([a.inverter.sn], 3));
    channel.attach(b.gatewaySn, hybridPlant([b.inverter.sn], 3));
    await s.call(a.owner.token, 'GET', '/api/v1/oadr/listProgram');
    await enrol(a, 'trust-a');
    await enrol(b, 'trust-b');
    ven = venOf(s.app)!;
    await ven.upkeep();
    expect(vtn.store.resources.size).toBe(2);
  });
  afterEach(async () => {
    vtn.down = false;
    await endAll();
  });
  afterAll(async () => {
    await s.close();
    await vtn.close();
  });

  it('a webhook call without the subscription’s token is refused with 401 and stored nowhere; a forged DELETE does not stop a dispatch', async () => {
    const e = await vtn.bl.event(event(4, Date.now() - 1000, 'PT1H'));
    await until('the dispatch', () => commanded(e.id));
    const before = await inboxCount();
    const refusedBefore = venStats.webhookRefused.unauthorized;
    const forged = { objectType: 'EVENT', operation: 'DELETE', object: e };
    for (const token of [undefined, 'guessed-token']) {
      const res = await post(forged, token);
      expect(res.statusCode).toBe(401);
      expect(res.json()).toMatchObject({ code: ErrorCode.tokenFailed, data: null });
    }
    expect(await inboxCount()).toBe(before);
    expect(venStats.webhookRefused.unauthorized).toBe(refusedBefore + 2);
    // With the token, the body is only a hint: the VTN still has the event, so it goes on.
    const res = await post(forged, await ven.callbackToken());
    expect(res.statusCode).toBe(200);
    await until(
      'the hint processed',
      async () =>
        (await s.db.selectFrom('dr_inbox').select('processed_at').orderBy('id', 'desc').executeTakeFirstOrThrow())
          .processed_at !== null,
    );
    await ven.tick();
    const row = (await eventRow(e.id))!;
    expect(row.cancelled_at).toBeNull();
    expect((await rows(row.id)).find((r) => r.action === 'restore')).toMatchObject({ state: 'planned' });
    // Only what the VTN answers ends it.
    vtn.store.events.delete(e.id);
    expect((await post(forged, await ven.callbackToken())).statusCode).toBe(200);
    await until('the restore', async () => (await rows(row.id)).some((r) => r.action === 'restore' && r.state === 'succeeded'));
    expect(await eventRow(e.id)).toMatchObject({ ended_reason: GONE });
  });

  it('the webhook is throttled per address: 429 with Retry-After past the limit, counted', async () => {
    await s.db.deleteFrom('throttles').execute();
    const throttled = venStats.webhookRefused.throttled;
    const answers = [];
    for (let i = 0; i < 70; i++) answers.push(await post({ objectType: 'EVENT', operation: 'DELETE', object: { id: 'x' } }));
    const refused = answers.filter((r) => r.statusCode === 429);
    expect(refused.length).toBe(10);
    expect(Number(refused[0]!.headers['retry-after'])).toBeGreaterThan(0);
    expect(refused[0]!.json()).toMatchObject({ code: ErrorCode.tooManyRequests });
    expect(venStats.webhookRefused.throttled).toBe(throttled + 10);
    await s.db.deleteFrom('throttles').execute();
  });

  it('an event whose targets name another VEN or other resources is not acted on, and says why', async () => {
    const other = await vtn.bl.event(event(4, Date.now() - 1000, 'PT1H', { targets: ['ven_0999'] }));
    await until('the event stored', async () => (await eventRow(other.id)) !== undefined);
    await ven.tick();
    const row = (await eventRow(other.id))!;
    expect(row.ignored_reason).toMatch(/ven_0999/);
    expect(await rows(row.id)).toEqual([]);
    const page = await s.call(a.owner.token, 'GET', `/api/v1/oadr/event/${row.id}`);
    expect(page.body.data).toMatchObject({
      ignoredReason: expect.stringMatching(/name neither this VEN nor its resources/),
      dispatches: [],
    });
    // Granted to the VEN by the utility: acted on for every device.
    const venId = [...vtn.store.vens.values()][0]!.id;
    vtn.bl.grant('vens', venId, ['group1']);
    await ven.upkeep();
    const mine = await vtn.bl.event(event(4, Date.now() - 1000, 'PT1H', { targets: ['group1'] }));
    await until('the dispatch', () => commanded(mine.id));
    const sent = (await rows((await eventRow(mine.id))!.id)).filter((r) => r.action === 'discharge');
    expect(new Set(sent.map((r) => r.device_sn))).toEqual(new Set([a.inverter.sn, b.inverter.sn]));
    // Named for one resource: only that device takes part.
    const one = await vtn.bl.event(event(2, Date.now() - 1000, 'PT1H', { targets: [b.inverter.sn] }));
    await until('the dispatch', () => commanded(one.id));
    const onlyB = (await rows((await eventRow(one.id))!.id)).filter((r) => r.action === 'discharge');
    expect(onlyB.map((r) => [r.device_sn, r.target_w])).toEqual([[b.inverter.sn, 2000]]);
    vtn.bl.grant('vens', venId, []);
  });

  it('an event of a programme the portal is not enrolled in is not acted on, even when the VTN ignores the programme filter', async () => {
    vtn.behaviour.ignoreProgramFilter = true;
    try {
      const foreign = vtn.bl.program({ programName: 'OTHER-UTILITY' }).id;
      const e = await vtn.bl.event({ ...event(4, Date.now() - 1000, 'PT1H'), programID: foreign });
      await ven.upkeep();
      await ven.tick();
      expect(await eventRows(e.id)).toEqual([]);
      expect(venStats.eventsIgnored.programme).toBeGreaterThan(0);
    } finally {
      vtn.behaviour.ignoreProgramFilter = false;
    }
  });

  it('a cancelled event is reported over the window that ran, right after the cancel, with the signs 3.1 defines', async () => {
    const start = Date.now();
    const e = await vtn.bl.event(event(4, start, 'PT3M'));
    await until('the dispatch', () => commanded(e.id));
    const row = (await eventRow(e.id))!;
    // The batteries discharged 2 kW each (their inverters' samples, + discharge).
    for (const x of [a, b])
      for (const t of [start + 100, start + 600])
        await s.db
          .insertInto('inverter_samples')
          .values({ device_id: x.inverter.id, ts: t, raw: '[]', battery_power_w: 2000, soc: 80 })
          .execute();
    await sleep(Math.max(0, start + 1000 - Date.now()));
    await vtn.bl.deleteEvent(e.id);
    await until(
      'the restores',
      async () => (await rows(row.id)).filter((r) => r.action === 'restore' && r.state === 'succeeded').length === 2,
    );
    await ven.tick();
    const report = [...vtn.store.reports.values()].find((r) => r.eventID === e.id);
    // Sent now, long before the planned end (3 minutes); the VTN deleted the event, so it refused it.
    expect(report).toBeUndefined();
    const stored = await s.db
      .selectFrom('dr_outbox')
      .selectAll()
      .where('dedupe_key', '=', `report:${row.id}`)
      .executeTakeFirstOrThrow();
    const body = JSON.parse(stored.body) as {
      payloadDescriptors: { payloadType: string; units: string }[];
      resources: { intervals: { intervalPeriod: { duration: string }; payloads: { type: string; values: number[] }[] }[] }[];
    };
    expect(body.payloadDescriptors.map((d) => [d.payloadType, d.units])).toEqual([
      ['USAGE', 'KWH'],
      ['DEMAND', 'KW'],
    ]);
    expect(body.resources).toHaveLength(2);
    for (const r of body.resources) {
      const [i] = r.intervals;
      const seconds = Number(/PT(\d+)S/.exec(i!.intervalPeriod.duration)?.[1]);
      expect(seconds).toBeGreaterThanOrEqual(1);
      expect(seconds).toBeLessThan(15);
      // Discharge is negative usage: consumption is positive in USAGE and DEMAND.
      expect(i!.payloads.find((p) => p.type === 'DEMAND')!.values[0]).toBe(-2);
      expect(i!.payloads.find((p) => p.type === 'USAGE')!.values[0]).toBeLessThan(0);
    }
  });

  it('a report whose event the VTN no longer has, or that the VTN refuses, is given up at once, shown on the event page and counted, never retried', async () => {
    const { e, row } = await oneSecondEvent();
    // The utility deletes the event (no notification reaches the portal) before the report is sent.
    vtn.store.events.delete(e.id);
    const dead = venStats.reports.dead;
    await ven.tick();
    const out = await s.db
      .selectFrom('dr_outbox')
      .selectAll()
      .where('dedupe_key', '=', `report:${row.id}`)
      .executeTakeFirstOrThrow();
    expect(out).toMatchObject({ sent_at: null, attempts: 1, last_error: expect.stringMatching(/no longer has the event/) });
    expect(out.dead_at).not.toBeNull();
    expect(venStats.reports.dead).toBe(dead + 1);
    expect(await ven.processOutbox(Date.now() + 86_400_000)).toBe(0);
    expect(
      (await s.db.selectFrom('dr_outbox').select('attempts').where('id', '=', out.id).executeTakeFirstOrThrow()).attempts,
    ).toBe(1);
    const page = await s.call(a.owner.token, 'GET', `/api/v1/oadr/event/${row.id}`);
    expect(page.body.data).toMatchObject({
      report: { state: 'given-up', attempts: 1, lastError: expect.stringMatching(/no longer has/) },
    });
    // A report the VTN answers with 400 (its event gone; a report stored before reports were bound to their event).
    await s.db
      .insertInto('dr_outbox')
      .values({
        kind: 'report',
        dedupe_key: 'report:unbound',
        body: JSON.stringify({ eventID: e.id, clientName: venName, reportName: 'unbound', resources: [] }),
        next_at: Date.now(),
        last_error: null,
        sent_at: null,
        created_at: Date.now(),
        event_vtn_id: null,
        event_created: null,
        dead_at: null,
      })
      .execute();
    await ven.processOutbox();
    const refused = await s.db
      .selectFrom('dr_outbox')
      .selectAll()
      .where('dedupe_key', '=', 'report:unbound')
      .executeTakeFirstOrThrow();
    expect(refused).toMatchObject({ sent_at: null, attempts: 1, last_error: expect.stringMatching(/HTTP 400/) });
    expect(refused.dead_at).not.toBeNull();
    expect(venStats.reports.dead).toBe(dead + 2);
    expect(await ven.processOutbox(Date.now() + 86_400_000)).toBe(0);
  });

  it('a report waiting on a VTN that is down is retried with back-off, then given up after 24 h', async () => {
    const { row } = await oneSecondEvent();
    vtn.down = true;
    await ven.tick();
    const out = () =>
      s.db.selectFrom('dr_outbox').selectAll().where('dedupe_key', '=', `report:${row.id}`).executeTakeFirstOrThrow();
    expect(await out()).toMatchObject({ attempts: 1, dead_at: null, last_error: expect.stringMatching(/503/) });
    expect(await ven.processOutbox(Date.now() + 60_000)).toBe(0);
    expect(await out()).toMatchObject({ attempts: 2, dead_at: null });
    expect(await ven.processOutbox(Date.now() + 25 * 3_600_000)).toBe(0);
    expect(await out()).toMatchObject({
      attempts: 3,
      dead_at: expect.anything(),
      last_error: expect.stringMatching(/gave up after 24 h/),
    });
  });

  it('a VTN that lost its state: the VEN registers again, its events end, and a re-used id is a new event that never receives an old report', async () => {
    const old = await vtn.bl.event(event(3, Date.now() - 1000, 'PT1H'));
    await until('the dispatch', () => commanded(old.id));
    const oldRow = (await eventRow(old.id))!;
    // A stale report of the old event waits in the outbox.
    await s.db
      .insertInto('dr_outbox')
      .values({
        kind: 'report',
        dedupe_key: 'report:stale',
        body: JSON.stringify({ eventID: old.id, clientName: venName, reportName: 'stale', resources: [] }),
        next_at: Date.now() + 3_600_000,
        last_error: null,
        sent_at: null,
        created_at: Date.now(),
        event_vtn_id: old.id,
        event_created: oldRow.vtn_created,
        dead_at: null,
      })
      .execute();
    vtn.loseState();
    programId = vtn.bl.program({ programName: 'BESS-DR-2026' }).id;
    await sleep(1100);
    // The utility made its programme again, under a new id: the enrolments follow it by name.
    await ven.upkeep();
    expect(await s.db.selectFrom('dr_enrollments').select(['program_id', 'state']).execute()).toEqual([
      { program_id: programId, state: 'accepted' },
      { program_id: programId, state: 'accepted' },
    ]);
    // Registered again: the VEN, a resource per device, the subscription.
    expect([...vtn.store.vens.values()].map((v) => v.venName)).toEqual([venName]);
    expect(new Set([...vtn.store.resources.values()].map((r) => r.resourceName))).toEqual(
      new Set([a.inverter.sn, b.inverter.sn]),
    );
    expect(vtn.store.subscriptions.size).toBe(1);
    const programs = await s.call(a.owner.token, 'GET', '/api/v1/oadr/listProgram');
    expect(programs.body.data).toMatchObject({ vtn: { registered: true, lastError: null } });
    // The old event is no longer at the VTN: ended, the batteries restored.
    await ven.tick();
    expect(await eventRow(old.id)).toMatchObject({ ended_reason: GONE });
    expect((await rows(oldRow.id)).find((r) => r.action === 'restore')).toMatchObject({ state: 'succeeded' });
    // The VTN hands out the old id again (ids count from 0 after its restart): a new row, its own plan.
    let fresh = await vtn.bl.event(event(1, Date.now() + 3_600_000, 'PT1H'));
    while (fresh.id !== old.id) fresh = await vtn.bl.event(event(1, Date.now() + 3_600_000, 'PT1H'));
    await ven.upkeep();
    const both = await eventRows(old.id);
    expect(both).toHaveLength(2);
    expect(both[0]).toMatchObject({ id: oldRow.id, ended_reason: GONE });
    expect(both[1]).toMatchObject({ cancelled_at: null, ended_reason: null });
    expect(both[1]!.vtn_created).not.toBe(oldRow.vtn_created);
    // The stale report is never filed against the new event.
    await ven.processOutbox(Date.now() + 7_200_000);
    const stale = await s.db
      .selectFrom('dr_outbox')
      .selectAll()
      .where('dedupe_key', '=', 'report:stale')
      .executeTakeFirstOrThrow();
    expect(stale).toMatchObject({ sent_at: null, last_error: expect.stringMatching(/another object/) });
    expect(stale.dead_at).not.toBeNull();
    expect([...vtn.store.reports.values()].filter((r) => r.reportName === 'stale')).toEqual([]);
  });
});
