/** Chart text and line colours from the antd theme, so charts follow the portal's theme. */
import { theme } from 'antd';
import { useMemo } from 'react';
import type { ChartColors } from '../lib/chart.ts';

export function useChartColors(): ChartColors {
  const { token } = theme.useToken();
  const { colorText, colorTextSecondary, colorBorder, colorSplit, colorBgElevated, colorTextDisabled } = token;
  return useMemo(
    () => ({
      text: colorText,
      muted: colorTextSecondary,
      axis: colorBorder,
      split: colorSplit,
      tooltipBg: colorBgElevated,
      inactive: colorTextDisabled,
    }),
    [colorText, colorTextSecondary, colorBorder, colorSplit, colorBgElevated, colorTextDisabled],
  );
}
