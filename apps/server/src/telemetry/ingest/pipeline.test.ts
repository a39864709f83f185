import { sql } from 'kysely';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type IngestStore, openIngestStore } from '../../../test/ingest.ts';
import {
  BATTERY,
  dataMessage,
  eventMessage,
  HYBRID,
  METER,
  makeGateway,
  makePlant,
  uniqueSn,
  WEATHER,
} from '../../../test/telemetry.ts';
import { silentLogger } from '../../log.ts';
import { createIngest } from './pipeline.ts';

const T0 = Date.UTC(2025, 5, 10, 10, 0, 0);
const MIN = 60_000;

let store: IngestStore;
beforeAll(async () => {
  store = await openIngestStore();
});
afterAll(() => store.close());

const device = (sn: string) => store.db.selectFrom('devices').selectAll().where('sn', '=', sn).executeTakeFirst();
const samples = (deviceId: number) =>
  store.db.selectFrom('inverter_samples').selectAll().where('device_id', '=', deviceId).orderBy('ts').execute();
const dayRows = (deviceId: number) => store.db.selectFrom('device_day').selectAll().where('device_id', '=', deviceId).execute();
const latest = (deviceId: number) =>
  store.db.selectFrom('device_latest').selectAll().where('device_id', '=', deviceId).executeTakeFirst();

describe('discovery', () => {
  it('attaches new devices to the gateway and its plant, with kind, type and rated power', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const [inv, bat, met, wea] = [uniqueSn('INV'), uniqueSn('BAT'), uniqueSn('MET'), uniqueSn('WEA')];
    store.ingest.message(
      gw.sn,
      'data',
      dataMessage(T0, [
        { sn: inv, protocol: HYBRID, values: { deviceType: 2, ratedPower: 6000 } },
        { sn: bat, protocol: BATTERY },
        { sn: met, protocol: METER },
        { sn: wea, protocol: WEATHER },
      ]),
      T0,
    );
    await store.ingest.flush();
    const rows = await store.db
      .selectFrom('devices')
      .select(['sn', 'kind', 'gateway_id', 'plant_id', 'device_type', 'rated_power_w', 'protocol_id', 'status'])
      .where('gateway_id', '=', gw.id)
      .orderBy('id')
      .execute();
    expect(rows).toEqual([
      {
        sn: inv,
        kind: 'inverter',
        gateway_id: gw.id,
        plant_id: plantId,
        device_type: 2,
        rated_power_w: 6000,
        protocol_id: HYBRID,
        status: 'normal',
      },
      {
        sn: bat,
        kind: 'battery',
        gateway_id: gw.id,
        plant_id: plantId,
        device_type: null,
        rated_power_w: null,
        protocol_id: BATTERY,
        status: 'normal',
      },
      {
        sn: met,
        kind: 'meter',
        gateway_id: gw.id,
        plant_id: plantId,
        device_type: null,
        rated_power_w: null,
        protocol_id: METER,
        status: 'normal',
      },
      {
        sn: wea,
        kind: 'weather',
        gateway_id: gw.id,
        plant_id: plantId,
        device_type: null,
        rated_power_w: null,
        protocol_id: WEATHER,
        status: 'normal',
      },
    ]);
    const plant = await store.db.selectFrom('plants').select('status').where('id', '=', plantId).executeTakeFirstOrThrow();
    expect(plant.status).toBe('normal');
    const invRow = (await device(inv))!;
    const sample = (await samples(invRow.id))[0]!;
    expect(sample).toMatchObject({ ts: T0, power_w: 3400, pv_power_w: 3500, soc: 60, pv_total_wh: 1_000_000 });
    expect(JSON.parse(sample.raw)[0]).toEqual([4, 0, expect.stringMatching(/^([0-9a-f]{4})+$/)]);
    const l = (await latest(invRow.id))!;
    expect(l.ts).toBe(T0);
    expect(JSON.parse(l.values)).toMatchObject({ activePower: 3400, serialNumber: inv, deviceType: 2 });
  });

  it('refuses data for a device attached to another gateway, and keeps the owner', async () => {
    const plantA = await makePlant(store.db);
    const plantB = await makePlant(store.db);
    const gwA = await makeGateway(store.db, plantA);
    const gwB = await makeGateway(store.db, plantB);
    const inv = uniqueSn('INV');
    store.ingest.message(gwA.sn, 'data', dataMessage(T0, [{ sn: inv, protocol: HYBRID }]), T0);
    await store.ingest.flush();
    const before = store.ingest.stats().badFrames.foreignDevice;
    const claimed = dataMessage(T0 + MIN, [{ sn: inv, protocol: HYBRID, values: { activePower: 9 } }]);
    store.ingest.message(gwB.sn, 'data', claimed, T0 + MIN);
    await store.ingest.flush();
    expect(store.ingest.stats().badFrames.foreignDevice).toBe(before + 1);
    const row = (await device(inv))!;
    expect(row.gateway_id).toBe(gwA.id);
    expect((await samples(row.id)).map((s) => s.ts)).toEqual([T0]);
  });
});

describe('gateways and plants', () => {
  it('stores data of a gateway not yet bound to a plant, and follows it to its plant once bound', async () => {
    const gw = await makeGateway(store.db, null);
    const inv = uniqueSn('INV');
    store.ingest.message(gw.sn, 'data', dataMessage(T0, [{ sn: inv, protocol: HYBRID }]), T0);
    await store.ingest.flush();
    expect((await device(inv))!.plant_id).toBeNull();
    const plantId = await makePlant(store.db);
    await store.db.updateTable('gateways').set({ plant_id: plantId }).where('id', '=', gw.id).execute();
    store.ingest.forget({ gatewaySn: gw.sn }); // what the binding API calls
    store.ingest.message(
      gw.sn,
      'data',
      dataMessage(T0 + MIN, [{ sn: inv, protocol: HYBRID, values: { pvEnergyTotal: 1001 } }]),
      T0 + MIN,
    );
    await store.ingest.flush();
    expect((await device(inv))!.plant_id).toBe(plantId);
    const plantDay = await store.db.selectFrom('plant_day').selectAll().where('plant_id', '=', plantId).execute();
    expect(plantDay).toHaveLength(1);
  });

  it('discovers more devices in one batch than one statement can carry', async () => {
    const big = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 60_000, maxBatch: 4000 });
    const gateways = await Promise.all(Array.from({ length: 10 }, async () => makeGateway(store.db, await makePlant(store.db))));
    let n = 0;
    for (const gw of gateways) {
      for (let m = 0; m < 10; m++) {
        const devices = Array.from({ length: 30 }, (_, k) => ({ sn: `${gw.sn}D${m}X${k}`, protocol: k % 2 ? METER : HYBRID }));
        big.message(gw.sn, 'data', dataMessage(T0, devices), T0);
        n += devices.length;
      }
    }
    await big.close();
    expect(big.stats()).toMatchObject({ stored: n, batches: 1, failedBatches: 0 });
  });
});

describe('idempotency and late data', () => {
  it('stores a frame sent twice once, and its rollup does not count it twice', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    const first = dataMessage(T0, [{ sn: inv, protocol: HYBRID, values: { pvEnergyTotal: 100 } }]);
    const second = dataMessage(T0 + 5 * MIN, [{ sn: inv, protocol: HYBRID, values: { pvEnergyTotal: 102 } }]);
    store.ingest.message(gw.sn, 'data', first, T0);
    store.ingest.message(gw.sn, 'data', second, T0 + 5 * MIN);
    await store.ingest.flush();
    const id = (await device(inv))!.id;
    const day = (await dayRows(id))[0]!;
    expect(day).toMatchObject({ pv_wh: 2000, samples: 2 });

    const dupes = store.ingest.stats().duplicates;
    store.ingest.message(gw.sn, 'data', second, T0 + 6 * MIN); // a retransmission (QoS 1), later batch
    store.ingest.message(gw.sn, 'data', first, T0 + 6 * MIN);
    store.ingest.message(gw.sn, 'data', first, T0 + 6 * MIN); // twice in the same batch
    await store.ingest.flush();
    expect(store.ingest.stats().duplicates).toBe(dupes + 3);
    expect(await samples(id)).toHaveLength(2);
    expect((await dayRows(id))[0]).toMatchObject({ pv_wh: 2000, samples: 2 });
  });

  it('takes late and out-of-order frames into the day without letting them overwrite the latest values', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    const at = (minutes: number, kwh: number, power: number, buffered = false) =>
      dataMessage(T0 + minutes * MIN, [{ sn: inv, protocol: HYBRID, values: { pvEnergyTotal: kwh, activePower: power } }], {
        buffered,
      });
    store.ingest.message(gw.sn, 'data', at(30, 103, 3000), T0 + 30 * MIN);
    store.ingest.message(gw.sn, 'data', at(10, 101, 5000, true), T0 + 31 * MIN); // late, and older
    await store.ingest.flush();
    store.ingest.message(gw.sn, 'data', at(0, 100, 1000, true), T0 + 32 * MIN); // later still, older still
    store.ingest.message(gw.sn, 'data', at(20, 102, 2000, true), T0 + 32 * MIN);
    await store.ingest.flush();
    const id = (await device(inv))!.id;
    expect((await samples(id)).map((s) => s.ts)).toEqual([0, 10, 20, 30].map((m) => T0 + m * MIN));
    expect(await dayRows(id)).toMatchObject([
      { pv_wh: 3000, peak_power_w: 5000, samples: 4, first_ts: T0, last_ts: T0 + 30 * MIN },
    ]);
    const l = (await latest(id))!;
    expect(l.ts).toBe(T0 + 30 * MIN);
    expect(JSON.parse(l.values).activePower).toBe(3000);
  });
});

describe('bad frames', () => {
  it('counts each kind of bad frame, drops it, and keeps ingesting', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    const base = store.ingest.stats().badFrames;
    const good = (minutes: number) => dataMessage(T0 + minutes * MIN, [{ sn: inv, protocol: HYBRID }]);
    store.ingest.message(gw.sn, 'data', good(0), T0);
    store.ingest.message(gw.sn, 'data', Buffer.from('{"v":1,'), T0);
    store.ingest.message(gw.sn, 'data', Buffer.from(JSON.stringify({ v: 1, seq: 1, ts: T0, devices: [] })), T0);
    store.ingest.message(gw.sn, 'data', Buffer.alloc(256 * 1024 + 1, 0x20), T0);
    store.ingest.message(gw.sn, 'data', good(6), T0); // six minutes ahead of its arrival
    store.ingest.message(gw.sn, 'data', dataMessage(Date.UTC(2017, 8, 1), [{ sn: inv, protocol: HYBRID }]), T0); // before the retention window
    const unmapped = JSON.parse(good(1).toString());
    unmapped.devices[0].blocks.push({ fc: 4, addr: 9000, regs: '0000' });
    store.ingest.message(gw.sn, 'data', Buffer.from(JSON.stringify(unmapped)), T0);
    store.ingest.message('GWNOTREGISTERED', 'data', good(3), T0);
    const unknownProtocol = JSON.parse(good(4).toString());
    unknownProtocol.devices[0].protocol = 'acme-9000';
    store.ingest.message(gw.sn, 'data', Buffer.from(JSON.stringify(unknownProtocol)), T0);
    store.ingest.message(gw.sn, 'data', dataMessage(T0 + 5 * MIN, [{ sn: inv, protocol: METER }]), T0); // not what it was discovered with
    store.ingest.message(
      gw.sn,
      'event',
      eventMessage({ ts: T0, code: 'busError', level: 'fault', active: true, device: 'NOSUCHDEVICE' }),
      T0,
    );
    store.ingest.message(gw.sn, 'data', good(5), T0);
    await store.ingest.flush();
    const bad = store.ingest.stats().badFrames;
    const delta = Object.fromEntries(Object.entries(bad).map(([k, v]) => [k, v - base[k as keyof typeof base]]));
    expect(delta).toEqual({
      oversized: 1,
      malformedJson: 1,
      schema: 1,
      futureTimestamp: 1,
      staleTimestamp: 1,
      unmappedRegisters: 1,
      unknownGateway: 1,
      unknownDevice: 1,
      foreignDevice: 0,
      beforeBinding: 0,
      unknownProtocol: 1,
      wrongProtocol: 1,
      writeFailed: 0,
    });
    const id = (await device(inv))!.id;
    expect((await samples(id)).map((s) => s.ts)).toEqual([T0, T0 + 5 * MIN]);
  });

  it('never lets a frame from the future freeze the latest values: 23 h ahead is refused', async () => {
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    store.ingest.message(gw.sn, 'data', dataMessage(T0 + 23 * 60 * MIN, [{ sn: inv, protocol: HYBRID }]), T0);
    store.ingest.message(gw.sn, 'data', dataMessage(T0 + 5 * MIN, [{ sn: inv, protocol: HYBRID }]), T0); // clock 5 min ahead: kept
    await store.ingest.flush();
    store.ingest.message(
      gw.sn,
      'data',
      dataMessage(T0 + 10 * MIN, [{ sn: inv, protocol: HYBRID, values: { activePower: 777 } }]),
      T0 + 10 * MIN,
    );
    await store.ingest.flush();
    const id = (await device(inv))!.id;
    expect((await samples(id)).map((s) => s.ts)).toEqual([T0 + 5 * MIN, T0 + 10 * MIN]);
    const l = (await latest(id))!;
    expect(l.ts).toBe(T0 + 10 * MIN);
    expect(JSON.parse(l.values).activePower).toBe(777);
  });
});

describe('frames that must not enter the record', () => {
  it('refuses and counts bad times and unmapped blocks, and keeps broken counters out of the day totals with one event', async () => {
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const meter = uniqueSn('MET');
    const base = store.ingest.stats().badFrames;
    const at = (minutes: number, importEnergy: number, activePower = 800) =>
      dataMessage(T0 + minutes * MIN, [{ sn: meter, protocol: METER, values: { importEnergy, activePower } }]);
    store.ingest.message(gw.sn, 'data', at(0, 5000), T0);
    store.ingest.message(gw.sn, 'data', at(5, 42_949_672.95, 900), T0 + 5 * MIN); // u32 maximum: not available
    store.ingest.message(gw.sn, 'data', at(10, 5000.5), T0 + 10 * MIN);
    store.ingest.message(gw.sn, 'data', at(23 * 60, 5001, 111), T0 + 10 * MIN); // 23 h ahead of the server clock
    store.ingest.message(gw.sn, 'data', dataMessage(Date.UTC(2017, 8, 1), [{ sn: meter, protocol: METER }]), T0 + 10 * MIN);
    const outside = JSON.parse(at(12, 5000.6).toString());
    outside.devices[0].blocks = [{ fc: 4, addr: 300, regs: '0000'.repeat(8) }]; // past the meter's map
    store.ingest.message(gw.sn, 'data', Buffer.from(JSON.stringify(outside)), T0 + 12 * MIN);
    await store.ingest.flush();
    store.ingest.message(gw.sn, 'data', at(15, 4000), T0 + 15 * MIN); // backwards
    store.ingest.message(gw.sn, 'data', at(20, 42_949_672.94), T0 + 20 * MIN); // impossible jump
    store.ingest.message(gw.sn, 'data', at(25, 5001, 700), T0 + 25 * MIN);
    await store.ingest.flush();

    const bad = store.ingest.stats().badFrames;
    const delta = Object.fromEntries(Object.entries(bad).map(([k, v]) => [k, v - base[k as keyof typeof base]]));
    expect(delta).toMatchObject({ futureTimestamp: 1, staleTimestamp: 1, unmappedRegisters: 1 });
    const id = (await store.db.selectFrom('devices').select('id').where('sn', '=', meter).executeTakeFirstOrThrow()).id;
    const rows = await store.db
      .selectFrom('meter_samples')
      .select(['ts', 'power_w', 'import_total_wh'])
      .where('device_id', '=', id)
      .orderBy('ts')
      .execute();
    expect(rows.map((r) => r.ts)).toEqual([0, 5, 10, 15, 20, 25].map((m) => T0 + m * MIN));
    expect(rows.map((r) => r.import_total_wh)).toEqual([5_000_000, null, 5_000_500, null, null, 5_001_000]);
    expect(rows[1]!.power_w).toBe(900); // the rest of a frame with an absent counter is kept
    expect(await dayRows(id)).toMatchObject([{ grid_import_wh: 1000, samples: 6 }]);
    const plantDay = await store.db.selectFrom('plant_day').selectAll().where('plant_id', '=', plantId).execute();
    expect(plantDay).toMatchObject([{ grid_import_wh: 1000 }]);
    const l = (await latest(id))!;
    expect(l.ts).toBe(T0 + 25 * MIN);
    expect(JSON.parse(l.values).activePower).toBe(700);
    const events = await store.db
      .selectFrom('events')
      .select(['code', 'started_at', 'ended_at'])
      .where('sn', '=', meter)
      .execute();
    expect(events).toEqual([{ code: 'counterImplausible', started_at: T0 + 15 * MIN, ended_at: null }]);
    expect((await device(meter))!.status).toBe('warning');
  });
});

describe('a frame the store refuses', () => {
  it.runIf(!process.env.TEST_DATABASE_URL)(
    'is isolated by retrying its batch frame by frame, counted and dropped; the rest of the batch is written',
    async () => {
      // A trigger plays the store refusing one row (SQLite only: PostgreSQL would need a function).
      await sql`create trigger poison before insert on inverter_samples when new.power_w = 4321
                begin select raise(abort, 'poison'); end`.execute(store.db);
      const errors: unknown[] = [];
      const log = { ...silentLogger, error: (o: object) => errors.push(o) };
      const solo = createIngest({ db: store.db, dialect: store.dialect, log, flushMs: 10 });
      const gw = await makeGateway(store.db, await makePlant(store.db));
      const [good, bad] = [uniqueSn('INV'), uniqueSn('INV')];
      for (let i = 0; i < 3; i++) {
        solo.message(gw.sn, 'data', dataMessage(T0 + i * MIN, [{ sn: good, protocol: HYBRID }]), T0);
        if (i === 1)
          solo.message(gw.sn, 'data', dataMessage(T0, [{ sn: bad, protocol: HYBRID, values: { activePower: 4321 } }]), T0);
      }
      await solo.close();
      await sql`drop trigger poison`.execute(store.db);
      expect(solo.stats()).toMatchObject({ stored: 3, badFrames: { writeFailed: 1 } });
      expect(errors.length).toBeGreaterThanOrEqual(5);
      expect(await samples((await device(good))!.id)).toHaveLength(3);
    },
    20_000,
  );
});

describe('decoding in a worker thread', () => {
  it('gives the same result as decoding inline', async () => {
    const errors: unknown[] = [];
    const threaded = createIngest({
      db: store.db,
      dialect: store.dialect,
      log: { ...silentLogger, error: (o: object) => errors.push(o) },
      flushMs: 10,
      decodeInWorker: true,
    });
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    for (let i = 0; i < 20; i++)
      threaded.message(gw.sn, 'data', dataMessage(T0 + i * MIN, [{ sn: inv, protocol: HYBRID }]), T0 + i * MIN);
    threaded.message(gw.sn, 'data', Buffer.from('not json'), T0);
    await threaded.close();
    expect(errors).toEqual([]);
    expect(threaded.stats()).toMatchObject({ stored: 20, badFrames: { malformedJson: 1 } });
    expect(await samples((await device(inv))!.id)).toHaveLength(20);
  });
});

describe('stats and batching', () => {
  it('writes in batches of at most maxBatch frames and reports what it did', async () => {
    const small = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 1000, maxBatch: 3 });
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const inv = uniqueSn('INV');
    for (let i = 0; i < 7; i++)
      small.message(gw.sn, 'data', dataMessage(T0 + i * MIN, [{ sn: inv, protocol: HYBRID }]), T0 + i * MIN);
    expect(small.stats().queueLength).toBe(7);
    await small.close();
    const s = small.stats();
    expect(s).toMatchObject({
      messages: 7,
      deviceFrames: 7,
      stored: 7,
      duplicates: 0,
      batches: 3,
      queueLength: 0,
      badFramesTotal: 0,
    });
    expect(s.averageFlushMs).toBeGreaterThan(0);
  });
});

describe('back-pressure', () => {
  it('holds publishers above the high-water mark and lets them go once the backlog is written', async () => {
    const own = createIngest({
      db: store.db,
      dialect: store.dialect,
      log: silentLogger,
      flushMs: 60_000, // nothing is written until flush(): the backlog only grows
      maxBatch: 1000,
      highWaterFrames: 8,
    });
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    const sn = uniqueSn('INV');
    const send = (i: number) => own.message(gw.sn, 'data', dataMessage(T0 + i * MIN, [{ sn, protocol: HYBRID }]), T0 + i * MIN);
    for (let i = 0; i < 7; i++) send(i);
    expect(own.ready?.()).toBeNull(); // 7 frames waiting: under the mark
    send(7);
    const held = own.ready?.();
    expect(held).toBeInstanceOf(Promise);
    expect(own.ready?.()).toBe(held); // one spell, one promise
    let released = false;
    void held!.then(() => {
      released = true;
    });
    await new Promise((r) => setTimeout(r, 50));
    expect(released).toBe(false);
    await own.flush();
    await held;
    expect(released).toBe(true);
    expect(own.ready?.()).toBeNull();
    expect(own.stats()).toMatchObject({ stored: 8, heldSpells: 1 });
    await own.close();
  });

  it('lets held publishers go on close', async () => {
    const own = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 60_000, highWaterFrames: 1 });
    const plantId = await makePlant(store.db);
    const gw = await makeGateway(store.db, plantId);
    own.message(gw.sn, 'data', dataMessage(T0, [{ sn: uniqueSn('INV'), protocol: HYBRID }]), T0);
    const held = own.ready?.();
    expect(held).toBeInstanceOf(Promise);
    await own.close();
    await held; // resolves (never hangs a connection)
  });
});

describe('acknowledgement', () => {
  /** The store as ingest sees it, with its transactions failing while `down` is set. */
  function flakyStore() {
    const state = { down: false };
    const db = new Proxy(store.db, {
      get(target, prop) {
        if (prop === 'transaction' && state.down)
          return () => ({
            execute: async () => {
              throw new Error('connection terminated');
            },
          });
        const value = Reflect.get(target, prop);
        return typeof value === 'function' ? value.bind(target) : value;
      },
    });
    return { db, state };
  }

  it('acknowledges a message only after its frames have committed, however long the store is down', async () => {
    const { db, state } = flakyStore();
    const own = createIngest({ db, dialect: store.dialect, log: silentLogger, flushMs: 5 });
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const [a, b] = [uniqueSn('INV'), uniqueSn('INV')];
    let acks = 0;
    state.down = true;
    own.message(
      gw.sn,
      'data',
      dataMessage(T0, [
        { sn: a, protocol: HYBRID },
        { sn: b, protocol: HYBRID },
      ]),
      T0,
      () => acks++,
    );
    await new Promise((r) => setTimeout(r, 300));
    expect(own.stats().failedBatches).toBeGreaterThan(1);
    expect(acks).toBe(0);
    state.down = false;
    await own.flush();
    expect(acks).toBe(1);
    expect(own.stats()).toMatchObject({ stored: 2, acknowledged: 1 });
    const stored = await store.db.selectFrom('devices').select('sn').where('gateway_id', '=', gw.id).execute();
    expect(stored.map((d) => d.sn).sort()).toEqual([a, b].sort());
    await own.close();
  });

  it('acknowledges a message split over several batches once, after its last frame committed', async () => {
    const own = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 60_000, maxBatch: 1 });
    const gw = await makeGateway(store.db, await makePlant(store.db));
    const acked: number[] = [];
    own.message(
      gw.sn,
      'data',
      dataMessage(T0, [
        { sn: uniqueSn('INV'), protocol: HYBRID },
        { sn: uniqueSn('INV'), protocol: HYBRID },
        { sn: uniqueSn('INV'), protocol: HYBRID },
      ]),
      T0,
      () => acked.push(own.stats().batches),
    );
    await own.flush();
    expect(acked).toEqual([3]);
    await own.close();
  });

  it('acknowledges a refused message (nothing a resend could change) and a command reply at once', async () => {
    const own = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger, flushMs: 60_000 });
    const gw = await makeGateway(store.db, null);
    let acks = 0;
    own.message(gw.sn, 'data', Buffer.from('{not json'), T0, () => acks++);
    own.message(gw.sn, 'reply', Buffer.from('{"v":1}'), T0, () => acks++);
    await own.flush();
    expect(acks).toBe(2);
    expect(own.stats().badFrames.malformedJson).toBe(1);
    await own.close();
  });

  it('takes nothing once closing, and acknowledges nothing it did not take', async () => {
    const own = createIngest({ db: store.db, dialect: store.dialect, log: silentLogger });
    const gw = await makeGateway(store.db, await makePlant(store.db));
    await own.close();
    let acks = 0;
    own.message(gw.sn, 'data', dataMessage(T0, [{ sn: uniqueSn('INV'), protocol: HYBRID }]), T0, () => acks++);
    await own.flush();
    expect(acks).toBe(0);
    expect(own.stats()).toMatchObject({ notTaken: 1, stored: 0 });
  });
});
