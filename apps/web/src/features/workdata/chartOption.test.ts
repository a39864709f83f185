import type { LineSeriesOption } from 'echarts/charts';
import { describe, expect, it } from 'vitest';
import { setTemperatureUnit } from '../../lib/format.ts';
import { derivePalette } from '../../lib/palette.ts';
import { unitAxes, type WorkdataChartData, workdataChartOption } from './chartOption.ts';

const palette = derivePalette('#00cc00', '#ffffff');
const colors = { text: '#595959', grid: '#f0f0f0', series: palette };

const param = (key: string, name: string, unit: string | null, flow: 'grid' | 'battery' | null = null) => ({
  key,
  name,
  unit,
  numeric: true,
  stored: true,
  options: null,
  flow,
});

const labels = {
  min: 'min',
  max: 'max',
  signs: { grid: '+ import / − export', battery: '+ discharge / − charge' },
  directions: { gridImport: 'Import', gridExport: 'Export', discharge: 'Discharge', charge: 'Charge' },
};

function data(bucketSeconds: number): WorkdataChartData {
  return {
    sn: 'INV1',
    kind: 'inverter',
    alias: null,
    timezone: 'Europe/Madrid',
    params: [param('power_w', 'Output power', 'W'), param('soc', 'State of charge', '%'), param('pv_power_w', 'PV power', 'W')],
    bucketSeconds,
    ts: ['2026-05-20T10:00:00.000Z', '2026-05-20T10:05:00.000Z'],
    series: [
      { key: 'power_w', avg: [1200, null], min: [1000, null], max: [1500, null] },
      { key: 'soc', avg: [55.5, 56], min: [55, 56], max: [56, 56] },
      { key: 'pv_power_w', avg: [1300, 1400], min: [1300, 1400], max: [1300, 1400] },
    ],
  };
}

const series = (o: ReturnType<typeof workdataChartOption>) => o.series as LineSeriesOption[];

describe('operation-data chart', () => {
  it('a °C parameter in the user unit: axis, legend, band and tooltip in °F', () => {
    setTemperatureUnit('F');
    const d: WorkdataChartData = {
      ...data(300),
      params: [param('temperature_c', 'Inverter temperature', '°C')],
      series: [{ key: 'temperature_c', avg: [25, null], min: [20, null], max: [30, null] }],
    };
    const o = workdataChartOption(d, labels, colors);
    expect((o.yAxis as Array<{ name: string }>).map((a) => a.name)).toEqual(['°F']);
    expect((o.legend as { data: string[] }).data).toEqual(['Inverter temperature (°F)']);
    const [low, spread, line] = series(o);
    expect((low!.data as number[][])[0]![1]).toBe(68);
    expect((spread!.data as number[][])[0]![1]).toBe(18);
    expect((line!.data as number[][])[0]![1]).toBe(77);
    const tip = (o.tooltip as { formatter: (items: unknown) => string }).formatter([{ dataIndex: 0 }]);
    expect(tip).toContain('77 °F');
    expect(tip).toContain('min 68');
  });

  it('every sample: one line per parameter, one axis per unit, plant wall-clock times', () => {
    const d = data(0);
    expect(unitAxes(d)).toEqual(['W', '%']);
    const o = workdataChartOption(d, labels, colors);
    const s = series(o);
    expect(s.map((x) => x.id)).toEqual(['line-power_w', 'line-soc', 'line-pv_power_w']);
    expect(s.map((x) => x.yAxisIndex)).toEqual([0, 1, 0]);
    expect(s.map((x) => x.color)).toEqual(palette.workdata.slice(0, 3));
    // 10:00Z is 12:00 in Madrid; the axis is drawn in UTC.
    expect(o.useUTC).toBe(true);
    expect(s[0]!.data).toEqual([
      [Date.UTC(2026, 4, 20, 12, 0), 1200],
      [Date.UTC(2026, 4, 20, 12, 5), null],
    ]);
    const axes = o.yAxis as Array<{ name: string; position: string }>;
    expect(axes.map((a) => [a.name, a.position])).toEqual([
      ['W', 'left'],
      ['%', 'right'],
    ]);
    expect((o.legend as { data: string[] }).data).toEqual(['Output power (W)', 'State of charge (%)', 'PV power (W)']);
  });

  it('buckets: a min–max band under each average line, named as the line (the legend hides both)', () => {
    const o = workdataChartOption(data(300), labels, colors);
    const s = series(o);
    expect(s).toHaveLength(9);
    const [lo, spread, line] = s;
    expect([lo!.name, spread!.name, line!.name]).toEqual(['Output power (W)', 'Output power (W)', 'Output power (W)']);
    expect(lo!.stack).toBe('band-power_w');
    expect(spread!.stack).toBe('band-power_w');
    expect(lo!.data).toEqual([
      [Date.UTC(2026, 4, 20, 12, 0), 1000],
      [Date.UTC(2026, 4, 20, 12, 5), null],
    ]);
    expect((spread!.data as Array<[number, number | null]>).map((p) => p[1])).toEqual([500, null]);
    expect(spread!.areaStyle).toBeTruthy();
    expect(line!.areaStyle).toBeUndefined();
  });

  it('the tooltip lists every parameter at the pointer, with the spread when bucketed', () => {
    const o = workdataChartOption(data(300), labels, colors);
    const formatter = (o.tooltip as { formatter: (p: unknown) => string }).formatter;
    const html = formatter([{ dataIndex: 0 }]);
    expect(html).toContain('2026-05-20 12:00:00 (Europe/Madrid)');
    expect(html).toContain('Output power: <b>1,200 W</b>');
    expect(html).toContain('(min 1,000 · max 1,500)');
    expect(html).toContain('State of charge: <b>55.5 %</b>');
    const second = formatter([{ dataIndex: 1 }]);
    expect(second).toContain('Output power: <b>--</b>');
  });

  it('splits grid power into Import and Export and battery power into Discharge and Charge, never one signed curve', () => {
    // Values in the convention (grid + import, battery + discharge), as the server sends them.
    const d: WorkdataChartData = {
      ...data(0),
      params: [param('grid_power_w', 'Grid power', 'W', 'grid'), param('battery_power_w', 'Battery power', 'W', 'battery')],
      series: [
        { key: 'grid_power_w', avg: [-500, 300], min: [-500, 300], max: [-500, 300] },
        { key: 'battery_power_w', avg: [800, -200], min: [800, -200], max: [800, -200] },
      ],
    };
    const o = workdataChartOption(d, labels, colors);
    const s = series(o);
    expect(s.map((x) => [x.id, x.name, x.color])).toEqual([
      ['line-grid_power_w.gridImport', 'Grid power: Import (W)', palette.flow.gridImport],
      ['line-grid_power_w.gridExport', 'Grid power: Export (W)', palette.flow.gridExport],
      ['line-battery_power_w.discharge', 'Battery power: Discharge (W)', palette.flow.discharge],
      ['line-battery_power_w.charge', 'Battery power: Charge (W)', palette.flow.charge],
    ]);
    // Magnitudes: each direction carries its own part, 0 in the other.
    expect(s.map((x) => (x.data as Array<[number, number | null]>).map((p) => p[1]))).toEqual([
      [0, 300],
      [500, 0],
      [800, 0],
      [0, 200],
    ]);
    expect((o.legend as { data: string[] }).data).toEqual([
      'Grid power: Import (W)',
      'Grid power: Export (W)',
      'Battery power: Discharge (W)',
      'Battery power: Charge (W)',
    ]);
    const tip = (o.tooltip as { formatter: (p: unknown) => string }).formatter([{ dataIndex: 0 }]);
    expect(tip).toContain('Grid power: Export: <b>500 W</b>');
    expect(tip).toContain('Grid power: Import: <b>0 W</b>');
    expect(tip).toContain('Battery power: Discharge: <b>800 W</b>');
    expect(tip).not.toContain('-500');
  });

  it('a bucketed signed parameter: each direction its part of the band, the export band turned around', () => {
    const d: WorkdataChartData = {
      ...data(120),
      params: [param('gridActivePower', 'Grid active power', 'W', 'grid')],
      // A bucket from 500 W export to 300 W import, 100 W export on average.
      series: [{ key: 'gridActivePower', avg: [-100, null], min: [-500, null], max: [300, null] }],
    };
    const o = workdataChartOption(d, labels, colors);
    const s = series(o);
    const at0 = (i: number) => (s[i]!.data as Array<[number, number | null]>)[0]![1];
    // Import: band 0–300 (low, spread), line 0; export: band 0–500, line 100.
    expect(s.map((x) => x.name)).toEqual([
      ...Array(3).fill('Grid active power: Import (W)'),
      ...Array(3).fill('Grid active power: Export (W)'),
    ]);
    expect([0, 1, 2, 3, 4, 5].map(at0)).toEqual([0, 300, 0, 0, 500, 100]);
    const tip = (o.tooltip as { formatter: (p: unknown) => string }).formatter([{ dataIndex: 0 }]);
    expect(tip).toContain('Grid active power: Export: <b>100 W</b> <span style="opacity:.7">(min 0 · max 500)</span>');
  });

  it('a signed parameter that is 0 throughout stays on the chart', () => {
    const d: WorkdataChartData = {
      ...data(0),
      params: [param('battery_power_w', 'Battery power', 'W', 'battery')],
      series: [{ key: 'battery_power_w', avg: [0, 0], min: [0, 0], max: [0, 0] }],
    };
    expect(series(workdataChartOption(d, labels, colors)).map((x) => x.name)).toEqual(['Battery power: Discharge (W)']);
  });
});
