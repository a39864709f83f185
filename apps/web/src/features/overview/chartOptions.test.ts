import { describe, expect, it } from 'vitest';
import { barLabel, printColors as printColorsOf } from '../../lib/chart.ts';
import { derivePalette } from '../../lib/palette.ts';
import { completeBars, curve, generationOption, type PowerDay, powerDayOption } from './chartOptions.ts';

const printColors = printColorsOf(derivePalette('#00cc00', '#ffffff'));

const labels = {
  pv: 'PV',
  load: 'Load',
  gridImport: 'Grid import',
  gridExport: 'Grid export',
  discharge: 'Battery discharge',
  charge: 'Battery charge',
  soc: 'SOC',
  forecast: 'Forecast',
};
const at = (hhmm: string) => `2026-07-01T${hhmm}:00.000Z`;

describe('chart colours', () => {
  it('every series takes its colour from the palette it is given: the company colour draws generation', () => {
    const day: PowerDay = {
      date: '2026-07-01',
      timezone: 'UTC',
      points: [{ time: at('10:00'), pv: 4200, load: 800, grid: -3400, battery: 500, soc: 50 }],
      forecast: [{ time: at('10:00'), power: 5000 }],
      peakPower: 4200,
      energy: 12_000,
    };
    const bars = {
      date: '2026-07',
      bars: [{ label: '2026-07-01', energy: 5000, income: 2, peakPower: null }],
    } as Parameters<typeof generationOption>[0];
    for (const company of ['#00cc00', '#ff0000', '#1677ff']) {
      const palette = derivePalette(company, '#ffffff');
      const colors = printColorsOf(palette);
      const colour = (o: { series?: unknown }) =>
        Object.fromEntries(
          (o.series as Array<{ id: string; itemStyle: { color: string } }>).map((s) => [s.id, s.itemStyle.color]),
        );
      expect(colour(powerDayOption(day, labels, colors))).toEqual({
        pv: palette.power.pv,
        load: palette.power.load,
        gridExport: palette.flow.gridExport,
        discharge: palette.flow.discharge,
        forecast: palette.power.forecast,
        soc: palette.power.soc,
      });
      expect(colour(generationOption(bars, 'month', { energy: 'E', income: 'I' }, 'EUR', 'en', colors))).toEqual({
        energy: palette.generation.energy,
        income: palette.generation.income,
      });
    }
    expect(derivePalette('#ff0000', '#ffffff').power.pv).toBe('#ff0000');
  });
});

describe('day curve option', () => {
  it('x is minutes after plant-local midnight; a gap over 15 minutes breaks the line', () => {
    // Madrid in July is UTC+2: 08:00Z is 10:00 local (600 min).
    const points = curve(
      [
        { time: at('08:00'), value: 1500 },
        { time: at('08:05'), value: 2000 },
        { time: at('09:00'), value: 2500 },
      ],
      'Europe/Madrid',
      1000,
    );
    expect(points).toEqual([
      [600, 1.5, 1500],
      [605, 2, 2000],
      [606, null, null],
      [660, 2.5, 2500],
    ]);
  });

  it('series with values only; SOC on the second axis; forecast dashed; unit from the largest value', () => {
    const day: PowerDay = {
      date: '2026-07-01',
      timezone: 'UTC',
      points: [
        { time: at('10:00'), pv: 4200, load: 800, grid: -3400, battery: null, soc: null },
        { time: at('10:05'), pv: 4300, load: 900, grid: -3400, battery: null, soc: null },
      ],
      forecast: [{ time: at('10:00'), power: 5000 }],
      peakPower: 4300,
      energy: 12_000,
    };
    const option = powerDayOption(day, labels, printColors, { animation: false });
    // The tooltip's time names the plant's zone.
    const tooltip = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(tooltip([{ value: [600, 4.2, 4200], seriesName: 'PV' }]).split('<br/>')[0]).toBe('10:00 (UTC)');
    const series = option.series as Array<{ id: string; yAxisIndex: number; lineStyle?: { type?: string }; data: unknown[] }>;
    // Grid power −3400 W (the API's − export) is the export curve at 3.4 kW, named so; no import curve.
    expect(series.map((s) => s.id)).toEqual(['pv', 'load', 'gridExport', 'forecast']);
    expect(series.find((s) => s.id === 'gridExport')?.data[0]).toEqual([600, 3.4, 3400]);
    expect((option.legend as { data: string[] }).data).toEqual(['PV', 'Load', 'Grid export', 'Forecast']);
    expect(series.find((s) => s.id === 'forecast')?.lineStyle?.type).toBe('dashed');
    expect(series[0]?.data[0]).toEqual([600, 4.2, 4200]);
    const yAxes = option.yAxis as Array<{ name: string; show?: boolean }>;
    expect(yAxes[0]?.name).toBe('kW');
    expect(yAxes[1]?.show).toBe(false);

    const withSoc = powerDayOption(
      { ...day, points: day.points.map((p) => ({ ...p, battery: -500, soc: 55 })) },
      labels,
      printColors,
    );
    const socSeries = (withSoc.series as Array<{ id: string; yAxisIndex: number }>).find((s) => s.id === 'soc');
    expect((withSoc.series as Array<{ id: string }>).map((s) => s.id)).toEqual([
      'pv',
      'load',
      'gridExport',
      'charge',
      'forecast',
      'soc',
    ]);
    expect(socSeries?.yAxisIndex).toBe(1);
    expect((withSoc.yAxis as Array<{ show?: boolean }>)[1]?.show).toBe(true);
  });

  it('names grid and battery power by direction: import and export, discharge and charge, each a magnitude', () => {
    const day: PowerDay = {
      date: '2026-07-01',
      timezone: 'UTC',
      points: [
        { time: at('10:00'), pv: 0, load: 900, grid: 1200, battery: 300, soc: 40 },
        { time: at('10:05'), pv: 2500, load: 900, grid: -600, battery: -1000, soc: 41 },
      ],
      forecast: [],
      peakPower: 2500,
      energy: 100,
    };
    const option = powerDayOption(day, labels, printColors);
    const series = option.series as Array<{ id: string; name: string; data: Array<[number, number | null, number | null]> }>;
    const raw = (id: string) => series.find((s) => s.id === id)?.data.map((p) => p[2]);
    expect(series.map((s) => s.name)).toEqual([
      'PV',
      'Load',
      'Grid import',
      'Grid export',
      'Battery discharge',
      'Battery charge',
      'SOC',
    ]);
    expect(raw('gridImport')).toEqual([1200, 0]);
    expect(raw('gridExport')).toEqual([0, 600]);
    expect(raw('discharge')).toEqual([300, 0]);
    expect(raw('charge')).toEqual([0, 1000]);
    // The tooltip writes the magnitude under the direction's name, never a bare signed value.
    const tooltip = (option.tooltip as { formatter: (p: unknown) => string }).formatter;
    expect(tooltip([{ value: [605, 0.6, 600], seriesName: 'Grid export' }])).toBe('10:05 (UTC)<br/>Grid export: <b>0.6 kW</b>');
  });
});

describe('generation bars option', () => {
  it('energy bars scaled (MWh here), income bars only when the plant has a price', () => {
    const series = {
      period: 'year' as const,
      date: '2026-05-01',
      bars: [
        { label: '2026-01', energy: 1_200_000, income: 180, peakPower: null },
        { label: '2026-02', energy: 1_500_000, income: 225.5, peakPower: null },
      ],
      energy: 2_700_000,
      income: 405.5,
    };
    const option = generationOption(series, 'year', { energy: 'Gen', income: 'Inc' }, 'EUR', 'en', printColors);
    // The whole year: twelve months, the ones without data at 0.
    expect((option.xAxis as { data: string[] }).data.slice(0, 3)).toEqual(['Jan', 'Feb', 'Mar']);
    expect((option.xAxis as { data: string[] }).data).toHaveLength(12);
    const bars = option.series as Array<{ id: string; data: Array<{ value: number }> }>;
    expect(bars.map((b) => b.id)).toEqual(['energy', 'income']);
    expect(bars[0]?.data.slice(0, 3).map((d) => d.value)).toEqual([1.2, 1.5, 0]);
    expect((option.yAxis as Array<{ name: string }>)[0]?.name).toBe('MWh');

    const noPrice = generationOption(
      { ...series, bars: series.bars.map((b) => ({ ...b, income: null })), income: null },
      'year',
      { energy: 'Gen', income: 'Inc' },
      null,
      'en',
      printColors,
    );
    expect((noPrice.series as Array<{ id: string }>).map((s) => s.id)).toEqual(['energy']);
  });

  it('a month has a bar for each of its days; unexpected labels are left as sent', () => {
    const bar = (label: string, energy: number) => ({ label, energy, income: null, peakPower: null });
    const feb = completeBars([bar('2024-02-10', 500)], 'month', '2024-02-15');
    expect(feb).toHaveLength(29);
    expect(feb[9]).toEqual(bar('2024-02-10', 500));
    expect(feb[0]).toEqual(bar('2024-02-01', 0));
    expect(completeBars([bar('2026-04-30', 1)], 'month', '2026-04-02')).toHaveLength(30);
    expect(completeBars([bar('10', 1)], 'month', '2026-04-02')).toEqual([bar('10', 1)]);
    expect(completeBars([bar('2019', 1), bar('2020', 2)], 'total', '2026-04-02')).toHaveLength(2);
  });

  it('bar labels: day of month, localised month, year', () => {
    expect(barLabel('2026-03-07', 'month', 'en')).toBe('07');
    expect(barLabel('2026-03', 'year', 'es')).toBe('mar');
    expect(barLabel('2026-12', 'year', 'en')).toBe('Dec');
    expect(barLabel('2024', 'total', 'en')).toBe('2024');
  });
});
