import { describe, expect, it } from 'vitest';
import { type ChartColors, withGaps } from '../../../lib/chart.ts';
import { setTemperatureUnit } from '../../../lib/format.ts';
import { derivePalette } from '../../../lib/palette.ts';
import { dayCurveOption, energyBarsOption, energyKeysWithData, generationEnergyBars, pvIvOption, unitAxes } from './charts.ts';
import type { EnergyBars } from './types.ts';

const colors: ChartColors = {
  series: derivePalette('#00cc00', '#ffffff'),
  text: '#000',
  muted: '#666',
  axis: '#ccc',
  split: '#eee',
  tooltipBg: '#fff',
  inactive: '#bbb',
};
const labels = { pv: 'PV', load: 'Load', gridImport: 'Import', gridExport: 'Export', charge: 'Charge', discharge: 'Discharge' };
const directions = { gridImport: 'Import', gridExport: 'Export', charge: 'Charge', discharge: 'Discharge' };
type Axis = { name: string; show: boolean };
type Series = { id: string; name: string; yAxisIndex: number; data: Array<[number, number | null, number | null]> };

describe('device chart options', () => {
  it('draws a °C series in the user unit: axis, legend and plotted values in °F, the tooltip from the measured value', () => {
    setTemperatureUnit('F');
    const option = dayCurveOption(
      {
        timezone: 'UTC',
        times: ['2026-05-20T10:00:00.000Z', '2026-05-20T10:05:00.000Z'],
        series: [{ key: 'ambientTemperature', name: 'Ambient', unit: '°C', flow: null, values: [20, null] }],
      },
      colors,
      { directions },
    );
    expect((option.yAxis as Axis[])[0]!.name).toBe('°F');
    const [line] = option.series as Series[];
    expect(line!.name).toBe('Ambient (°F)');
    expect(line!.data[0]).toEqual([600, 68, 20]);
    const tooltip = (option.tooltip as { formatter: (items: unknown) => string }).formatter([
      { seriesName: line!.name, value: line!.data[0] },
    ]);
    expect(tooltip).toContain('68.0 °F');
  });

  it('draws one axis per unit, scales watts, keeps the raw value and breaks lines at gaps', () => {
    const option = dayCurveOption(
      {
        timezone: 'UTC',
        times: ['2026-05-20T10:00:00.000Z', '2026-05-20T10:05:00.000Z', '2026-05-20T11:00:00.000Z'],
        series: [
          { key: 'pvPower', name: 'PV power', unit: 'W', flow: null, values: [4200, 4800, 5100] },
          { key: 'pv1Voltage', name: 'PV1 voltage', unit: 'V', flow: null, values: [532.4, 531.2, null] },
          { key: 'batteryPower', name: 'Battery power', unit: 'W', flow: 'battery', values: [-900, null, 300] },
          { key: 'soc', name: 'SOC', unit: '%', flow: null, values: [50, 51, 52] },
          { key: 'none', name: 'Nothing', unit: 'A', flow: null, values: [null, null, null] },
        ],
      },
      colors,
      { directions, hidden: ['soc'] },
    );
    const axes = option.yAxis as Axis[];
    expect(axes.map((a) => [a.name, a.show])).toEqual([
      ['kW', true],
      ['V', true],
      ['%', true],
    ]);
    const series = option.series as Series[];
    // Battery power (+ discharge / − charge) is two magnitudes, each named by its direction.
    expect(series.map((s) => [s.id, s.yAxisIndex])).toEqual([
      ['pvPower', 0],
      ['pv1Voltage', 1],
      ['batteryPower.discharge', 0],
      ['batteryPower.charge', 0],
      ['soc', 2],
    ]);
    expect(series.find((s) => s.id === 'batteryPower.discharge')?.data.map((p) => p[2])).toEqual([0, null, null, 300]);
    expect(series.find((s) => s.id === 'batteryPower.charge')?.data.map((p) => p[2])).toEqual([900, null, null, 0]);
    // The directions have their own colours; no other curve takes one of them.
    const colour = (id: string) =>
      (series.find((s) => s.id === id) as unknown as { itemStyle: { color: string } }).itemStyle.color;
    expect(colour('batteryPower.discharge')).toBe(colors.series.flow.discharge);
    expect(colour('batteryPower.charge')).toBe(colors.series.flow.charge);
    expect(new Set(series.map((s) => colour(s.id))).size).toBe(series.length);
    // 10:00, 10:05, a break after 10:05 (55 minutes without samples), 11:00.
    expect(series[0]?.data).toEqual([
      [600, 4.2, 4200],
      [605, 4.8, 4800],
      [606, null, null],
      [660, 5.1, 5100],
    ]);
    expect((option.legend as { selected: Record<string, boolean> }).selected).toEqual({
      'PV power (W)': true,
      'PV1 voltage (V)': true,
      'Battery power: Discharge (W)': true,
      'Battery power: Charge (W)': true,
      'SOC (%)': false,
    });
  });

  it('names grid power by direction (import, export) in the legend and the tooltip; hiding the parameter hides both', () => {
    const option = dayCurveOption(
      {
        timezone: 'UTC',
        times: ['2026-05-20T10:00:00.000Z', '2026-05-20T10:05:00.000Z'],
        series: [{ key: 'gridActivePower', name: 'Grid active power', unit: 'W', flow: 'grid', values: [1500, -2500] }],
      },
      colors,
      { directions, hidden: ['gridActivePower'] },
    );
    const series = option.series as Series[];
    expect(series.map((s) => s.name)).toEqual(['Grid active power: Import (W)', 'Grid active power: Export (W)']);
    expect((option.legend as { selected: Record<string, boolean> }).selected).toEqual({
      'Grid active power: Import (W)': false,
      'Grid active power: Export (W)': false,
    });
    const tooltip = (option.tooltip as { formatter: (items: unknown) => string }).formatter(
      series.map((s) => ({ seriesName: s.name, value: s.data[1] })),
    );
    expect(tooltip).toBe(
      '10:05 (UTC)<br/>Grid active power: Import (W): <b>0 W</b><br/>Grid active power: Export (W): <b>2.5 kW</b>',
    );
  });

  it('gives the directions their own colours, which no other curve takes', () => {
    const option = dayCurveOption(
      {
        timezone: 'UTC',
        times: ['2026-05-20T10:00:00.000Z', '2026-05-20T10:05:00.000Z'],
        series: [
          ...[0, 1, 2].map((i) => ({ key: `v${i}`, name: `V${i}`, unit: 'V', flow: null, values: [1, 2] })),
          { key: 'batteryPower', name: 'Battery power', unit: 'W', flow: 'battery' as const, values: [500, -500] },
          { key: 'a', name: 'A', unit: 'A', flow: null, values: [1, 2] },
        ],
      },
      colors,
      { directions },
    );
    const colour = new Map(
      (option.series as Array<{ id: string; itemStyle: { color: string } }>).map((s) => [s.id, s.itemStyle.color]),
    );
    expect(colour.get('batteryPower.discharge')).toBe(colors.series.flow.discharge);
    expect(colour.get('batteryPower.charge')).toBe(colors.series.flow.charge);
    expect(new Set(colour.values()).size).toBe(colour.size);
  });

  it('draws at most four axes, the units of hidden series last', () => {
    const units = ['W', 'V', 'A', '°C', 'Hz'];
    const option = dayCurveOption(
      {
        timezone: 'UTC',
        times: ['2026-05-20T10:00:00.000Z'],
        series: units.map((unit, i) => ({ key: `k${i}`, name: `S${i}`, unit, flow: null, values: [i + 1] })),
      },
      colors,
      { directions, hidden: ['k1'] },
    );
    const axes = option.yAxis as Array<Axis & { offset: number; position: string }>;
    // V belongs to a hidden series: it moves last, past the four drawn axes.
    expect(axes.map((a) => [a.name, a.show, a.position, a.offset])).toEqual([
      ['W', true, 'left', 0],
      ['A', true, 'right', 0],
      ['°C', true, 'left', 58],
      ['Hz', true, 'right', 58],
      ['V', false, 'left', 116],
    ]);
    expect(option.grid as { left: number; right: number }).toMatchObject({ left: 114, right: 114 });
  });

  it('gives the axes the unit of the largest value', () => {
    expect(unitAxes([{ key: 'a', name: 'a', unit: 'W', flow: null, values: [120, -900] }])).toEqual([
      { unit: 'W', divisor: 1000, name: 'kW' },
    ]);
    expect(unitAxes([{ key: 'a', name: 'a', unit: 'W', flow: null, values: [12, 90] }])).toEqual([
      { unit: 'W', divisor: 1, name: 'W' },
    ]);
    expect(withGaps([0, 5, 30], [1, 2, 3], 1)).toEqual([
      [0, 1, 1],
      [5, 2, 2],
      [6, null, null],
      [30, 3, 3],
    ]);
  });

  it('draws only the flows that carry energy, in kWh when large', () => {
    const bars: EnergyBars = {
      period: 'month',
      date: '2026-11-21',
      timezone: 'UTC',
      totals: { pv: 31_600, load: 29_400, gridImport: 6600, gridExport: 0, charge: 0, discharge: 0, peakPower: 4891 },
      bars: [
        { label: '2026-11-20', pv: 0, load: 7900, gridImport: 3000, gridExport: 0, charge: 0, discharge: 0, peakPower: 4231 },
        {
          label: '2026-11-21',
          pv: 31_600,
          load: 21_500,
          gridImport: 3600,
          gridExport: 0,
          charge: 0,
          discharge: 0,
          peakPower: 4891,
        },
      ],
    };
    expect(energyKeysWithData(bars, ['pv', 'load', 'gridImport', 'gridExport', 'charge', 'discharge'])).toEqual([
      'pv',
      'load',
      'gridImport',
    ]);
    expect(energyKeysWithData(bars, ['charge', 'discharge'])).toEqual(['charge', 'discharge']);
    const option = energyBarsOption(bars, ['pv', 'gridExport'], labels, 'en', colors);
    expect((option.xAxis as { data: string[] }).data).toEqual(['20', '21']);
    expect((option.yAxis as { name: string }).name).toBe('kWh');
    const series = option.series as Array<{ id: string; data: Array<{ value: number; raw: number }> }>;
    expect(series.map((s) => s.id)).toEqual(['pv']);
    expect(series[0]?.data).toEqual([
      { value: 0, raw: 0 },
      { value: 31.6, raw: 31_600 },
    ]);
  });

  it('draws the generation bars as the pv flow, a day’s hours as they are', () => {
    const bars = generationEnergyBars({
      period: 'day',
      date: '2026-05-20',
      timezone: 'UTC',
      bars: [
        { label: '10:00', energy: 310 },
        { label: '11:00', energy: 450 },
      ],
      energy: 760,
    });
    expect(bars.totals).toEqual({ pv: 760, load: 0, gridImport: 0, gridExport: 0, charge: 0, discharge: 0, peakPower: null });
    const option = energyBarsOption(bars, ['pv'], labels, 'en', colors);
    expect((option.xAxis as { data: string[] }).data).toEqual(['10:00', '11:00']);
    const series = option.series as Array<{ id: string; data: Array<{ value: number; raw: number }> }>;
    expect(series.map((s) => s.id)).toEqual(['pv']);
    expect(series[0]?.data.map((d) => d.raw)).toEqual([310, 450]);
  });

  it('plots each PV input’s operating points with the latest one large', () => {
    const option = pvIvOption(
      {
        at: '2026-05-20T10:05:00.000Z',
        inputs: [
          {
            index: 1,
            name: 'PV1',
            kind: 'mppt',
            voltage: 530,
            current: 8,
            power: 4240,
            points: [
              { time: '2026-05-20T10:00:00.000Z', voltage: 528, current: 7.5 },
              { time: '2026-05-20T10:05:00.000Z', voltage: 530, current: 8 },
            ],
          },
        ],
      },
      colors,
      'UTC',
      { voltage: 'V', current: 'A' },
    );
    const series = option.series as Array<{ name: string; data: Array<{ value: number[]; symbolSize: number }> }>;
    expect(series[0]?.name).toBe('PV1');
    expect(series[0]?.data.map((d) => [d.value, d.symbolSize])).toEqual([
      [[528, 7.5], 4],
      [[530, 8], 11],
    ]);
  });
});
