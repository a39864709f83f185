/**
 * The operation-data chart (pure, so it is tested without a canvas): one line per parameter (the
 * bucket averages when the server downsampled, with a min–max band under it), one y axis per
 * unit alternating left and right, times on a UTC axis shifted to the plant's wall clock, zoom
 * by wheel and slider, and a tooltip with every parameter's value at the pointer.
 */
import type { DataOf, workdataApi } from '@sunfleet/contracts';
import type { LineSeriesOption } from 'echarts/charts';
import type {
  DataZoomComponentOption,
  GridComponentOption,
  LegendComponentOption,
  TooltipComponentOption,
} from 'echarts/components';
import type { ComposeOption } from 'echarts/core';
import { printColors } from '../../lib/chart.ts';
import { workdataSeries } from '../../lib/palette.ts';
import { formatZoned } from '../../lib/zonedTime.ts';
import { chartInDisplayUnits, formatValue, paramTitle, wallClockMs } from './format.ts';

export type WorkdataChartData = DataOf<typeof workdataApi.workdataChart>;
export type WorkdataChartOption = ComposeOption<
  LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption | DataZoomComponentOption
>;

export const chartPalette = workdataSeries;
const AXIS_GAP = 58;

export interface ChartLabels {
  min: string;
  max: string;
  /** The interface language (the tooltip's time). */
  locale?: string;
}

const escapeHtml = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c);

/** The y axes: one per distinct unit (a parameter without a unit gets its own "" axis). */
export function unitAxes(data: WorkdataChartData): string[] {
  const units: string[] = [];
  for (const s of data.series) {
    const unit = data.params.find((p) => p.key === s.key)?.unit ?? '';
    if (!units.includes(unit)) units.push(unit);
  }
  return units;
}

export function workdataChartOption(
  measured: WorkdataChartData,
  labels: ChartLabels,
  colors: { text: string; grid: string } = { text: printColors.muted, grid: printColors.split },
): WorkdataChartOption {
  const data = chartInDisplayUnits(measured);
  const x = data.ts.map((ts) => wallClockMs(ts, data.timezone));
  const bucketed = data.bucketSeconds > 0;
  const units = unitAxes(data);
  const left = Math.ceil(units.length / 2);
  const right = Math.floor(units.length / 2);
  const paramOf = (key: string) => data.params.find((p) => p.key === key);

  const series: LineSeriesOption[] = [];
  data.series.forEach((s, i) => {
    const param = paramOf(s.key);
    const name = param ? paramTitle(param) : s.key;
    const color = chartPalette[i % chartPalette.length];
    const yAxisIndex = units.indexOf(param?.unit ?? '');
    if (bucketed) {
      // The band: the minimum (invisible) with the spread stacked on it. Same name as the line, so
      // the legend hides both together.
      const band = {
        name,
        type: 'line' as const,
        yAxisIndex,
        stack: `band-${s.key}`,
        silent: true,
        symbol: 'none',
        lineStyle: { opacity: 0 },
        color,
      };
      series.push({ ...band, data: x.map((t, j) => [t, s.min[j] ?? null]) });
      series.push({
        ...band,
        areaStyle: { color, opacity: 0.15 },
        data: x.map((t, j) => {
          const lo = s.min[j];
          const hi = s.max[j];
          return [t, lo === null || lo === undefined || hi === null || hi === undefined ? null : hi - lo];
        }),
      });
    }
    series.push({
      name,
      id: `line-${s.key}`,
      type: 'line',
      yAxisIndex,
      showSymbol: false,
      connectNulls: false,
      color,
      lineStyle: { width: 1.6 },
      emphasis: { focus: 'none' },
      data: x.map((t, j) => [t, s.avg[j] ?? null]),
    });
  });

  return {
    useUTC: true,
    animation: x.length < 1500,
    color: [...chartPalette],
    grid: { left: 16 + left * AXIS_GAP, right: 16 + Math.max(right, 0.3) * AXIS_GAP, top: 48, bottom: 64 },
    legend: {
      type: 'scroll',
      top: 0,
      data: data.series.map((s) => {
        const p = paramOf(s.key);
        return p ? paramTitle(p) : s.key;
      }),
      textStyle: { color: colors.text },
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw) => {
        const items = Array.isArray(raw) ? raw : [raw];
        const index = items[0]?.dataIndex;
        if (index === undefined) return '';
        const lines = [
          `<b>${escapeHtml(formatZoned(data.ts[index], data.timezone, labels.locale ?? 'en', { seconds: true }))}</b>`,
        ];
        data.series.forEach((s, i) => {
          const p = paramOf(s.key);
          const value = formatValue(s.avg[index] ?? null, p);
          const spread =
            bucketed && s.min[index] !== null && s.max[index] !== null
              ? ` <span style="opacity:.7">(${labels.min} ${formatValue(s.min[index] ?? null, p)} · ${labels.max} ${formatValue(s.max[index] ?? null, p)})</span>`
              : '';
          const dot = `<span style="display:inline-block;width:8px;height:8px;border-radius:4px;margin-right:6px;background:${chartPalette[i % chartPalette.length]}"></span>`;
          const shown = value === '--' ? value : `${value}${p?.unit ? ` ${p.unit}` : ''}`;
          lines.push(`${dot}${escapeHtml(p?.name ?? s.key)}: <b>${escapeHtml(shown)}</b>${spread}`);
        });
        return lines.join('<br/>');
      },
    },
    dataZoom: [
      { type: 'inside', xAxisIndex: 0, filterMode: 'none' },
      { type: 'slider', xAxisIndex: 0, filterMode: 'none', height: 22, bottom: 10 },
    ],
    xAxis: {
      type: 'time',
      axisLabel: { color: colors.text, hideOverlap: true },
      axisLine: { lineStyle: { color: colors.grid } },
      splitLine: { show: false },
    },
    yAxis: units.map((unit, i) => {
      const first = data.series.findIndex((s) => (paramOf(s.key)?.unit ?? '') === unit);
      const color = chartPalette[Math.max(first, 0) % chartPalette.length];
      return {
        type: 'value' as const,
        name: unit,
        scale: true,
        position: i % 2 === 0 ? ('left' as const) : ('right' as const),
        offset: Math.floor(i / 2) * AXIS_GAP,
        alignTicks: true,
        axisLine: { show: true, lineStyle: { color } },
        axisLabel: { color: colors.text, hideOverlap: true },
        nameTextStyle: { color: colors.text },
        splitLine: { show: i === 0, lineStyle: { color: colors.grid } },
      };
    }),
    series,
  };
}
