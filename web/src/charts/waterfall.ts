import { PALETTE, type ChartOption } from './echarts';
import { axisName } from './common';
import { formatNumber } from '../lib/words';

/**
 * A waterfall of one prediction: the base value, then each column's contribution (largest first,
 * the rest gathered in one bar) stepping to the prediction. Invisible stacked bars carry each step's start.
 */
export function waterfallOption(base: number, contributions: { name: string; value: number }[], prediction: number, valueName: string, maxBars = 12): ChartOption {
  const sorted = [...contributions].sort((a, b) => Math.abs(b.value) - Math.abs(a.value));
  const shown = sorted.slice(0, maxBars);
  const rest = sorted.slice(maxBars).reduce((a, c) => a + c.value, 0);
  if (sorted.length > maxBars) shown.push({ name: `${sorted.length - maxBars} other columns`, value: rest });
  const names = ['base value', ...shown.map((c) => c.name), 'prediction'];
  // Steps as [from, to]; drawn as stacked bars above the lowest level reached (axis labels add it back),
  // so negative bases and predictions (log-odds) draw the same way as positive ones.
  const steps: [number, number][] = [[0, base]];
  let level = base;
  for (const c of shown) { steps.push([level, level + c.value]); level += c.value; }
  steps.push([0, prediction]);
  const floor = Math.min(0, ...steps.flat());
  const start = steps.map(([a, b]) => Math.min(a, b) - floor);
  const colours = [PALETTE.grey, ...shown.map((c) => (c.value < 0 ? PALETTE.orange : PALETTE.blue)), PALETTE.grey];
  const size = steps.map(([a, b], i) => ({ value: Math.abs(b - a), itemStyle: { color: colours[i]! } }));
  const labels = [base, ...shown.map((c) => c.value), prediction];
  return {
    grid: { left: 8, right: 56, top: 8, bottom: 40, containLabel: true },
    tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' }, formatter: (p: { dataIndex: number }[]) => `${names[p[0]!.dataIndex]}: ${formatNumber(labels[p[0]!.dataIndex]!, 4)}` },
    yAxis: { type: 'category', inverse: true, data: names, axisLabel: { width: 200, overflow: 'truncate' } },
    xAxis: { type: 'value', ...axisName(valueName, 28), axisLabel: { formatter: (v: number) => formatNumber(v + floor, 3) } },
    series: [
      { type: 'bar', stack: 'w', silent: true, itemStyle: { color: 'transparent' }, data: start },
      {
        type: 'bar', stack: 'w', data: size,
        label: { show: true, position: 'right', formatter: (p: { dataIndex: number }) => { const v = labels[p.dataIndex]!; const step = p.dataIndex > 0 && p.dataIndex < labels.length - 1; return `${step && v > 0 ? '+' : ''}${formatNumber(v, 3)}`; }, color: '#1f2933' },
      },
    ],
  };
}
