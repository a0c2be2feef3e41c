/** Series helpers shared by the forecasting methods (generic statistics and solvers live in ml/core). */
import { mean } from '../../core/statistics.js';

/** Least-squares line y ≈ intercept + slope·x over x = x0, x0+1, …; returns [intercept, slope]. */
export function fitLine(y: ArrayLike<number>, from = 0, to = y.length, x0 = 0): [number, number] {
  const n = to - from;
  if (n < 2) return [n === 1 ? y[from] : 0, 0];
  let sx = 0, sy = 0, sxx = 0, sxy = 0;
  for (let i = 0; i < n; i++) {
    const x = x0 + i;
    const v = y[from + i];
    sx += x; sy += v; sxx += x * x; sxy += x * v;
  }
  const slope = (n * sxy - sx * sy) / (n * sxx - sx * sx);
  return [(sy - slope * sx) / n, slope];
}

/** Sample autocorrelations at lags 1..maxLag. */
export function acf(y: ArrayLike<number>, maxLag: number): Float64Array {
  const n = y.length;
  const mu = mean(y);
  let c0 = 0;
  for (let i = 0; i < n; i++) c0 += (y[i] - mu) ** 2;
  const r = new Float64Array(maxLag);
  for (let k = 1; k <= maxLag; k++) {
    let s = 0;
    for (let i = k; i < n; i++) s += (y[i] - mu) * (y[i - k] - mu);
    r[k - 1] = c0 > 0 ? s / c0 : 0;
  }
  return r;
}

/** Whether a feature column is a 0/1 flag (a holiday, a promotion): where it is on, it explains the target's value. */
export function isFlagColumn(values: Float64Array): boolean {
  return values.every((v) => v === 0 || v === 1);
}

/** Whether every present value of `y` is the same (missing values aside); true when none is present. */
export function isConstant(y: ArrayLike<number>): boolean {
  let first = NaN;
  for (let t = 0; t < y.length; t++) {
    if (!Number.isFinite(y[t])) continue;
    if (Number.isNaN(first)) first = y[t];
    else if (y[t] !== first) return false;
  }
  return true;
}
