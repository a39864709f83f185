/**
 * ECharts options of the device pages, built from the API data alone (no DOM), so the pages and
 * the tests share them:
 * - day curves of any parameters (signed grid and battery power as its two named directions,
 *   import and export, discharge and charge): one y axis per unit (up to four drawn, alternating left and
 *   right; further units scale on hidden axes), W scaled to kW (3–5 digits) or MW (6+), °C in the
 *   user's temperature unit, a 00:00–24:00
 *   axis in the device's (plant's) time zone with gaps where samples are missing;
 * - energy bars of a month, a year or all time (only the flows that carry energy); the generation
 *   bars (hours of a day too) drawn the same way, as the `pv` flow;
 * - the I–V plot of the PV inputs (operating points of the last hour, the latest one marked).
 */
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import {
  axisBase,
  barLabel,
  type ChartColors,
  type ChartOption,
  type CurvePoint,
  tooltipBase as chartTooltip,
  curveTooltip,
  dayAxis,
  type FlowDirection,
  hasValues,
  hhmm,
  splitSigned,
  type TooltipItem,
  withGaps,
} from '../../../lib/chart.ts';
import { minuteOfDay } from '../../../lib/dateNav.ts';
import { axisUnit, displayed, displayUnit } from '../../../lib/format.ts';
import type { SeriesPalette } from '../../../lib/palette.ts';
import { checkedZone } from '../../../lib/zonedTime.ts';
import { formatValue } from './format.ts';
import type { DayChart, EnergyBars, EnergyKey, GenerationBars, PvIv, WeatherDay } from './types.ts';

/** Energy bars by what they count. */
export const energyPalette = (series: SeriesPalette): Record<EnergyKey, string> => ({
  pv: series.power.pv,
  load: series.power.load,
  ...series.flow,
});

/** At most this many y axes are drawn (left, right, then a second pair further out). */
export const MAX_AXES = 4;
const AXIS_OFFSET = 58;

/** Device tooltips stay inside the chart (the cards are narrow). */
const tooltipBase = (colors: ChartColors) => ({ ...chartTooltip(colors), confine: true });

/** Minutes after local midnight of each time (computed once for all series). */
export function dayMinutes(times: readonly string[], timezone: string): number[] {
  return times.map((t) => minuteOfDay(t, timezone));
}

export interface UnitAxis {
  unit: string;
  /** Raw values are divided by this (W → kW …). */
  divisor: number;
  /** The axis name (the scaled unit). */
  name: string;
}

/**
 * One axis per unit, in order of first appearance — units of the series shown at first before
 * those of hidden ones, so the two drawn axes belong to visible curves; power-like units scaled
 * by the largest value.
 */
export function unitAxes(series: DayChart['series'], hidden: readonly string[] = []): UnitAxis[] {
  const out: UnitAxis[] = [];
  const ordered = [...series.filter((s) => !hidden.includes(s.key)), ...series.filter((s) => hidden.includes(s.key))];
  for (const s of ordered) {
    const unit = s.unit ?? '';
    if (out.some((a) => a.unit === unit)) continue;
    if (unit === 'W' || unit === 'Wh') {
      const max = Math.max(
        0,
        ...series.filter((x) => (x.unit ?? '') === unit).flatMap((x) => x.values.map((v) => Math.abs(v ?? 0))),
      );
      const scaled = axisUnit(max, unit);
      out.push({ unit, divisor: scaled.divisor, name: scaled.unit });
    } else out.push({ unit, divisor: 1, name: displayUnit(unit) ?? '' });
  }
  return out;
}

/** Plotted values in the shown unit (a °C series in the user's temperature unit); the raw value stays for the tooltip. */
const inShownUnit = (points: CurvePoint[], unit: string | null | undefined): CurvePoint[] =>
  displayUnit(unit) === unit ? points : points.map(([m, v, raw]) => [m, v === null ? null : displayed(v, unit).value, raw]);

type DaySeries = DayChart['series'][number];

/**
 * The series a day chart draws: signed power (grid, battery: `flow`) as its two directions, each a
 * magnitude named "<parameter>: <direction>" (a direction never taken left out); the others as
 * they are. A part keeps its parameter's key in `param` (the legend's hidden keys name parameters).
 */
export function curveSeries(
  series: readonly DaySeries[],
  directions: Record<FlowDirection, string>,
  flowPalette: Record<FlowDirection, string>,
): Array<DaySeries & { param: string; color?: string }> {
  return series.flatMap((s) =>
    s.flow
      ? splitSigned(s.flow, s.values).map((part) => ({
          ...s,
          key: `${s.key}.${part.direction}`,
          name: `${s.name}: ${directions[part.direction]}`,
          values: part.values,
          param: s.key,
          color: flowPalette[part.direction],
        }))
      : [{ ...s, param: s.key }],
  );
}

/**
 * Day curves of any series. `hidden`: keys off in the legend at first (still one click away).
 * Series without a single value are left out; signed power is drawn as its two named directions.
 */
export function dayCurveOption(
  chart: Pick<DayChart, 'times' | 'series' | 'timezone'>,
  colors: ChartColors,
  opts: {
    /** The names of the four directions of grid and battery power. */
    directions: Record<FlowDirection, string>;
    hidden?: readonly string[];
    animation?: boolean;
    palette?: Record<string, string>;
  },
): ChartOption {
  const shown = curveSeries(chart.series, opts.directions, colors.series.flow).filter((s) => hasValues(s.values));
  const hiddenKeys = shown.filter((s) => opts.hidden?.includes(s.param)).map((s) => s.key);
  const axes = unitAxes(shown, hiddenKeys);
  const minutes = dayMinutes(chart.times, chart.timezone);
  const label = (s: DaySeries) => (s.unit ? `${s.name} (${displayUnit(s.unit)})` : s.name);
  // The other curves take the measurement colours the directions' colours leave free.
  const taken = new Set(shown.flatMap((s) => (s.color ? [s.color] : [])));
  const free = colors.series.measurement.filter((c) => !taken.has(c));
  let next = 0;
  const colour = (s: (typeof shown)[number]) => opts.palette?.[s.key] ?? s.color ?? free[next++ % free.length];
  const series: LineSeriesOption[] = shown.map((s) => {
    const axis = axes.findIndex((a) => a.unit === (s.unit ?? ''));
    return {
      id: s.key,
      name: label(s),
      type: 'line',
      showSymbol: false,
      connectNulls: false,
      yAxisIndex: Math.max(0, axis),
      itemStyle: { color: colour(s) },
      lineStyle: { width: 1.6 },
      data: inShownUnit(withGaps(minutes, s.values, axes[axis]?.divisor ?? 1), s.unit),
    };
  });
  const units = new Map(shown.map((s) => [label(s), s.unit]));
  const visibleAxes = Math.min(axes.length, MAX_AXES);
  const selected = Object.fromEntries(shown.map((s) => [label(s), !hiddenKeys.includes(s.key)]));
  return {
    animation: opts.animation ?? true,
    legend: { top: 0, type: 'scroll', textStyle: { color: colors.text }, data: series.map((s) => String(s.name)), selected },
    grid: {
      left: 56 + (visibleAxes > 2 ? AXIS_OFFSET : 0),
      right: visibleAxes > 1 ? 56 + (visibleAxes > 3 ? AXIS_OFFSET : 0) : 24,
      top: 44,
      bottom: 32,
    },
    tooltip: {
      ...tooltipBase(colors),
      formatter: (raw: unknown) =>
        curveTooltip(raw, (v, i) => formatValue(v, units.get(String(i.seriesName)) ?? null), checkedZone(chart.timezone)),
    },
    xAxis: dayAxis(colors),
    yAxis: (axes.length ? axes : [{ unit: '', divisor: 1, name: '' }]).map((a, i) => ({
      type: 'value' as const,
      name: a.name,
      position: i % 2 === 0 ? ('left' as const) : ('right' as const),
      offset: Math.floor(i / 2) * AXIS_OFFSET,
      show: i < MAX_AXES,
      scale: a.unit !== 'W' && a.unit !== 'Wh' && a.unit !== '%',
      ...axisBase(colors),
      ...(i > 0 ? { splitLine: { show: false } } : {}),
    })),
    series,
  };
}

/** The flows of a set of bars that carry energy (all asked ones when none does, so the chart says 0). */
export function energyKeysWithData(bars: EnergyBars, keys: readonly EnergyKey[]): EnergyKey[] {
  const used = keys.filter((k) => bars.bars.some((b) => (b[k] ?? 0) !== 0) || (bars.totals[k] ?? 0) !== 0);
  return used.length ? used : [...keys];
}

const noEnergy = { pv: 0, load: 0, gridImport: 0, gridExport: 0, charge: 0, discharge: 0, peakPower: null };

/**
 * The generation bars (inverter/gen) as energy bars carrying only the `pv` flow, so they are drawn
 * and summed like the other bars. A day's bars are its hours (labels HH:00, kept as they are).
 */
export function generationEnergyBars(gen: GenerationBars): EnergyBars {
  return {
    period: gen.period,
    date: gen.date,
    timezone: gen.timezone,
    totals: { ...noEnergy, pv: gen.energy },
    bars: gen.bars.map((b) => ({ ...noEnergy, label: b.label, pv: b.energy })),
  };
}

/** Energy bars of a month (days), a year (months) or all time (years); a day's hours (HH:00) as they are. */
export function energyBarsOption(
  bars: EnergyBars,
  keys: readonly EnergyKey[],
  labels: Record<EnergyKey, string>,
  language: string,
  colors: ChartColors,
  opts: { animation?: boolean } = {},
): ChartOption {
  const shown = energyKeysWithData(bars, keys);
  const unit = axisUnit(Math.max(0, ...bars.bars.flatMap((b) => shown.map((k) => b[k] ?? 0))), 'Wh');
  const period = bars.period === 'day' ? 'month' : bars.period;
  const series: BarSeriesOption[] = shown.map((k) => ({
    id: k,
    name: labels[k],
    type: 'bar',
    barMaxWidth: 22,
    itemStyle: { color: energyPalette(colors.series)[k], borderRadius: [3, 3, 0, 0] },
    data: bars.bars.map((b) => ({ value: (b[k] ?? 0) / unit.divisor, raw: b[k] ?? 0 }) as { value: number }),
  }));
  return {
    animation: opts.animation ?? true,
    legend: { top: 0, textStyle: { color: colors.text }, data: series.map((s) => String(s.name)) },
    grid: { left: 56, right: 24, top: 40, bottom: 32 },
    tooltip: {
      ...tooltipBase(colors),
      axisPointer: { type: 'shadow' },
      formatter: (raw: unknown) => {
        const items = (Array.isArray(raw) ? raw : [raw]) as TooltipItem[];
        const head = String(items[0]?.axisValue ?? '');
        const rows = items.map((i) => {
          const v = (i.data as { raw?: number } | undefined)?.raw ?? null;
          return `${i.marker ?? ''}${i.seriesName}: <b>${formatValue(v, 'Wh')}</b>`;
        });
        return [head, ...rows].join('<br/>');
      },
    },
    xAxis: {
      type: 'category',
      data: bars.bars.map((b) => barLabel(b.label, period, language)),
      ...axisBase(colors),
      splitLine: { show: false },
    },
    yAxis: { type: 'value', name: unit.unit, ...axisBase(colors) },
    series,
  };
}

/** The I–V plot: each input's operating points of the last hour (voltage → current), the latest one large. */
export function pvIvOption(
  data: PvIv,
  colors: ChartColors,
  timezone: string,
  labels: { voltage: string; current: string },
): ChartOption {
  const inputs = data.inputs.filter((i) => i.points.length > 0 || i.voltage !== null);
  const series: LineSeriesOption[] = inputs.map((input, n) => {
    const color = colors.series.measurement[n % colors.series.measurement.length];
    const points = input.points.map((p) => ({ value: [p.voltage, p.current], time: p.time, symbolSize: 4 }));
    const last = points.at(-1);
    if (last) last.symbolSize = 11;
    return {
      id: `pv${input.index}`,
      name: input.name,
      type: 'line',
      showSymbol: true,
      symbol: 'circle',
      itemStyle: { color },
      lineStyle: { width: 1, opacity: 0.35 },
      data: points as unknown as LineSeriesOption['data'],
    };
  });
  return {
    animation: false,
    legend: { top: 0, textStyle: { color: colors.text }, data: series.map((s) => String(s.name)) },
    grid: { left: 56, right: 32, top: 40, bottom: 40 },
    tooltip: {
      trigger: 'item',
      backgroundColor: colors.tooltipBg,
      borderColor: colors.axis,
      textStyle: { color: colors.text },
      formatter: (raw: unknown) => {
        const item = raw as TooltipItem & { data?: { value: [number, number]; time?: string } };
        const [v, a] = item.data?.value ?? [null, null];
        const at = item.data?.time ? `${hhmm(minuteOfDay(item.data.time, timezone))} (${checkedZone(timezone)})` : '';
        const power = v !== null && a !== null ? v * a : null;
        return `${item.marker ?? ''}${item.seriesName} · ${at}<br/>${formatValue(v, 'V')} · ${formatValue(a, 'A')} · <b>${formatValue(power, 'W')}</b>`;
      },
    },
    xAxis: {
      type: 'value',
      name: `${labels.voltage} (V)`,
      nameLocation: 'middle',
      nameGap: 26,
      scale: true,
      ...axisBase(colors),
    },
    yAxis: { type: 'value', name: `${labels.current} (A)`, min: 0, ...axisBase(colors) },
    series,
  };
}

/** A weather station's day as day-chart series (irradiance, temperatures, wind). */
export function weatherSeries(
  day: WeatherDay,
  timezone: string,
  names: { irradiance: string; ambientTemperature: string; moduleTemperature: string; windSpeed: string },
): Pick<DayChart, 'times' | 'series' | 'timezone'> {
  const col = (key: keyof typeof names, unit: string) => ({
    key,
    name: names[key],
    unit,
    flow: null,
    values: day.points.map((p) => p[key]),
  });
  return {
    timezone,
    times: day.points.map((p) => p.time),
    series: [col('irradiance', 'W/m²'), col('ambientTemperature', '°C'), col('moduleTemperature', '°C'), col('windSpeed', 'm/s')],
  };
}
