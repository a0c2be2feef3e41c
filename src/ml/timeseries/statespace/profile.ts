/**
 * Gaussian log-likelihood of a filtered series with the regression coefficients and the overall
 * scale profiled out: for fixed variance ratios the innovations are linear in the coefficients, so
 * their maximum-likelihood value is a generalised least-squares fit of the filtered y innovations on
 * the filtered regressor innovations, and the scale is the mean squared standardised residual.
 *
 * A control that explains the target exactly (a copy of it, or the sum of its parts) leaves a
 * residual of rounding error. Its size then depends on the variance ratios only through noise — the
 * coefficients carry the solver's 1e-10 ridge, and the residual sum of squares taken as y'y − b'X'y
 * is a difference of two nearly equal numbers — so the likelihood was noise at the 1e-3 level and the
 * optimiser spent its whole budget on it (an HTTP impact test with an exact control took 3× the
 * time of one without). Two things keep a perfect fit well posed: the residual sum of squares is
 * summed from the residuals themselves, and the scale is floored at EXACT_FIT_FLOOR of what the
 * target's innovations would give without the regression. At the floor the likelihood is the
 * Gaussian one at that scale, so it is smooth in the variance ratios and the fit converges as fast
 * as on the target alone.
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

/**
 * The regression explains at most 1 − EXACT_FIT_FLOOR of the target's innovation variance: a
 * residual standard deviation a millionth of the target's own is an exact fit, far below both the
 * precision real series are measured to and far above the rounding error left by the solver.
 */
export const EXACT_FIT_FLOOR = 1e-12;

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
  if (k > 0) {
    ssr = 0;
    for (let t = from; t < out.n; t++) {
      if (!out.used[t]) continue;
      const row = t * c;
      let r = out.v[row];
      for (let i = 0; i < k; i++) r -= coefficients[i] * out.v[row + 1 + i];
      ssr += (r * r) / out.f[t];
    }
  }
  // A perfect fit would send the likelihood to infinity; the floors keep it finite and smooth.
  const scale = Math.max(ssr / nObs, (EXACT_FIT_FLOOR * yty) / nObs, 1e-300);
  const logLikelihood = -0.5 * (nObs * (Math.log(2 * Math.PI) + Math.log(scale)) + ssr / scale + sumLogF);
  return { coefficients, scale, logLikelihood, nObs, information: xtx };
}
