/**
 * Battery and meter pages on data that came through ingest: a battery system's information,
 * realtime with every pack (the heat map's rows), slave packs and day curves; a meter's
 * realtime per phase, day curve and import/export bars; foreign and unknown ones answer 404.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput } from '../../../test/envelopes.ts';
import { dataAs, dayIn, getAs, type World, world } from '../../../test/kits/devices.ts';

let w: World;
let batteryId: number;
let meterId: number;
beforeAll(async () => {
  w = await world();
  const ids = await w.s.db.selectFrom('devices').select(['id', 'sn']).where('sn', 'in', [w.sn.BAT, w.sn.MET]).execute();
  batteryId = ids.find((r) => r.sn === w.sn.BAT)!.id;
  meterId = ids.find((r) => r.sn === w.sn.MET)!.id;
}, 60_000);
afterAll(() => w.close());

const ok = (url: string, who = w.O) => dataAs(w, who, url);
type Chart = { times: string[]; series: Array<{ key: string; values: (number | null)[] }>; energy?: Record<string, unknown> };
const times = () => [new Date(w.now - 5 * 60_000).toISOString(), new Date(w.now).toISOString()];

const pack = (over: Record<string, unknown>) => ({
  sn: null,
  soc: 0,
  soh: 0,
  voltage: 0,
  current: 0,
  cellVoltageMin: 0,
  cellVoltageMax: 0,
  cellTemperatureMin: 0,
  cellTemperatureMax: 0,
  cycleCount: 0,
  faults: [],
  ...over,
});

describe('battery', () => {
  it('info: identity, packs, cells per pack, capacity', async () => {
    const d = await ok(`/api/v1/battery/${w.sn.BAT}/info`);
    expect(d).toMatchObject({
      id: batteryId,
      sn: w.sn.BAT,
      status: 'warning',
      plant: { id: w.plantA },
      gateway: { sn: w.GA.sn },
      protocol: { id: 'sunfleet-battery' },
      packs: 3,
      cellsPerPack: 16,
      fullCapacity: 200,
      canDelete: true,
    });
    expect((d.info as Array<{ key: string; value: unknown }>).find((f) => f.key === 'serialNumber')?.value).toBe(w.sn.BAT);
    expect(await ok(`/api/v1/battery/${w.sn.BAT}/info`, w.visitor)).toMatchObject({ canDelete: false });
  });

  it('realtime: the system and every pack, master first, with each pack’s own faults', async () => {
    const d = await ok(`/api/v1/battery/${w.sn.BAT}/realtime?lan=es`);
    expect(d).toMatchObject({
      at: new Date(w.now).toISOString(),
      soc: 77,
      soh: 97,
      voltage: 51.5,
      current: -12.5,
      power: -640,
      state: 'Cargando',
      remainingCapacity: 154,
      fullCapacity: 200,
      temperatureMax: 31.5,
      cells: [],
      faults: [],
    });
    expect(d.packs).toEqual([
      pack({
        index: 1,
        master: true,
        soc: 78,
        cellVoltageMin: 3.201,
        cellVoltageMax: 3.25,
        cellTemperatureMin: 21,
        cellTemperatureMax: 26,
      }),
      pack({
        index: 2,
        master: false,
        sn: 'PACK2SN',
        soc: 76,
        cellVoltageMin: 3.19,
        cellVoltageMax: 3.26,
        cellTemperatureMin: 22,
        cellTemperatureMax: 31.5,
        cycleCount: 120,
        faults: [{ code: 'pack2.cellImbalance', level: 'warning', text: 'Desequilibrio de celdas' }],
      }),
      pack({ index: 3, master: false, soc: 75, cellTemperatureMax: 28 }),
    ]);
  });

  it('slave: the packs behind the master', async () => {
    const slaves = (await getAs(w, w.O, `/api/v1/batteries/${batteryId}/slave`)).data as Array<{
      index: number;
      sn: string | null;
    }>;
    expect(slaves.map((p) => [p.index, p.sn])).toEqual([
      [2, 'PACK2SN'],
      [3, null],
    ]);
  });

  it('day: the stored curves of the day', async () => {
    const day = (await ok(`/api/v1/battery/${w.sn.BAT}/day`)) as unknown as Chart;
    expect(day.times).toEqual(times());
    const by = Object.fromEntries(day.series.map((s) => [s.key, s.values]));
    expect(by).toEqual({
      power: [-640, -640],
      soc: [77, 77],
      soh: [97, 97],
      voltage: [51.5, 51.5],
      current: [-12.5, -12.5],
      cellTemperatureMax: [31.5, 31.5],
    });
  });

  it('answers 404 with no data for another tenant’s battery, an unknown one and an inverter', async () => {
    for (const url of [
      `/api/v1/battery/${w.sn.BAT}/info`,
      `/api/v1/battery/${w.sn.BAT}/realtime`,
      `/api/v1/battery/${w.sn.BAT}/day`,
      `/api/v1/batteries/${batteryId}/slave`,
    ]) {
      expect(await getAs(w, w.P, url), url).toMatchObject({ code: ErrorCode.notFound, data: null });
    }
    expect(await getAs(w, w.O, `/api/v1/battery/${w.sn.INV1}/info`)).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await getAs(w, w.O, '/api/v1/batteries/999999/slave')).toMatchObject({ code: ErrorCode.notFound, data: null });
  });
});

describe('meter', () => {
  it('realtime: per phase, frequency, import and export today and in total', async () => {
    const d = await ok(`/api/v1/meter/${w.sn.MET}/realtime`);
    expect(d).toMatchObject({
      id: meterId,
      sn: w.sn.MET,
      protocol: { id: 'sunfleet-meter-3p' },
      master: false,
      power: -500,
      importToday: 250,
      exportToday: 500,
      importTotal: 300_250,
      exportTotal: 400_500,
      canEdit: true,
      canDelete: true,
      faults: [],
    });
    expect(d.frequency as number).toBeCloseTo(50.02, 4);
    expect(d.phases).toEqual([
      { phase: 'L1', voltage: 230.5, current: 10, power: -100 },
      { phase: 'L2', voltage: 231, current: 11, power: -200 },
      { phase: 'L3', voltage: 229.5, current: 12, power: -200 },
    ]);
  });

  it('day curve with the day’s import and export; bars from the rollups', async () => {
    const day = (await ok(`/api/v1/meter/${w.sn.MET}/day`)) as unknown as Chart;
    expect(day.times).toEqual(times());
    expect(day.series.map((s) => [s.key, s.values])).toEqual([
      ['activePower', [-500, -500]],
      ['activePowerL1', [-100, -100]],
      ['activePowerL2', [-200, -200]],
      ['activePowerL3', [-200, -200]],
    ]);
    expect(day.energy).toMatchObject({ gridImport: 250, gridExport: 500 });
    const today = dayIn(w.zone, w.now);
    const month = await ok(`/api/v1/meter/${w.sn.MET}/month`);
    expect(month.bars).toEqual([expect.objectContaining({ label: today, gridImport: 250, gridExport: 500 })]);
    expect((await ok(`/api/v1/meter/${w.sn.MET}/year`)).bars).toEqual([
      expect.objectContaining({ label: today.slice(0, 7), gridImport: 250 }),
    ]);
    expect((await ok(`/api/v1/meter/${w.sn.MET}/total`)).totals).toMatchObject({ gridImport: 250, gridExport: 500 });
  });

  it('flags the plant’s master meter in the list and the realtime', async () => {
    await w.s.db.updateTable('plants').set({ master_meter_id: meterId }).where('id', '=', w.plantA).execute();
    expect(await ok(`/api/v1/meter/${w.sn.MET}/realtime`)).toMatchObject({ master: true });
    const list = (await ok('/api/v1/meters')) as unknown as { list: Array<{ master: boolean }> };
    expect(list.list[0]!.master).toBe(true);
  });

  it('answers 404 with no data for another tenant’s meter and an unknown one', async () => {
    for (const p of ['realtime', 'day', 'month', 'year', 'total']) {
      expect(await getAs(w, w.P, `/api/v1/meter/${w.sn.MET}/${p}`), p).toMatchObject({ code: ErrorCode.notFound, data: null });
    }
    expect(await getAs(w, w.O, '/api/v1/meter/NOSUCH/realtime')).toMatchObject({ code: ErrorCode.notFound, data: null });
    expect(await getAs(w, w.O, `/api/v1/meter/${w.sn.MET}/day?date=2024-13-01`)).toMatchObject(badInput('date'));
  });
});
