/**
 * What every ECharts chart of the portal shares: the option type, text colours, axis, legend and
 * tooltip looks, bar labels, day curves on a 00:00–24:00 axis of minutes with gaps where samples
 * are missing, value axes labelled in the interface language, when a chart has nothing to draw,
 * and signed grid and battery power split into named directions.
 */
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { formatNumber } from './format.ts';
import type { SeriesPalette } from './palette.ts';

export type ChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

/** Text, line and series colours: the page's theme, or a fixed light set for the PDF. */
export interface ChartColors {
  /** The series colours of the company colour's palette, for the background the chart is drawn on. */
  series: SeriesPalette;
  text: string;
  muted: string;
  axis: string;
  split: string;
  tooltipBg: string;
  /** A legend entry switched off: its marker and its text. */
  inactive: string;
}
/** The PDF's colours: dark text on white, the series of the palette derived for white. */
export const printColors = (series: SeriesPalette): ChartColors => ({
  series,
  text: '#262626',
  muted: '#595959',
  axis: '#bfbfbf',
  split: '#f0f0f0',
  tooltipBg: '#ffffff',
  inactive: '#bfbfbf',
});

/** Bar labels: the day of the month, the month's short name, or the year. */
export function barLabel(label: string, period: 'month' | 'year' | 'total', language: string): string {
  if (period === 'month') return label.slice(8, 10) || label;
  if (period === 'year') {
    const month = Number(label.slice(5, 7));
    if (!(month >= 1 && month <= 12)) return label;
    return new Intl.DateTimeFormat(language, { month: 'short', timeZone: 'UTC' }).format(new Date(Date.UTC(2000, month - 1, 1)));
  }
  return label;
}

/** Axis lines, labels, split lines and axis names in the chart's colours. */
export function axisBase(colors: ChartColors) {
  return {
    axisLine: { lineStyle: { color: colors.axis } },
    axisLabel: { color: colors.muted },
    splitLine: { lineStyle: { color: colors.split } },
    nameTextStyle: { color: colors.muted },
  };
}

/** An axis tooltip in the chart's colours. */
export function tooltipBase(colors: ChartColors) {
  return {
    trigger: 'axis' as const,
    backgroundColor: colors.tooltipBg,
    borderColor: colors.axis,
    textStyle: { color: colors.text },
  };
}

/** A gap wider than this many minutes breaks a curve (three missing 5-minute buckets). */
export const GAP_MINUTES = 15;

/** Minutes after midnight as HH:MM. */
export const hhmm = (minutes: number) =>
  `${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;

/** A point of a day curve: [minute of the day, value on the axis's scale, raw value]. */
export type CurvePoint = [number, number | null, number | null];

/** Curve points, with a null between samples further apart than the gap. */
export function withGaps(minutes: readonly number[], values: ReadonlyArray<number | null>, divisor: number): CurvePoint[] {
  const out: CurvePoint[] = [];
  let last: number | null = null;
  minutes.forEach((m, i) => {
    const v = values[i] ?? null;
    if (last !== null && m - last > GAP_MINUTES) out.push([last + 1, null, null]);
    out.push([m, v === null ? null : v / divisor, v]);
    last = m;
  });
  return out;
}

/** Whether a series has at least one finite value (series without any are left out). */
export const hasValues = (values: ReadonlyArray<number | null>) => values.some((v) => v !== null && Number.isFinite(v));

/** The value a data item puts on the value axis: a number, `{ value }`, or `[x, y, …]` (its y). */
function plotted(item: unknown): number | null {
  if (typeof item === 'number') return Number.isFinite(item) ? item : null;
  if (Array.isArray(item)) return plotted(item.length > 1 ? item[1] : item[0]);
  if (item && typeof item === 'object' && 'value' in item) return plotted((item as { value: unknown }).value);
  return null;
}

/**
 * Whether a chart has anything to draw: some series holds a value. A missing value (null, '-')
 * is nothing; a bar of 0 is nothing either (bars are a period's sums, and a day or month without
 * rows is drawn as 0). Every chart goes through this (components/EChart.tsx): a period without
 * a value shows "No data for this period" instead of empty axes.
 */
export function hasChartData(option: { series?: unknown }): boolean {
  const series = (Array.isArray(option.series) ? option.series : option.series ? [option.series] : []) as Array<{
    type?: string;
    data?: unknown;
  }>;
  return series.some((s) => {
    const data = Array.isArray(s.data) ? s.data : [];
    return data.some((item) => {
      const v = plotted(item);
      return v !== null && (s.type !== 'bar' || v !== 0);
    });
  });
}

/**
 * Power with a sign, in the portal's one convention (the contracts' power fields; lib/energyFlow.ts
 * draws the flow by it): grid + import / − export, battery + discharge / − charge. A chart never
 * draws it as one signed curve: it splits it into its two directions, each a magnitude under its
 * own name ("Import" / "Export", "Discharge" / "Charge").
 */
export type SignedFlow = 'grid' | 'battery';
export type FlowDirection = 'gridImport' | 'gridExport' | 'discharge' | 'charge';
/** The direction of a positive value, then of a negative one. */
export const flowDirections: Record<SignedFlow, readonly [FlowDirection, FlowDirection]> = {
  grid: ['gridImport', 'gridExport'],
  battery: ['discharge', 'charge'],
};

/**
 * Signed values as their two directions' magnitudes: a value counts in the direction of its sign
 * (0 in the other), a missing value is missing in both. A direction that never carries power is
 * left out.
 */
export function splitSigned(
  flow: SignedFlow,
  values: ReadonlyArray<number | null>,
): Array<{ direction: FlowDirection; values: (number | null)[] }> {
  return splitSignedBand(flow, { avg: values, min: values, max: values }).map((p) => ({ direction: p.direction, values: p.avg }));
}

type Values = ReadonlyArray<number | null | undefined>;

/**
 * Signed averages with their band (each point's minimum and maximum, as downsampled curves
 * have) as their two directions' magnitudes: the average as `splitSigned` splits it, and each
 * direction's part of the band — the negative direction's band is the band turned around (its
 * highest magnitude comes from the lowest value). A direction no point reaches is left out.
 */
export function splitSignedBand(
  flow: SignedFlow,
  band: { avg: Values; min: Values; max: Values },
): Array<{ direction: FlowDirection; avg: (number | null)[]; min: (number | null)[]; max: (number | null)[] }> {
  const [positive, negative] = flowDirections[flow];
  const part = (values: Values, sign: 1 | -1) =>
    values.map((v) => (v === null || v === undefined || !Number.isFinite(v) ? null : Math.max(0, sign * v)));
  return [
    { direction: positive, avg: part(band.avg, 1), min: part(band.min, 1), max: part(band.max, 1) },
    { direction: negative, avg: part(band.avg, -1), min: part(band.max, -1), max: part(band.min, -1) },
  ].filter((p) => p.max.some((v) => v !== null && v > 0));
}

/** The 00:00–24:00 axis of a day curve, in minutes, labelled every two hours. */
export function dayAxis(colors: ChartColors) {
  return {
    type: 'value' as const,
    min: 0,
    max: 1440,
    interval: 120,
    ...axisBase(colors),
    splitLine: { show: false },
    axisLabel: { color: colors.muted, formatter: (v: number) => hhmm(v) },
  };
}

/** What ECharts hands a tooltip formatter about one series. */
export interface TooltipItem {
  seriesName?: string;
  seriesIndex?: number;
  seriesId?: string;
  marker?: unknown;
  value?: unknown;
  axisValue?: unknown;
  data?: unknown;
}

/**
 * A day curve's tooltip: the time (with its zone's name when given), then each series that has
 * a value there, its raw value written by `format`.
 */
export function curveTooltip(raw: unknown, format: (value: number, item: TooltipItem) => string, zone?: string): string {
  const items = (Array.isArray(raw) ? raw : [raw]) as TooltipItem[];
  const first = items[0]?.value as CurvePoint | undefined;
  const head = first ? `${hhmm(Math.round(first[0]))}${zone ? ` (${zone})` : ''}` : '';
  const rows = items.flatMap((i) => {
    const v = Array.isArray(i.value) ? (i.value as CurvePoint)[2] : null;
    return v === null ? [] : [`${i.marker ?? ''}${i.seriesName}: <b>${format(v, i)}</b>`];
  });
  return [head, ...rows].join('<br/>');
}

type Axis = { type?: string; axisLabel?: { formatter?: unknown } & Record<string, unknown> } & Record<string, unknown>;

/** A value axis labelled by `formatNumber` unless it has its own labels; other axes as they are. */
function numberAxis(axis: Axis, valueByDefault: boolean): Axis {
  const isValue = axis.type === 'value' || (axis.type === undefined && valueByDefault);
  if (!isValue || axis.axisLabel?.formatter !== undefined) return axis;
  return { ...axis, axisLabel: { ...axis.axisLabel, formatter: (v: number) => formatNumber(v) } };
}

const eachAxis = (axes: unknown, valueByDefault: boolean) =>
  Array.isArray(axes)
    ? axes.map((a) => numberAxis(a as Axis, valueByDefault))
    : axes && typeof axes === 'object'
      ? numberAxis(axes as Axis, valueByDefault)
      : axes;

/**
 * The option with its value axes' tick labels written in the interface language: ECharts writes
 * "1,234.5" whatever the language.
 */
export function withNumberAxes<T extends object>(option: T): T {
  const o = option as { xAxis?: unknown; yAxis?: unknown };
  // ECharts' y axis is a value axis unless it says otherwise; its x axis is a category axis.
  return {
    ...option,
    ...(o.xAxis === undefined ? {} : { xAxis: eachAxis(o.xAxis, false) }),
    ...(o.yAxis === undefined ? {} : { yAxis: eachAxis(o.yAxis, true) }),
  } as T;
}

type Legend = Record<string, unknown> & { textStyle?: Record<string, unknown>; lineStyle?: Record<string, unknown> };

/**
 * Legends in the theme's colours: text in the text colour unless the chart chose one, and an
 * entry switched off greyed out (marker, its border, its line and text) in the theme's disabled
 * colour, so it never looks like a shown one (ECharts' own grey is as light as a dark theme's
 * text). A line's marker is a filled circle: ECharts keeps an empty circle's centre white, which
 * stays bright when the entry is off.
 */
export function withLegendColors<T extends object>(option: T, colors: ChartColors): T {
  const theme = (legend: Legend): Legend => ({
    ...legend,
    inactiveColor: colors.inactive,
    inactiveBorderColor: colors.inactive,
    textStyle: { color: colors.text, ...legend.textStyle },
    lineStyle: { ...legend.lineStyle, inactiveColor: colors.inactive },
  });
  const o = option as { legend?: unknown; series?: unknown };
  if (o.legend === undefined || o.legend === null) return option;
  const legend = Array.isArray(o.legend) ? o.legend.map((l) => theme(l as Legend)) : theme(o.legend as Legend);
  const filled = (s: unknown) => {
    const line = s as { type?: string; symbol?: unknown };
    return line.type === 'line' && line.symbol === undefined ? { ...line, symbol: 'circle' } : s;
  };
  const series = Array.isArray(o.series) ? o.series.map(filled) : o.series === undefined ? undefined : filled(o.series);
  return { ...option, legend, ...(series === undefined ? {} : { series }) } as T;
}

/**
 * What every chart is drawn with (components/EChart.tsx, the PDF's images too): value axes in
 * the interface language and legends in the theme's colours.
 */
export const themedOption = <T extends object>(option: T, colors: ChartColors): T =>
  withLegendColors(withNumberAxes(option), colors);
