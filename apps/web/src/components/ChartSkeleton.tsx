/** A chart's place while its data loads: a skeleton block of the chart's height. */
import { Skeleton } from 'antd';

export function ChartSkeleton({ height }: { height: number }) {
  // The height of the chart it stands for.
  return <Skeleton.Node active style={{ width: '100%', height }} />;
}
