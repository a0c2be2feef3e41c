/**
 * Gaussian log-likelihood of a filtered series with the regression coefficients and the overall
 * scale profiled out: for fixed variance ratios the innovations are linear in the coefficients, so
 * their maximum-likelihood value is a generalised least-squares fit of the filtered y innovations on
 * the filtered regressor innovations, and the scale is the mean squared standardised residual.
 */
import type { FilterOutput } from './kalman.js';
import { solveSymmetric } from '../../core/linalg.js';

export interface ProfiledLikelihood {
  /** Regression coefficient per regressor column (data columns 1..). */
  coefficients: Float64Array;
  /** Scale: multiply the filter's variance ratios by it to get the variances. */
  scale: number;
  logLikelihood: number;
  /** Observations that contributed. */
  nObs: number;
  /**
   * X'F⁻¹X of the filtered regressor innovations (k × k): the coefficients' covariance is
   * scale × its inverse (the generalised least-squares covariance given the variance ratios).
   */
  information: Float64Array;
}

/** Profiled likelihood over the used steps from index `from` on (to compare models on common steps). */
export function profileLikelihood(out: FilterOutput, from = 0): ProfiledLikelihood {
  const c = out.columns;
  const k = c - 1;
  const xtx = new Float64Array(k * k);
  const xty = new Float64Array(k);
  let yty = 0;
  let sumLogF = 0;
  let nObs = 0;
  for (let t = from; t < out.n; t++) {
    if (!out.used[t]) continue;
    const f = out.f[t];
    const row = t * c;
    const vy = out.v[row];
    yty += (vy * vy) / f;
    for (let i = 0; i < k; i++) {
      const vi = out.v[row + 1 + i] / f;
      xty[i] += vi * vy;
      for (let j = 0; j < k; j++) xtx[i * k + j] += vi * out.v[row + 1 + j];
    }
    sumLogF += Math.log(f);
    nObs++;
  }
  const coefficients = k > 0 ? solveSymmetric(xtx, xty, k) : new Float64Array(0);
  let ssr = yty;
  for (let i = 0; i < k; i++) ssr -= coefficients[i] * xty[i];
  // A perfect fit would send the likelihood to infinity; the floor keeps the optimiser finite.
  const scale = Math.max(ssr / nObs, 1e-300);
  const logLikelihood = -0.5 * (nObs * (Math.log(2 * Math.PI) + 1 + Math.log(scale)) + sumLogF);
  return { coefficients, scale, logLikelihood, nObs, information: xtx };
}
