import { ErrorCode } from '@sunfleet/contracts';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../../test/envelopes.ts';
import { startServer, type TestServer } from '../../../../test/harness.ts';
import { storedSample } from '../../../../test/ingest.ts';
import { addDevice, addEvent, addInverterSample, HYBRID, rawBlocks, type Site, site, url } from '../../../../test/kits/events.ts';
import { account, company } from '../../../../test/kits/plants.ts';
import type { InverterSamplesTable } from '../../../db/schema.ts';

let s: TestServer;
let a: Site;
let b: Site;
let dense: { id: number; sn: string };

// Madrid is UTC+2 in June: the local day 2025-06-10 is [06-09 22:00Z, 06-10 22:00Z).
const DAY_START = Date.UTC(2025, 5, 9, 22, 0, 0);
const FIVE_MIN = 300_000;
/** Samples every 5 minutes from local 06-09 00:00 to 06-12 00:00; i counts from DAY_START. */
const FIRST = DAY_START - 288 * FIVE_MIN;
const frequency = (i: number) => Math.round((49.9 + (((i % 20) + 20) % 20) / 100) * 100) / 100;
const state = (i: number) => ((i % 5) + 5) % 5;

type Param = {
  key: string;
  name: string;
  unit: string | null;
  numeric: boolean;
  stored: boolean;
  options: Record<string, string> | null;
  flow: 'grid' | 'battery' | null;
};
type Page = {
  total: number;
  list: Array<{ ts: string; values: Array<number | string | null> }>;
  next: number | null;
  params: Param[];
  timezone: string;
};

async function seed(deviceId: number, sn: string, from: number, step: number, count: number, index: (k: number) => number) {
  const rows = [];
  for (let k = 0; k < count; k++) {
    const i = index(k);
    rows.push({
      ts: from + k * step,
      power: i,
      raw: rawBlocks(HYBRID, {
        deviceType: 93,
        serialNumber: sn,
        runningState: state(i),
        gridFrequency: frequency(i),
        activePower: i,
        batterySoc: 50,
      }),
    });
  }
  for (let k = 0; k < rows.length; k += 200) {
    await s.db
      .insertInto('inverter_samples')
      .values(
        rows.slice(k, k + 200).map((r) => ({
          device_id: deviceId,
          ts: r.ts,
          power_w: r.power,
          pv_power_w: null,
          grid_power_w: null,
          load_power_w: null,
          battery_power_w: null,
          soc: 50,
          temperature_c: null,
          pv_total_wh: null,
          raw: r.raw,
        })),
      )
      .execute();
  }
}

beforeAll(async () => {
  s = await startServer();
  a = await site(s, { timezone: 'Europe/Madrid' });
  b = await site(s);
  // 3 local days, i = -288 … 575 (i = 0 at local 06-10 00:00).
  await seed(a.inverter.id, a.inverter.sn, FIRST, FIVE_MIN, 864, (k) => k - 288);
  // A second inverter with a sample every minute over two local days (2,880 samples).
  dense = await addDevice(s, a.gatewayId, a.plantId, 'inverter', HYBRID);
  await seed(dense.id, dense.sn, DAY_START, 60_000, 2880, (k) => k);
  await addInverterSample(s, b.inverter.id, DAY_START, { power_w: 1 });
}, 60_000);
afterAll(() => s.close());

const get = (token: string, path: string, query: Record<string, string | number | string[] | undefined>) =>
  s.call(token, 'GET', url(path, query));
const oneDay = (sn: string, extra: Record<string, string | number | string[] | undefined> = {}) => ({
  sn,
  startDate: '2025-06-10',
  endDate: '2025-06-10',
  ...extra,
});

describe('workdata/params', () => {
  it('lists the stored columns (the default) and the protocol fields, in the request language', async () => {
    const res = await get(a.owner.token, '/api/v1/workdata/params', { sn: a.inverter.sn, lan: 'es' });
    expect(res.body.code).toBe(ErrorCode.ok);
    const data = res.body.data as { defaults: string[]; params: Param[]; kind: string; protocol: string; timezone: string };
    expect(data).toMatchObject({ kind: 'inverter', protocol: HYBRID, timezone: 'Europe/Madrid' });
    expect(data.defaults).toEqual([
      'power_w',
      'pv_power_w',
      'grid_power_w',
      'load_power_w',
      'battery_power_w',
      'soc',
      'temperature_c',
      'pv_total_wh',
    ]);
    const byKey = new Map(data.params.map((p) => [p.key, p]));
    expect(byKey.get('power_w')).toEqual({
      key: 'power_w',
      name: 'Potencia de salida',
      unit: 'W',
      numeric: true,
      stored: true,
      options: null,
      flow: null,
    });
    expect(byKey.get('gridFrequency')).toMatchObject({ name: 'Frecuencia de red', unit: 'Hz', numeric: true, stored: false });
    expect(byKey.get('runningState')?.options).toMatchObject({ '0': 'En espera', '2': 'Normal', '4': 'Fallo' });
    expect(byKey.get('serialNumber')?.numeric).toBe(false);
    expect(byKey.has('timeYear')).toBe(false); // a setting, not telemetry
  });
});

describe('workdata/dynamic', () => {
  it('pages one local day oldest first by keyset, stored and decoded values side by side', async () => {
    const params = ['power_w', 'gridFrequency', 'runningState'];
    const seen: Page['list'] = [];
    let after: number | undefined;
    let pages = 0;
    for (;;) {
      const res = await get(a.owner.token, '/api/v1/workdata/dynamic', oneDay(a.inverter.sn, { params, size: 100, after }));
      expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
      const page = res.body.data as Page;
      expect(page.total).toBe(288);
      expect(page.params.map((p) => p.key)).toEqual(params);
      seen.push(...page.list);
      pages++;
      if (page.next === null) break;
      expect(page.next).toBe(Date.parse(page.list[page.list.length - 1]!.ts));
      after = page.next;
    }
    expect(pages).toBe(3);
    expect(seen).toHaveLength(288);
    seen.forEach((row, i) => {
      expect(row.ts).toBe(new Date(DAY_START + i * FIVE_MIN).toISOString());
      expect(row.values[0]).toBe(i);
      expect(row.values[1] as number).toBeCloseTo(frequency(i), 6);
      expect(row.values[2]).toBe(state(i));
    });
  });

  it('answers the default parameters when none are chosen', async () => {
    const res = await get(a.owner.token, '/api/v1/workdata/dynamic', oneDay(a.inverter.sn, { size: 1 }));
    const page = res.body.data as Page;
    expect(page.params).toHaveLength(8);
    expect(page.list[0]!.values).toEqual([0, null, null, null, null, 50, null, null]);
  });

  it('refuses unknown parameters, bad ranges and 91 days (4); 90 days are fine', async () => {
    const bad = [
      oneDay(a.inverter.sn, { params: ['nope'] }),
      oneDay(a.inverter.sn, { params: ['power_w;drop'] }),
      { sn: a.inverter.sn, startDate: '2025-06-10', endDate: '2025-06-09' },
      { sn: a.inverter.sn, startDate: '2025-03-12', endDate: '2025-06-10' },
      { sn: a.inverter.sn, startDate: '2025-06-10' },
    ];
    for (const q of bad) {
      const res = await get(a.owner.token, '/api/v1/workdata/dynamic', q);
      // Bad input, naming the parameter or the range's end where it can.
      expect(res.body.code, JSON.stringify(q)).toBe(ErrorCode.validation);
    }
    const tooLong = await get(a.owner.token, '/api/v1/workdata/dynamic', {
      sn: a.inverter.sn,
      startDate: '2025-03-12',
      endDate: '2025-06-10',
    });
    expect(tooLong.body.msg).toMatch(/at most 90 days/);
    const ninety = await get(a.owner.token, '/api/v1/workdata/dynamic', {
      sn: a.inverter.sn,
      startDate: '2025-03-13',
      endDate: '2025-06-10',
      size: 1,
    });
    expect((ninety.body.data as Page).total).toBe(2 * 288); // local 06-09 and 06-10
  });
});

describe('workdata/dynamic/chart', () => {
  it('gives every sample when they are few', async () => {
    const res = await get(
      a.owner.token,
      '/api/v1/workdata/dynamic/chart',
      oneDay(a.inverter.sn, { params: ['power_w', 'gridFrequency'] }),
    );
    const data = res.body.data as { bucketSeconds: number; ts: string[]; series: Array<{ key: string; avg: number[] }> };
    expect(data.bucketSeconds).toBe(0);
    expect(data.ts).toHaveLength(288);
    expect(data.series[0]!.avg.slice(0, 3)).toEqual([0, 1, 2]);
    expect(data.series[1]!.avg[7]).toBeCloseTo(frequency(7), 6);
  });

  it('downsamples a long range to at most 2,000 buckets of whole minutes, with average, min and max', async () => {
    const res = await get(a.owner.token, '/api/v1/workdata/dynamic/chart', {
      sn: dense.sn,
      startDate: '2025-06-10',
      endDate: '2025-06-11',
      params: ['power_w', 'gridFrequency'],
    });
    expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
    const data = res.body.data as {
      bucketSeconds: number;
      ts: string[];
      series: Array<{ key: string; avg: number[]; min: number[]; max: number[] }>;
    };
    // Two days = 2,880 minutes → 2-minute buckets → 1,440 points.
    expect(data.bucketSeconds).toBe(120);
    expect(data.ts).toHaveLength(1440);
    expect(data.ts[5]).toBe(new Date(DAY_START + 10 * 60_000).toISOString());
    const [power, freq] = data.series;
    // Bucket k holds samples 2k and 2k+1.
    expect(power!.avg[5]).toBe(10.5);
    expect(power!.min[5]).toBe(10);
    expect(power!.max[5]).toBe(11);
    expect(freq!.avg[5]).toBeCloseTo((frequency(10) + frequency(11)) / 2, 6);
    expect(freq!.max[9]).toBeCloseTo(Math.max(frequency(18), frequency(19)), 6);
  });

  it('refuses text parameters and more than 6', async () => {
    expect(
      (await get(a.owner.token, '/api/v1/workdata/dynamic/chart', oneDay(a.inverter.sn, { params: ['serialNumber'] }))).body.code,
    ).toBe(4);
    const seven = ['power_w', 'pv_power_w', 'grid_power_w', 'load_power_w', 'battery_power_w', 'soc', 'temperature_c'];
    expect((await get(a.owner.token, '/api/v1/workdata/dynamic/chart', oneDay(a.inverter.sn, { params: seven }))).body.code).toBe(
      4,
    );
    expect((await get(a.owner.token, '/api/v1/workdata/dynamic/chart', oneDay(a.inverter.sn))).body.code).toBe(
      ErrorCode.validation,
    );
  });
});

describe('workdata/event and workdata/battery/event', () => {
  it('lists the device’s events in the range with the reading at each start', async () => {
    const at50 = DAY_START + 50 * FIVE_MIN + 30_000;
    const e1 = await addEvent(s, {
      plantId: a.plantId,
      sn: a.inverter.sn,
      deviceId: a.inverter.id,
      code: 'overTemperature',
      startedAt: at50,
      endedAt: at50 + 1000,
    });
    // Before the first sample of the range's data: no reading within the hour before it.
    const early = Date.UTC(2025, 5, 8, 12, 0, 0);
    await addEvent(s, {
      plantId: a.plantId,
      sn: a.inverter.sn,
      deviceId: a.inverter.id,
      code: 'fanWarning',
      level: 'warning',
      startedAt: early,
      endedAt: early + 1,
    });
    const res = await get(
      a.owner.token,
      '/api/v1/workdata/event',
      oneDay(a.inverter.sn, { params: ['power_w', 'runningState'] }),
    );
    expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
    const data = res.body.data as {
      total: number;
      list: Array<{ event: { id: number; code: string }; sample: { ts: string; values: number[] } | null }>;
    };
    expect(data.total).toBe(1);
    expect(data.list[0]!.event).toMatchObject({ id: e1, code: 'overTemperature' });
    expect(data.list[0]!.sample).toEqual({ ts: new Date(DAY_START + 50 * FIVE_MIN).toISOString(), values: [50, state(50)] });
    const wide = await get(a.owner.token, '/api/v1/workdata/event', {
      sn: a.inverter.sn,
      startDate: '2025-06-08',
      endDate: '2025-06-10',
      level: 'warning',
    });
    const warn = (wide.body.data as typeof data).list;
    expect(warn.map((x) => [x.event.code, x.sample])).toEqual([['fanWarning', null]]);
  });

  it('workdata/battery/event takes batteries only', async () => {
    await addEvent(s, {
      plantId: a.plantId,
      sn: a.battery.sn,
      deviceId: a.battery.id,
      code: 'pack2.cellImbalance',
      level: 'warning',
      startedAt: DAY_START + 1000,
    });
    const res = await get(a.owner.token, '/api/v1/workdata/battery/event', oneDay(a.battery.sn, { params: ['soc'] }));
    expect(res.body.code).toBe(ErrorCode.ok);
    const data = res.body.data as { list: Array<{ event: { pack: number; code: string }; sample: unknown }> };
    expect(data.list.map((x) => [x.event.code, x.event.pack, x.sample])).toEqual([['pack2.cellImbalance', 2, null]]);
    expect((await get(a.owner.token, '/api/v1/workdata/battery/event', oneDay(a.inverter.sn))).body).toMatchObject(
      badInput('sn'),
    );
  });
});

describe('workdata/dynamic/download', () => {
  it('streams the samples as .xlsx: local times, one column per parameter, enum labels', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: url(
        '/api/v1/workdata/dynamic/download',
        oneDay(a.inverter.sn, { params: ['power_w', 'gridFrequency', 'runningState'] }),
      ),
      headers: { authorization: `Bearer ${a.owner.token}` },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-disposition']).toContain(`workdata-${a.inverter.sn}-2025-06-10-2025-06-10.xlsx`);
    const wb = new ExcelJS.Workbook();
    await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
    const ws = wb.worksheets[0]!;
    expect(ws.name).toBe('Operation data');
    const rows: unknown[][] = [];
    ws.eachRow((r) => rows.push((r.values as unknown[]).slice(1)));
    expect(rows[0]).toEqual(['Time (Europe/Madrid)', 'Output power (W)', 'Grid frequency (Hz)', 'Running state']);
    expect(rows).toHaveLength(289);
    const labels = ['Standby', 'Self-check', 'Normal', 'Alarm', 'Fault'];
    expect(rows[1]).toEqual(['2025-06-10 00:00:00', 0, frequency(0), labels[0]]);
    expect(rows[288]![0]).toBe('2025-06-10 23:55:00');
    expect(rows[288]![1]).toBe(287);
    expect(rows[288]![2] as number).toBeCloseTo(frequency(287), 6);
    expect(rows[288]![3]).toBe(labels[state(287)]);
  });

  it("writes temperatures as number cells in the caller's unit, named in the header", async () => {
    const device = await addDevice(s, a.gatewayId, a.plantId, 'inverter', HYBRID);
    await addInverterSample(s, device.id, DAY_START + FIVE_MIN, { power_w: 1234.5, temperature_c: 23.1 });
    const download = async () => {
      const res = await s.app.inject({
        method: 'GET',
        url: url('/api/v1/workdata/dynamic/download', oneDay(device.sn, { params: ['power_w', 'temperature_c'], lan: 'es' })),
        headers: { authorization: `Bearer ${a.owner.token}` },
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      return [ws.getRow(1), ws.getRow(2)].map((r) => (r.values as unknown[]).slice(1));
    };
    const celsius = await download();
    expect(celsius).toEqual([
      ['Hora (Europe/Madrid)', 'Potencia de salida (W)', 'Temperatura del inversor (°C)'],
      ['2025-06-10 00:05:00', 1234.5, 23.1],
    ]);
    await s.db.updateTable('users').set({ temperature_unit: 'F' }).where('id', '=', a.owner.id).execute();
    try {
      // Number cells, not text with a decimal point: the spreadsheet shows them in its own language.
      expect(await download()).toEqual([
        ['Hora (Europe/Madrid)', 'Potencia de salida (W)', 'Temperatura del inversor (°F)'],
        ['2025-06-10 00:05:00', 1234.5, 73.58],
      ]);
    } finally {
      await s.db.updateTable('users').set({ temperature_unit: 'C' }).where('id', '=', a.owner.id).execute();
    }
  });

  it('answers errors as an envelope before any file byte', async () => {
    const res = await s.app.inject({
      method: 'GET',
      url: url('/api/v1/workdata/dynamic/download', { sn: a.inverter.sn, startDate: '2025-01-01', endDate: '2025-06-10' }),
      headers: { authorization: `Bearer ${a.owner.token}` },
    });
    expect(res.json()).toMatchObject({ code: ErrorCode.validation, data: null });
  });
});

describe('signed power in the one convention (grid + import / − export, battery + discharge / − charge)', () => {
  let hybrid: { id: number; sn: string };
  // A hybrid's registers every minute over two local days: the grid register is + export, so
  // +500 is 500 W exported (−500 in the convention) and −300 is 300 W imported (+300); the battery
  // register is + discharge already (800 W discharge, 200 W charge).
  const gridRegister = (k: number) => (k % 2 === 0 ? 500 : -300);
  const batteryRegister = (k: number) => (k % 2 === 0 ? 800 : -200);
  const signed = ['grid_power_w', 'gridActivePower', 'battery_power_w', 'batteryPower'];

  beforeAll(async () => {
    hybrid = await addDevice(s, a.gatewayId, a.plantId, 'inverter', HYBRID);
    const rows: InverterSamplesTable[] = [];
    for (let k = 0; k < 2880; k++) {
      const values = {
        deviceType: 93,
        serialNumber: hybrid.sn,
        activePower: 1000,
        gridActivePower: gridRegister(k),
        batteryPower: batteryRegister(k),
      };
      // The columns exactly as ingest stores this upload.
      const { columns, sample } = storedSample('inverter', values);
      const stored = Object.fromEntries(columns.map((c, i) => [c, sample[i] ?? null]));
      rows.push({
        ...stored,
        device_id: hybrid.id,
        ts: DAY_START + k * 60_000,
        raw: rawBlocks(HYBRID, values),
      } as InverterSamplesTable);
    }
    expect(rows[0]).toMatchObject({ grid_power_w: 500, battery_power_w: 800 });
    for (let k = 0; k < rows.length; k += 200) {
      await s.db
        .insertInto('inverter_samples')
        .values(rows.slice(k, k + 200))
        .execute();
    }
  }, 60_000);

  it('params say which are signed power and name them without a direction', async () => {
    const res = await get(a.owner.token, '/api/v1/workdata/params', { sn: hybrid.sn });
    const params = new Map((res.body.data as { params: Param[] }).params.map((p) => [p.key, p]));
    expect(signed.map((k) => [k, params.get(k)?.name, params.get(k)?.flow])).toEqual([
      ['grid_power_w', 'Grid power', 'grid'],
      ['gridActivePower', 'Grid active power', 'grid'],
      ['battery_power_w', 'Battery power', 'battery'],
      ['batteryPower', 'Battery power', 'battery'],
    ]);
    expect(params.get('power_w')?.flow).toBeNull();
    expect(params.get('gridFrequency')?.flow).toBeNull();
    const battery = await get(a.owner.token, '/api/v1/workdata/params', { sn: a.battery.sn, lan: 'es' });
    const batteryPower = (battery.body.data as { params: Param[] }).params.find((p) => p.key === 'power_w');
    expect(batteryPower).toMatchObject({ name: 'Potencia', flow: 'battery' });
  });

  it('samples: a +500 W export register reads −500, stored and decoded alike', async () => {
    const res = await get(a.owner.token, '/api/v1/workdata/dynamic', oneDay(hybrid.sn, { params: signed, size: 2 }));
    expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
    expect((res.body.data as Page).list.map((r) => r.values)).toEqual([
      [-500, -500, 800, 800],
      [300, 300, -200, -200],
    ]);
  });

  it('the events’ readings are in the convention too', async () => {
    const at = DAY_START + 10 * 60_000 + 5000;
    await addEvent(s, { plantId: a.plantId, sn: hybrid.sn, deviceId: hybrid.id, code: 'gridLost', startedAt: at });
    const res = await get(
      a.owner.token,
      '/api/v1/workdata/event',
      oneDay(hybrid.sn, { params: ['grid_power_w', 'gridActivePower'] }),
    );
    const list = (res.body.data as { list: Array<{ sample: { values: number[] } | null }> }).list;
    expect(list.map((x) => x.sample?.values)).toEqual([[-500, -500]]);
  });

  it('bucketed chart: average, min and max in the convention, min and max the right way round', async () => {
    const chart = async (params: string[]) => {
      const res = await get(a.owner.token, '/api/v1/workdata/dynamic/chart', {
        sn: hybrid.sn,
        startDate: '2025-06-10',
        endDate: '2025-06-11',
        params,
      });
      expect(res.body.code, JSON.stringify(res.body)).toBe(ErrorCode.ok);
      const data = res.body.data as {
        bucketSeconds: number;
        series: Array<{ key: string; avg: number[]; min: number[]; max: number[] }>;
      };
      expect(data.bucketSeconds).toBe(120);
      return data.series.map((x) => [x.key, x.avg[7], x.min[7], x.max[7]]);
    };
    // Each 2-minute bucket holds one reading of each: grid −500 and +300, battery +800 and −200.
    const grid = [-100, -500, 300];
    const battery = [300, -200, 800];
    // Stored columns only: the store aggregates.
    expect(await chart(['grid_power_w', 'battery_power_w'])).toEqual([
      ['grid_power_w', ...grid],
      ['battery_power_w', ...battery],
    ]);
    // A decoded parameter: every sample is read and folded.
    expect(await chart(['gridActivePower', 'grid_power_w', 'batteryPower'])).toEqual([
      ['gridActivePower', ...grid],
      ['grid_power_w', ...grid],
      ['batteryPower', ...battery],
    ]);
  });

  it('download: values in the convention, the columns name it (en and es)', async () => {
    const download = async (lan: string) => {
      const res = await s.app.inject({
        method: 'GET',
        url: url('/api/v1/workdata/dynamic/download', oneDay(hybrid.sn, { params: [...signed, 'power_w'], lan })),
        headers: { authorization: `Bearer ${a.owner.token}` },
      });
      const wb = new ExcelJS.Workbook();
      await wb.xlsx.load(res.rawPayload as unknown as ArrayBuffer);
      const ws = wb.worksheets[0]!;
      return [1, 2, 3].map((i) => (ws.getRow(i).values as unknown[]).slice(1));
    };
    expect(await download('en')).toEqual([
      [
        'Time (Europe/Madrid)',
        'Grid power (W, + import / − export)',
        'Grid active power (W, + import / − export)',
        'Battery power (W, + discharge / − charge)',
        'Battery power (W, + discharge / − charge)',
        'Output power (W)',
      ],
      ['2025-06-10 00:00:00', -500, -500, 800, 800, 1000],
      ['2025-06-10 00:01:00', 300, 300, -200, -200, 1000],
    ]);
    expect((await download('es'))[0]).toEqual([
      'Hora (Europe/Madrid)',
      'Potencia de red (W, + importación / − exportación)',
      'Potencia activa de red (W, + importación / − exportación)',
      'Potencia de batería (W, + descarga / − carga)',
      'Potencia de batería (W, + descarga / − carga)',
      'Potencia de salida (W)',
    ]);
  });
});

describe('access', () => {
  it('answers 404 with no data for a device of someone else, on every workdata call', async () => {
    const calls: Array<[string, Record<string, string | string[]>]> = [
      ['/api/v1/workdata/params', { sn: b.inverter.sn }],
      ['/api/v1/workdata/dynamic', oneDay(b.inverter.sn) as Record<string, string>],
      ['/api/v1/workdata/dynamic/chart', oneDay(b.inverter.sn, { params: ['power_w'] }) as Record<string, string | string[]>],
      ['/api/v1/workdata/event', oneDay(b.inverter.sn) as Record<string, string>],
      ['/api/v1/workdata/battery/event', oneDay(b.battery.sn) as Record<string, string>],
      ['/api/v1/workdata/dynamic/download', oneDay(b.inverter.sn) as Record<string, string>],
    ];
    for (const [path, query] of calls) {
      const res = await s.app.inject({
        method: 'GET',
        url: url(path, query),
        headers: { authorization: `Bearer ${a.owner.token}` },
      });
      expect(res.json(), path).toMatchObject({ code: ErrorCode.notFound, data: null });
    }
  });

  it('needs workdata.view, and workdata.export to download', async () => {
    const companyId = await company(s, undefined, ['workdata.view']);
    const viewer = await account(s, { kind: 'company_admin', companyId });
    await s.db.updateTable('users').set({ agent_company_id: companyId }).where('id', '=', a.owner.id).execute();
    expect((await get(viewer.token, '/api/v1/workdata/dynamic', oneDay(a.inverter.sn, { size: 1 }))).body.code).toBe(
      ErrorCode.ok,
    );
    expect((await get(viewer.token, '/api/v1/workdata/dynamic/download', oneDay(a.inverter.sn))).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
    const none = await account(s, { kind: 'company_admin', companyId: await company(s, undefined, ['station.view']) });
    expect((await get(none.token, '/api/v1/workdata/params', { sn: a.inverter.sn })).body).toMatchObject({
      code: ErrorCode.noPermission,
      data: null,
    });
  });
});
