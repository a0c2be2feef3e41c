/**
 * Causal impact of an event on a series (CausalImpact-style): a structural time-series model fitted
 * on the pre-period only — local level, optionally a drift, a stationary AR(1) component (when the
 * level models leave autocorrelation) and a stochastic seasonal, plus a regression on standardised
 * control series (those that do not earn their parameter dropped), chosen by AICc (candidates.ts) — predicts the
 * counterfactual post-period; simulated counterfactual paths give the intervals and the p-value of
 * the cumulative effect (PROTOCOL §4). Each path carries the uncertainty of the estimated parameters
 * that the data pin down in closed form: the variance scale (drawn from its posterior) and the control
 * coefficients (drawn from their GLS sampling distribution). The spread of those paths is calibrated on placebo backtests
 * inside the pre-period (calibration.ts), so that p-values and intervals hold on real series and not
 * only under the fitted model. Pure computation; the series comes from prepare.ts, the period
 * from seasonalPeriods(interval).main.
 */
import { zeroFloorIfNeverNegative } from '../../core/statistics.js';
import { varianceNames, type StructuralSpec } from '../statespace/structural.js';
import { calibrate, minTrainingPoints, scaleUncertainty, spreadPaths, type Calibration } from './calibration.js';
import { isConstant } from '../forecast/stats.js';
import { ADEQUACY_LEVEL, ljungBox, type Adequacy } from './adequacy.js';
import { fitCandidates, pruneControls, type Scale } from './candidates.js';
import { keepControls, prepareControls } from './controls.js';
import { addCoefficientDraws, coefficientDesign, coefficientSumVariance, forecastMoments, simulatePaths, simulationRandom } from './simulate.js';
import { summarisePaths, type PathSummary } from './summary.js';

export interface ImpactInput {
  /**
   * Pre- and post-period values on a regular grid; NaN is missing: the model skips it before the
   * event, and a missing post-period value is left out of the effects (at least one must be observed).
   */
  y: Float64Array;
  /** Index of the last pre-period point. */
  preEnd: number;
  /** Control series observed over both periods (same length as y, no missing values). */
  controls?: readonly Float64Array[];
  /** Seasonal cycle length in periods, 1 (default) for none. */
  period?: number;
  /** Simulated counterfactual paths (default 10,000). */
  nSimulations?: number;
  seed?: number;
  /** Use this model (on the original scale) instead of choosing one by AICc. */
  model?: StructuralSpec;
  /**
   * Calibrate the spread of the counterfactual on backtests inside the pre-period (default true);
   * false gives the model's own intervals with its parameters held at their estimates.
   */
  calibrate?: boolean;
}

export interface CandidateModel {
  model: string;
  aicc: number;
}

/** The effect's intervals and p-value are its simulated paths' summary (summary.ts PathSummary). */
export interface ImpactResult extends PathSummary {
  /** Counterfactual mean per post-period point. */
  predicted: Float64Array;
  /** Σ(observed − predicted) over the post-period. */
  absoluteEffect: number;
  /** absoluteEffect / Σ predicted. */
  relativeEffect: number;
  /** Label of the model used, e.g. "local_level_seasonal_12", "local_level_drift_seasonal_12_log". */
  model: string;
  /** Scale the model was fitted on: 'log' models relative changes. */
  scale: Scale;
  /** Indices of the controls kept (see controls.ts). */
  controlsUsed: number[];
  /** Regression coefficient per kept control, per unit of the control (on the log scale for `_log` models). */
  coefficients: number[];
  /** Fitted variances by component (irregular, level, slope when random, seasonal, autoregressive). */
  variances: Record<string, number>;
  /** Coefficient of the AR(1) component (null when the model has none). */
  arCoefficient: number | null;
  /** Models compared, with their AICc on common pre-period observations. */
  candidates: CandidateModel[];
  /** Backtest calibration of the counterfactual's spread (scale 1 and no backtests when turned off). */
  calibration: Calibration;
  /** Ljung–Box test of the model's one-step errors on the pre-period (null with fewer than 20). */
  adequacy: Adequacy | null;
  /** Why the figures deserve caution: a short pre-period, a model that fits the pre-period badly or leaves autocorrelated errors. */
  warnings: string[];
}

/** Fewer backtests than this: the pre-period is too short to check the model; intervals are wide. */
export const FEW_BACKTESTS = 3;
/** A calibration scale above this: the model's own uncertainty was far too small before the event. */
export const POOR_FIT_SCALE = 2;
export { ADEQUACY_LEVEL } from './adequacy.js';

const DEFAULT_SIMULATIONS = 10_000;

/**
 * Parameters are fitted on at most this many of the last pre-period points. A filter pass costs
 * n × (state dimension)², and hundreds of passes are needed per candidate model, so hourly data with
 * a 24-period seasonal would otherwise take minutes; the counterfactual of these local models
 * depends on recent data, and 500 points pin the few variances down well.
 */
const MAX_FIT_POINTS = 500;

export function estimateImpact(input: ImpactInput): ImpactResult {
  const { y, preEnd } = input;
  // Checked before the (costly) fit.
  if (!y.subarray(preEnd + 1).some(Number.isFinite)) throw new RangeError('every post-period value is missing');
  return effectsAgainst(counterfactual(input), y.subarray(preEnd + 1));
}

/**
 * The counterfactual of the post-period and everything it rests on, without the post-period values:
 * the model sees only the pre-period (and the controls), so several post-periods — a benchmark's
 * injected effects — can be judged against one counterfactual by `effectsAgainst`.
 */
export interface Counterfactual extends Omit<ImpactResult, 'absoluteEffect' | 'relativeEffect' | keyof PathSummary> {
  /** Simulated counterfactual paths, nSimulations × post-period length, row-major. */
  paths: Float64Array;
  /**
   * 0 when the pre-period never went below zero (counts, sales): the per-period band is cut there,
   * as a quantile of max(Y, 0) is max(quantile, 0). The effects, sums of paths, are left as they are.
   */
  bandFloor?: number;
}

export function counterfactual(input: ImpactInput): Counterfactual {
  const { y, preEnd, period = 1, nSimulations = DEFAULT_SIMULATIONS, seed = 0 } = input;
  const nPre = preEnd + 1;
  const n = y.length;
  if (!Number.isInteger(nSimulations) || nSimulations < 1) throw new RangeError(`nSimulations ${nSimulations}`);
  if (!Number.isInteger(preEnd) || nPre < 3 || nPre >= n) {
    throw new RangeError(`preEnd ${preEnd} must leave at least 3 pre-period and 1 post-period points of ${n}`);
  }
  const rawControls = input.controls ?? [];
  for (const c of rawControls) {
    if (c.length !== n) throw new RangeError(`control of length ${c.length} for a series of ${n}`);
    if (c.some((v) => !Number.isFinite(v))) throw new RangeError('controls must not have missing values');
  }

  let controls = prepareControls(y, rawControls, nPre);
  const fitStart = Math.max(0, nPre - MAX_FIT_POINTS);
  const yPre = y.subarray(fitStart, nPre);
  let xPre = controls.values.map((x) => x.subarray(fitStart, nPre));
  const allPositive = yPre.every((v) => !(v <= 0)); // NaN (missing) does not rule out the log scale
  const candidates = fitCandidates(yPre, xPre, allPositive, { period, model: input.model });
  const chosen = candidates.reduce((a, b) => (b.aicc < a.aicc ? b : a));
  let { fit } = chosen;
  // Controls that do not earn their parameter on the chosen model are dropped (spurious regression);
  // a model given by the caller is used as given.
  if (!input.model && xPre.length > 0) {
    const pruned = pruneControls(chosen.scale === 'log' ? yPre.map(Math.log) : yPre, xPre, chosen);
    if (pruned.keep.length < xPre.length) {
      fit = pruned.fit;
      xPre = pruned.keep.map((j) => xPre[j]);
      controls = keepControls(controls, pruned.keep);
    }
  }

  const nPost = n - nPre;
  const offset = new Float64Array(nPost);
  controls.values.forEach((x, j) => {
    for (let t = 0; t < nPost; t++) offset[t] += fit.coefficients[j] * x[nPre + t];
  });
  const moments = forecastMoments(fit, offset);
  const paths = simulatePaths(fit, offset, nSimulations, simulationRandom(seed));
  // The control coefficients are estimates too: each path draws its own (a stream of its own, so
  // that estimates without controls keep their paths). Uncalibrated estimates hold every parameter.
  const design = input.calibrate === false ? [] : coefficientDesign(fit, controls.values.map((x) => x.subarray(nPre)));
  if (design.length > 0) {
    addCoefficientDraws(paths, fit, design, simulationRandom(seed + 2));
    for (let t = 0; t < nPost; t++) {
      moments.variance[t] += coefficientSumVariance(fit, design, unitAt(t, nPost));
    }
  }
  let predicted = moments.mean;
  if (chosen.scale === 'log') {
    // The mean of a log-normal counterfactual, not its median exp(mean).
    predicted = moments.mean.map((mu, t) => Math.exp(mu + moments.variance[t] / 2));
    for (let i = 0; i < paths.length; i++) paths[i] = Math.exp(paths[i]);
  }
  const calibration: Calibration = input.calibrate === false
    ? { backtests: 0, scale: 1, dof: Infinity, z: [], windowsWithGaps: 0 }
    : calibrate({
      // The whole pre-period, not only the points the model was fitted on: backtests of a long
      // window step back through all of it (each still fitted on at most MAX_FIT_POINTS before it).
      yPre: y.subarray(0, nPre), xPre: controls.values.map((x) => x.subarray(0, nPre)),
      spec: fit.spec, scale: chosen.scale, horizon: nPost,
      minTrain: minTrainingPoints(fit.spec), maxFitPoints: MAX_FIT_POINTS,
    });
  // Calibrated estimates also carry the uncertainty of the model's variance scale, path by path.
  if (input.calibrate !== false) spreadPaths(paths, predicted, calibration, simulationRandom(seed + 1), scaleUncertainty(fit));
  const warnings: string[] = [];
  const constantBefore = isConstant(yPre);
  if (constantBefore) {
    warnings.push(`The series has the same value (${yPre.find(Number.isFinite)}) at every period before the event: with no variation to learn from, the counterfactual is that value with no uncertainty, so any change after the event, however small, counts as an effect.`);
  } else if (input.calibrate !== false && calibration.backtests < FEW_BACKTESTS) {
    warnings.push(shortPrePeriodWarning(nPre, nPost, calibration));
  }
  const adequacy = ljungBox(fit, chosen.scale === 'log' ? yPre.map(Math.log) : yPre, xPre);
  if (adequacy && adequacy.pValue < ADEQUACY_LEVEL) {
    warnings.push(`The model leaves a pattern in its errors before the event (Ljung–Box p = ${adequacy.pValue.toPrecision(2)} over ${adequacy.lags} lags): it misses some persistence or cycle of the series, so its errors come in runs. ${input.calibrate === false ? 'Its intervals are not calibrated and may be too narrow.' : 'The intervals are widened by what such runs cost on backtests before the event, which may still understate them.'}`);
  }
  if (calibration.scale > POOR_FIT_SCALE) {
    warnings.push(`The model fits the periods before the event badly: on backtests before the event its errors were ${calibration.scale.toFixed(1)} times larger than it expected, and the intervals have been widened accordingly.`);
  }

  return {
    predicted,
    paths,
    model: chosen.label,
    scale: chosen.scale,
    controlsUsed: controls.used,
    coefficients: Array.from(fit.coefficients, (b, j) => b / controls.sds[j]),
    variances: Object.fromEntries(varianceNames(fit.spec).map((name, i) => [name, fit.variances[i]])),
    arCoefficient: fit.spec.autoregressive ? fit.arCoefficient : null,
    candidates: candidates.map((c) => ({ model: c.label, aicc: c.aicc })),
    calibration,
    adequacy,
    warnings,
    bandFloor: zeroFloorIfNeverNegative(y.subarray(0, nPre)),
  };
}

/**
 * Why the model could not be checked: the windows of the event's length that fit before it, and how
 * many of them were lost to missing values, so the advice matches the cause.
 */
function shortPrePeriodWarning(nPre: number, nPost: number, calibration: Calibration): string {
  const { backtests, windowsWithGaps } = calibration;
  const checked = `only ${backtests} backtest${backtests === 1 ? '' : 's'} of that length could be run in the ${nPre} periods before the event`;
  const cause = windowsWithGaps > 0
    ? `${checked} (${windowsWithGaps} more had missing values)`
    : nPost >= nPre
      ? `the window is ${nPost === nPre ? 'as long as' : 'longer than'} the ${nPre} periods before the event, so no backtest of that length fits before it`
      : checked;
  return `The pre-period is short for a window of ${nPost} periods: ${cause}, so the model could not be checked and the intervals are wide. ${windowsWithGaps > 0 ? 'Fewer missing values or a' : 'A'} longer history before the event gives sharper results.`;
}

/** Weights picking the t-th of n steps. */
function unitAt(t: number, n: number): Float64Array {
  const w = new Float64Array(n);
  w[t] = 1;
  return w;
}

/**
 * Effects of the observed post-period against a counterfactual. A missing (NaN) observation is left
 * out of the sums on both sides: no observed value, no effect measured there.
 */
export function effectsAgainst(cf: Counterfactual, observed: Float64Array): ImpactResult {
  const nPost = cf.predicted.length;
  if (observed.length !== nPost) throw new RangeError(`${observed.length} post-period values for a counterfactual of ${nPost}`);
  if (!observed.some(Number.isFinite)) throw new RangeError('every post-period value is missing');
  let absoluteEffect = 0;
  let predictedSum = 0;
  for (let t = 0; t < nPost; t++) {
    if (!Number.isFinite(observed[t])) continue;
    absoluteEffect += observed[t] - cf.predicted[t];
    predictedSum += cf.predicted[t];
  }
  const { paths, bandFloor, ...rest } = cf;
  const summary = summarisePaths(paths, observed, bandFloor);
  const warnings = Number.isNaN(summary.relativeEffectInterval[0])
    ? [...cf.warnings, 'The counterfactual total over the window may be zero or of either sign, so the relative effect has no interval (it would divide by that total); the absolute effect and its interval stand.']
    : cf.warnings;
  return { ...rest, warnings, absoluteEffect, relativeEffect: absoluteEffect / predictedSum, ...summary };
}
