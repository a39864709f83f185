/**
 * ECharts, tree-shaken: only the core, the line and bar charts, the components the overview
 * uses and the canvas renderer are bundled. Loaded with the lazy overview page.
 */
import { BarChart, LineChart } from 'echarts/charts';
import { GridComponent, LegendComponent, TooltipComponent } from 'echarts/components';
import { init, use } from 'echarts/core';
import { CanvasRenderer } from 'echarts/renderers';

use([LineChart, BarChart, GridComponent, LegendComponent, TooltipComponent, CanvasRenderer]);

export type { EChartsType } from 'echarts/core';
export { init };
