/** Pictures of a data set's own values: small histograms, a column over time. */
import { PALETTE, type ChartOption } from './echarts';
import { axisName, singleHistogram } from './common';
import type { Histogram } from '../lib/histogram';
import { formatNumber } from '../lib/words';
import { timeAxisOption } from '../lib/time-axis';

/** A histogram small enough to set many side by side: no axis titles (the card names the column), few labels. */
export function smallHistogramOption(h: Histogram, column: string): ChartOption {
  const full = singleHistogram(h, column) as Record<string, unknown>;
  return {
    ...full,
    grid: { left: 8, right: 16, top: 12, bottom: 8, containLabel: true },
    xAxis: { type: 'value', min: h.edges[0], max: h.edges[h.edges.length - 1], axisLabel: { formatter: (v: number) => formatNumber(v, 3), hideOverlap: true } },
    yAxis: { type: 'value', minInterval: 1, splitNumber: 3 },
  };
}

/** One column over time, with a slider to look closer at a long series. */
export function overTimeOption(points: [number, number][], column: string): ChartOption {
  return {
    grid: { left: 56, right: 24, top: 24, bottom: 64, containLabel: true },
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => formatNumber(Number(v)) },
    ...timeAxisOption(points.map((p) => p[0])),
    yAxis: { type: 'value', scale: true, ...axisName(column, 48) },
    dataZoom: [{ type: 'inside' }, { type: 'slider', height: 18, bottom: 4 }],
    series: [{ name: column, type: 'line', data: points, showSymbol: points.length < 60, symbolSize: 4, lineStyle: { width: 2, color: PALETTE.blue }, itemStyle: { color: PALETTE.blue } }],
  };
}
