/**
 * Conformal prediction intervals for regression from cross-validation residuals. Scores are the
 * contest's out-of-fold absolute errors |y − ŷ|; the interval at level L is ŷ ± q around the refitted
 * champion, q = the ⌈(n+1)L⌉-th smallest score (the finite-sample conformal quantile).
 *
 * Why centred on the refit and not true CV+ (Barber et al. 2021: the ⌊α(n+1)⌋-th / ⌈(1−α)(n+1)⌉-th
 * of μ̂₋ₖ₍ᵢ₎(x) ∓ Rᵢ over the fold models μ̂₋ₖ), measured by bench:interval-variants on the protocol
 * folds of the seven small regression sets (test folds pooled): CV+ over-covered more (80 %:
 * 81.0–84.4 % against 79.1–82.8 %) with intervals 0.4–12 % wider; its interval score beat this form's
 * on six sets, mostly by 0–3 % (mtcars 80 %: 8 %), but lost clearly to the adaptive form below where
 * that is chosen (boston 95 %: 22.2 against 17.0); and it needs the champion's fold models kept
 * beside it (1.3–1.5 times the artifact, concrete 28 MB beside 20 MB; 1.5–2.5 times the predict time). The fold models are
 * trained on fewer rows than the refit, so their residuals are, if anything, larger than the
 * refit's: this form errs on the side of covering.
 *
 * Locally adaptive: the scores are divided by a spread model σ(x) (gradient boosting on the absolute
 * errors, with ŷ as an extra input), fitted out-of-fold so the normalised scores are honest; the
 * interval becomes ŷ ± q·σ(x). Both forms hold their level over all rows (as far as the refit errs
 * like the fold models); the adaptive one is used only when its cross-validated interval score
 * (crossValidatedScore) is lower, i.e. when it puts the width where the errors are.
 *
 * Not narrowed for the refit's extra rows, measured and rejected (bench:interval-learning-curve): the
 * champion's fold models fitted again on 75 % of each fold's training rows give the scores at a
 * second training size, and the fall from there to the fold models' size was extrapolated to the
 * refit's n rows (a local power law of the mean |error| or of each level's quantile; mean square =
 * noise + C/m, its fall taken off the squared quantiles). That brings concrete, whose error still
 * falls steeply with more rows, from 83.4/91.7/96.2 % to 81.5/91.1/95.7 % at 80/90/95 (the
 * protocol's seven small sets: mean 80 % deviation +2.1 → +0.2 points), but on the yardstick's 23
 * regression sets every variant moved the mean 80 % coverage down, from −0.4 to −1.4…−3.4 points
 * (midwest_percollege 76.4 → 71.4, mpg_hwy 79.9 → 74.4: a steep curve between the two smaller
 * sizes that the refit did not continue), with mean interval scores no better than 0.1 %, for
 * about 27 % more session CPU. As shipped, the deviations over the 30 sets are what binomial
 * sampling gives (Σz² 38.5/34.7/34.1 at 80/90/95, about 30 expected); concrete's 80 % (z = 2.7) is
 * the largest of the 90.
 *
 * A target that was never negative in the calibration rows (prices, counts, durations) gets no
 * negative bound: the interval is cut at zero. When such values cannot be negative this costs no
 * coverage, since a truth inside the cut-off part never occurs; even if they can, a new exchangeable
 * row falls below the smallest of n calibration values with probability at most 1/(n+1). Likewise
 * for a target never positive. Symmetric residual intervals around a skewed positive target put
 * most lower bounds below zero otherwise (a synthetic price table: 288 of 300 test rows at 95 %).
 */
import type { Frame, SerializedModel, TrainedModel } from '../frame.js';
import { GbdtLearner } from '../tabular/gbdt/index.js';
import { shuffledFolds, foldRows } from '../tabular/contest/folds.js';
import { pick, selectRows } from '../tabular/contest/frame-rows.js';
import { intervalScore } from './interval-fields.js';

export interface SerializedConformal {
  format: 'sibyl-conformal-regression';
  version: 1;
  method: 'absolute' | 'normalised';
  /** Calibration rows behind the scores. */
  n: number;
  /** Sorted scores: every one, or evenly spaced order statistics of a large set (rank = index·step + 1). */
  scores: number[];
  rankStep: number;
  /** Normalised: the spread model and the smallest spread it may give. */
  spread?: SerializedModel;
  spreadFloor?: number;
  /** The side of zero every calibration target was on, if one: the intervals stay on it. */
  sign?: 'nonNegative' | 'nonPositive';
}

export interface ConformalIntervals {
  lower: Float64Array;
  upper: Float64Array;
}

const KEPT_SCORES = 4000;
const SPREAD_FOLDS = 5;
const PREDICTION_INPUT = '__prediction__';
/** Levels the adaptive and plain forms are compared at. */
const COMPARISON_LEVELS = [0.8, 0.9, 0.95];
/** The adaptive form's cross-validated interval score must be this much lower to be worth its extra model. */
const ADAPTIVE_GAIN = 0.97;
const MIN_ROWS_FOR_SPREAD = 100;

const spreadLearner = () =>
  new GbdtLearner({ numLeaves: 8, nEstimators: 100, learningRate: 0.05, minDataInLeaf: 20, lambdaL2: 1, featureFraction: 0.8 });

export interface FitConformalOptions {
  seed: number;
  /** Try the locally adaptive form (default true). */
  adaptive?: boolean;
}

/** Fits the interval model from out-of-fold predictions of the calibration rows (`frame` holds those rows). */
export function fitConformal(frame: Frame, y: Float64Array, outOfFold: Float64Array, opts: FitConformalOptions): ConformalRegressor {
  const n = y.length;
  const residual = Float64Array.from(y, (v, i) => Math.abs(v - outOfFold[i]));
  const sign = signOf(y);
  const plain = ConformalRegressor.fromScores(residual, 'absolute', sign);
  if (opts.adaptive === false || n < MIN_ROWS_FOR_SPREAD) return plain;

  const withPrediction = addPrediction(frame, outOfFold);
  const floor = Math.max(1e-12, 0.05 * mean(residual));
  const sigma = new Float64Array(n);
  const foldOf = shuffledFolds(n, SPREAD_FOLDS, opts.seed + 7919);
  for (let f = 0; f < SPREAD_FOLDS; f++) {
    const { train, test } = foldRows(foldOf, f);
    const model = spreadLearner().fit(selectRows(withPrediction, train), pick(residual, train), { kind: 'regression' }, { seed: opts.seed + f });
    const s = model.predict(selectRows(withPrediction, test));
    test.forEach((r, j) => (sigma[r] = Math.max(floor, s[j])));
  }
  const scaled = residual.map((r, i) => r / sigma[i]);
  const normalised = ConformalRegressor.fromScores(scaled, 'normalised', sign);
  if (!(crossValidatedScore(residual, scaled, sigma, foldOf) < ADAPTIVE_GAIN * crossValidatedScore(residual, residual, new Float64Array(n).fill(1), foldOf))) return plain;
  const spread = spreadLearner().fit(withPrediction, residual, { kind: 'regression' }, { seed: opts.seed });
  return normalised.withSpread(spread, floor);
}

export class ConformalRegressor {
  private spreadModel?: TrainedModel;

  private constructor(private readonly state: SerializedConformal) {}

  static fromScores(scores: Float64Array, method: SerializedConformal['method'], sign?: SerializedConformal['sign']): ConformalRegressor {
    const sorted = Float64Array.from(scores).sort();
    const n = sorted.length;
    const rankStep = Math.max(1, Math.ceil(n / KEPT_SCORES));
    const kept: number[] = [];
    for (let i = 0; i < n; i += rankStep) kept.push(sorted[i]);
    if ((n - 1) % rankStep !== 0) kept.push(sorted[n - 1]);
    return new ConformalRegressor({ format: 'sibyl-conformal-regression', version: 1, method, n, scores: kept, rankStep, ...(sign ? { sign } : {}) });
  }

  static load(json: SerializedConformal, loadModel: (m: SerializedModel) => TrainedModel): ConformalRegressor {
    if (json.format !== 'sibyl-conformal-regression' || json.version !== 1) throw new Error(`not a conformal regressor (format ${String(json.format)})`);
    const out = new ConformalRegressor(json);
    if (json.spread) out.spreadModel = loadModel(json.spread);
    return out;
  }

  get method(): SerializedConformal['method'] {
    return this.state.method;
  }

  withSpread(model: TrainedModel, floor: number): ConformalRegressor {
    const out = new ConformalRegressor({ ...this.state, spread: model.toJSON(), spreadFloor: floor });
    out.spreadModel = model;
    return out;
  }

  /** Whether the calibration rows bound the interval at `level` (its score's rank is at most n). */
  bounded(level: number): boolean {
    return Math.ceil((this.state.n + 1) * level) <= this.state.n;
  }

  /**
   * Why the intervals at some of `levels` would be unbounded (their levels above n/(n+1)), in a clause
   * the caller ends with what to do; undefined when every level is bounded.
   */
  unboundedReason(levels: readonly number[]): string | undefined {
    const unbounded = levels.filter((level) => !this.bounded(level));
    if (!unbounded.length) return undefined;
    const n = this.state.n;
    return `This model's intervals were calibrated on ${n} rows, which bound intervals up to level ${n}/${n + 1} (${(n / (n + 1)).toPrecision(4)}); ` +
      `at ${unbounded.join(', ')} the interval would be unbounded`;
  }

  /** The ⌈(n+1)·level⌉-th smallest score; Infinity when there are too few rows for the level. */
  quantile(level: number): number {
    if (!(level > 0 && level < 1)) throw new Error(`interval level must be between 0 and 1, got ${level}`);
    if (!this.bounded(level)) return Infinity;
    const { n, scores, rankStep } = this.state;
    const rank = Math.ceil((n + 1) * level);
    const pos = (rank - 1) / rankStep;
    const lo = Math.floor(pos);
    if (lo >= scores.length - 1) return scores[scores.length - 1];
    // Between two kept order statistics: the higher one, so the interval never narrows.
    return pos === lo ? scores[lo] : scores[lo + 1];
  }

  /** Intervals around the predictions of the rows of `frame`. */
  intervals(frame: Frame, predictions: Float64Array, level: number): ConformalIntervals {
    return this.intervalsAt(frame, predictions, [level])[0];
  }

  /** Intervals at each level; the spread model (adaptive form) predicts the rows once for all of them. */
  intervalsAt(frame: Frame, predictions: Float64Array, levels: readonly number[]): ConformalIntervals[] {
    const n = predictions.length;
    let sigma: Float64Array | undefined;
    if (this.state.method === 'normalised' && levels.length > 0) {
      sigma = this.spreadModel!.predict(addPrediction(frame, predictions));
      for (let i = 0; i < n; i++) sigma[i] = Math.max(this.state.spreadFloor!, sigma[i]);
    }
    const [min, max] = this.state.sign === 'nonNegative' ? [0, Infinity] : this.state.sign === 'nonPositive' ? [-Infinity, 0] : [-Infinity, Infinity];
    const clamp = (v: number) => Math.min(max, Math.max(min, v));
    return levels.map((level) => {
      const q = this.quantile(level);
      const half = (i: number) => (sigma ? q * sigma[i] : q);
      return { lower: predictions.map((p, i) => clamp(p - half(i))), upper: predictions.map((p, i) => clamp(p + half(i))) };
    });
  }

  toJSON(): SerializedConformal {
    return this.state;
  }
}

/**
 * Mean interval score (Gneiting & Raftery 2007: width + 2/α × the distance by which the truth falls
 * outside; a proper score for a central 1 − α interval) of intervals ŷ ± q·σ over the comparison
 * levels, each fold's rows judged with q from the other folds' `scores` (|y − ŷ| / σ). The interval
 * score rewards narrow intervals only where they still hold the truth, so the adaptive form wins
 * where its spread model places the width where the errors are, not where it merely narrows
 * the intervals on the rows that fitted it.
 */
function crossValidatedScore(residual: Float64Array, scores: Float64Array, sigma: Float64Array, foldOf: Int32Array): number {
  let total = 0;
  for (let f = 0; f < SPREAD_FOLDS; f++) {
    const { train, test } = foldRows(foldOf, f);
    if (test.length === 0) continue;
    const fold = ConformalRegressor.fromScores(pick(scores, train), 'absolute');
    for (const level of COMPARISON_LEVELS) {
      const q = fold.quantile(level);
      for (const r of test) {
        const half = q * sigma[r];
        // An unbounded interval (too few rows for the level) scores as the largest finite one would.
        const width = Number.isFinite(half) ? 2 * half : 2 * residual[r];
        total += intervalScore(width, Math.max(0, residual[r] - half), level);
      }
    }
  }
  return total / (residual.length * COMPARISON_LEVELS.length);
}

function signOf(y: Float64Array): SerializedConformal['sign'] {
  if (y.every((v) => v >= 0)) return 'nonNegative';
  if (y.every((v) => v <= 0)) return 'nonPositive';
  return undefined;
}

function addPrediction(frame: Frame, predictions: Float64Array): Frame {
  return { nRows: frame.nRows, columns: [...frame.columns, { kind: 'numeric', name: PREDICTION_INPUT, values: predictions }] };
}

function mean(a: Float64Array): number {
  let s = 0;
  for (const v of a) s += v;
  return a.length ? s / a.length : 0;
}
