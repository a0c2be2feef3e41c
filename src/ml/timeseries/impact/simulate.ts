/**
 * Post-period counterfactual paths from a fitted structural model with its parameters held fixed:
 * the initial state is drawn from the predicted state distribution after the pre-period, then state
 * and observation noise are drawn step by step. The mean path is the forecast.
 */
import type { StructuralFit } from '../statespace/fit.js';
import { transitionCovariance, transitionMean } from '../statespace/kalman.js';
import { cholesky } from '../../core/linalg.js';
import { SeededRandom } from '../../core/random.js';

export interface ForecastMoments {
  mean: Float64Array;
  variance: Float64Array;
}

/** Forecast mean (Z Tʲ a plus the regression part `offset`) and variance per post-period step. */
export function forecastMoments(fit: StructuralFit, offset: Float64Array): ForecastMoments {
  const { system } = fit;
  const m = system.m;
  const state = Float64Array.from(fit.nextStateMean);
  const cov = Float64Array.from(fit.nextStateCovariance);
  const scratch = new Float64Array(m * m);
  const pz = new Float64Array(m);
  const mean = new Float64Array(offset.length);
  const variance = new Float64Array(offset.length);
  for (let j = 0; j < offset.length; j++) {
    mean[j] = dot(system.z, state) + offset[j];
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let k = 0; k < m; k++) s += cov[i * m + k] * system.z[k];
      pz[i] = s;
    }
    variance[j] = dot(system.z, pz) + system.obsVariance;
    transitionMean(system, state, 1);
    transitionCovariance(system, cov, scratch);
    for (let i = 0; i < m; i++) cov[i * m + i] += system.stateVariance[i];
  }
  return { mean, variance };
}

/**
 * The simulations' stream of the shared PRNG for a seed: the starting state they had before ml/core
 * existed, so simulated intervals and p-values stay what they were.
 */
export function simulationRandom(seed: number): SeededRandom {
  return SeededRandom.fromState((Math.trunc(seed) ^ 0x9e3779b9) >>> 0);
}

/** `paths` simulated observation paths, paths × offset.length row-major. */
export function simulatePaths(fit: StructuralFit, offset: Float64Array, paths: number, random: SeededRandom): Float64Array {
  const { system } = fit;
  const m = system.m;
  const horizon = offset.length;
  const chol = cholesky(fit.nextStateCovariance, m, true)!;
  const stateSd = system.stateVariance.map(Math.sqrt);
  const obsSd = Math.sqrt(system.obsVariance);
  const out = new Float64Array(paths * horizon);
  const state = new Float64Array(m);
  const draws = new Float64Array(m);
  for (let p = 0; p < paths; p++) {
    for (let i = 0; i < m; i++) draws[i] = random.normal();
    for (let i = 0; i < m; i++) {
      let s = fit.nextStateMean[i];
      for (let k = 0; k <= i; k++) s += chol[i * m + k] * draws[k];
      state[i] = s;
    }
    for (let j = 0; j < horizon; j++) {
      out[p * horizon + j] = dot(system.z, state) + offset[j] + obsSd * random.normal();
      transitionMean(system, state, 1);
      for (let i = 0; i < m; i++) if (stateSd[i] > 0) state[i] += stateSd[i] * random.normal();
    }
  }
  return out;
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let i = 0; i < a.length; i++) s += a[i] * b[i];
  return s;
}

/**
 * How a unit error in each coefficient moves the post-period forecast (k rows × horizon): the
 * control's own value, less its part already absorbed by the state — the state is estimated from
 * y minus the regression, so a coefficient too large by δ lowers the state by δ × (the control's
 * filtered state) and the two cancel where the control stays near its recent level. This is the
 * forecast-error term of a regression with state-space errors (generalised least squares).
 */
export function coefficientDesign(fit: StructuralFit, xPost: readonly Float64Array[]): Float64Array[] {
  const { system } = fit;
  const m = system.m;
  const k = xPost.length;
  if (k === 0) return [];
  const horizon = xPost[0].length;
  const state = Float64Array.from(fit.regressorStateMeans);
  const design = xPost.map(() => new Float64Array(horizon));
  for (let t = 0; t < horizon; t++) {
    for (let j = 0; j < k; j++) {
      let absorbed = 0;
      for (let i = 0; i < m; i++) absorbed += system.z[i] * state[i * k + j];
      design[j][t] = xPost[j][t] - absorbed;
    }
    transitionMean(system, state, k);
  }
  return design;
}

/**
 * Adds to each path (paths × horizon, row-major, on the model's scale) the effect of coefficients
 * drawn from their sampling distribution N(β̂, fit.coefficientCovariance): a control's coefficient
 * is estimated on the pre-period, and holding it at its estimate would understate the spread of the
 * counterfactual most where the controls move most.
 */
export function addCoefficientDraws(
  paths: Float64Array, fit: StructuralFit, design: readonly Float64Array[], random: SeededRandom,
): void {
  const k = design.length;
  if (k === 0) return;
  const horizon = design[0].length;
  const chol = cholesky(fit.coefficientCovariance, k, true);
  if (!chol) return;
  const u = new Float64Array(k);
  const delta = new Float64Array(k);
  for (let p = 0; p < paths.length / horizon; p++) {
    for (let i = 0; i < k; i++) u[i] = random.normal();
    for (let i = 0; i < k; i++) {
      let s = 0;
      for (let j = 0; j <= i; j++) s += chol[i * k + j] * u[j];
      delta[i] = s;
    }
    for (let t = 0; t < horizon; t++) {
      let shift = 0;
      for (let j = 0; j < k; j++) shift += delta[j] * design[j][t];
      paths[p * horizon + t] += shift;
    }
  }
}

/** Variance of Σ_t w_t (forecast error from the coefficients): gᵀ C g with g_j = Σ_t w_t design_j[t]. */
export function coefficientSumVariance(fit: StructuralFit, design: readonly Float64Array[], weights: Float64Array): number {
  const k = design.length;
  const g = design.map((d) => d.reduce((s, v, t) => s + weights[t] * v, 0));
  let variance = 0;
  for (let i = 0; i < k; i++) for (let j = 0; j < k; j++) variance += g[i] * fit.coefficientCovariance[i * k + j] * g[j];
  return variance;
}
