/**
 * Values far outside the rest of a series — a typo such as 999 among values of 2 to 30 — which a
 * forecast must not be fitted on: one such point breaks the seasonal checks (Theta's autocorrelation
 * test) and the ETS model choice, and the combination of their forecasts goes flat (fpp2 a10 with one
 * value set to 999: forecast MAE 3.8 against the clean series' forecast, 0 with the point replaced).
 * R's `tsclean` replaces every `tsoutliers` point before fitting; here only the gross ones are, since
 * replacing every listed outlier made competition forecasts worse (jobs/compute/forecast-compute.ts).
 *
 * A far value is one of `smoothOutliers`' outliers that lies beyond the range of the values that are
 * not outliers by more than FAR_RANGES times that range, alone (neither neighbour is an outlier too: a
 * run of outliers is a new level or an episode, not a slip). Only one with a value on both sides is replaced, by the
 * value the robust decomposition expects there; at either end of the series nothing on the other side
 * says whether it is a mistake or the start of a new level (the last values of growing yearly series
 * often are), so it is kept and only reported.
 */
import { smoothOutliers } from './outliers.js';

/**
 * How far beyond the range of the other values, in multiples of that range, a value must lie. On the
 * M1, M3 and tourism training series (5,315) this replaces one point in each of 2 series (M3 quarterly
 * N0832: sMAPE on the test periods 5.42 → 6.29, N0847: 10.83 → 10.57) and keeps the last value of 1
 * (tourism Y22); bench:forecast's sMAPE and MASE are unchanged. At 1 range (and only a far neighbour ending a
 * run) interior points of 38 series were replaced, real spikes of tourism series among them (M260:
 * 21.8 → 27.8). A run of outliers is left alone: M1
 * MND19's four high months are an episode.
 */
export const FAR_RANGES = 3;

export interface FarOutlier {
  /** Position in the series. */
  index: number;
  value: number;
  /** The value the robust decomposition expects there (what a replaced point is fitted as). */
  expected: number;
  /** Whether the fit used `expected` in its place (a point inside the series) or the value as recorded (an end). */
  replaced: boolean;
  /** The lowest and highest of the values that are not outliers. */
  usualLow: number;
  usualHigh: number;
}

/** The far values of y (period m), ascending; `excluded(t)` keeps a point out (a declared event explains it). */
export function farOutliers(y: Float64Array, m: number, excluded: (t: number) => boolean = () => false): FarOutlier[] {
  const found = smoothOutliers(y, m);
  if (found.indices.length === 0) return [];
  const flagged = new Set(found.indices);
  let low = Infinity, high = -Infinity;
  for (let t = 0; t < y.length; t++) {
    if (flagged.has(t)) continue;
    low = Math.min(low, y[t]);
    high = Math.max(high, y[t]);
  }
  const range = high - low;
  if (!(range > 0)) return [];
  const far = (t: number) => t >= 0 && t < y.length && (y[t] > high + FAR_RANGES * range || y[t] < low - FAR_RANGES * range);
  return found.indices
    .filter((t) => far(t) && !flagged.has(t - 1) && !flagged.has(t + 1) && !excluded(t))
    .map((t) => ({ index: t, value: y[t], expected: found.smoothed[t], replaced: t > 0 && t < y.length - 1, usualLow: low, usualHigh: high }));
}

/** y with the replaced far values set to their expected values (y itself when there are none). */
export function withoutFarOutliers(y: Float64Array, far: FarOutlier[]): Float64Array {
  if (!far.some((o) => o.replaced)) return y;
  const out = Float64Array.from(y);
  for (const o of far) if (o.replaced) out[o.index] = o.expected;
  return out;
}
