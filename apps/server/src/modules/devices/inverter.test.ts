/**
 * An inverter's detail page on data that came through ingest: information, realtime input and
 * output, PV operating points, day curves (stored columns and values decoded from the stored
 * registers), energy and generation bars, a micro-inverter's panels, the grid/meter/battery/
 * load groups, the parameter picker and profiles; foreign and unknown SNs answer 600.
 */

import { ErrorCode } from '@sunfleet/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { badInput, someBadInput } from '../../../test/envelopes.ts';
import {
  CHART_DAY,
  CHART_STEPS,
  dataAs,
  dayIn,
  getAs,
  hybridAt,
  instantAt,
  postAs,
  type World,
  world,
} from '../../../test/kits/devices.ts';
import { account } from '../../../test/kits/plants.ts';

let w: World;
beforeAll(async () => {
  w = await world();
}, 60_000);
afterAll(() => w.close());

const ok = (url: string, who = w.O) => dataAs(w, who, url);
type Series = { key: string; name: string; unit: string | null; flow?: string | null; values: (number | null)[] };
type Chart = { date: string; timezone: string; times: string[]; series: Series[]; energy?: Record<string, number | null> };
const series = (chart: Chart, key: string) => chart.series.find((s) => s.key === key)!.values;
const steps = Array.from({ length: CHART_STEPS }, (_, i) => i);
const chartTimes = () =>
  steps.map((i) => {
    const m = i * 5;
    return new Date(
      instantAt(w.zone, CHART_DAY, `${String(10 + Math.floor(m / 60)).padStart(2, '0')}:${String(m % 60).padStart(2, '0')}`),
    ).toISOString();
  });

describe('information and realtime', () => {
  it('inverter/:sn gives identity, type, power, energy and the chart groups', async () => {
    const d = await ok(`/api/v1/inverter/${w.sn.INV1}`);
    expect(d).toMatchObject({
      sn: w.sn.INV1,
      status: 'normal',
      plant: { id: w.plantA, timezone: w.zone },
      gateway: { id: w.GA.id, sn: w.GA.sn },
      protocol: { id: 'sunfleet-hybrid-3p', name: 'Sunfleet three-phase hybrid inverter' },
      deviceType: 93,
      typeKey: 'threePhaseLowVoltage',
      ratedPower: 10_000,
      mpptCount: 4,
      phaseCount: 3,
      power: 3400,
      todayEnergy: 2500,
      totalEnergy: 1_002_500,
      temperature: 40,
      runningState: 'Normal',
      faults: [],
      groups: { grid: true, meter: true, battery: true, eps: false, load: true },
      canEdit: true,
      canDelete: true,
      canPower: true,
      lastUpdate: new Date(w.now).toISOString(),
    });
    const info = d.info as Array<{ key: string; value: unknown; text: string | null }>;
    expect(info.find((f) => f.key === 'serialNumber')?.value).toBe(w.sn.INV1);
    expect(info.find((f) => f.key === 'deviceType')).toMatchObject({ value: 93, text: 'Three-phase low-voltage' });
    expect(await ok(`/api/v1/inverter/${w.sn.INV1}`, w.visitor)).toMatchObject({
      canEdit: false,
      canDelete: false,
      canPower: false,
    });
  });

  it('lists the faults in the request language', async () => {
    const d = await ok(`/api/v1/inverter/${w.sn.INV2}?lan=es`);
    expect(d).toMatchObject({
      status: 'fault',
      typeKey: 'threePhaseHighVoltage',
      faults: [{ code: 'pvOvervoltage', level: 'fault', text: 'Sobretensión de entrada FV' }],
      groups: { grid: false, meter: false, battery: false, eps: false, load: false },
    });
  });

  it('input/realtime gives each MPPT input; output/realtime each phase', async () => {
    const input = await ok(`/api/v1/inverter/${w.sn.INV1}/input/realtime`);
    expect(input.totalPower).toBe(3500);
    expect((input.inputs as unknown[]).slice(0, 2)).toEqual([
      { index: 1, name: 'PV1', kind: 'mppt', voltage: 300, current: 5, power: 2000 },
      { index: 2, name: 'PV2', kind: 'mppt', voltage: 280, current: 4, power: 1500 },
    ]);
    expect(input.inputs).toHaveLength(4);
    const output = await ok(`/api/v1/inverter/${w.sn.INV1}/output/realtime`);
    expect(output).toMatchObject({ frequency: 50, activePower: 3400, at: new Date(w.now).toISOString() });
    expect(output.phases).toEqual([
      { phase: 'L1', voltage: 230, current: 4.5, power: null },
      { phase: 'L2', voltage: 231, current: 0, power: null },
      { phase: 'L3', voltage: 232, current: 0, power: null },
    ]);
    // A micro-inverter's single output phase carries its power.
    const micro = await ok(`/api/v1/inverter/${w.sn.MIC}/output/realtime`);
    expect(micro.phases).toEqual([{ phase: 'L1', voltage: 230, current: 1, power: 250 }]);
  });

  it('pvIVRealtime gives the operating points of the last hour, decoded from the stored registers', async () => {
    const d = await ok(`/api/v1/inverter/${w.sn.INV1}/pvIVRealtime`);
    const inputs = d.inputs as Array<{ name: string; points: Array<{ voltage: number; current: number; time: string }> }>;
    expect(inputs[0]!.points).toEqual([
      { time: new Date(w.now - 5 * 60_000).toISOString(), voltage: 300, current: 5 },
      { time: new Date(w.now).toISOString(), voltage: 300, current: 5 },
    ]);
    expect(inputs[1]!.points.map((p) => [p.voltage, p.current])).toEqual([
      [280, 4],
      [280, 4],
    ]);
  });
});

describe('day curves', () => {
  it('input/day and output/day are the curves of the inputs and phases', async () => {
    const input = (await ok(`/api/v1/inverter/${w.sn.INV1}/input/day?date=${CHART_DAY}`)) as unknown as Chart;
    expect(input).toMatchObject({ date: CHART_DAY, timezone: w.zone });
    expect(input.times).toEqual(chartTimes());
    expect(series(input, 'pv1Voltage')).toEqual(steps.map((i) => 300 + i));
    series(input, 'pv1Current').forEach((v, i) => {
      expect(v).toBeCloseTo(5 + i / 10, 6);
    });
    expect(series(input, 'pv2Power')).toEqual(steps.map(() => 1120));
    expect(input.series.map((s) => s.key)).toHaveLength(12);
    const output = (await ok(`/api/v1/inverter/${w.sn.INV1}/output/day?date=${CHART_DAY}`)) as unknown as Chart;
    series(output, 'gridVoltageL1').forEach((v, i) => {
      expect(v).toBeCloseTo(230 + i / 10, 6);
    });
    expect(series(output, 'gridFrequency')).toEqual(steps.map(() => 50));
    expect(series(output, 'activePower')).toEqual(steps.map((i) => 2000 + 10 * i));
  });

  it('day shows the stored curves by default, with the day’s energy', async () => {
    const day = (await ok(`/api/v1/inverter/${w.sn.INV1}/day?date=${CHART_DAY}`)) as unknown as Chart;
    expect(day.series.map((s) => s.key)).toEqual([
      'activePower',
      'pvPower',
      'gridActivePower',
      'loadPower',
      'batteryPower',
      'batterySoc',
    ]);
    expect(series(day, 'pvPower')).toEqual(steps.map((i) => 1500 + 10 * i + 1120));
    expect(series(day, 'batterySoc')).toEqual(steps.map((i) => 50 + i));
    expect(series(day, 'batteryPower')).toEqual(steps.map(() => -1000));
    // pvEnergyTotal 500.0 → 501.2 kWh; the peak is the highest output.
    expect(day.energy).toMatchObject({ pv: 1200, peakPower: 2000 + 10 * (CHART_STEPS - 1) });
  });

  it('day gives signed power in the one convention (grid + import, battery + discharge), named without the register’s sign note', async () => {
    // Today's frames: the register reads grid +500 (this hybrid counts export as +) and battery −1500 (charging).
    const url = (lan: string) =>
      `/api/v1/inverter/${w.sn.INV1}/day?lan=${lan}&params=gridActivePower&params=batteryPower&params=activePower`;
    const day = (await ok(url('en'))) as unknown as Chart;
    expect(day.series.map((s) => [s.key, s.name, s.flow])).toEqual([
      ['gridActivePower', 'Grid active power', 'grid'],
      ['batteryPower', 'Battery power', 'battery'],
      ['activePower', 'Inverter active power', null],
    ]);
    expect(new Set(series(day, 'gridActivePower'))).toEqual(new Set([-500]));
    expect(new Set(series(day, 'batteryPower'))).toEqual(new Set([-1500]));
    const es = (await ok(url('es'))) as unknown as Chart;
    expect(es.series[0]?.name).toBe('Potencia activa de red');
    // The parameter picker names it the same way.
    const params = await ok(`/api/v1/inverter/params?sn=${w.sn.INV1}`);
    const list = params.params as Array<{ key: string; name: string }>;
    expect(list.find((p) => p.key === 'gridActivePower')?.name).toBe('Grid active power');
  });

  it('day charts chosen parameters, stored or decoded, in the order asked', async () => {
    const url = `/api/v1/inverter/${w.sn.INV1}/day?date=${CHART_DAY}&params=pv1Voltage&params=activePower&params=gridVoltageL3&params=pvEnergyTotal`;
    const day = (await ok(url)) as unknown as Chart;
    expect(day.series.map((s) => [s.key, s.unit])).toEqual([
      ['pv1Voltage', 'V'],
      ['activePower', 'W'],
      ['gridVoltageL3', 'V'],
      ['pvEnergyTotal', 'kWh'],
    ]);
    expect(series(day, 'pv1Voltage')).toEqual(steps.map((i) => 300 + i));
    expect(series(day, 'gridVoltageL3')).toEqual(steps.map(() => 232));
    series(day, 'pvEnergyTotal').forEach((v, i) => {
      expect(v).toBeCloseTo(500 + i / 10, 6);
    });
    const one = (await ok(`/api/v1/inverter/${w.sn.INV1}/day?date=${CHART_DAY}&params=pv2Voltage`)) as unknown as Chart;
    expect(one.series).toHaveLength(1);
  });

  it('a sample that arrives after a day was charted shows in the next chart of that day', async () => {
    const day = '2025-05-20';
    const at = (hhmm: string) => instantAt(w.zone, day, hhmm);
    const frame = (i: number) => ({
      sn: w.sn.INV1,
      protocol: 'sunfleet-hybrid-3p',
      values: { ...hybridAt(i), pvEnergyTotal: 700 },
    });
    await w.send(w.GA.sn, at('09:00'), [frame(0)]);
    await w.send(w.GA.sn, at('09:10'), [frame(2)]);
    const url = `/api/v1/inverter/${w.sn.INV1}/day?date=${day}&params=pv1Voltage&params=gridVoltageL1`;
    expect(series((await ok(url)) as unknown as Chart, 'pv1Voltage')).toEqual([300, 302]);
    await w.send(w.GA.sn, at('09:05'), [frame(1)]);
    const again = (await ok(url)) as unknown as Chart;
    expect(again.times).toEqual([at('09:00'), at('09:05'), at('09:10')].map((t) => new Date(t).toISOString()));
    expect(series(again, 'pv1Voltage')).toEqual([300, 301, 302]);
    // Another parameter of the same day, decoded on its own.
    const other = (await ok(`/api/v1/inverter/${w.sn.INV1}/day?date=${day}&params=pv1Current`)) as unknown as Chart;
    series(other, 'pv1Current').forEach((v, i) => {
      expect(v).toBeCloseTo(5 + i / 10, 6);
    });
  });

  it('refuses an unknown parameter, more than 6, and a date that is no date', async () => {
    const base = `/api/v1/inverter/${w.sn.INV1}/day`;
    expect(await getAs(w, w.O, `${base}?params=nonsense`)).toMatchObject(badInput('params'));
    expect(await getAs(w, w.O, `${base}?params=faultBits`)).toMatchObject(badInput('params'));
    const seven = ['activePower', 'pvPower', 'loadPower', 'batteryPower', 'batterySoc', 'pv1Voltage', 'pv2Voltage'];
    expect(await getAs(w, w.O, `${base}?${seven.map((p) => `params=${p}`).join('&')}`)).toMatchObject({
      code: ErrorCode.validation,
    });
    expect(await getAs(w, w.O, `${base}?date=2025-02-30`)).toMatchObject({ code: ErrorCode.validation });
    expect(await getAs(w, w.O, `${base}?date=yesterday`)).toMatchObject({ code: ErrorCode.validation });
  });

  it('a day without data has no points', async () => {
    const day = (await ok(`/api/v1/inverter/${w.sn.INV1}/day?date=2020-01-01`)) as unknown as Chart;
    expect(day.times).toEqual([]);
    expect(day.series.every((s) => s.values.length === 0)).toBe(true);
    expect(day.energy).toMatchObject({ pv: 0, peakPower: null });
  });
});

describe('energy and generation bars', () => {
  const today = () => dayIn(w.zone, w.now);

  it('month, year and total sum the day rollups', async () => {
    const month = await ok(`/api/v1/inverter/${w.sn.INV1}/month?date=${CHART_DAY}`);
    expect(month.bars).toEqual([expect.objectContaining({ label: CHART_DAY, pv: 1200 })]);
    expect(month.totals).toMatchObject({ pv: 1200 });
    const year = await ok(`/api/v1/inverter/${w.sn.INV1}/year?date=${CHART_DAY}`);
    const june = (year.bars as Array<{ label: string; pv: number }>).find((b) => b.label === '2025-06');
    expect(june?.pv).toBe(1200 + (today().startsWith('2025-06') ? 2500 : 0));
    const total = await ok(`/api/v1/inverter/${w.sn.INV1}/total`);
    expect(total.totals).toMatchObject({ pv: 3700, gridImport: 400, gridExport: 300, charge: 200, load: 1000 });
    const years = Object.fromEntries((total.bars as Array<{ label: string; pv: number }>).map((b) => [b.label, b.pv]));
    const thisYear = today().slice(0, 4);
    expect(years).toEqual(thisYear === '2025' ? { 2025: 3700 } : { 2025: 1200, [thisYear]: 2500 });
  });

  it('gen gives the hours of a day from the lifetime counter, and days of a month from the rollups', async () => {
    const gen = await ok(`/api/v1/inverter/${w.sn.INV1}/gen?period=day&date=${CHART_DAY}`);
    const bars = gen.bars as Array<{ label: string; energy: number }>;
    expect(bars).toHaveLength(24);
    expect(bars[10]).toEqual({ label: '10:00', energy: 1100 });
    expect(bars[11]).toEqual({ label: '11:00', energy: 100 });
    expect(bars.filter((b) => b.energy !== 0)).toHaveLength(2);
    expect(gen.energy).toBe(1200);
    const month = await ok(`/api/v1/inverter/${w.sn.INV1}/gen?period=month&date=${CHART_DAY}`);
    expect(month).toMatchObject({ bars: [{ label: CHART_DAY, energy: 1200 }], energy: 1200 });
  });

  it('genMi integrates each panel of a micro-inverter; other inverters answer 601', async () => {
    const d = await ok(`/api/v1/inverter/${w.sn.MIC}/genMi?date=${CHART_DAY}`);
    // pv1 = 100, 200, … 1300 W at 5-minute steps: the trapezoids add up to 700 Wh.
    expect(d.panels).toEqual([
      { index: 1, name: 'PV1', energy: 700, peakPower: 1300 },
      { index: 2, name: 'PV2', energy: 50, peakPower: 50 },
      { index: 3, name: 'PV3', energy: 0, peakPower: 0 },
      { index: 4, name: 'PV4', energy: 0, peakPower: 0 },
    ]);
    expect(await getAs(w, w.O, `/api/v1/inverter/${w.sn.INV1}/genMi?date=${CHART_DAY}`)).toMatchObject({
      code: ErrorCode.inverterUnsupported,
      data: null,
    });
  });
});

describe('grid, meter, battery, eps and load groups', () => {
  it('realtime normalises the signs and gives today’s and lifetime energy', async () => {
    const grid = await ok(`/api/v1/inverter/grid/${w.sn.INV1}/realtime`);
    expect(grid).toMatchObject({
      group: 'grid',
      power: -500,
      energy: [
        { key: 'import', today: 400, total: 300_400 },
        { key: 'export', today: 300, total: 400_300 },
      ],
    });
    expect((grid.phases as unknown[])[0]).toEqual({ phase: 'L1', voltage: 230, current: 4.5, power: null });
    expect((grid.fields as Array<{ key: string }>).map((f) => f.key)).toContain('gridFrequency');
    expect(await ok(`/api/v1/inverter/battery/${w.sn.INV1}/realtime`)).toMatchObject({
      power: -1500,
      soc: 60,
      energy: [
        { key: 'charge', today: 200, total: 200_200 },
        { key: 'discharge', today: 0, total: 150_000 },
      ],
    });
    expect(await ok(`/api/v1/inverter/load/${w.sn.INV1}/realtime`)).toMatchObject({
      power: 2900,
      energy: [{ key: 'consumption', today: 1000, total: 801_000 }],
    });
    expect(await ok(`/api/v1/inverter/meter/${w.sn.INV1}/realtime`)).toMatchObject({ power: -500 });
  });

  it('realtime field lists give signed power in the convention and name it, not the register’s note', async () => {
    type Field = { key: string; name: string; value: unknown };
    const field = async (group: string, key: string, lan = 'en') =>
      ((await ok(`/api/v1/inverter/${group}/${w.sn.INV1}/realtime?lan=${lan}`)).fields as Field[]).find((f) => f.key === key);
    // The hybrid's grid register reads +500 (export): the list says −500 under the convention's name.
    expect(await field('grid', 'gridActivePower')).toMatchObject({
      name: 'Grid active power (+ import / − export)',
      value: -500,
    });
    expect(await field('grid', 'gridActivePower', 'es')).toMatchObject({
      name: 'Potencia activa de red (+ importación / − exportación)',
      value: -500,
    });
    // The battery register is + discharge already: the value stays, the name says both directions.
    expect(await field('battery', 'batteryPower')).toMatchObject({
      name: 'Battery power (+ discharge / − charge)',
      value: -1500,
    });
    expect(await field('battery', 'batteryPower', 'es')).toMatchObject({
      name: 'Potencia de batería (+ descarga / − carga)',
      value: -1500,
    });
    // Other fields are as the protocol names them.
    expect(await field('grid', 'gridFrequency')).toMatchObject({ name: 'Grid frequency' });
  });

  it('day and bars of a group', async () => {
    const day = (await ok(`/api/v1/inverter/grid/${w.sn.INV1}/day?date=${CHART_DAY}`)) as unknown as Chart;
    expect(day.series.map((s) => s.key)).toEqual([
      'gridActivePower',
      'gridVoltageL1',
      'gridVoltageL2',
      'gridVoltageL3',
      'gridFrequency',
    ]);
    series(day, 'gridVoltageL1').forEach((v, i) => {
      expect(v).toBeCloseTo(230 + i / 10, 6);
    });
    const battery = (await ok(`/api/v1/inverter/battery/${w.sn.INV1}/day?date=${CHART_DAY}`)) as unknown as Chart;
    expect(series(battery, 'batteryVoltage')).toEqual(steps.map(() => 51.2));
    const month = await ok(`/api/v1/inverter/battery/${w.sn.INV1}/month`);
    expect(month.bars).toEqual([expect.objectContaining({ label: dayIn(w.zone, w.now), charge: 200, discharge: 0 })]);
    expect((await ok(`/api/v1/inverter/load/${w.sn.INV1}/total`)).totals).toMatchObject({ load: 1000 });
  });

  it('a group the protocol lacks answers 601; an unknown group 4', async () => {
    for (const url of [
      `/api/v1/inverter/eps/${w.sn.INV1}/realtime`,
      `/api/v1/inverter/grid/${w.sn.INV2}/realtime`,
      `/api/v1/inverter/battery/${w.sn.INV2}/day`,
      `/api/v1/inverter/load/${w.sn.MIC}/year`,
    ]) {
      expect(await getAs(w, w.O, url), url).toMatchObject({ code: ErrorCode.inverterUnsupported, data: null });
    }
    expect(await getAs(w, w.O, `/api/v1/inverter/solar/${w.sn.INV1}/realtime`)).toMatchObject(badInput('kind'));
  });
});

describe('parameter picker and profiles', () => {
  it('lists the chartable parameters of the protocol, stored ones first', async () => {
    const d = await ok(`/api/v1/inverter/params?sn=${w.sn.INV1}`);
    expect(d).toMatchObject({ protocol: 'sunfleet-hybrid-3p', maxSelected: 6, maxProfiles: 6 });
    const params = d.params as Array<{ key: string; stored: boolean; unit: string | null }>;
    expect(params.slice(0, 2)).toEqual([
      { key: 'activePower', name: 'Inverter active power', unit: 'W', stored: true },
      { key: 'pvPower', name: 'PV power (all inputs)', unit: 'W', stored: true },
    ]);
    expect(params.find((p) => p.key === 'pv1Voltage')).toMatchObject({ stored: false, unit: 'V' });
    const keys = params.map((p) => p.key);
    expect(keys).not.toContain('runningState');
    expect(keys).not.toContain('faultBits');
    expect(keys).not.toContain('serialNumber');
    expect(d.defaults).toEqual(['activePower', 'pvPower', 'gridActivePower', 'loadPower', 'batteryPower', 'batterySoc']);
    expect(await getAs(w, w.P, `/api/v1/inverter/params?sn=${w.sn.INV1}`)).toMatchObject({
      code: ErrorCode.inverterMissing,
      data: null,
    });
  });

  it('saves, lists and replaces the caller’s profiles within the limits', async () => {
    const url = '/api/v1/inverter/params/custom';
    expect((await getAs(w, w.O, url)).data).toEqual([]);
    const saved = await postAs(w, w.O, url, {
      profiles: [
        { name: 'Strings', params: ['pv1Voltage', 'pv2Voltage', 'pv1Current'] },
        { name: 'Battery', params: ['batterySoc', 'batteryPower'] },
      ],
    });
    expect(saved.code).toBe(ErrorCode.ok);
    expect((await getAs(w, w.O, url)).data).toEqual(saved.data);
    expect((saved.data as Array<{ name: string; params: string[] }>).map((p) => [p.name, p.params])).toEqual([
      ['Strings', ['pv1Voltage', 'pv2Voltage', 'pv1Current']],
      ['Battery', ['batterySoc', 'batteryPower']],
    ]);
    expect((await getAs(w, w.P, url)).data).toEqual([]);
    const profile = { name: 'P', params: ['activePower'] };
    for (const body of [
      { profiles: Array.from({ length: 7 }, () => profile) },
      {
        profiles: [
          {
            name: 'Too many',
            params: ['activePower', 'pvPower', 'loadPower', 'batteryPower', 'batterySoc', 'pv1Voltage', 'pv2Voltage'],
          },
        ],
      },
      { profiles: [{ name: 'Unknown', params: ['warpFactor'] }] },
      { profiles: [{ name: '', params: ['activePower'] }] },
      { profiles: [{ name: 'No params', params: [] }] },
    ]) {
      expect(await postAs(w, w.O, url, body), JSON.stringify(body).slice(0, 60)).toMatchObject(someBadInput);
    }
    expect((await getAs(w, w.O, url)).data).toEqual(saved.data);
    expect((await postAs(w, w.O, url, { profiles: Array.from({ length: 6 }, () => profile) })).data).toHaveLength(6);
    expect((await postAs(w, w.O, url, { profiles: [] })).data).toEqual([]);
    const readOnly = await account(w.s, { readOnly: true });
    expect(await postAs(w, readOnly, url, { profiles: [profile] })).toMatchObject({ code: ErrorCode.noPermission, data: null });
  });
});

describe('not found', () => {
  it('answers 600 with no data for another tenant’s inverter, an unknown SN and a device of another kind', async () => {
    const paths = [
      '',
      '/input/realtime',
      '/output/realtime',
      '/pvIVRealtime',
      '/input/day',
      '/output/day',
      '/day',
      '/month',
      '/year',
      '/total',
      '/gen',
      '/genMi',
    ];
    for (const p of paths) {
      expect(await getAs(w, w.P, `/api/v1/inverter/${w.sn.INV1}${p}`), p).toMatchObject({
        code: ErrorCode.inverterMissing,
        data: null,
      });
    }
    expect(await getAs(w, w.P, `/api/v1/inverter/grid/${w.sn.INV1}/realtime`)).toMatchObject({
      code: ErrorCode.inverterMissing,
      data: null,
    });
    expect(await getAs(w, w.O, '/api/v1/inverter/NOSUCHSN')).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
    expect(await getAs(w, w.O, `/api/v1/inverter/${w.sn.BAT}`)).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
    expect(await getAs(w, w.O, `/api/v1/inverter/${w.sn.INVU}`)).toMatchObject({ code: ErrorCode.inverterMissing, data: null });
    expect(await ok(`/api/v1/inverter/${w.sn.INVU}`, w.admin)).toMatchObject({ plant: null, typeKey: 'singlePhase' });
  });
});
