/** Regression metrics as defined in benchdata/PROTOCOL.md §1. */

export interface RegressionMetrics {
  meanAbsoluteError: number;
  /** Fraction (0.1 = 10 %), over rows whose actual value is not 0. */
  meanAbsolutePercentError: number;
  rootMeanSquareError: number;
  /** 1 − SSE / Σ(y − ȳ)², ȳ = mean of the evaluated y. */
  rSquared: number;
}

export function regressionMetrics(y: ArrayLike<number>, pred: ArrayLike<number>): RegressionMetrics {
  const n = y.length;
  if (pred.length !== n) throw new Error(`pred has ${pred.length} values, expected ${n}`);
  let mean = 0;
  for (let i = 0; i < n; i++) mean += y[i];
  mean /= n;
  let absSum = 0;
  let sse = 0;
  let sst = 0;
  let percentSum = 0;
  let percentCount = 0;
  for (let i = 0; i < n; i++) {
    const e = y[i] - pred[i];
    absSum += Math.abs(e);
    sse += e * e;
    sst += (y[i] - mean) ** 2;
    if (y[i] !== 0) {
      percentSum += Math.abs(e / y[i]);
      percentCount++;
    }
  }
  return {
    meanAbsoluteError: absSum / n,
    meanAbsolutePercentError: percentCount > 0 ? percentSum / percentCount : NaN,
    rootMeanSquareError: Math.sqrt(sse / n),
    rSquared: sst > 0 ? 1 - sse / sst : NaN,
  };
}
