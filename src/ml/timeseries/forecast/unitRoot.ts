/** Differencing decisions for ARIMA, as R's ndiffs (KPSS) and nsdiffs (seasonal strength). */
import { centredMovingAverage } from './decompose.js';
import { isConstant } from './stats.js';

/** 5 % critical value of the KPSS level-stationarity test. */
const KPSS_CRITICAL = 0.463;
/** nsdiffs' threshold on the seasonal strength. */
const SEASONAL_STRENGTH_THRESHOLD = 0.64;

export function difference(y: Float64Array, lag: number): Float64Array {
  const out = new Float64Array(Math.max(0, y.length - lag));
  for (let t = lag; t < y.length; t++) out[t - lag] = y[t] - y[t - lag];
  return out;
}

/** KPSS statistic for level stationarity, with ndiffs' Newey–West lag truncation ⌊3√n/13⌋. */
export function kpssStatistic(y: Float64Array): number {
  const n = y.length;
  let mu = 0;
  for (let i = 0; i < n; i++) mu += y[i] / n;
  const e = y.map((v) => v - mu);
  let s = 0, num = 0;
  for (let i = 0; i < n; i++) { s += e[i]; num += s * s; }
  const lags = Math.trunc((3 * Math.sqrt(n)) / 13);
  let lrv = 0;
  for (let i = 0; i < n; i++) lrv += e[i] * e[i];
  for (let k = 1; k <= lags; k++) {
    let c = 0;
    for (let i = k; i < n; i++) c += e[i] * e[i - k];
    lrv += 2 * (1 - k / (lags + 1)) * c;
  }
  lrv /= n;
  return lrv > 0 ? num / (n * n * lrv) : 0;
}

/** Number of first differences (0..maxD) until KPSS no longer rejects stationarity. */
export function ndiffs(y: Float64Array, maxD = 2): number {
  let d = 0;
  let x = y;
  while (d < maxD && x.length > 3 && !isConstant(x) && kpssStatistic(x) > KPSS_CRITICAL) {
    x = difference(x, 1);
    d++;
  }
  return d;
}

/**
 * Seasonal strength max(0, 1 − Var(remainder)/Var(remainder + seasonal)) of a classical additive
 * decomposition; one seasonal difference is taken when it exceeds 0.64.
 */
export function nsdiffs(y: Float64Array, m: number): number {
  const n = y.length;
  if (m <= 1 || n < 2 * m + 2 || isConstant(y)) return 0;
  const trend = centredMovingAverage(y, m);
  const sums = new Float64Array(m), counts = new Float64Array(m);
  for (let t = 0; t < n; t++) if (!Number.isNaN(trend[t])) { sums[t % m] += y[t] - trend[t]; counts[t % m]++; }
  const fig = sums.map((s, j) => (counts[j] ? s / counts[j] : 0));
  const figMean = fig.reduce((a, b) => a + b, 0) / m;
  const rem: number[] = [], detr: number[] = [];
  for (let t = 0; t < n; t++) {
    if (Number.isNaN(trend[t])) continue;
    const d = y[t] - trend[t];
    detr.push(d);
    rem.push(d - (fig[t % m] - figMean));
  }
  const variance = (a: number[]) => {
    const mu = a.reduce((s, v) => s + v, 0) / a.length;
    return a.reduce((s, v) => s + (v - mu) ** 2, 0) / a.length;
  };
  const vd = variance(detr);
  const strength = vd > 0 ? Math.max(0, 1 - variance(rem) / vd) : 0;
  return strength > SEASONAL_STRENGTH_THRESHOLD ? 1 : 0;
}

