/**
 * The ECharts canvas as its own chunk: a page with a chart paints first and runs ECharts
 * (about 150 KiB compressed) after, in the place a skeleton of the chart's size holds, so
 * nothing moves when it arrives. `preloadEChart` starts the download early (while the chart's
 * data loads) without blocking the paint.
 */
import { type ComponentProps, lazy, Suspense } from 'react';
import { ChartSkeleton } from './ChartSkeleton.tsx';

const load = () => import('./EChart.tsx');
let loading: ReturnType<typeof load> | null = null;

/** Fetch the chart code once; later calls share the same download. */
export function preloadEChart(): ReturnType<typeof load> {
  loading ??= load();
  return loading;
}

const Chart = lazy(() => preloadEChart().then((m) => ({ default: m.EChart })));

export function LazyEChart(props: ComponentProps<typeof Chart>) {
  return (
    <Suspense fallback={<ChartSkeleton height={props.height ?? 320} />}>
      <Chart {...props} />
    </Suspense>
  );
}
