import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestStore, openIngestStore } from '../../../test/ingest.ts';
import {
  BATTERY,
  type DeviceFrameSpec,
  dataMessage,
  eventMessage,
  HYBRID,
  makeGateway,
  makePlant,
  STRING,
  uniqueSn,
} from '../../../test/telemetry.ts';
import { deviceStatus } from '../../energy/device-status.ts';
import { plantStatus } from '../../energy/plant-status.ts';

const MIN = 60_000;
const T0 = Date.UTC(2025, 5, 10, 12, 0); // midday in Madrid

let store: IngestStore;
beforeAll(async () => {
  store = await openIngestStore();
});
afterAll(() => store.close());

const events = (sn: string) =>
  store.db
    .selectFrom('events')
    .select(['code', 'level', 'source', 'text_en', 'text_es', 'started_at', 'ended_at', 'plant_id', 'device_id'])
    .where('sn', '=', sn)
    .orderBy('id')
    .execute();
const statusOf = async (sn: string) =>
  (await store.db.selectFrom('devices').select('status').where('sn', '=', sn).executeTakeFirstOrThrow()).status;
const plantStatusOf = async (id: number) =>
  (await store.db.selectFrom('plants').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

async function send(gatewaySn: string, minutes: number, devices: DeviceFrameSpec[]) {
  const ts = T0 + minutes * MIN;
  store.ingest.message(gatewaySn, 'data', dataMessage(ts, devices), ts);
  await store.ingest.flush();
}

describe('status', () => {
  it('is the worst open condition of a device, and of a plant the worst of its devices', () => {
    const c = (level: 'fault' | 'warning' | 'info') => ({ level, source: 'device' as const });
    expect(deviceStatus(new Map())).toBe('normal');
    expect(deviceStatus(new Map([['gridLost', c('info')]]))).toBe('normal');
    expect(deviceStatus(new Map([['fan', c('warning')]]))).toBe('warning');
    expect(
      deviceStatus(
        new Map([
          ['fan', c('warning')],
          ['arc', c('fault')],
        ]),
      ),
    ).toBe('fault');
    expect(deviceStatus(new Map([['offline', { level: 'warning', source: 'rule' }]]))).toBe('offline');
    expect(plantStatus([])).toBe('offline');
    expect(plantStatus(['normal', 'offline'])).toBe('normal');
    expect(plantStatus(['offline', 'offline'])).toBe('offline');
    expect(plantStatus(['offline', 'warning'])).toBe('warning');
    expect(plantStatus(['upgrading', 'normal'])).toBe('upgrading');
    expect(plantStatus(['warning', 'fault', 'upgrading'])).toBe('fault');
  });
});

describe('device fault and warning bits', () => {
  it('open one event per bit while it is set, close it when a newer frame clears it, and drive device and plant status', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const inv = uniqueSn('INV');
    await send(gw.sn, 0, [{ sn: inv, protocol: HYBRID, faults: ['fanWarning'] }]);
    expect(await statusOf(inv)).toBe('warning');
    await send(gw.sn, 5, [{ sn: inv, protocol: HYBRID, faults: ['fanWarning', 'gridOvervoltage'] }]);
    await send(gw.sn, 10, [{ sn: inv, protocol: HYBRID, faults: ['fanWarning', 'gridOvervoltage'] }]);
    expect(await statusOf(inv)).toBe('fault');
    expect(await plantStatusOf(plantId)).toBe('fault');
    // A late frame from before the fault does not clear it.
    await send(gw.sn, 2, [{ sn: inv, protocol: HYBRID, faults: [] }]);
    expect(await statusOf(inv)).toBe('fault');
    await send(gw.sn, 15, [{ sn: inv, protocol: HYBRID, faults: ['fanWarning'] }]);
    expect(await statusOf(inv)).toBe('warning');
    await send(gw.sn, 20, [{ sn: inv, protocol: HYBRID, faults: [] }]);
    await send(gw.sn, 25, [{ sn: inv, protocol: HYBRID, faults: [] }]);
    expect(await statusOf(inv)).toBe('normal');
    expect(await plantStatusOf(plantId)).toBe('normal');
    expect(await events(inv)).toEqual([
      {
        code: 'fanWarning',
        level: 'warning',
        source: 'device',
        text_en: 'Fan failure',
        text_es: 'Fallo del ventilador',
        started_at: T0,
        ended_at: T0 + 20 * MIN,
        plant_id: plantId,
        device_id: expect.any(Number),
      },
      {
        code: 'gridOvervoltage',
        level: 'fault',
        source: 'device',
        text_en: 'Grid overvoltage',
        text_es: 'Sobretensión de red',
        started_at: T0 + 5 * MIN,
        ended_at: T0 + 15 * MIN,
        plant_id: plantId,
        device_id: expect.any(Number),
      },
    ]);
  });

  it('opens a bit set again later as a new event, and never two open at once', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    for (const [m, faults] of [
      [0, ['arcFault']],
      [5, []],
      [10, ['arcFault']],
      [15, ['arcFault']],
    ] as const) {
      store.ingest.message(
        gw.sn,
        'data',
        dataMessage(T0 + m * MIN, [{ sn: inv, protocol: HYBRID, faults: [...faults] }]),
        T0 + m * MIN,
      );
    }
    await store.ingest.flush(); // all four frames in one batch
    store.ingest.forget(); // and again from the store, as after a restart
    await send(gw.sn, 20, [{ sn: inv, protocol: HYBRID, faults: ['arcFault'] }]);
    expect((await events(inv)).map((e) => [e.started_at, e.ended_at])).toEqual([
      [T0, T0 + 5 * MIN],
      [T0 + 10 * MIN, null],
    ]);
  });

  it('reads battery pack bits with their pack', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const bat = uniqueSn('BAT');
    await send(gw.sn, 0, [{ sn: bat, protocol: BATTERY, faults: ['pack1.cellImbalance'] }]);
    expect(await events(bat)).toMatchObject([
      { code: 'pack1.cellImbalance', level: 'warning', text_en: 'Cell imbalance', ended_at: null },
    ]);
  });
});

describe('server rules', () => {
  it('raise battery over temperature at 55 °C and clear it below 50 °C', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const bat = uniqueSn('BAT');
    const at = (m: number, c: number) =>
      send(gw.sn, m, [{ sn: bat, protocol: BATTERY, values: { 'pack1.cellTemperatureMax': c } }]);
    await at(0, 40);
    await at(5, 56);
    await at(10, 52); // between the thresholds: still hot
    expect(await statusOf(bat)).toBe('warning');
    await at(15, 49.5);
    await at(20, 57);
    expect((await events(bat)).map((e) => [e.code, e.source, e.started_at, e.ended_at])).toEqual([
      ['batteryOverTemperature', 'rule', T0 + 5 * MIN, T0 + 15 * MIN],
      ['batteryOverTemperature', 'rule', T0 + 20 * MIN, null],
    ]);
  });

  it('raise zero output in daylight while another inverter of the plant produces, and clear it', async () => {
    const plantId = await makePlant(store.db, { timezone: 'Europe/Madrid', latitude: 40.4, longitude: -3.7 });
    const gw = await makeGateway(store.db, plantId);
    const [a, b] = [uniqueSn('INV'), uniqueSn('INV')];
    const pv = (sn: string, w: number): DeviceFrameSpec => ({
      sn,
      protocol: STRING,
      values: { pv1Power: w, activePower: w, ratedPower: 20_000 },
    });
    await send(gw.sn, 0, [pv(a, 8000), pv(b, 0)]);
    expect(await events(b)).toMatchObject([{ code: 'zeroOutput', level: 'warning', source: 'rule', ended_at: null }]);
    expect(await events(a)).toEqual([]);
    await send(gw.sn, 5, [pv(a, 8000), pv(b, 7500)]);
    expect(await events(b)).toMatchObject([{ code: 'zeroOutput', ended_at: T0 + 5 * MIN }]);

    // At night nobody produces, and a lone zero is no anomaly either.
    const night = Date.UTC(2025, 5, 10, 23, 0) - T0;
    await send(gw.sn, night / MIN, [pv(a, 0), pv(b, 0)]);
    expect(await events(a)).toEqual([]);
    expect(await events(b)).toHaveLength(1);
  });
});

describe('gateway events', () => {
  it('open and close events reported by the gateway, for itself or one of its devices', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const inv = uniqueSn('INV');
    await send(gw.sn, 0, [{ sn: inv, protocol: HYBRID }]);
    const ev = (
      m: number,
      e: { code: string; level: 'fault' | 'warning' | 'info'; active: boolean; device?: string; text?: string },
    ) => store.ingest.message(gw.sn, 'event', eventMessage({ ts: T0 + m * MIN, ...e }), T0 + m * MIN);
    ev(1, { code: 'busTimeout', level: 'fault', active: true, device: inv, text: 'No answer on RS485' });
    ev(2, { code: 'busTimeout', level: 'fault', active: true, device: inv }); // again: no second event
    ev(3, { code: 'powerLoss', level: 'warning', active: true });
    await store.ingest.flush();
    expect(await statusOf(inv)).toBe('fault');
    expect(await plantStatusOf(plantId)).toBe('fault');
    ev(4, { code: 'busTimeout', level: 'fault', active: false, device: inv });
    ev(5, { code: 'powerLoss', level: 'warning', active: false });
    await store.ingest.flush();
    expect(await statusOf(inv)).toBe('normal');
    expect(await events(inv)).toMatchObject([
      {
        code: 'busTimeout',
        source: 'gateway',
        level: 'fault',
        text_en: 'No answer on RS485',
        started_at: T0 + MIN,
        ended_at: T0 + 4 * MIN,
      },
    ]);
    expect(await events(gw.sn)).toMatchObject([
      {
        code: 'powerLoss',
        source: 'gateway',
        device_id: null,
        plant_id: plantId,
        started_at: T0 + 3 * MIN,
        ended_at: T0 + 5 * MIN,
      },
    ]);
  });

  it('a known gateway code gets the catalogue texts in both languages; an unknown one keeps the gateway’s text', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const inv = uniqueSn('INV');
    await send(gw.sn, 0, [{ sn: inv, protocol: HYBRID }]);
    store.ingest.message(
      gw.sn,
      'event',
      eventMessage({ ts: T0 + MIN, code: 'rs485.timeout', level: 'warning', active: true, device: inv, text: 'whatever' }),
      T0 + MIN,
    );
    store.ingest.message(
      gw.sn,
      'event',
      eventMessage({ ts: T0 + MIN, code: 'vendor.x', level: 'info', active: true, text: 'Lid open' }),
      T0,
    );
    await store.ingest.flush();
    expect(await events(inv)).toMatchObject([
      {
        code: 'rs485.timeout',
        text_en: 'Device not answering on the RS-485 bus',
        text_es: 'El dispositivo no responde en el bus RS-485',
      },
    ]);
    expect(await events(gw.sn)).toMatchObject([{ code: 'vendor.x', text_en: 'Lid open', text_es: 'Lid open' }]);
  });

  it("refuses events about another gateway's device", async () => {
    const gwA = await makeGateway(store.db, await makePlant(store.db));
    const gwB = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    await send(gwA.sn, 0, [{ sn: inv, protocol: HYBRID }]);
    const before = store.ingest.stats().badFrames.foreignDevice;
    store.ingest.message(gwB.sn, 'event', eventMessage({ ts: T0, code: 'spoof', level: 'fault', active: true, device: inv }), T0);
    await store.ingest.flush();
    expect(store.ingest.stats().badFrames.foreignDevice).toBe(before + 1);
    expect(await events(inv)).toEqual([]);
  });
});
