/**
 * Additive decomposition over several seasonal periods (an MSTL-like backfitting with moving-average
 * detrending), for hourly/daily data and for periods too long for seasonal ETS. Forecasting methods
 * run on the adjusted series and the seasonal components are added back.
 */
import { centredMovingAverage, seasonalFigure } from './decompose.js';
import type { PointForecast } from './types.js';

export interface SeasonalComponents {
  adjusted: Float64Array;
  figures: { period: number; figure: Float64Array }[];
  /** Variance of the estimate of one seasonal index, summed over the periods (the irregular variance over the cycles averaged). */
  indexVariance: number;
}

/** Periods usable on a series of length n: > 1, at least two full cycles, distinct, ascending. */
export function usablePeriods(periods: number[], n: number): number[] {
  const out = [...new Set(periods.map((p) => Math.round(p)))].filter((p) => p > 1 && n >= 2 * p);
  return out.sort((a, b) => a - b);
}

export function decomposeSeasonal(y: Float64Array, periods: number[], iterations = 2): SeasonalComponents {
  const n = y.length;
  const components = periods.map(() => new Float64Array(n));
  const figures: SeasonalComponents['figures'] = periods.map((period) => ({ period, figure: new Float64Array(period) }));
  const rest = new Float64Array(n);
  for (let it = 0; it < iterations; it++) {
    for (let c = 0; c < periods.length; c++) {
      for (let t = 0; t < n; t++) {
        let s = y[t];
        for (let o = 0; o < periods.length; o++) if (o !== c) s -= components[o][t];
        rest[t] = s;
      }
      const fig = seasonalFigure(rest, periods[c], 'additive');
      figures[c].figure = fig;
      for (let t = 0; t < n; t++) components[c][t] = fig[t % periods[c]];
    }
  }
  const adjusted = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    let s = y[t];
    for (const comp of components) s -= comp[t];
    adjusted[t] = s;
  }
  return { adjusted, figures, indexVariance: indexVariance(adjusted, periods) };
}

function indexVariance(adjusted: Float64Array, periods: number[]): number {
  const n = adjusted.length;
  const trend = centredMovingAverage(adjusted, periods[periods.length - 1]);
  let ss = 0, count = 0;
  for (let t = 0; t < n; t++) {
    if (Number.isNaN(trend[t])) continue;
    ss += (adjusted[t] - trend[t]) ** 2;
    count++;
  }
  if (count === 0) return 0;
  const irregular = ss / count;
  // Each index averages the detrended values at its position: about n/p − 1 of them.
  return periods.reduce((v, p) => v + irregular / Math.max(Math.floor(n / p) - 1, 1), 0);
}

/**
 * Adds the seasonal components back to a forecast (and fitted values) of the adjusted series; the
 * estimation error of the indices widens the spread.
 */
export function reseasonalise(f: PointForecast, parts: SeasonalComponents, n: number): PointForecast {
  const mean = Float64Array.from(f.mean);
  for (let k = 0; k < mean.length; k++) for (const { period, figure } of parts.figures) mean[k] += figure[(n + k) % period];
  let fitted: Float64Array | undefined;
  if (f.fitted) {
    fitted = Float64Array.from(f.fitted);
    for (let t = 0; t < n; t++) for (const { period, figure } of parts.figures) fitted[t] += figure[t % period];
  }
  return { mean, sd: f.sd.map((s) => Math.sqrt(s * s + parts.indexVariance)), fitted };
}
