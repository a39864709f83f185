/** What every ECharts chart of the portal shares: the option type, text colours, bar labels. */
import type { BarSeriesOption, LineSeriesOption } from 'echarts/charts';
import type { GridComponentOption, LegendComponentOption, TooltipComponentOption } from 'echarts/components';
import type { ComposeOption } from 'echarts/core';

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
