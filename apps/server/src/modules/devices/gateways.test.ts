/**
 * Gateways: list (columns, filters, sorts, paging), counts, who sees which (a bound gateway
 * follows its plant, an unbound one its importing company), the detail with the devices behind
 * it, and the connection history from recorded sessions or from the offline detection's events.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput, someBadInput } from '../../../test/envelopes.ts';
import { dataAs, getAs, MIN, type World, world } from '../../../test/kits/devices.ts';
import { gateway } from '../../../test/kits/plants.ts';
import { dataMessage, HYBRID, uniqueSn } from '../../../test/telemetry.ts';
import { sweepOffline } from '../../jobs/offline.ts';
import { recordGatewaySessions } from '../../telemetry/gateway-sessions.ts';

let w: World;
let companyName: string;
beforeAll(async () => {
  w = await world();
  companyName = (await w.s.db.selectFrom('companies').select('name').where('id', '=', w.companyId).executeTakeFirstOrThrow())
    .name;
  await w.s.db
    .updateTable('gateways')
    .set({ rssi: -70, comm_type: 'wifi', sw_version: '2.1.0', hw_version: 'B', upload_interval_s: 60 })
    .where('id', '=', w.GA.id)
    .execute();
  await w.s.db.updateTable('gateways').set({ rssi: -90, comm_type: '4g' }).where('id', '=', w.GB.id).execute();
  await w.s.db.updateTable('gateways').set({ online: 0 }).where('id', '=', w.GU.id).execute();
}, 60_000);
afterAll(() => w.close());

type Row = Record<string, unknown> & { sn: string };
const list = (who: World['O'], url: string) => dataAs<{ total: number; list: Row[] }>(w, who, url);
const sns = (d: { list: Row[] }) => d.list.map((r) => r.sn);

describe('gateway list', () => {
  it('shows versions, communication, RSSI with bars, status, customer or agent, protocols', async () => {
    const data = await list(w.O, '/api/v1/gateways');
    expect(data.total).toBe(1);
    expect(data.list[0]).toMatchObject({
      id: w.GA.id,
      sn: w.GA.sn,
      plant: { id: w.plantA, timezone: w.zone },
      company: { id: w.companyId, name: companyName },
      swVersion: '2.1.0',
      hwVersion: 'B',
      commType: 'wifi',
      rssi: -70,
      signalBars: 3,
      status: 'online',
      uploadInterval: 60,
      devices: 6,
      protocols: [
        'sunfleet-battery',
        'sunfleet-hybrid-3p',
        'sunfleet-meter-3p',
        'sunfleet-micro',
        'sunfleet-string-3p',
        'sunfleet-weather',
      ],
    });
    expect(data.list[0]!.lastSeenAt).not.toBeNull();
  });

  it('a bound gateway follows its plant; an unbound one belongs to the company it was imported for', async () => {
    expect(sns(await list(w.P, '/api/v1/gateways'))).toEqual([w.GB.sn]);
    expect(sns(await list(w.visitor, '/api/v1/gateways'))).toEqual([w.GA.sn]);
    const company = await list(w.admin, '/api/v1/gateways');
    expect(sns(company)).toEqual([w.GA.sn, w.GU.sn].sort());
    expect(company.list.find((r) => r.sn === w.GU.sn)).toMatchObject({
      plant: null,
      company: { id: w.companyId },
      status: 'offline',
    });
    expect(sns(await list(w.admin, '/api/v1/gateways?binding=unbound'))).toEqual([w.GU.sn]);
    expect(sns(await list(w.admin, '/api/v1/gateways?binding=bound'))).toEqual([w.GA.sn]);
    expect((await list(w.sysadmin, '/api/v1/gateways')).total).toBe(3);
    // Once bound to a plant the company has no reach to, the company no longer sees it.
    await w.s.db.updateTable('gateways').set({ plant_id: w.plantB }).where('id', '=', w.GU.id).execute();
    expect(sns(await list(w.admin, '/api/v1/gateways?size=50&sort=createAt'))).toEqual([w.GA.sn]);
    await w.s.db.updateTable('gateways').set({ plant_id: null }).where('id', '=', w.GU.id).execute();
  });

  it('filters, sorts and pages', async () => {
    expect(sns(await list(w.sysadmin, '/api/v1/gateways?sort=rssi&order=2'))).toEqual([w.GA.sn, w.GB.sn, w.GU.sn]);
    expect(sns(await list(w.sysadmin, '/api/v1/gateways?sort=rssi&order=1'))).toEqual([w.GU.sn, w.GB.sn, w.GA.sn]);
    expect(sns(await list(w.sysadmin, '/api/v1/gateways?status=offline'))).toEqual([w.GU.sn]);
    expect(sns(await list(w.sysadmin, '/api/v1/gateways?commType=4g'))).toEqual([w.GB.sn]);
    expect(sns(await list(w.sysadmin, `/api/v1/gateways?plantId=${w.plantB}`))).toEqual([w.GB.sn]);
    expect(sns(await list(w.sysadmin, `/api/v1/gateways?keyword=${w.GB.sn.slice(2).toLowerCase()}`))).toEqual([w.GB.sn]);
    const all = [w.GA.sn, w.GB.sn, w.GU.sn].sort();
    const p1 = await list(w.sysadmin, '/api/v1/gateways?size=2');
    const p2 = await list(w.sysadmin, '/api/v1/gateways?size=2&page=2');
    expect([p1.total, p2.total]).toEqual([3, 3]);
    expect([...sns(p1), ...sns(p2)]).toEqual(all);
    expect(sns(await list(w.sysadmin, '/api/v1/gateways?order=2'))).toEqual([...all].reverse());
    for (const q of ['sort=power', 'status=broken', 'binding=maybe', 'size=500']) {
      expect(await getAs(w, w.sysadmin, `/api/v1/gateways?${q}`), q).toMatchObject(someBadInput);
    }
  });

  it('counts online, offline and unbound', async () => {
    expect((await getAs(w, w.O, '/api/v1/gateways/count')).data).toEqual({ total: 1, online: 1, offline: 0, unbound: 0 });
    expect((await getAs(w, w.admin, '/api/v1/gateways/count')).data).toEqual({ total: 2, online: 1, offline: 1, unbound: 1 });
    expect((await getAs(w, w.sysadmin, `/api/v1/gateways/count?plantId=${w.plantB}`)).data).toEqual({
      total: 1,
      online: 1,
      offline: 0,
      unbound: 0,
    });
  });
});

describe('gateway detail', () => {
  it('has the devices behind it', async () => {
    const d = (await getAs(w, w.O, `/api/v1/gateway/${w.GA.id}`)).data as Record<string, unknown>;
    expect(d).toMatchObject({ id: w.GA.id, sn: w.GA.sn, canEdit: true, devices: 6 });
    const devices = d.deviceList as Array<{ sn: string; kind: string; status: string; lastUpdate: string | null }>;
    expect(devices.map((x) => [x.kind, x.sn])).toEqual([
      ['battery', w.sn.BAT],
      ...[w.sn.INV1, w.sn.INV2, w.sn.MIC].sort().map((sn) => ['inverter', sn]),
      ['meter', w.sn.MET],
      ['weather', w.sn.WEA],
    ]);
    expect(devices.find((x) => x.sn === w.sn.INV2)).toMatchObject({ status: 'fault', lastUpdate: new Date(w.now).toISOString() });
    expect((await getAs(w, w.visitor, `/api/v1/gateway/${w.GA.id}`)).data).toMatchObject({ canEdit: false });
    expect((await getAs(w, w.admin, `/api/v1/gateway/${w.GU.id}`)).data).toMatchObject({ plant: null, devices: 1 });
  });

  it('answers 305 with no data for a gateway the caller cannot see', async () => {
    expect(await getAs(w, w.P, `/api/v1/gateway/${w.GA.id}`)).toMatchObject({ code: ErrorCode.gatewayMissing, data: null });
    expect(await getAs(w, w.O, `/api/v1/gateway/${w.GU.id}`)).toMatchObject({ code: ErrorCode.gatewayMissing, data: null });
    expect(await getAs(w, w.O, '/api/v1/gateway/999999')).toMatchObject({ code: ErrorCode.gatewayMissing, data: null });
    expect(await getAs(w, w.O, '/api/v1/gateway/abc')).toMatchObject(badInput('id'));
  });

  it('connection history from recorded sessions: online and offline periods, newest first', async () => {
    const t = Date.now() - 3 * 3_600_000;
    // Ingest opened a period when the gateway's first data arrived: start from a clean history.
    await w.s.db.deleteFrom('gateway_sessions').where('gateway_id', '=', w.GB.id).execute();
    await recordGatewaySessions(w.s.db, [
      { sn: w.GB.sn, online: true, at: t },
      { sn: w.GB.sn, online: false, at: t + 30 * MIN },
      { sn: w.GB.sn, online: false, at: t + 40 * MIN }, // already closed: nothing
      { sn: w.GB.sn, online: true, at: t + 60 * MIN },
      { sn: w.GB.sn, online: true, at: t + 70 * MIN }, // already open: nothing
    ]);
    const d = (await getAs(w, w.P, `/api/v1/gateway/${w.GB.id}`)).data as {
      history: Array<{ state: string; from: string; to: string | null; durationS: number }>;
      historySource: string;
    };
    expect(d.historySource).toBe('sessions');
    const iso = (x: number) => new Date(x).toISOString();
    expect(d.history.map((p) => [p.state, p.from, p.to])).toEqual([
      ['online', iso(t + 60 * MIN), null],
      ['offline', iso(t + 30 * MIN), iso(t + 60 * MIN)],
      ['online', iso(t), iso(t + 30 * MIN)],
    ]);
    expect(d.history.slice(1).map((p) => p.durationS)).toEqual([1800, 1800]);
    expect(d.history[0]!.durationS).toBeGreaterThanOrEqual(2 * 3600 - 5);
  });

  it('connection history recorded by ingest and the offline detection; from their events when no session was recorded', async () => {
    const gh = await gateway(w.s, w.plantA);
    await w.s.db.updateTable('gateways').set({ upload_interval_s: 10 }).where('id', '=', gh.id).execute();
    const inv = uniqueSn('INVH');
    const t1 = Date.now() - 30 * MIN;
    const upload = async (at: number) => {
      w.ingest.message(gh.sn, 'data', dataMessage(at, [{ sn: inv, protocol: HYBRID }]), at);
      await w.ingest.flush();
    };
    await upload(t1);
    expect(await sweepOffline({ db: w.s.db, now: () => t1 + 5 * MIN })).toMatchObject({ gateways: 1 });
    await upload(t1 + 10 * MIN);
    const event = await w.s.db
      .selectFrom('events')
      .select(['started_at', 'ended_at'])
      .where('sn', '=', gh.sn)
      .where('code', '=', 'offline')
      .executeTakeFirstOrThrow();
    expect(Number(event.started_at)).toBe(t1);
    expect(event.ended_at).not.toBeNull();
    type Detail = {
      history: Array<{ state: string; from: string; to: string | null; durationS: number }>;
      historySource: string;
    };
    const iso = (x: number) => new Date(x).toISOString();
    // Sessions: ingest opened one at the first data, the sweep closed it at the last data, ingest
    // opened the next when data came back.
    const recorded = (await getAs(w, w.O, `/api/v1/gateway/${gh.id}`)).data as Detail;
    expect(recorded.historySource).toBe('sessions');
    expect(recorded.history.slice(0, 2).map((p) => [p.state, p.from, p.to])).toEqual([
      ['online', iso(t1 + 10 * MIN), null],
      ['offline', iso(t1), iso(t1 + 10 * MIN)],
    ]);
    // A gateway from before the sessions table: its history comes from the offline events.
    await w.s.db.deleteFrom('gateway_sessions').where('gateway_id', '=', gh.id).execute();
    const d = (await getAs(w, w.O, `/api/v1/gateway/${gh.id}`)).data as Detail;
    expect(d.historySource).toBe('events');
    const end = Number(event.ended_at);
    expect(d.history.map((p) => [p.state, p.from, p.to])).toEqual([
      ['online', new Date(end).toISOString(), null],
      ['offline', new Date(t1).toISOString(), new Date(end).toISOString()],
    ]);
    expect(d.history[1]!.durationS).toBe(Math.round((end - t1) / 1000));
  });
});
