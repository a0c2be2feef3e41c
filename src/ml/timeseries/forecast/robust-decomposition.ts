/**
 * A robust decomposition for finding outliers: running-median trend and median seasonal profile, so
 * that a few wild points move neither.
 */
import { median } from '../../core/statistics.js';

export interface RobustFit {
  trend: Float64Array;
  /** Trend + season at each position. */
  expected: Float64Array;
  /** y − expected. */
  resid: Float64Array;
}

/** Running median; near the ends the window is shifted inward (not truncated) so it still spans a full cycle. */
function runningMedian(y: Float64Array, window: number): Float64Array {
  const n = y.length;
  const w = Math.min(window, n);
  const out = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const from = Math.min(Math.max(0, t - Math.floor(w / 2)), n - w);
    out[t] = median(y.subarray(from, from + w));
  }
  return out;
}

/** Median of y − trend at each position t mod m. */
function seasonalProfile(y: Float64Array, trend: Float64Array, m: number): Float64Array {
  const profile = new Float64Array(m);
  for (let j = 0; j < m; j++) {
    const d: number[] = [];
    for (let t = j; t < y.length; t += m) d.push(y[t] - trend[t]);
    profile[j] = median(d);
  }
  return profile;
}

/** Whether a series of length n is long enough for a seasonal profile of period m. */
export function hasSeason(n: number, m: number): boolean {
  return m > 1 && n >= 2 * m;
}

/** Fit of y with seasonal period m (no season when m < 2 or fewer than two cycles). */
export function robustFit(y: Float64Array, m: number): RobustFit {
  const n = y.length;
  const seasonal = hasSeason(n, m);
  // Two full cycles (odd length): the seasonal swing stays out of the trend, and the window is wide
  // enough that the trend does not absorb the noise (which would shrink the MAD and flag clean points).
  const window = seasonal ? 2 * m + 1 : 9;
  let trend: Float64Array = runningMedian(y, window);
  let profile: Float64Array = new Float64Array(1);
  if (seasonal) {
    // Two passes: a running median over a cycle picks out one day of the pattern and is noisy, so the
    // trend is re-estimated on the series with the first seasonal profile removed.
    profile = seasonalProfile(y, trend, m);
    trend = runningMedian(y.map((v, t) => v - profile[t % m]), window);
    profile = seasonalProfile(y, trend, m);
  }
  const expected = new Float64Array(n);
  const resid = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    expected[t] = trend[t] + (seasonal ? profile[t % m] : 0);
    resid[t] = y[t] - expected[t];
  }
  return { trend, expected, resid };
}
