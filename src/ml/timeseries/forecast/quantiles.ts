/** Quantile forecasts and central intervals from a Gaussian forecast. */
import { normalQuantile } from '../../core/statistics.js';
import type { PointForecast, PredictionInterval } from './types.js';

export const DEFAULT_LEVELS = [0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95];

/** `floor` bounds every quantile from below (0 for strictly positive data). */
export function quantileForecasts(f: PointForecast, levels: number[], floor = -Infinity): Record<string, Float64Array> {
  const out: Record<string, Float64Array> = {};
  for (const p of levels) {
    if (!(p > 0 && p < 1)) throw new RangeError(`quantile level ${p} is not in (0, 1)`);
    const z = normalQuantile(p);
    out[String(p)] = f.mean.map((m, k) => Math.max(floor, Number.isFinite(f.sd[k]) ? m + z * f.sd[k] : m));
  }
  return out;
}

/** Central intervals keyed by coverage 1 − 2p, one per level p < 0.5. */
export function centralIntervals(f: PointForecast, levels: number[], floor = -Infinity): Record<string, PredictionInterval> {
  const out: Record<string, PredictionInterval> = {};
  for (const p of levels) {
    if (!(p > 0 && p < 0.5)) continue;
    const q = quantileForecasts(f, [p, 1 - p], floor);
    const coverage = Math.round((1 - 2 * p) * 1e9) / 1e9;
    out[String(coverage)] = { lower: q[String(p)], upper: q[String(1 - p)] };
  }
  return out;
}
