/**
 * The operation-data chart (pure, so it is tested without a canvas): one line per parameter (the
 * bucket averages when the server downsampled, with a min–max band under it) — signed grid and
 * battery power as its two named directions, never one signed curve — one y axis per unit
 * alternating left and right, times on a UTC axis shifted to the plant's wall clock, zoom by
 * wheel and slider, and a tooltip with every line's value at the pointer.
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
import { flowDirections, splitSignedBand } from '../../lib/chart.ts';
import type { SeriesPalette } from '../../lib/palette.ts';
import { formatZoned } from '../../lib/zonedTime.ts';
import type { FlowLabels } from './flowLabels.ts';
import { chartInDisplayUnits, formatValue, paramTitle, type WorkdataParam, wallClockMs } from './format.ts';

export type WorkdataChartData = DataOf<typeof workdataApi.workdataChart>;
export type WorkdataChartOption = ComposeOption<
  LineSeriesOption | GridComponentOption | LegendComponentOption | TooltipComponentOption | DataZoomComponentOption
>;

const AXIS_GAP = 58;

export interface ChartLabels extends FlowLabels {
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

/** A line the chart draws: one parameter, or one direction of a signed power parameter. */
interface Drawn {
  /** The parameter's key, or "<key>.<direction>". */
  id: string;
  param: WorkdataParam | undefined;
  /** Legend name (with the unit) and tooltip name. */
  legend: string;
  name: string;
  unit: string;
  color: string;
  avg: ReadonlyArray<number | null | undefined>;
  min: ReadonlyArray<number | null | undefined>;
  max: ReadonlyArray<number | null | undefined>;
}

/**
 * The lines of the chart: signed power (grid, battery: the parameter's `flow`) as its two
 * directions' magnitudes under their names ("Grid power: Import"), in the directions' colours, a
 * direction never taken left out (a parameter that is 0 throughout stays, as its first direction);
 * the others as they are, in the colours the directions leave free.
 */
function drawnLines(data: WorkdataChartData, labels: ChartLabels, palette: SeriesPalette): Drawn[] {
  const paramOf = (key: string) => data.params.find((p) => p.key === key);
  const lines: Array<Omit<Drawn, 'color'> & { color?: string }> = data.series.flatMap((s) => {
    const param = paramOf(s.key);
    const unit = param?.unit ?? '';
    const name = param?.name ?? s.key;
    if (!param?.flow) {
      const legend = param ? paramTitle(param, labels.signs) : s.key;
      return [{ id: s.key, param, legend, name, unit, avg: s.avg, min: s.min, max: s.max }];
    }
    const parts = splitSignedBand(param.flow, s);
    const shown = parts.length > 0 ? parts : [{ direction: flowDirections[param.flow][0], avg: s.avg, min: s.min, max: s.max }];
    return shown.map((part) => {
      const named = `${name}: ${labels.directions[part.direction]}`;
      return {
        id: `${s.key}.${part.direction}`,
        param,
        legend: paramTitle({ name: named, unit: param.unit, flow: null }, labels.signs),
        name: named,
        unit,
        color: palette.flow[part.direction],
        avg: part.avg,
        min: part.min,
        max: part.max,
      };
    });
  });
  const taken = new Set(lines.flatMap((l) => (l.color ? [l.color] : [])));
  const free = palette.workdata.filter((c) => !taken.has(c));
  let next = 0;
  return lines.map((l) => ({ ...l, color: l.color ?? free[next++ % free.length]! }));
}

export function workdataChartOption(
  measured: WorkdataChartData,
  labels: ChartLabels,
  colors: { text: string; grid: string; series: SeriesPalette },
): WorkdataChartOption {
  const data = chartInDisplayUnits(measured);
  const x = data.ts.map((ts) => wallClockMs(ts, data.timezone));
  const bucketed = data.bucketSeconds > 0;
  const units = unitAxes(data);
  const left = Math.ceil(units.length / 2);
  const right = Math.floor(units.length / 2);
  const lines = drawnLines(data, labels, colors.series);

  const series: LineSeriesOption[] = [];
  for (const line of lines) {
    const { color } = line;
    const yAxisIndex = units.indexOf(line.unit);
    if (bucketed) {
      // The band: the minimum (invisible) with the spread stacked on it. Same name as the line, so
      // the legend hides both together.
      const band = {
        name: line.legend,
        type: 'line' as const,
        yAxisIndex,
        stack: `band-${line.id}`,
        silent: true,
        symbol: 'none',
        lineStyle: { opacity: 0 },
        color,
      };
      series.push({ ...band, data: x.map((t, j) => [t, line.min[j] ?? null]) });
      series.push({
        ...band,
        areaStyle: { color, opacity: 0.15 },
        data: x.map((t, j) => {
          const lo = line.min[j];
          const hi = line.max[j];
          return [t, lo === null || lo === undefined || hi === null || hi === undefined ? null : hi - lo];
        }),
      });
    }
    series.push({
      name: line.legend,
      id: `line-${line.id}`,
      type: 'line',
      yAxisIndex,
      showSymbol: false,
      connectNulls: false,
      color,
      lineStyle: { width: 1.6 },
      emphasis: { focus: 'none' },
      data: x.map((t, j) => [t, line.avg[j] ?? null]),
    });
  }

  return {
    useUTC: true,
    animation: x.length < 1500,
    color: lines.map((l) => l.color),
    grid: { left: 16 + left * AXIS_GAP, right: 16 + Math.max(right, 0.3) * AXIS_GAP, top: 48, bottom: 64 },
    legend: {
      type: 'scroll',
      top: 0,
      data: lines.map((l) => l.legend),
      textStyle: { color: colors.text },
    },
    tooltip: {
      trigger: 'axis',
      confine: true,
      formatter: (raw) => {
        const items = Array.isArray(raw) ? raw : [raw];
        const index = items[0]?.dataIndex;
        if (index === undefined) return '';
        const rows = [
          `<b>${escapeHtml(formatZoned(data.ts[index], data.timezone, labels.locale ?? 'en', { seconds: true }))}</b>`,
        ];
        for (const line of lines) {
          const p = line.param;
          const lo = line.min[index] ?? null;
          const hi = line.max[index] ?? null;
          const value = formatValue(line.avg[index] ?? null, p);
          const spread =
            bucketed && lo !== null && hi !== null
              ? ` <span style="opacity:.7">(${labels.min} ${formatValue(lo, p)} · ${labels.max} ${formatValue(hi, p)})</span>`
              : '';
          const dot = `<span style="display:inline-block;width:8px;height:8px;border-radius:4px;margin-right:6px;background:${line.color}"></span>`;
          const shown = value === '--' ? value : `${value}${p?.unit ? ` ${p.unit}` : ''}`;
          rows.push(`${dot}${escapeHtml(line.name)}: <b>${escapeHtml(shown)}</b>${spread}`);
        }
        return rows.join('<br/>');
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
      const color = lines.find((l) => l.unit === unit)?.color ?? colors.series.workdata[i % colors.series.workdata.length];
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
