/** What every ECharts chart of the portal shares: the option type, text colours, bar labels, number axes. */
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
