/**
 * ECharts options of the overview, built from the API data alone (no DOM), so the page, the PDF
 * and the tests share them. The day curve: PV, load, grid import and export, battery discharge
 * and charge (W, scaled to the axis unit) and SOC on a second axis, the forecast dashed, on a 00:00–24:00 plant-local axis with gaps
 * where buckets are missing. Month, year and total: energy bars and income bars.
 */

import type { DataOf, plantEnergyApi } from '@sunfleet/contracts';
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import {
  axisBase,
  barLabel,
  type ChartColors,
  type ChartOption,
  type CurvePoint,
  curveTooltip,
  dayAxis,
  hasValues,
  splitSigned,
  type TooltipItem,
  tooltipBase,
  withGaps,
} from '../../lib/chart.ts';
import { minuteOfDay } from '../../lib/dateNav.ts';
import { axisUnit, formatEnergy, formatMoney, formatRate, formatWatts } from '../../lib/format.ts';
import type { PowerLabels } from '../../lib/palette.ts';
import { checkedZone } from '../../lib/zonedTime.ts';

export type PowerDay = DataOf<typeof plantEnergyApi.plantPowerDay>;
export type GenerationSeries = DataOf<typeof plantEnergyApi.plantPowerMonth>;

type Point = CurvePoint;

/** Curve points of timed values in the plant's time zone, with gaps where buckets are missing. */
export function curve(items: ReadonlyArray<{ time: string; value: number | null }>, timezone: string, divisor: number): Point[] {
  return withGaps(
    items.map((i) => minuteOfDay(i.time, timezone)),
    items.map((i) => i.value),
    divisor,
  );
}

/**
 * The day's power curve: PV and load, grid as import and export, battery as discharge and charge
 * (each direction a magnitude under its own name: the API's signed values are never one curve).
 * Series without any value (e.g. battery of a grid-tied plant) are left out.
 */
export function powerDayOption(
  day: PowerDay,
  labels: PowerLabels,
  colors: ChartColors,
  opts: { animation?: boolean } = {},
): ChartOption {
  const tz = day.timezone;
  const { power: powerPalette, flow: flowPalette } = colors.series;
  const column = (f: 'pv' | 'load' | 'grid' | 'battery') => day.points.map((p) => p[f]);
  const curves = [
    ...(['pv', 'load'] as const).map((f) => ({ id: f, color: powerPalette[f], values: column(f) })),
    ...(['grid', 'battery'] as const).flatMap((f) =>
      splitSigned(f, column(f)).map((part) => ({ id: part.direction, color: flowPalette[part.direction], values: part.values })),
    ),
  ].filter((c) => hasValues(c.values));
  const maxAbs = Math.max(
    0,
    ...curves.flatMap((c) => c.values.map((v) => Math.abs(v ?? 0))),
    ...day.forecast.map((f) => Math.abs(f.power)),
  );
  const unit = axisUnit(maxAbs, 'W');
  const series: LineSeriesOption[] = curves.map((c) => ({
    id: c.id,
    name: labels[c.id],
    type: 'line',
    showSymbol: false,
    smooth: false,
    connectNulls: false,
    yAxisIndex: 0,
    itemStyle: { color: c.color },
    lineStyle: { width: c.id === 'pv' ? 2 : 1.5 },
    ...(c.id === 'pv' ? { areaStyle: { opacity: 0.15 } } : {}),
    data: withGaps(
      day.points.map((p) => minuteOfDay(p.time, tz)),
      c.values,
      unit.divisor,
    ),
  }));
  if (day.forecast.length > 0)
    series.push({
      id: 'forecast',
      name: labels.forecast,
      type: 'line',
      showSymbol: false,
      yAxisIndex: 0,
      itemStyle: { color: powerPalette.forecast },
      lineStyle: { type: 'dashed', width: 1.5 },
      data: curve(
        day.forecast.map((p) => ({ time: p.time, value: p.power })),
        tz,
        unit.divisor,
      ),
    });
  const withSoc = hasValues(day.points.map((p) => p.soc));
  if (withSoc)
    series.push({
      id: 'soc',
      name: labels.soc,
      type: 'line',
      showSymbol: false,
      yAxisIndex: 1,
      itemStyle: { color: powerPalette.soc },
      lineStyle: { width: 1.5, type: 'dotted' },
      data: curve(
        day.points.map((p) => ({ time: p.time, value: p.soc })),
        tz,
        1,
      ),
    });

  return {
    animation: opts.animation ?? true,
    color: series.map((s) => (s.itemStyle as { color: string }).color),
    legend: { top: 0, textStyle: { color: colors.text }, data: series.map((s) => String(s.name)) },
    grid: { left: 56, right: withSoc ? 48 : 24, top: 40, bottom: 32 },
    tooltip: {
      ...tooltipBase(colors),
      formatter: (raw: unknown) =>
        curveTooltip(raw, (v, i) => (i.seriesId === 'soc' ? formatRate(v / 100) : formatWatts(v)), checkedZone(tz)),
    },
    xAxis: dayAxis(colors),
    yAxis: [
      { type: 'value', name: unit.unit, ...axisBase(colors) },
      { type: 'value', name: '%', min: 0, max: 100, show: withSoc, ...axisBase(colors), splitLine: { show: false } },
    ],
    series,
  };
}

type GenerationBar = GenerationSeries['bars'][number];

/**
 * Every day of the month (or month of the year) as a bar, the ones without data at 0, so the
 * axis is the whole period. Bars whose labels do not fit the period are kept as the server sent
 * them.
 */
export function completeBars(bars: readonly GenerationBar[], period: 'month' | 'year' | 'total', date: string): GenerationBar[] {
  if (period === 'total') return [...bars];
  const year = Number(date.slice(0, 4));
  const month = Number(date.slice(5, 7));
  const pad = (n: number) => String(n).padStart(2, '0');
  const labels =
    period === 'month'
      ? Array.from({ length: new Date(Date.UTC(year, month, 0)).getUTCDate() }, (_, i) => `${year}-${pad(month)}-${pad(i + 1)}`)
      : Array.from({ length: 12 }, (_, i) => `${year}-${pad(i + 1)}`);
  const known = new Set(labels);
  if (!bars.every((b) => known.has(b.label))) return [...bars];
  const byLabel = new Map(bars.map((b) => [b.label, b]));
  return labels.map((label) => byLabel.get(label) ?? { label, energy: 0, income: null, peakPower: null });
}

/** Generation bars (energy, and income when the plant has a price) over the whole period. */
export function generationOption(
  data: GenerationSeries,
  period: 'month' | 'year' | 'total',
  labels: { energy: string; income: string },
  currency: string | null,
  language: string,
  colors: ChartColors,
  opts: { animation?: boolean } = {},
): ChartOption {
  const bars = completeBars(data.bars, period, data.date);
  const generationPalette = colors.series.generation;
  const unit = axisUnit(Math.max(0, ...bars.map((b) => b.energy)), 'Wh');
  const withIncome = bars.some((b) => b.income !== null);
  const series: BarSeriesOption[] = [
    {
      id: 'energy',
      name: labels.energy,
      type: 'bar',
      yAxisIndex: 0,
      barMaxWidth: 28,
      itemStyle: { color: generationPalette.energy, borderRadius: [3, 3, 0, 0] },
      data: bars.map((b) => ({ value: b.energy / unit.divisor, raw: b.energy }) as { value: number }),
    },
  ];
  if (withIncome)
    series.push({
      id: 'income',
      name: labels.income,
      type: 'bar',
      yAxisIndex: 1,
      barMaxWidth: 28,
      itemStyle: { color: generationPalette.income, borderRadius: [3, 3, 0, 0] },
      data: bars.map((b) => ({ value: b.income ?? 0, raw: b.income }) as { value: number }),
    });
  return {
    animation: opts.animation ?? true,
    legend: { top: 0, textStyle: { color: colors.text }, data: series.map((s) => String(s.name)) },
    grid: { left: 56, right: withIncome ? 56 : 24, top: 40, bottom: 32 },
    tooltip: {
      ...tooltipBase(colors),
      axisPointer: { type: 'shadow' },
      formatter: (raw: unknown) => {
        const items = (Array.isArray(raw) ? raw : [raw]) as Array<TooltipItem & { data?: { raw?: number | null } }>;
        const head = String(items[0]?.axisValue ?? '');
        const rows = items.map((i) => {
          const v = i.data?.raw ?? null;
          const text = i.seriesId === 'income' ? formatMoney(v, currency) : formatEnergy(v);
          return `${i.marker ?? ''}${i.seriesName}: <b>${text}</b>`;
        });
        return [head, ...rows].join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: bars.map((b) => barLabel(b.label, period, language)),
      ...axisBase(colors),
      splitLine: { show: false },
    },
    yAxis: [
      { type: 'value', name: unit.unit, ...axisBase(colors) },
      { type: 'value', name: currency ?? '', show: withIncome, ...axisBase(colors), splitLine: { show: false } },
    ],
    series,
  };
}
