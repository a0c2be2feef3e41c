/**
 * Regression with known-in-advance features: least squares of y on an intercept, the features and
 * Fourier terms of each seasonal period (so that the feature effects are not confounded with the
 * seasonal pattern), then the residuals are forecast by a univariate method and added back.
 */
import { usablePeriods } from './seasonalDecomposition.js';
import { leastSquares, solveSymmetric } from '../../core/linalg.js';
import type { ForecastXreg, PointForecast } from './types.js';

const MAX_FOURIER_PAIRS = 3;

function designColumns(xs: Float64Array[], start: number, len: number, periods: number[]): Float64Array[] {
  const cols: Float64Array[] = [new Float64Array(len).fill(1), ...xs];
  for (const p of periods) {
    for (let k = 1; k <= Math.min(MAX_FOURIER_PAIRS, Math.floor(p / 2)); k++) {
      const sin = new Float64Array(len);
      const cos = new Float64Array(len);
      for (let t = 0; t < len; t++) {
        const w = (2 * Math.PI * k * (start + t)) / p;
        sin[t] = Math.sin(w);
        cos[t] = Math.cos(w);
      }
      cols.push(sin, cos);
    }
  }
  return cols;
}

function combineColumns(cols: Float64Array[], beta: Float64Array, len: number): Float64Array {
  const out = new Float64Array(len);
  for (let j = 0; j < cols.length; j++) for (let t = 0; t < len; t++) out[t] += beta[j] * cols[j][t];
  return out;
}

export interface RegressionFit {
  coefficients: Float64Array; // intercept, then one per feature, then Fourier terms
  forecast: PointForecast;
}

export function regressionForecast(
  y: Float64Array, h: number, xreg: ForecastXreg, seasonalPeriods: number[],
  residualMethod: (u: Float64Array, h: number) => PointForecast | undefined,
): RegressionFit | undefined {
  const n = y.length;
  const periods = usablePeriods(seasonalPeriods, n);
  const trainCols = designColumns(xreg.train, 0, n, periods);
  const futureCols = designColumns(xreg.future, n, h, periods);
  const beta = leastSquares(trainCols, y);
  const explained = combineColumns(trainCols, beta, n);
  const residual = y.map((v, t) => v - explained[t]);
  const inner = residualMethod(residual, h);
  if (!inner) return undefined;
  const future = combineColumns(futureCols, beta, h);
  const mean = future.map((v, k) => v + inner.mean[k]);
  const fitted = inner.fitted ? explained.map((v, t) => v + inner.fitted![t]) : undefined;
  const leverage = futureLeverage(trainCols, futureCols, h);
  let ss = 0;
  for (let t = 0; t < n; t++) ss += residual[t] * residual[t];
  const s2 = ss / Math.max(n - trainCols.length, 1);
  // The coefficients are estimates: their error adds s²·x'(X'X)⁻¹x at each future row x to the residual forecast's variance.
  const sd = inner.sd.map((s, k) => Math.sqrt(s * s + s2 * leverage[k]));
  return { coefficients: beta, forecast: { mean, sd, fitted } };
}

/** x'(X'X)⁻¹x for each future design row x. */
function futureLeverage(trainCols: Float64Array[], futureCols: Float64Array[], h: number): Float64Array {
  const p = trainCols.length;
  const gram = new Float64Array(p * p);
  for (let i = 0; i < p; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let t = 0; t < trainCols[i].length; t++) s += trainCols[i][t] * trainCols[j][t];
      gram[i * p + j] = s;
      gram[j * p + i] = s;
    }
  }
  for (let i = 0; i < p; i++) gram[i * p + i] += 1e-8 * (gram[i * p + i] + 1);
  const out = new Float64Array(h);
  for (let k = 0; k < h; k++) {
    const x = Float64Array.from(futureCols, (c) => c[k]);
    const a = solveSymmetric(gram, x, p);
    let v = 0;
    for (let i = 0; i < p; i++) v += x[i] * a[i];
    out[k] = Math.max(v, 0);
  }
  return out;
}
