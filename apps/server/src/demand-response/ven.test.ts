/**
 * The whole path against the test VTN (test/vtn), once as the spec describes the VTN and once
 * as the reference VTN behaves (timestamps without `T`, the echo at `{callback}/echo`, webhook
 * bodies as a JSON-encoded string of a snake_case object): programme → enrolment → the VEN
 * registered with a resource per device and a webhook subscription (echo answered) → an event
 * notified → battery commands on the simulator's storage inverter (its setting group read first,
 * then written) → the event as the user sees it → opt-out mid-event restores the settings →
 * an event that ends is restored and reported with the power delivered. Then: the VTN down
 * (a report and a notification stay in the store, retried with back-off by another VEN
 * instance once it is back), the VTN deleting an event, and a notification without the
 * subscription's token (the event is read again from the VTN).
 */
import { ErrorCode, hexToRegisters } from '@sunfleet/contracts';
import { decodeSettingGroup, settingGroupReads } from '@sunfleet/protocols';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from '../../test/harness.ts';
import { HYBRID, type Site, site } from '../../test/kits/events.ts';
import { hybridPlant, SimulatedChannel } from '../../test/sim-channel.ts';
import { TestVtn } from '../../test/vtn/vtn.ts';
import type { OadrConfig } from '../config.ts';
import { venOf } from '../modules/demand-response/routes.ts';
import { Ven } from './ven.ts';

const until = async (what: string, check: () => Promise<boolean>, ms = 5000) => {
  const end = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe.each(['spec', 'reference'] as const)('the VEN against a VTN (%s)', (quirks) => {
  let s: TestServer;
  let vtn: TestVtn;
  let a: Site;
  let channel: SimulatedChannel;
  let programId: string;
  let oadr: OadrConfig;
  const venName = `sunfleet-test-${quirks}`;

  /** The inverter's workMode group as the simulated device holds it now. */
  const deviceGroup = async () => {
    const ranges = settingGroupReads(HYBRID, 'workMode')!;
    const job = await channel.run({
      gatewaySn: a.gatewaySn,
      deviceSn: a.inverter.sn,
      requestedBy: 0,
      body: {
        type: 'read',
        device: a.inverter.sn,
        reads: ranges.map((r) => ({ fc: r.functionCode, addr: r.address, count: r.count })),
      },
    });
    const blocks = (job.reply?.blocks ?? []).map((b) => ({
      functionCode: b.fc,
      address: b.addr,
      registers: hexToRegisters(b.regs),
    }));
    return decodeSettingGroup(HYBRID, 'workMode', blocks)!;
  };
  const rows = (eventId: number) =>
    s.db.selectFrom('dr_dispatches').selectAll().where('event_id', '=', eventId).orderBy('id').execute();
  const eventRow = (vtnId: string) => s.db.selectFrom('dr_events').selectAll().where('vtn_id', '=', vtnId).executeTakeFirst();
  const discharge = (kw: number, start: number, duration: string) => ({
    programID: programId,
    eventName: 'peak',
    intervalPeriod: { start: new Date(start).toISOString(), duration },
    payloadDescriptors: [{ objectType: 'EVENT_PAYLOAD_DESCRIPTOR', payloadType: 'DISPATCH_SETPOINT', units: 'KW' }],
    reportDescriptors: [{ payloadType: 'USAGE', readingType: 'DIRECT_READ', units: 'KWH' }],
    intervals: [{ id: 0, payloads: [{ type: 'DISPATCH_SETPOINT', values: [-kw] }] }],
  });

  beforeAll(async () => {
    vtn = await new TestVtn({ quirks }).start();
    programId = vtn.bl.program({
      programName: 'BESS-DR-2026',
      attributes: [{ type: 'PROGRAM_TYPE', values: ['BATTERY_DISCHARGE'] }],
    }).id;
    channel = new SimulatedChannel();
    oadr = { vtnUrl: vtn.url, clientId: 'ven_client', clientSecret: 'ven_secret', venName, callbackUrl: null, pollSeconds: 60 };
    s = await startServer({ oadr }, undefined, { commands: channel });
    await s.app.listen({ port: 0, host: '127.0.0.1' });
    const address = s.app.server.address();
    oadr.callbackUrl = `http://127.0.0.1:${typeof address === 'object' && address ? address.port : 0}/api/v1/oadr/callback`;
    a = await site(s, { timezone: 'Europe/Madrid' });
    channel.attach(a.gatewaySn, hybridPlant([a.inverter.sn], 3));
  });
  afterAll(async () => {
    await s.close();
    await vtn.close();
  });

  it('lists the VTN’s programmes with their terms', async () => {
    const res = await s.call(a.owner.token, 'GET', '/api/v1/oadr/listProgram');
    expect(res.body.data).toEqual({
      connected: true,
      live: true,
      programs: [
        {
          id: programId,
          name: 'BESS-DR-2026',
          type: 'BATTERY_DISCHARGE',
          termsUrl: '/assets/vpp/bess-dr-2026.pdf',
          descriptionUrls: [],
        },
      ],
      // No upkeep has run yet: not registered at the VTN.
      vtn: { registered: false, lastPollAt: null, lastOkAt: null, lastError: null },
    });
  });

  it('enrols; upkeep registers the VEN, a resource per device and the webhook; the enrolment is accepted', async () => {
    const res = await s.call(a.owner.token, 'POST', '/api/v1/oadr/enrollment', {
      programId,
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'García',
      serviceAddress: {
        country: 'ES',
        region: 'Madrid',
        locality: 'Madrid',
        streetAddress: 'Calle Mayor 1',
        postalCode: '28013',
      },
      mailingAddress: {
        country: 'ES',
        region: 'Madrid',
        locality: 'Madrid',
        streetAddress: 'Calle Mayor 1',
        postalCode: '28013',
      },
      sourceAccount: '123',
      utilityAccount: `u-${quirks}`,
      termsAccepted: true,
      devices: [
        {
          sn: a.inverter.sn,
          manufacturer: 'Sunfleet',
          model: 'Hybrid',
          chargeCapacity: 5,
          dischargeCapacity: 5,
          storageCapacity: 10,
        },
      ],
    });
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { state: 'pending' } });
    await venOf(s.app)!.upkeep();
    expect([...vtn.store.vens.values()].map((v) => v.venName)).toEqual([venName]);
    expect([...vtn.store.resources.values()]).toEqual([
      expect.objectContaining({
        resourceName: a.inverter.sn,
        venID: [...vtn.store.vens.values()][0]!.id,
        attributes: [
          { type: 'MAX_POWER_CONSUMPTION', values: [5] },
          { type: 'MAX_POWER_EXPORT', values: [5] },
        ],
      }),
    ]);
    expect(vtn.echoes).toEqual([{ url: oadr.callbackUrl, ok: true }]);
    expect(vtn.store.subscriptions.size).toBe(1);
    const id = (res.body.data as { id: number }).id;
    expect((await s.call(a.owner.token, 'GET', `/api/v1/oadr/enrollment/${id}`)).body.data).toMatchObject({
      state: 'accepted',
      deviceList: [{ sn: a.inverter.sn, registered: true }],
    });
    // Upkeep again changes nothing at the VTN.
    await venOf(s.app)!.upkeep();
    expect([vtn.store.vens.size, vtn.store.resources.size, vtn.store.subscriptions.size]).toEqual([1, 1, 1]);
  });

  it('an event notified by webhook becomes battery commands; opting out mid-event restores the settings', async () => {
    const before = await deviceGroup();
    const event = await vtn.bl.event(discharge(3, Date.now() - 60_000, 'PT1H'));
    expect(vtn.deliveries.at(-1)).toMatchObject({ objectType: 'EVENT', operation: 'CREATE', status: 200 });
    await until(
      'the dispatch',
      async () =>
        (await eventRow(event.id)) !== undefined &&
        (await rows((await eventRow(event.id))!.id)).some((r) => r.state === 'succeeded'),
    );
    const stored = (await eventRow(event.id))!;
    const [write, restore] = await rows(stored.id);
    expect(write).toMatchObject({ action: 'discharge', target_w: 3000, state: 'succeeded', setting_group: 'workMode' });
    expect(JSON.parse(write!.sent_values!)).toMatchObject({ timeOfUse: 255, workMode: 0, program1Power: 3000 });
    expect(JSON.parse(write!.previous_values!)).toMatchObject({ workMode: before.workMode, maxSellPower: before.maxSellPower });
    expect(restore).toMatchObject({ action: 'restore', state: 'planned' });
    expect(await deviceGroup()).toMatchObject({ timeOfUse: 255, workMode: 0, program1Power: 3000 });
    expect(channel.sentTo(a.inverter.sn, 'read').length).toBeGreaterThanOrEqual(1);

    const detail = await s.call(a.owner.token, 'GET', `/api/v1/oadr/event/${stored.id}`);
    expect(detail.body.data).toMatchObject({
      state: 'active',
      vtnEventId: event.id,
      powerDischarge: 3,
      timezone: 'Europe/Madrid',
      durationMinutes: 60,
      intervals: [{ id: 0, action: 'discharge', power: 3 }],
      dispatches: [
        {
          sn: a.inverter.sn,
          action: 'discharge',
          targetPower: 3,
          state: 'succeeded',
          sent: { workMode: 0, program1Power: 3000 },
        },
        { sn: a.inverter.sn, action: 'restore', state: 'planned' },
      ],
    });
    const list = await s.call(a.owner.token, 'GET', '/api/v1/oadr/events?state=active');
    expect(list.body.data).toMatchObject({ total: 1, list: [{ id: stored.id, state: 'active' }] });

    const cancel = await s.call(a.owner.token, 'POST', `/api/v1/oadr/event/${stored.id}/cancel`);
    expect(cancel.body.data).toMatchObject({
      state: 'cancelled',
      optedOut: true,
      dispatches: [{ state: 'succeeded' }, { action: 'restore', state: 'succeeded' }],
    });
    expect(await deviceGroup()).toMatchObject({ workMode: before.workMode, maxSellPower: before.maxSellPower });
    // An event cancelled for the user cannot be opted out of again.
    expect((await s.call(a.owner.token, 'POST', `/api/v1/oadr/event/${stored.id}/cancel`)).body.code).toBe(
      ErrorCode.stateBlocksAction,
    );
    // Another user sees nothing of it.
    const stranger = await site(s);
    expect((await s.call(stranger.owner.token, 'GET', `/api/v1/oadr/event/${stored.id}`)).body).toMatchObject({
      code: ErrorCode.notFound,
      data: null,
    });
  });

  it('an event that ends is restored and reported with the energy delivered per interval', async () => {
    const start = Date.now();
    const event = await vtn.bl.event(discharge(2, start, 'PT2S'));
    await until('the dispatch', async () => {
      const r = await eventRow(event.id);
      return !!r && (await rows(r.id)).some((x) => x.action === 'discharge' && x.state === 'succeeded');
    });
    const stored = (await eventRow(event.id))!;
    // The battery delivered 2 kW during the interval (its inverter's samples, + discharge).
    for (const t of [start + 200, start + 1000])
      await s.db
        .insertInto('inverter_samples')
        .values({ device_id: a.inverter.id, ts: t, raw: '[]', battery_power_w: 2000 })
        .execute();
    const ven = venOf(s.app)!;
    await new Promise((r) => setTimeout(r, Math.max(0, start + 2100 - Date.now())));
    await ven.tick();
    expect((await rows(stored.id)).map((r) => [r.action, r.state])).toEqual([
      ['discharge', 'succeeded'],
      ['restore', 'succeeded'],
    ]);
    const reports = [...vtn.store.reports.values()];
    expect(reports).toHaveLength(1);
    expect(reports[0]).toMatchObject({
      eventID: event.id,
      clientName: venName,
      payloadDescriptors: [{ payloadType: 'USAGE', units: 'KWH' }],
      resources: [
        {
          resourceName: a.inverter.sn,
          // Discharge is negative usage (consumption is positive).
          intervals: [{ id: 0, intervalPeriod: { duration: 'PT2S' }, payloads: [{ type: 'USAGE', values: [-0.001] }] }],
        },
      ],
    });
    expect((await s.call(a.owner.token, 'GET', `/api/v1/oadr/event/${stored.id}`)).body.data).toMatchObject({
      state: 'completed',
      dispatches: [{ action: 'discharge', deliveredPower: 2 }, { action: 'restore' }],
    });
  });

  it('the VTN ends an event early by an update: nothing is sent again, the settings come back at the new end', async () => {
    const before = await deviceGroup();
    const start = Date.now() - 1000;
    const event = await vtn.bl.event(discharge(2, start, 'PT1H'));
    const sent = async () => {
      const r = await eventRow(event.id);
      return !!r && (await rows(r.id)).some((x) => x.action === 'discharge' && x.state === 'succeeded');
    };
    await until('the dispatch', sent);
    expect(await deviceGroup()).toMatchObject({ workMode: 0, program1Power: 2000 });
    const id = (await eventRow(event.id))!.id;
    const writes = channel.sentTo(a.inverter.sn, 'write').length;
    // The utility shortens the event to end a second from now.
    const seconds = Math.ceil((Date.now() - start) / 1000) + 1;
    await vtn.bl.updateEvent(event.id, { intervalPeriod: { start: new Date(start).toISOString(), duration: `PT${seconds}S` } });
    const end = start + seconds * 1000;
    await until('the re-plan', async () => (await rows(id)).find((r) => r.action === 'restore')?.start_ms === end);
    // The battery is not sent its command again for the interval it is already in.
    expect(channel.sentTo(a.inverter.sn, 'write')).toHaveLength(writes);
    await new Promise((r) => setTimeout(r, Math.max(0, end + 50 - Date.now())));
    await venOf(s.app)!.tick();
    expect((await rows(id)).map((r) => [r.action, r.state, Number(r.end_ms)])).toEqual([
      ['discharge', 'succeeded', end],
      ['restore', 'succeeded', end],
    ]);
    expect(channel.sentTo(a.inverter.sn, 'write')).toHaveLength(writes + 1);
    expect(await deviceGroup()).toMatchObject({ workMode: before.workMode, maxSellPower: before.maxSellPower });
  });

  it('the VTN cancels an event mid-event (deletes it): the settings come back at once', async () => {
    const before = await deviceGroup();
    const event = await vtn.bl.event(discharge(2.5, Date.now() - 1000, 'PT1H'));
    await until('the dispatch', async () => {
      const r = await eventRow(event.id);
      return !!r && (await rows(r.id)).some((x) => x.action === 'discharge' && x.state === 'succeeded');
    });
    expect(await deviceGroup()).toMatchObject({ workMode: 0, program1Power: 2500 });
    const id = (await eventRow(event.id))!.id;
    await vtn.bl.deleteEvent(event.id);
    await until('the restore', async () => (await rows(id)).some((r) => r.action === 'restore' && r.state === 'succeeded'));
    expect(await deviceGroup()).toMatchObject({ workMode: before.workMode, maxSellPower: before.maxSellPower });
    expect((await s.call(a.owner.token, 'GET', `/api/v1/oadr/event/${id}`)).body.data).toMatchObject({
      state: 'cancelled',
      optedOut: false,
      dispatches: [
        { action: 'discharge', state: 'succeeded' },
        { action: 'restore', state: 'succeeded', sent: { workMode: before.workMode, maxSellPower: before.maxSellPower } },
      ],
    });
  });

  it('the VTN down: the report and a notification stay in the store and are retried with back-off by another process', async () => {
    const event = await vtn.bl.event(discharge(1, Date.now() + 3_600_000, 'PT1H'));
    vtn.down = true;
    const ven = venOf(s.app)!;
    // A notification with the subscription's token: kept, a hint to read the event again from the VTN.
    expect(
      await ven.notify(
        { objectType: 'EVENT', operation: 'UPDATE', object: { id: event.id, programID: programId } },
        `Bearer ${await ven.callbackToken()}`,
      ),
    ).toBe('accepted');
    const inbox = () =>
      s.db.selectFrom('dr_inbox').selectAll().where('object_id', '=', event.id).orderBy('id', 'desc').executeTakeFirstOrThrow();
    await until('the first attempt', async () => (await inbox()).last_error !== null);
    expect(await inbox()).toMatchObject({ attempts: 1, processed_at: null });
    await s.db
      .insertInto('dr_outbox')
      .values({
        kind: 'report',
        dedupe_key: 'report:test-down',
        body: JSON.stringify({ eventID: event.id, clientName: venName, resources: [] }),
        next_at: Date.now(),
        last_error: null,
        sent_at: null,
        created_at: Date.now(),
      })
      .execute();
    expect(await ven.processOutbox()).toBe(0);
    const queued = await s.db
      .selectFrom('dr_outbox')
      .selectAll()
      .where('dedupe_key', '=', 'report:test-down')
      .executeTakeFirstOrThrow();
    expect(queued).toMatchObject({ attempts: 1, sent_at: null, last_error: expect.stringMatching(/503/) });
    expect(Number(queued.next_at)).toBeGreaterThan(Date.now() + 3000);
    // Not due again before its back-off.
    expect(await ven.processOutbox()).toBe(0);
    expect(
      (await s.db.selectFrom('dr_outbox').select('attempts').where('id', '=', queued.id).executeTakeFirstOrThrow()).attempts,
    ).toBe(1);

    vtn.down = false;
    // A process started later (nothing in memory) sends it once it is due.
    const other = new Ven({ db: s.db, config: oadr, commands: channel, log: { info() {}, warn() {}, error() {} } as never });
    const later = Date.now() + 60_000;
    await other.processInbox(undefined, later);
    expect(await other.processOutbox(later)).toBe(1);
    expect([...vtn.store.reports.values()].some((r) => r.eventID === event.id)).toBe(true);
    expect((await inbox()).processed_at).not.toBeNull();
    expect(await eventRow(event.id)).toMatchObject({ program_id: programId });
  });

  it('an event the VTN deletes is cancelled', async () => {
    const event = await vtn.bl.event(discharge(1, Date.now() + 3_600_000, 'PT1H'));
    await until('the event', async () => (await eventRow(event.id)) !== undefined);
    await vtn.bl.deleteEvent(event.id);
    const id = (await eventRow(event.id))!.id;
    // Cancelled, and nothing left to send: the restore planned for the end goes (nothing was changed).
    await until(
      'the cancel',
      async () => (await eventRow(event.id))?.cancelled_at !== null && (await rows(id)).every((r) => r.state !== 'planned'),
    );
    expect((await s.call(a.owner.token, 'GET', `/api/v1/oadr/event/${id}`)).body.data).toMatchObject({
      state: 'cancelled',
      optedOut: false,
    });
    expect(await rows(id)).toEqual([]);
  });

  it('answers the echo challenge, and refuses a body that is no notification', async () => {
    const q = await s.app.inject({ method: 'GET', url: '/api/v1/oadr/callback?echo=abc123' });
    expect([q.statusCode, q.body]).toEqual([200, 'abc123']);
    const p = await s.app.inject({ method: 'GET', url: '/api/v1/oadr/callback/echo?echo=xyz' });
    expect([p.statusCode, p.body]).toEqual([200, 'xyz']);
    const anonymous = await s.app.inject({ method: 'POST', url: '/api/v1/oadr/callback', payload: { hello: 'world' } });
    expect(anonymous.statusCode).toBe(401);
    const bad = await s.app.inject({
      method: 'POST',
      url: '/api/v1/oadr/callback',
      payload: { hello: 'world' },
      headers: { authorization: `Bearer ${await venOf(s.app)!.callbackToken()}` },
    });
    expect(bad.statusCode).toBe(400);
  });

  it('a device removed, or its enrolment ended, during an event goes back to its settings at once', async () => {
    const before = await deviceGroup();
    const enrolment = await s.db
      .selectFrom('dr_enrollments')
      .select('id')
      .where('user_id', '=', a.owner.id)
      .where('state', '=', 'accepted')
      .executeTakeFirstOrThrow();
    const active = async (kw: number) => {
      const event = await vtn.bl.event(discharge(kw, Date.now() - 1000, 'PT1H'));
      await until('the dispatch', async () => {
        const r = await eventRow(event.id);
        return !!r && (await rows(r.id)).some((x) => x.action === 'discharge' && x.state === 'succeeded');
      });
      expect(await deviceGroup()).toMatchObject({ workMode: 0, program1Power: kw * 1000 });
      return (await eventRow(event.id))!.id;
    };
    const restored = async (id: number) => {
      await venOf(s.app)!.tick();
      expect((await rows(id)).find((r) => r.action === 'restore')).toMatchObject({ state: 'succeeded' });
      expect(await deviceGroup()).toMatchObject({ workMode: before.workMode, maxSellPower: before.maxSellPower });
    };
    const first = await active(1.5);
    const removed = await s.call(
      a.owner.token,
      'POST',
      `/api/v1/oadr/enrollment/${enrolment.id}/devices/${a.inverter.sn}/remove`,
    );
    expect(removed.body.code).toBe(ErrorCode.ok);
    await restored(first);

    // Back in (registered again), then the user unenrols during the next event.
    const device = {
      sn: a.inverter.sn,
      manufacturer: 'Sunfleet',
      model: 'Hybrid',
      chargeCapacity: 5,
      dischargeCapacity: 5,
      storageCapacity: 10,
    };
    expect(
      (await s.call(a.owner.token, 'POST', `/api/v1/oadr/enrollment/${enrolment.id}/devices`, { devices: [device] })).body.code,
    ).toBe(0);
    await venOf(s.app)!.upkeep();
    const second = await active(1.2);
    expect((await s.call(a.owner.token, 'POST', `/api/v1/oadr/enrollment/${enrolment.id}/unenroll`)).body.data).toMatchObject({
      state: 'unenrolled',
    });
    await restored(second);
  });

  it('a pending enrolment in a programme the VTN no longer offers is rejected', async () => {
    const other = vtn.bl.program({ programName: 'PEAK-RELIEF' });
    await s.call(a.owner.token, 'GET', '/api/v1/oadr/listProgram');
    const res = await s.call(a.owner.token, 'POST', '/api/v1/oadr/enrollment', {
      programId: other.id,
      email: 'ana@example.com',
      firstName: 'Ana',
      lastName: 'García',
      serviceAddress: {
        country: 'ES',
        region: 'Madrid',
        locality: 'Madrid',
        streetAddress: 'Calle Mayor 1',
        postalCode: '28013',
      },
      mailingAddress: {
        country: 'ES',
        region: 'Madrid',
        locality: 'Madrid',
        streetAddress: 'Calle Mayor 1',
        postalCode: '28013',
      },
      sourceAccount: '123',
      utilityAccount: `peak-${quirks}`,
      termsAccepted: true,
      devices: [
        {
          sn: a.inverter.sn,
          manufacturer: 'Sunfleet',
          model: 'Hybrid',
          chargeCapacity: 5,
          dischargeCapacity: 5,
          storageCapacity: 10,
        },
      ],
    });
    expect(res.body).toMatchObject({ code: ErrorCode.ok, data: { state: 'pending' } });
    vtn.store.programs.delete(other.id);
    await venOf(s.app)!.upkeep();
    const id = (res.body.data as { id: number }).id;
    expect((await s.call(a.owner.token, 'GET', `/api/v1/oadr/enrollment/${id}/state`)).body.data).toMatchObject({
      state: 'rejected',
    });
  });

  // Last: what every test above made the VEN send, and what it was given, against the OpenAPI file.
  it('every request the VEN sent conforms to openadr3-3.1.0.yaml (path, query, body); so does every object it was given', async () => {
    const kinds = new Set(vtn.requests.map((r) => `${r.method} ${r.url.split('?')[0]!.replace(/\/\d+$/, '/{id}')}`));
    // The whole path was exercised: registration, resources, subscription, events, reports.
    for (const k of ['POST /vens', 'GET /vens', 'POST /resources', 'POST /subscriptions', 'GET /events', 'POST /reports'])
      expect(kinds).toContain(k);
    expect(vtn.violations).toEqual([]);
  });
});
