/** Time-series charts: forecast with intervals, impact (observed vs counterfactual, pointwise and cumulative effect). */
import { PALETTE, type ChartOption } from './echarts';
import { GRID, axisName } from './common';
import { formatNumber } from '../lib/words';
import { timeAxisOption } from '../lib/time-axis';

export type Point = [number, number];
export interface Band { name: string; lower: Point[]; upper: Point[]; color: string }

/**
 * A band between two series, drawn the ECharts way: an invisible lower line and a stacked
 * difference filled above it. Returns the two series.
 */
export function bandSeries(b: Band, stack: string) {
  const upperByTime = new Map(b.upper.map(([t, v]) => [t, v]));
  const diff = b.lower.map(([t, lo]): Point => [t, (upperByTime.get(t) ?? lo) - lo]);
  return [
    { name: b.name, type: 'line', data: b.lower, stack, stackStrategy: 'all', lineStyle: { opacity: 0 }, showSymbol: false, silent: true, tooltip: { show: false }, itemStyle: { color: b.color } },
    { name: b.name, type: 'line', data: diff, stack, stackStrategy: 'all', lineStyle: { opacity: 0 }, areaStyle: { color: b.color }, showSymbol: false, silent: true, tooltip: { show: false }, itemStyle: { color: b.color } },
  ];
}

/** Legend entries: lines as lines, bands as filled squares. */
function legend(lines: string[], bands: Band[]) {
  return { top: 0, data: [...lines, ...bands.map((b) => ({ name: b.name, icon: 'roundRect' }))] };
}

function tooltipTime(params: { seriesName: string; value: Point; marker: string }[]): string {
  const shown = params.filter((p) => Number.isFinite(p.value?.[1]));
  if (shown.length === 0) return '';
  const date = new Date(shown[0]!.value[0]).toISOString().slice(0, 10);
  return [date, ...shown.map((p) => `${p.marker}${p.seriesName}: ${formatNumber(p.value[1])}`)].join('<br/>');
}

export function forecastOption(o: {
  target: string; history: Point[]; forecast: Point[]; bands: Band[]; forecastStart: number;
  holdout?: { start: number; predicted?: Point[] };
  /** The target's outliers as recorded (the session lists them; it fits the series as recorded). */
  outliers?: Point[];
  /** The time the chart opens at (the slider reaches the earlier history). */
  zoomStart?: number;
}): ChartOption {
  const series: unknown[] = [];
  o.bands.forEach((b, i) => series.push(...bandSeries(b, `band${i}`)));
  series.push({ name: 'history', type: 'line', data: o.history, showSymbol: false, lineStyle: { width: 2, color: '#1f2933' }, itemStyle: { color: '#1f2933' } });
  series.push({
    name: 'forecast', type: 'line', data: o.forecast, showSymbol: o.forecast.length < 60, symbolSize: 4, lineStyle: { width: 2.5, color: PALETTE.blue }, itemStyle: { color: PALETTE.blue },
    markLine: { symbol: 'none', silent: true, lineStyle: { color: PALETTE.grey, type: 'dotted' }, label: { formatter: 'forecast starts', color: '#1f2933' }, data: [{ xAxis: o.forecastStart }] },
    ...(o.holdout ? { markArea: { silent: true, itemStyle: { color: 'rgba(139, 61, 136, 0.08)' }, label: { show: true, position: 'insideTop', formatter: 'holdout', color: PALETTE.purple }, data: [[{ xAxis: o.holdout.start }, { xAxis: o.forecastStart }]] } } : {}),
  });
  if (o.holdout?.predicted) series.push({ name: 'holdout prediction', type: 'line', data: o.holdout.predicted, showSymbol: false, lineStyle: { width: 2, type: 'dashed', color: PALETTE.purple }, itemStyle: { color: PALETTE.purple } });
  if (o.outliers && o.outliers.length > 0) series.push({ name: 'outliers found', type: 'scatter', data: o.outliers, symbol: 'diamond', symbolSize: 9, itemStyle: { color: PALETTE.orange } });
  return {
    grid: { ...GRID, top: 56 },
    legend: legend(['history', 'forecast', ...(o.holdout?.predicted ? ['holdout prediction'] : []), ...(o.outliers?.length ? ['outliers found'] : [])], o.bands),
    tooltip: { trigger: 'axis', formatter: tooltipTime as never },
    ...timeAxisOption([...o.history, ...o.forecast].map((p) => p[0])),
    yAxis: { type: 'value', scale: true, ...axisName(o.target, 48) },
    dataZoom: [{ type: 'inside', ...(o.zoomStart !== undefined ? { startValue: o.zoomStart } : {}) }, { type: 'slider', height: 18, bottom: 4, ...(o.zoomStart !== undefined ? { startValue: o.zoomStart } : {}) }],
    series,
  } as ChartOption;
}

/** Observed series against the counterfactual (what the model expected without the event), with its band; the event window shaded. */
export function impactOption(o: { target: string; observed: Point[]; counterfactual: Point[]; band?: Band; window: [number, number] }): ChartOption {
  const series: unknown[] = [];
  if (o.band) series.push(...bandSeries(o.band, 'band'));
  series.push({
    name: 'observed', type: 'line', data: o.observed, showSymbol: false, lineStyle: { width: 2, color: '#1f2933' }, itemStyle: { color: '#1f2933' },
    markArea: { silent: true, itemStyle: { color: 'rgba(192, 90, 0, 0.08)' }, label: { show: true, position: 'insideTop', formatter: 'event window', color: PALETTE.orange }, data: [[{ xAxis: o.window[0] }, { xAxis: o.window[1] }]] },
  });
  series.push({ name: 'without the event (counterfactual)', type: 'line', data: o.counterfactual, showSymbol: false, lineStyle: { width: 2.5, type: 'dashed', color: PALETTE.blue }, itemStyle: { color: PALETTE.blue } });
  return {
    grid: { ...GRID, top: 56 },
    legend: legend(['observed', 'without the event (counterfactual)'], o.band ? [o.band] : []),
    tooltip: { trigger: 'axis', formatter: tooltipTime as never },
    ...timeAxisOption(o.observed.map((p) => p[0])),
    yAxis: { type: 'value', scale: true, ...axisName(o.target, 48) },
    series,
  } as ChartOption;
}

/** An effect over time (pointwise or cumulative) with its band and the zero line. */
export function effectOption(o: { name: string; effect: Point[]; band?: Band; unit: string }): ChartOption {
  const series: unknown[] = [];
  if (o.band) series.push(...bandSeries(o.band, 'band'));
  series.push({
    name: o.name, type: 'line', data: o.effect, showSymbol: o.effect.length < 40, lineStyle: { width: 2.5, color: PALETTE.orange }, itemStyle: { color: PALETTE.orange },
    markLine: { symbol: 'none', silent: true, lineStyle: { color: PALETTE.grey }, label: { show: false }, data: [{ yAxis: 0 }] },
  });
  return {
    grid: { ...GRID, top: 40 },
    legend: legend([o.name], o.band ? [o.band] : []),
    tooltip: { trigger: 'axis', formatter: tooltipTime as never },
    ...timeAxisOption(o.effect.map((p) => p[0])),
    yAxis: { type: 'value', scale: true, ...axisName(o.unit, 48) },
    series,
  } as ChartOption;
}
