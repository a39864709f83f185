/**
 * What every ECharts chart of the portal shares: the option type, text colours, axis and tooltip
 * looks, bar labels, day curves on a 00:00–24:00 axis of minutes with gaps where samples are
 * missing, and value axes labelled in the interface language.
 */
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { formatNumber } from './format.ts';

export type ChartOption = ComposeOption<
  LineSeriesOption | BarSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption
>;

/** Text and line colours: the page's theme, or a fixed light set for the PDF. */
export interface ChartColors {
  text: string;
  muted: string;
  axis: string;
  split: string;
  tooltipBg: string;
}
export const printColors: ChartColors = {
  text: '#262626',
  muted: '#595959',
  axis: '#bfbfbf',
  split: '#f0f0f0',
  tooltipBg: '#ffffff',
};

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
 * "1,234.5" whatever the language. Every chart goes through this (components/EChart.tsx).
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
