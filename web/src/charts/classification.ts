import { PALETTE, type ChartOption } from './echarts';
import { GRID, axisName } from './common';
import type { ReliabilityBin } from '../lib/curves';
import { formatNumber } from '../lib/words';
import { confusionLayout, type ConfusionLayout } from '../lib/confusion-layout';

/** Confusion matrix as a heat map: rows are the actual class, columns the predicted one; each cell shows its count. */
export function confusionOption(classes: string[], matrix: number[][], layout: ConfusionLayout = confusionLayout(classes)): ChartOption {
  const cells: [number, number, number][] = [];
  let max = 0;
  matrix.forEach((row, a) => row.forEach((n, p) => { cells.push([p, classes.length - 1 - a, n]); max = Math.max(max, n); }));
  // The grid is placed by hand, not fitted to the labels: each axis title then sits at a known distance
  // beyond the widest (cut) class name, where it neither overlaps the names nor falls off the canvas.
  const titleRoom = 24;
  const rotated = layout.xLabelRotate !== 0;
  const xLabelHeight = rotated ? Math.round(layout.yLabelWidth * 0.75) : 20;
  return {
    grid: { left: titleRoom + layout.yLabelWidth + 8, right: 16, top: 16, bottom: xLabelHeight + 36 },
    tooltip: { formatter: (p: { value: [number, number, number] }) => `actual ${classes[classes.length - 1 - p.value[1]]}, predicted ${classes[p.value[0]]}: ${p.value[2]}` },
    xAxis: { type: 'category', data: classes, ...axisName('Predicted class', xLabelHeight + 14), axisLabel: { rotate: layout.xLabelRotate, interval: 0, width: 120, overflow: 'truncate' }, splitArea: { show: true } },
    yAxis: { type: 'category', data: [...classes].reverse(), ...axisName('Actual class', layout.yLabelWidth + 14), axisLabel: { interval: 0, width: layout.yLabelWidth, overflow: 'truncate' }, splitArea: { show: true } },
    visualMap: { min: 0, max: Math.max(1, max), calculable: false, orient: 'horizontal', left: 'center', bottom: 0, show: false, inRange: { color: ['#f4f8fc', '#0a5fb4'] } },
    series: [{
      type: 'heatmap',
      // White numbers on the dark cells (counts above about half the largest), dark ones on the light cells.
      data: cells.map((value) => (value[2] > max * 0.55 ? { value, label: { color: '#fff' } } : { value })),
      label: {
        show: true, fontSize: layout.cellFontSize, fontWeight: layout.cellFontSize >= 12 ? 600 : 400, color: '#111',
        formatter: (p: { value: [number, number, number] }) => (p.value[2] === 0 && !layout.showZeros ? '' : String(p.value[2])),
      },
      itemStyle: { borderColor: '#fff', borderWidth: layout.showZeros ? 2 : 1 },
      emphasis: { itemStyle: { borderColor: '#1f2933', borderWidth: 2 } },
    }],
  };
}

function curve(points: [number, number][], name: string, color: string, step = false) {
  return { name, type: 'line', data: points, showSymbol: false, step: step ? 'end' : undefined, lineStyle: { width: 2.5, color }, itemStyle: { color } };
}

function diagonal(name: string) {
  return { name, type: 'line', data: [[0, 0], [1, 1]], showSymbol: false, lineStyle: { type: 'dashed', color: PALETTE.grey, width: 1.5 }, itemStyle: { color: PALETTE.grey }, tooltip: { show: false } };
}

const unitAxis = (name: string, gap = 30) => ({ type: 'value' as const, min: 0, max: 1, ...axisName(name, gap), axisLabel: { formatter: (v: number) => formatNumber(v, 2) } });

export function rocOption(points: [number, number][], auc: number, positive: string): ChartOption {
  return {
    grid: GRID,
    legend: { top: 0 },
    tooltip: { trigger: 'item', formatter: (p: { value: [number, number] }) => `false-positive rate ${formatNumber(p.value[0], 3)}, true-positive rate ${formatNumber(p.value[1], 3)}` },
    xAxis: unitAxis('False-positive rate'),
    yAxis: unitAxis('True-positive rate', 40),
    series: [curve(points, `${positive} (AUC ${formatNumber(auc, 3)})`, PALETTE.blue), diagonal('chance')],
  };
}

export function prOption(points: [number, number][], ap: number, baseline: number, positive: string): ChartOption {
  return {
    grid: GRID,
    legend: { top: 0 },
    tooltip: { trigger: 'item', formatter: (p: { value: [number, number] }) => `recall ${formatNumber(p.value[0], 3)}, precision ${formatNumber(p.value[1], 3)}` },
    xAxis: unitAxis('Recall'),
    yAxis: unitAxis('Precision', 40),
    series: [
      curve(points, `${positive} (average precision ${formatNumber(ap, 3)})`, PALETTE.blue, true),
      { name: `chance (${formatNumber(baseline, 2)})`, type: 'line', data: [[0, baseline], [1, baseline]], showSymbol: false, lineStyle: { type: 'dashed', color: PALETTE.grey, width: 1.5 }, itemStyle: { color: PALETTE.grey } },
    ],
  };
}

export function reliabilityOption(bins: ReliabilityBin[], positive: string): ChartOption {
  return {
    grid: GRID,
    legend: { top: 0 },
    tooltip: { trigger: 'item', formatter: (p: { value: [number, number, number] }) => `predicted ${formatNumber(p.value[0], 3)}, observed ${formatNumber(p.value[1], 3)} (${p.value[2]} rows)` },
    xAxis: unitAxis('Predicted probability'),
    yAxis: unitAxis('Observed frequency', 40),
    series: [
      { name: positive, type: 'line', data: bins.map((b) => [b.meanPredicted, b.observed, b.count]), symbolSize: (v: [number, number, number]) => Math.min(18, 5 + Math.sqrt(v[2])), lineStyle: { width: 2.5, color: PALETTE.blue }, itemStyle: { color: PALETTE.blue } },
      diagonal('perfectly calibrated'),
    ],
  };
}

/** Predicted against actual values of the test rows (regression), with the line of perfect predictions. */
export function predictedActualOption(points: [number, number][], target: string): ChartOption {
  const all = points.flat().filter(Number.isFinite);
  const lo = Math.min(...all);
  const hi = Math.max(...all);
  return {
    grid: GRID,
    legend: { top: 0 },
    tooltip: { trigger: 'item', formatter: (p: { value: [number, number] }) => `actual ${formatNumber(p.value[0])}, predicted ${formatNumber(p.value[1])}` },
    xAxis: { type: 'value', scale: true, ...axisName(`Actual ${target}`) },
    yAxis: { type: 'value', scale: true, ...axisName(`Predicted ${target}`, 48) },
    series: [
      { name: 'test rows', type: 'scatter', data: points, symbolSize: 6, itemStyle: { color: PALETTE.blue, opacity: 0.7 } },
      { name: 'perfect prediction', type: 'line', data: [[lo, lo], [hi, hi]], showSymbol: false, lineStyle: { type: 'dashed', color: PALETTE.grey }, itemStyle: { color: PALETTE.grey }, tooltip: { show: false } },
    ],
  };
}
