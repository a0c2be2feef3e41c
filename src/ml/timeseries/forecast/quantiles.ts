/** Quantile forecasts and central intervals from a Gaussian forecast. */
import { normalQuantile } from '../../core/statistics.js';
import type { PointForecast, PredictionInterval } from './types.js';

export const DEFAULT_LEVELS = [0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95];

/** Student's t degrees of freedom below this are taken as this (the expansion below holds from here). */
const MIN_DOF = 2;

/**
 * Quantile of Student's t with ν degrees of freedom by the Cornish–Fisher expansion around the
 * normal quantile (Abramowitz–Stegun 26.7.5; within 3 % of the exact value at ν = 2, 0.5 % at ν = 3).
 */
export function studentTQuantile(p: number, dof: number): number {
  const z = normalQuantile(p);
  if (!Number.isFinite(dof)) return z;
  const v = Math.max(dof, MIN_DOF);
  const z2 = z * z;
  return z
    + (z * (z2 + 1)) / (4 * v)
    + (z * ((5 * z2 + 16) * z2 + 3)) / (96 * v * v)
    + (z * (((3 * z2 + 19) * z2 + 17) * z2 - 15)) / (384 * v ** 3)
    + (z * ((((79 * z2 + 776) * z2 + 1482) * z2 - 1920) * z2 - 945)) / (92160 * v ** 4);
}

/** `floor` bounds every quantile from below (0 for data never negative). */
export function quantileForecasts(f: PointForecast, levels: number[], floor = -Infinity): Record<string, Float64Array> {
  const out: Record<string, Float64Array> = {};
  for (const p of levels) {
    if (!(p > 0 && p < 1)) throw new RangeError(`quantile level ${p} is not in (0, 1)`);
    const z = f.dof === undefined ? normalQuantile(p) : studentTQuantile(p, f.dof);
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
