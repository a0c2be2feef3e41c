/** Small numeric helpers shared by the forecasting methods. */

export function mean(x: ArrayLike<number>, from = 0, to = x.length): number {
  let s = 0;
  for (let i = from; i < to; i++) s += x[i];
  return to > from ? s / (to - from) : NaN;
}

export function median(values: number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const k = s.length >> 1;
  return s.length % 2 ? s[k] : (s[k - 1] + s[k]) / 2;
}

/** Inverse standard normal CDF (Acklam's rational approximation, relative error < 1.2e-9). */
export function normalQuantile(p: number): number {
  if (p <= 0) return -Infinity;
  if (p >= 1) return Infinity;
  const a = [-39.69683028665376, 220.9460984245205, -275.9285104469687, 138.357751867269, -30.66479806614716, 2.506628277459239];
  const b = [-54.47609879822406, 161.5858368580409, -155.6989798598866, 66.80131188771972, -13.28068155288572];
  const c = [-0.007784894002430293, -0.3223964580411365, -2.400758277161838, -2.549732539343734, 4.374664141464968, 2.938163982698783];
  const d = [0.007784695709041462, 0.3224671290700398, 2.445134137142996, 3.754408661907416];
  const lo = 0.02425;
  if (p < lo) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  if (p > 1 - lo) return -normalQuantile(1 - p);
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

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

export function isConstant(y: ArrayLike<number>): boolean {
  for (let i = 1; i < y.length; i++) if (y[i] !== y[0]) return false;
  return true;
}

/**
 * Ordinary least squares with a tiny ridge term (keeps collinear designs solvable).
 * `cols` are the regressors (include a column of ones for an intercept); returns the coefficients.
 */
export function leastSquares(cols: Float64Array[], y: Float64Array, ridge = 1e-8): Float64Array {
  const k = cols.length;
  const a = new Float64Array(k * k);
  const rhs = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let t = 0; t < y.length; t++) s += cols[i][t] * cols[j][t];
      a[i * k + j] = s;
      a[j * k + i] = s;
    }
    let s = 0;
    for (let t = 0; t < y.length; t++) s += cols[i][t] * y[t];
    rhs[i] = s;
  }
  for (let i = 0; i < k; i++) a[i * k + i] += ridge * (a[i * k + i] + 1);
  return solveSymmetric(a, rhs, k);
}

/** Solves A x = b for symmetric positive definite A (row-major k×k) by Cholesky. */
function solveSymmetric(a: Float64Array, b: Float64Array, k: number): Float64Array {
  const l = new Float64Array(k * k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = a[i * k + j];
      for (let p = 0; p < j; p++) s -= l[i * k + p] * l[j * k + p];
      l[i * k + j] = i === j ? Math.sqrt(Math.max(s, 1e-300)) : s / l[j * k + j];
    }
  }
  const z = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    let s = b[i];
    for (let p = 0; p < i; p++) s -= l[i * k + p] * z[p];
    z[i] = s / l[i * k + i];
  }
  const x = new Float64Array(k);
  for (let i = k - 1; i >= 0; i--) {
    let s = z[i];
    for (let p = i + 1; p < k; p++) s -= l[p * k + i] * x[p];
    x[i] = s / l[i * k + i];
  }
  return x;
}
