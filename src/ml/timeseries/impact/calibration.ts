/**
 * Empirical calibration of the counterfactual's uncertainty by placebo backtests inside the
 * pre-period. A model fitted by maximum likelihood and simulated with its parameters held fixed
 * understates the error of the counterfactual sum: the parameters are estimated, the model is
 * chosen on the same data, and real series break its assumptions (on real monthly and quarterly
 * series with no event, 11–21 % of windows got p < 0.05 at the nominal 5 %).
 *
 * So, before the event, the same model (same components and scale, parameters refitted) is run on
 * pseudo-events: windows of the event window's length that end at the pre-period's end and step back
 * half a window length at a time, each fitted only on the data before it. Each gives the standardised
 * error of its cumulative sum, z = (observed − forecast mean)/(forecast sd of the sum). If the model's spread
 * were right, z would be standard normal; in general z ~ N(0, c²) with an unknown c. With a prior
 * worth PRIOR_BACKTESTS backtests at c = 1 (the model's own belief), the scale is
 * s² = (PRIOR_BACKTESTS + Σ z²) / (PRIOR_BACKTESTS + K) and the event window's z/s follows Student's
 * t with PRIOR_BACKTESTS + K degrees of freedom: the counterfactual paths are spread by s times a
 * per-path t mixing factor. A short pre-period (few backtests) thus gives heavier tails — wider,
 * honest intervals — rather than overconfident ones, and a model that fits the pre-period badly
 * shows up as a large s.
 *
 * The scale is never below 1: the model's own spread leaves out the error of its estimated
 * parameters, so c ≥ 1, and a smaller s is the noise of a handful of overlapping backtests. On real
 * quarterly series (bench:impact-placebo --quick) most false positives came from windows whose
 * backtests gave s ≈ 0.5–0.8; the floor took the quarterly false-positive rate at p < 0.05 from
 * 13.6 % to 10.2 % of 59 windows, with no loss on the seat-belt case.
 */
import { fitStructural, type StructuralFit } from '../statespace/fit.js';
import { transitionCovariance, transitionMean } from '../statespace/kalman.js';
import type { StructuralSpec } from '../statespace/structural.js';
import type { Scale } from './candidates.js';
import { isConstant } from '../forecast/stats.js';
import type { SeededRandom } from '../../core/random.js';
import { coefficientDesign, coefficientSumVariance, forecastMoments } from './simulate.js';

/** Weight of the model's own variance (c = 1), in backtests. */
export const PRIOR_BACKTESTS = 3;
/** Backtests run at most (each refits the model). */
export const MAX_BACKTESTS = 12;

export interface Calibration {
  /** Backtests that could be run (pseudo-windows with enough data before them). */
  backtests: number;
  /** Multiplier of the model's spread of the counterfactual (1 = the model was right). */
  scale: number;
  /** Degrees of freedom of the t mixing. */
  dof: number;
  /** Standardised errors of the backtests' cumulative sums, most recent first. */
  z: number[];
  /** Pseudo-windows skipped because they hold missing values. */
  windowsWithGaps: number;
}

export interface BacktestInput {
  /** The whole pre-period on the original scale (may hold NaN). */
  yPre: Float64Array;
  /** Standardised controls over the pre-period. */
  xPre: Float64Array[];
  spec: StructuralSpec;
  scale: Scale;
  horizon: number;
  /** Fewest observed points a backtest's fit needs. */
  minTrain: number;
  /** Parameters are fitted on at most this many points before each pseudo-window. */
  maxFitPoints: number;
}

/** The fewest pre-period points a backtest of `spec` is fitted on (the seasonal needs two cycles). */
export function minTrainingPoints(spec: StructuralSpec): number {
  return Math.max(2 * spec.seasonalPeriod, 12) + (spec.slope === 'none' ? 0 : 2);
}

export function calibrate(input: BacktestInput): Calibration {
  const { yPre, xPre, spec, scale, horizon, minTrain, maxFitPoints } = input;
  // Backtests fitted on much less data than the real fit would overstate its error: each is fitted
  // on at least half the points the real fit uses (the pre-period, up to maxFitPoints). Windows step
  // back half a window length, so they overlap; the degrees of freedom count them as the
  // non-overlapping windows they span.
  const step = Math.max(1, Math.ceil(horizon / 2));
  const fewest = Math.max(minTrain, Math.floor(Math.min(yPre.length, maxFitPoints) / 2));
  const z: number[] = [];
  let windowsWithGaps = 0;
  for (let k = 0; k < MAX_BACKTESTS; k++) {
    const end = yPre.length - k * step; // pseudo-window [end − horizon, end)
    const trainEnd = end - horizon;
    const trainStart = Math.max(0, trainEnd - maxFitPoints);
    if (trainEnd <= 0) break;
    const train = yPre.subarray(trainStart, trainEnd);
    if (train.filter(Number.isFinite).length < fewest) break;
    const window = yPre.subarray(trainEnd, end);
    if (window.some((v) => !Number.isFinite(v))) {
      windowsWithGaps++;
      continue;
    }
    const value = backtestZ(train, xPre.map((x) => x.subarray(trainStart, trainEnd)), xPre.map((x) => x.subarray(trainEnd, end)), window, spec, scale);
    if (Number.isFinite(value)) z.push(value);
  }
  const independent = z.length === 0 ? 0 : Math.max(1, Math.round(1 + ((z.length - 1) * step) / horizon));
  const dof = PRIOR_BACKTESTS + independent;
  // Σz² over overlapping windows, reweighted to the independent windows they amount to.
  const sumSquares = z.length === 0 ? 0 : (z.reduce((s, v) => s + v * v, 0) * independent) / z.length;
  const scaleSquared = (PRIOR_BACKTESTS + sumSquares) / dof;
  return { backtests: z.length, scale: Math.max(1, Math.sqrt(scaleSquared)), dof, z, windowsWithGaps };
}

/** Standardised error of a pseudo-window's sum under the model fitted on the data before it. */
function backtestZ(
  train: Float64Array, xTrain: Float64Array[], xWindow: Float64Array[], window: Float64Array,
  spec: StructuralSpec, scale: Scale,
): number {
  // A model fitted on a constant stretch has no spread (variances ~1e-300), so any change in the
  // window scores z ~ 1e150 and would blow the calibration up: such a stretch calibrates nothing.
  if (isConstant(train)) return NaN;
  let fit;
  try {
    fit = fitStructural(scale === 'log' ? train.map(Math.log) : train, xTrain, spec);
  } catch {
    return NaN; // too few observations for this model: no backtest
  }
  const h = window.length;
  const offset = new Float64Array(h);
  xWindow.forEach((x, j) => {
    for (let t = 0; t < h; t++) offset[t] += fit.coefficients[j] * x[t];
  });
  const m = forecastMoments(fit, offset);
  // On the log scale the sum of exp(path) is linearised around its mean: weight e^{μ+v/2} per step.
  const weights = scale === 'log' ? m.mean.map((mu, t) => Math.exp(mu + m.variance[t] / 2)) : new Float64Array(h).fill(1);
  let mean = 0;
  let observed = 0;
  for (let t = 0; t < h; t++) {
    mean += scale === 'log' ? weights[t] : m.mean[t];
    observed += window[t];
  }
  // Standardised by the predictive spread with the scale's and the coefficients' uncertainty carried
  // (see scaleUncertainty, coefficientDesign), so the calibration measures what the per-path draws
  // of the event window leave out.
  const coefficientVariance = coefficientSumVariance(fit, coefficientDesign(fit, xWindow), weights);
  const sd = Math.sqrt((sumVariance(fit, weights) + coefficientVariance) * scaleUncertainty(fit).varianceFactor);
  return sd > 0 ? (observed - mean) / sd : NaN;
}

export interface ScaleUncertainty {
  /** Observations in the likelihood (the profiled scale is the residual sum of squares over these). */
  nObs: number;
  /** Degrees of freedom of the scale: observations less the profiled regression coefficients. */
  dof: number;
  /** E[σ²]/σ̂² under its posterior: the predictive variance relative to the plug-in one. */
  varianceFactor: number;
}

/**
 * The overall variance scale σ² of a structural model is profiled out at its maximum-likelihood
 * value σ̂² = SSR/n. Given the variance ratios, with a flat prior on the diffuse states and the
 * regression coefficients and 1/σ² on σ², its posterior is σ² = SSR/χ²_ν, ν = n − (coefficients):
 * each simulated path draws its own σ²/σ̂² = n/χ²_ν. On a short pre-period (a few years of a
 * quarterly series: ν ≈ 15–30) this widens the tails of the counterfactual sum towards Student's t;
 * on long ones it is nearly 1.
 */
export function scaleUncertainty(fit: StructuralFit): ScaleUncertainty {
  const nObs = fit.nObs;
  const dof = Math.max(1, nObs - fit.coefficients.length);
  return { nObs, dof, varianceFactor: nObs / Math.max(1, dof - 2) };
}

/**
 * Exact variance of Σ w_t y_t over the forecast horizon (y_t = Z α_t + ε_t), from the recursion of
 * the state covariance P, the cross-covariance g = Cov(α_t, running sum) and the sum's variance.
 */
export function sumVariance(fit: StructuralFit, weights: Float64Array): number {
  const { system } = fit;
  const mDim = system.m;
  const p = Float64Array.from(fit.nextStateCovariance);
  const scratch = new Float64Array(mDim * mDim);
  const g = new Float64Array(mDim);
  const pz = new Float64Array(mDim);
  let variance = 0;
  for (let t = 0; t < weights.length; t++) {
    const w = weights[t];
    for (let i = 0; i < mDim; i++) {
      let s = 0;
      for (let k = 0; k < mDim; k++) s += p[i * mDim + k] * system.z[k];
      pz[i] = s;
    }
    let zg = 0;
    let zpz = 0;
    for (let i = 0; i < mDim; i++) {
      zg += system.z[i] * g[i];
      zpz += system.z[i] * pz[i];
    }
    variance += 2 * w * zg + w * w * (zpz + system.obsVariance);
    for (let i = 0; i < mDim; i++) g[i] += w * pz[i];
    transitionMean(system, g, 1);
    transitionCovariance(system, p, scratch);
    for (let i = 0; i < mDim; i++) p[i * mDim + i] += system.stateVariance[i];
  }
  return variance;
}

/**
 * Spreads simulated paths (paths × horizon, row-major) around the mean path, in place, by the
 * calibration scale times two per-path mixing factors: the model's own scale drawn from its
 * posterior, √(n/χ²_ν) (scaleUncertainty), and the calibration's t mixing, √(ν/χ²_ν).
 */
export function spreadPaths(
  paths: Float64Array, mean: Float64Array, calibration: Calibration, random: SeededRandom,
  modelScale?: ScaleUncertainty,
): void {
  const h = mean.length;
  const count = paths.length / h;
  const nu = calibration.dof;
  for (let p = 0; p < count; p++) {
    let factor = calibration.scale;
    if (Number.isFinite(nu)) factor *= Math.sqrt(nu / random.chiSquare(nu));
    if (modelScale) factor *= Math.sqrt(modelScale.nObs / random.chiSquare(modelScale.dof));
    for (let t = 0; t < h; t++) paths[p * h + t] = mean[t] + factor * (paths[p * h + t] - mean[t]);
  }
}
