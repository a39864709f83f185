/** Chart text and line colours from the antd theme and series colours from the palette, so charts follow the portal's theme. */
import { theme } from 'antd';
import { useMemo } from 'react';
import type { ChartColors } from '../lib/chart.ts';
import { usePalette } from './palette.ts';

export function useChartColors(): ChartColors {
  const { token } = theme.useToken();
  const { colorText, colorTextSecondary, colorBorder, colorSplit, colorBgElevated, colorTextDisabled } = token;
  const palette = usePalette();
  return useMemo(
    () => ({
      series: palette,
      text: colorText,
      muted: colorTextSecondary,
      axis: colorBorder,
      split: colorSplit,
      tooltipBg: colorBgElevated,
      inactive: colorTextDisabled,
    }),
    [palette, colorText, colorTextSecondary, colorBorder, colorSplit, colorBgElevated, colorTextDisabled],
  );
}
