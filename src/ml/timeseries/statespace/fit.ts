/**
 * Maximum-likelihood fit of a structural model (statsmodels UnobservedComponents with
 * `mle_regression`): variances and regression coefficients maximise the exact diffuse likelihood.
 * Coefficients and the overall scale are profiled out (profile.ts), so the optimiser only searches
 * the variance proportions, parametrised as a softmax so that any component can shrink to zero, and
 * the AR(1) coefficient of an autoregressive spec, as tanh of one more coordinate.
 */
import { diffuseKalmanFilter, type FilterOutput } from './kalman.js';
import { nelderMead } from '../../core/nelder-mead.js';
import { profileLikelihood } from './profile.js';
import { solveSymmetric } from '../../core/linalg.js';
import { structuralSystem, varianceNames, type StateSpaceSystem, type StructuralSpec } from './structural.js';

/** Likelihood converged: values agree to 1e-9 (relative) and log-variance ratios to 1e-4. */
const STATESPACE_TOLERANCES = { valueTolerance: 1e-9, valueOffset: 1, pointTolerance: 1e-4 };

/** Softmax logits are clamped here: e^-30 of the total variance is zero for every practical purpose. */
const LOGIT_LIMIT = 30;

export interface StructuralFit {
  spec: StructuralSpec;
  /** Fitted variances in `varianceNames(spec)` order. */
  variances: Float64Array;
  /** AR(1) coefficient of the autoregressive component (0 without one). */
  arCoefficient: number;
  /** The model with the fitted variances. */
  system: StateSpaceSystem;
  /** One coefficient per regressor. */
  coefficients: Float64Array;
  logLikelihood: number;
  /** Observations that entered the likelihood (observed, past the diffuse phase). */
  nObs: number;
  /** Index of the first observation that entered the likelihood. */
  firstUsed: number;
  /** Predicted state after the data, for y minus the regression part: mean (m) and covariance (m × m). */
  nextStateMean: Float64Array;
  nextStateCovariance: Float64Array;
  /**
   * Sampling covariance of the coefficients (k × k): scale × (X'F⁻¹X)⁻¹, given the variance ratios.
   * The state is estimated from y minus the regression, so a coefficient error moves it too: see
   * `regressorStateMeans`.
   */
  coefficientCovariance: Float64Array;
  /** Predicted state after the data per unit of each coefficient (m × k, row-major): nextStateMean = a_y − Σ β_j a_j. */
  regressorStateMeans: Float64Array;
}

function ratiosFromLogits(logits: ArrayLike<number>): Float64Array {
  const k = logits.length + 1;
  const r = new Float64Array(k);
  let max = 0;
  for (let i = 0; i < logits.length; i++) max = Math.max(max, clampLogit(logits[i]));
  r[0] = Math.exp(-max);
  let total = r[0];
  for (let i = 1; i < k; i++) {
    r[i] = Math.exp(clampLogit(logits[i - 1]) - max);
    total += r[i];
  }
  for (let i = 0; i < k; i++) r[i] /= total;
  return r;
}

function clampLogit(x: number): number {
  return Math.max(-LOGIT_LIMIT, Math.min(LOGIT_LIMIT, x));
}

/** Coarse grid of logits (each in {−6, −2, 2} relative to the irregular) to start the simplex from. */
function gridLogits(k: number): Float64Array[] {
  let grid: number[][] = [[]];
  for (let d = 1; d < k; d++) grid = grid.flatMap((g) => [-6, -2, 2].map((v) => [...g, v]));
  return grid.map((g) => Float64Array.from(g));
}

/**
 * The AR(1) coefficient stays this far inside the unit circle: nearer 1 the component is a second
 * random walk that the level already provides, and the likelihood cannot tell them apart.
 */
const AR_LIMIT = 0.99;
/** Starting AR(1) coefficients of the grid: short and long memory. */
const AR_STARTS = [0.5, 0.9];

function arFrom(u: number): number {
  return Math.max(-AR_LIMIT, Math.min(AR_LIMIT, Math.tanh(u)));
}

/** Grid of starting points: variance logits, and the AR coordinate when the spec has one. */
function gridStarts(spec: StructuralSpec, k: number): Float64Array[] {
  const logits = gridLogits(k);
  if (!spec.autoregressive) return logits;
  return logits.flatMap((g) => AR_STARTS.map((phi) => Float64Array.from([...g, Math.atanh(phi)])));
}

/** Local searches run from this many of the best grid points, against poor local optima. */
const SEARCH_STARTS = 2;

/** Variance ratios and AR(1) coefficient of a search point. */
function parametersOf(spec: StructuralSpec, x: Float64Array, k: number): { ratios: Float64Array; ar: number } {
  return {
    ratios: ratiosFromLogits(x.subarray(0, k - 1)),
    ar: spec.autoregressive ? arFrom(x[k - 1]) : 0,
  };
}

function filterWithRatios(spec: StructuralSpec, ratios: Float64Array, ar: number, data: readonly ArrayLike<number>[]): FilterOutput {
  return diffuseKalmanFilter(structuralSystem(spec, ratios, ar), data);
}

export function fitStructural(
  y: ArrayLike<number>,
  regressors: readonly ArrayLike<number>[],
  spec: StructuralSpec,
): StructuralFit {
  const data = [y, ...regressors];
  const k = varianceNames(spec).length;
  const negLogLik = (x: Float64Array): number => {
    const { ratios, ar } = parametersOf(spec, x, k);
    const out = filterWithRatios(spec, ratios, ar, data);
    return out.diffuseAtEnd ? Infinity : -profileLikelihood(out).logLikelihood;
  };
  const dims = k - 1 + (spec.autoregressive ? 1 : 0);
  const starts = gridStarts(spec, k)
    .map((x) => ({ x, value: negLogLik(x) }))
    .sort((a, b) => a.value - b.value)
    .slice(0, SEARCH_STARTS);
  let best: { x: Float64Array; value: number } = starts[0];
  for (const start of starts) {
    const found = nelderMead(negLogLik, start.x, { steps: 2, maxEvaluations: 300 * (dims + 1), ...STATESPACE_TOLERANCES });
    if (found.value < best.value) best = found;
  }
  // A restart from the best point shakes off a simplex collapsed on a ridge.
  const polished = nelderMead(negLogLik, best.x, { steps: 0.5, maxEvaluations: 400 * (dims + 1), ...STATESPACE_TOLERANCES });
  if (polished.value <= best.value) best = polished;
  if (!Number.isFinite(best.value)) {
    throw new RangeError(`not enough observations to fit ${JSON.stringify(spec)}`);
  }

  const { ratios, ar } = parametersOf(spec, best.x, k);
  const out = filterWithRatios(spec, ratios, ar, data);
  const profiled = profileLikelihood(out);
  const variances = ratios.map((r) => r * profiled.scale);
  const m = out.nextMean.length / data.length;
  const nextStateMean = new Float64Array(m);
  for (let i = 0; i < m; i++) {
    let s = out.nextMean[i * data.length];
    for (let j = 0; j < regressors.length; j++) s -= profiled.coefficients[j] * out.nextMean[i * data.length + 1 + j];
    nextStateMean[i] = s;
  }
  const nReg = regressors.length;
  const regressorStateMeans = new Float64Array(m * nReg);
  for (let i = 0; i < m; i++) {
    for (let j = 0; j < nReg; j++) regressorStateMeans[i * nReg + j] = out.nextMean[i * data.length + 1 + j];
  }
  return {
    spec,
    variances,
    arCoefficient: ar,
    system: structuralSystem(spec, variances, ar),
    coefficients: profiled.coefficients,
    logLikelihood: profiled.logLikelihood,
    nObs: profiled.nObs,
    firstUsed: out.used.indexOf(1),
    nextStateMean,
    nextStateCovariance: out.nextCovariance.map((p) => p * profiled.scale),
    coefficientCovariance: inverseTimes(profiled.information, nReg, profiled.scale),
    regressorStateMeans,
  };
}

/** scale × a⁻¹ for a symmetric positive (semi)definite k × k matrix, column by column. */
function inverseTimes(a: Float64Array, k: number, scale: number): Float64Array {
  const out = new Float64Array(k * k);
  for (let j = 0; j < k; j++) {
    const unit = new Float64Array(k);
    unit[j] = 1;
    const column = solveSymmetric(a, unit, k);
    for (let i = 0; i < k; i++) out[i * k + j] = scale * column[i];
  }
  return out;
}

/**
 * Log-likelihood of a fitted model counting only observations from `from` on, so that models with
 * diffuse phases of different lengths are compared on the same data.
 */
export function logLikelihoodFrom(
  fit: StructuralFit,
  y: ArrayLike<number>,
  regressors: readonly ArrayLike<number>[],
  from: number,
): number {
  const out = diffuseKalmanFilter(fit.system, [y, ...regressors]);
  return profileLikelihood(out, from).logLikelihood;
}
