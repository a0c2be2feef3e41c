/** Classical decomposition and the seasonality test used by Theta (as in R's decompose / thetaf). */
import { mean, normalQuantile } from '../../core/statistics.js';
import { acf } from './stats.js';

/** Centred moving average of order m (2×m when m is even); NaN where the window does not fit. */
export function centredMovingAverage(y: ArrayLike<number>, m: number): Float64Array {
  const n = y.length;
  const out = new Float64Array(n).fill(NaN);
  const half = Math.floor(m / 2);
  for (let t = half; t < n - half; t++) {
    let s = 0;
    if (m % 2 === 1) {
      for (let j = -half; j <= half; j++) s += y[t + j];
      out[t] = s / m;
    } else {
      s = 0.5 * y[t - half] + 0.5 * y[t + half];
      for (let j = -half + 1; j < half; j++) s += y[t + j];
      out[t] = s / m;
    }
  }
  return out;
}

/**
 * Seasonal figure of a classical decomposition: one index per position t mod m,
 * normalised to mean 1 (multiplicative) or 0 (additive). Needs n ≥ 2m.
 */
export function seasonalFigure(y: ArrayLike<number>, m: number, type: 'additive' | 'multiplicative'): Float64Array {
  const trend = centredMovingAverage(y, m);
  const sums = new Float64Array(m);
  const counts = new Float64Array(m);
  for (let t = 0; t < y.length; t++) {
    if (Number.isNaN(trend[t])) continue;
    const d = type === 'additive' ? y[t] - trend[t] : y[t] / trend[t];
    if (!Number.isFinite(d)) continue;
    sums[t % m] += d;
    counts[t % m]++;
  }
  const fig = new Float64Array(m);
  for (let j = 0; j < m; j++) fig[j] = counts[j] > 0 ? sums[j] / counts[j] : type === 'additive' ? 0 : 1;
  const mu = mean(fig);
  for (let j = 0; j < m; j++) fig[j] = type === 'additive' ? fig[j] - mu : fig[j] / mu;
  return fig;
}

/**
 * thetaf's test: the lag-m autocorrelation is significant at 90 % (one-sided) against
 * Bartlett's standard error. Requires n ≥ 2m and a non-constant series.
 */
export function isSeasonal(y: ArrayLike<number>, m: number): boolean {
  const n = y.length;
  if (m <= 1 || n < 2 * m) return false;
  const r = acf(y, m);
  let s = 0;
  for (let k = 0; k < m - 1; k++) s += r[k] * r[k];
  const se = Math.sqrt((1 + 2 * s) / n);
  return Math.abs(r[m - 1]) / se > normalQuantile(0.95);
}
