import { PALETTE, type ChartOption } from './echarts';
import type { Histogram } from '../lib/curves';
import { formatNumber } from '../lib/words';

export const GRID = { left: 56, right: 24, top: 40, bottom: 48, containLabel: true };

export function axisName(name: string, gap = 32) {
  return { name, nameLocation: 'middle' as const, nameGap: gap, nameTextStyle: { color: '#1f2933', fontWeight: 600 as const } };
}

/** Bars of a histogram, one series per group (e.g. per actual class), with an optional marked value. */
export function histogramOption(h: { edges: number[]; groups: { name: string; counts: number[]; color: string }[] }, xName: string, mark?: { value: number; label: string }): ChartOption {
  const centres = h.edges.slice(0, -1).map((e, i) => (e + h.edges[i + 1]!) / 2);
  return {
    grid: GRID,
    legend: h.groups.length > 1 ? { top: 0 } : undefined,
    tooltip: { trigger: 'axis', valueFormatter: (v: unknown) => String(v) },
    xAxis: { type: 'value', min: h.edges[0], max: h.edges[h.edges.length - 1], ...axisName(xName), axisLabel: { formatter: (v: number) => formatNumber(v, 3) } },
    yAxis: { type: 'value', ...axisName('Rows', 40), minInterval: 1 },
    series: h.groups.map((g, gi) => ({
      name: g.name,
      type: 'bar',
      stack: 'all',
      barWidth: '95%',
      itemStyle: { color: g.color },
      data: centres.map((c, i) => [c, g.counts[i]]),
      ...(gi === 0 && mark ? { markLine: { symbol: 'none', lineStyle: { color: PALETTE.red, type: 'dashed', width: 2 }, label: { formatter: mark.label, color: PALETTE.red }, data: [{ xAxis: mark.value }] } } : {}),
    })),
  };
}

export function singleHistogram(h: Histogram, xName: string, color: string = PALETTE.blue, mark?: { value: number; label: string }): ChartOption {
  return histogramOption({ edges: h.edges, groups: [{ name: xName, counts: h.counts, color }] }, xName, mark);
}

/** Horizontal bars, largest first (feature importance, explanations, class scores). */
export function barsOption(items: { name: string; value: number }[], valueName: string, signed = false): ChartOption {
  const rows = [...items].reverse();
  return {
    grid: { left: 8, right: 32, top: 8, bottom: 40, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, valueFormatter: (v: unknown) => formatNumber(Number(v)) },
    xAxis: { type: 'value', ...axisName(valueName, 28), axisLabel: { formatter: (v: number) => formatNumber(v, 3) } },
    yAxis: { type: 'category', data: rows.map((r) => r.name), axisLabel: { width: 200, overflow: 'truncate' } },
    series: [{
      type: 'bar',
      data: rows.map((r) => ({ value: r.value, itemStyle: { color: signed && r.value < 0 ? PALETTE.orange : PALETTE.blue } })),
      label: { show: rows.length <= 25, position: 'right', formatter: (p: { value: number }) => formatNumber(p.value, 3), color: '#1f2933' },
    }],
  };
}
