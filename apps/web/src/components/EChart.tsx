/**
 * One ECharts canvas that follows its option and its container's size, in the theme's colours
 * (value axes write numbers in the interface language, a legend entry switched off is grey); a
 * chart whose period has nothing to draw says so instead of showing empty axes.
 */
import { useEffect, useRef } from 'react';
import { type ChartColors, type ChartOption, hasChartData, themedOption } from '../lib/chart.ts';
import { ChartEmpty } from './ChartEmpty.tsx';
import { useChartColors } from './chartColors.ts';
import { type EChartsType, init } from './echarts.ts';

interface ChartProps {
  option: ChartOption;
  height?: number;
  testId?: string;
  ariaLabel?: string;
}

export function EChart({ emptyTestId, ...props }: ChartProps & { emptyTestId?: string }) {
  const colors = useChartColors();
  if (!hasChartData(props.option))
    return <ChartEmpty height={props.height ?? 320} testId={emptyTestId ?? (props.testId && `${props.testId}-empty`)} />;
  return <Canvas {...props} colors={colors} />;
}

function Canvas({ option, height = 320, testId, ariaLabel, colors }: ChartProps & { colors: ChartColors }) {
  const element = useRef<HTMLDivElement>(null);
  const chart = useRef<EChartsType | null>(null);

  useEffect(() => {
    const el = element.current;
    if (!el) return;
    const instance = init(el, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(el);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);

  useEffect(() => {
    // Replacing the series (not the whole chart) animates a refresh instead of redrawing from zero.
    chart.current?.setOption(themedOption(option, colors), { replaceMerge: ['series', 'xAxis', 'yAxis'] });
  }, [option, colors]);

  // The height the chart is given.
  return <div ref={element} role="img" aria-label={ariaLabel} data-testid={testId} style={{ width: '100%', height }} />;
}

/**
 * A chart drawn off screen, without animation, as a PNG data URL (for the PDF): the same
 * option in the print colours on a white background at twice the pixels, then the instance is thrown away. 840 px
 * drawn 560 pt wide keeps the chart's 12 px labels at a readable 8 pt.
 */
export function renderChartImage(
  option: ChartOption,
  colors: ChartColors,
  width = 1120,
  height = 480,
): { url: string; width: number; height: number } {
  const el = document.createElement('div');
  el.style.cssText = `position:fixed;left:-20000px;top:0;width:${width}px;height:${height}px;`;
  document.body.appendChild(el);
  const instance = init(el, undefined, { renderer: 'canvas', width, height });
  try {
    instance.setOption({ ...themedOption(option, colors), animation: false });
    const url = instance.getDataURL({ type: 'png', pixelRatio: 2, backgroundColor: '#ffffff' });
    return { url, width, height };
  } finally {
    instance.dispose();
    el.remove();
  }
}
