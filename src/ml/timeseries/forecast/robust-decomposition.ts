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

/**
 * Running median. Where the window does not fit (the first and last half window) the trend goes on in a
 * straight line, with the slope between the medians of the two windows nearest the end: a median of
 * the first full window held flat would stand a half window's rise away from a trending series' ends
 * and flag them. Series shorter than two windows keep the flat end (the window shifted inward).
 */
function runningMedian(y: Float64Array, window: number): Float64Array {
  const n = y.length;
  const w = Math.min(window, n);
  const h = Math.floor(w / 2);
  const out = new Float64Array(n);
  for (let t = 0; t < n; t++) {
    const from = Math.min(Math.max(0, t - h), n - w);
    out[t] = median(y.subarray(from, from + w));
  }
  if (n >= 2 * w) {
    const first = (out[h + w] - out[h]) / w;
    const last = (out[n - 1 - h] - out[n - 1 - h - w]) / w;
    for (let t = 0; t < h; t++) out[t] = out[h] - (h - t) * first;
    for (let t = n - h; t < n; t++) out[t] = out[n - 1 - h] + (t - (n - 1 - h)) * last;
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
