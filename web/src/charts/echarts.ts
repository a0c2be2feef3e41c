/** ECharts with only the parts the dashboard draws (tree-shaken), on canvas. */
import * as echarts from 'echarts/core';
import { BarChart, HeatmapChart, LineChart, ScatterChart } from 'echarts/charts';
import {
  AriaComponent, DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent,
  TitleComponent, TooltipComponent, VisualMapComponent,
} from 'echarts/components';
import { CanvasRenderer } from 'echarts/renderers';

echarts.use([
  BarChart, HeatmapChart, LineChart, ScatterChart,
  AriaComponent, DataZoomComponent, GridComponent, LegendComponent, MarkAreaComponent, MarkLineComponent,
  TitleComponent, TooltipComponent, VisualMapComponent, CanvasRenderer,
]);

export { echarts };
export type { EChartsCoreOption as ChartOption } from 'echarts/core';

/** Colours with at least 3:1 contrast on white, distinguishable with the common colour-vision deficiencies (Okabe–Ito based). */
export const PALETTE = {
  blue: '#0a5fb4',
  orange: '#c05a00',
  green: '#007a5a',
  purple: '#8b3d88',
  red: '#b42318',
  grey: '#5c6670',
  band: 'rgba(10, 95, 180, 0.18)',
  bandOuter: 'rgba(10, 95, 180, 0.10)',
  bandOrange: 'rgba(192, 90, 0, 0.18)',
};

export const BASE_TEXT = { color: '#1f2933', fontFamily: 'system-ui, -apple-system, "Segoe UI", Roboto, sans-serif' };
