/**
 * Adequacy of the counterfactual model on the pre-period: a Ljung–Box test of its standardised
 * one-step errors. A model that leaves autocorrelation in its errors (a cycle or a persistence it
 * does not have) is right on average and wrong in runs, and a post-period sum is exactly where runs
 * of errors add up. The backtest calibration widens the intervals by what such runs cost over the
 * window's length; this test names the cause in a warning.
 */
import type { StructuralFit } from '../statespace/fit.js';
import { logGamma } from '../../core/statistics.js';
import { diffuseKalmanFilter } from '../statespace/kalman.js';

/**
 * A Ljung–Box p-value below this on the pre-period's one-step errors: the model clearly misses
 * structure. Real series are seldom exactly white, and a warning on most of them would be noise: at
 * 0.01 the Nottingham temperatures, which a seasonal level fits well by every other check, were
 * flagged at one placebo position of four (p 0.0075). bench:impact-placebo prints how often the
 * warning fires and the false-positive rate with and without it.
 */
export const ADEQUACY_LEVEL = 0.001;

export interface Adequacy {
  /** Ljung–Box statistic of the standardised one-step errors. */
  statistic: number;
  /** Lags tested. */
  lags: number;
  /** Degrees of freedom of its χ² reference (lags less the fitted variance ratios). */
  dof: number;
  pValue: number;
  /** Standardised errors tested. */
  n: number;
}

/**
 * Ljung–Box test of a fitted model on the data it was fitted on (on the model's scale). Lags: two
 * seasonal cycles, at least 10, at most a fifth of the errors (Hyndman & Athanasopoulos' rule).
 * Null when fewer than 20 errors are available.
 */
export function ljungBox(fit: StructuralFit, y: ArrayLike<number>, regressors: readonly ArrayLike<number>[]): Adequacy | null {
  const out = diffuseKalmanFilter(fit.system, [y, ...regressors]);
  const errors: number[] = [];
  for (let t = 0; t < out.n; t++) {
    if (!out.used[t]) continue;
    let v = out.v[t * out.columns];
    for (let j = 0; j < regressors.length; j++) v -= fit.coefficients[j] * out.v[t * out.columns + 1 + j];
    errors.push(v / Math.sqrt(out.f[t]));
  }
  const n = errors.length;
  if (n < 20) return null;
  const lags = Math.min(Math.max(10, 2 * fit.spec.seasonalPeriod), Math.floor(n / 5));
  const mean = errors.reduce((a, b) => a + b, 0) / n;
  let c0 = 0;
  for (const e of errors) c0 += (e - mean) ** 2;
  let statistic = 0;
  for (let k = 1; k <= lags; k++) {
    let ck = 0;
    for (let t = k; t < n; t++) ck += (errors[t] - mean) * (errors[t - k] - mean);
    const r = ck / c0;
    statistic += (r * r) / (n - k);
  }
  statistic *= n * (n + 2);
  // The variance ratios and an AR coefficient are fitted (the overall scale is not a dynamic parameter).
  const dof = Math.max(1, lags - (fit.variances.length - 1) - (fit.spec.autoregressive ? 1 : 0));
  return { statistic, lags, dof, pValue: chiSquareUpperTail(statistic, dof), n };
}

/** P(χ²_k > x): the regularised upper incomplete gamma function Q(k/2, x/2). */
export function chiSquareUpperTail(x: number, k: number): number {
  if (!(x > 0)) return 1;
  const a = k / 2;
  const z = x / 2;
  const logPrefix = a * Math.log(z) - z - logGamma(a);
  if (z < a + 1) {
    // Series for the lower function P(a, z).
    let term = 1 / a;
    let sum = term;
    for (let i = 1; i < 500 && Math.abs(term) > 1e-15 * Math.abs(sum); i++) {
      term *= z / (a + i);
      sum += term;
    }
    return Math.max(0, 1 - sum * Math.exp(logPrefix));
  }
  // Continued fraction for Q(a, z) (modified Lentz).
  const tiny = 1e-300;
  let b = z + 1 - a;
  let c = 1 / tiny;
  let d = 1 / b;
  let h = d;
  for (let i = 1; i < 500; i++) {
    const an = -i * (i - a);
    b += 2;
    d = an * d + b;
    if (Math.abs(d) < tiny) d = tiny;
    c = b + an / c;
    if (Math.abs(c) < tiny) c = tiny;
    d = 1 / d;
    const delta = d * c;
    h *= delta;
    if (Math.abs(delta - 1) < 1e-15) break;
  }
  return Math.min(1, Math.exp(logPrefix) * h);
}
