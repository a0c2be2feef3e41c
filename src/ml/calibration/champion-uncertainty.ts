/**
 * What the contest's cross-validation says about the champion's confidence: its out-of-fold class
 * scores fit the calibration map (classification), its out-of-fold errors the conformal intervals
 * (regression). Both come from the same folds that ranked the candidates, so no row calibrates a
 * model that was trained on it.
 */
import type { Frame } from '../frame.js';
import type { TrainedModel } from '../estimator.js';
import type { ContestResult } from '../tabular/contest/run-contest.js';
import { pick, selectRows } from '../tabular/contest/frame-rows.js';
import { CalibratedModel } from './calibrated-model.js';
import { chooseCalibrator, type CalibrationChoice } from './class-calibrator.js';
import { fitConformal, type ConformalRegressor } from '../conformal/regression-intervals.js';

export interface ChampionUncertainty {
  /** The champion, its class scores calibrated (classification) or as it was (regression). */
  model: TrainedModel;
  /** The same calibration map and decision around another fit of the champion (its refit on more rows). */
  wrap(fit: TrainedModel): TrainedModel;
  calibration?: CalibrationChoice;
  intervals?: ConformalRegressor;
}

export interface UncertaintyOptions {
  seed: number;
  /** Balanced decisions: the model predicts the class whose probability is largest relative to its share of the rows. */
  balance: boolean;
}

/** `frame` and `target` are the rows the contest ran on (its sample, when it ran on one). */
export function championUncertainty(model: TrainedModel, frame: Frame, target: Float64Array, contest: ContestResult, opts: UncertaintyOptions): ChampionUncertainty {
  const { seed } = opts;
  const rows = contest.evaluatedRows;
  const y = pick(target, rows);
  const oof = contest.champion.outOfFold;
  if (contest.task.kind === 'classification') {
    const k = contest.task.classes.length;
    const calibration = chooseCalibrator(oof, Int32Array.from(y), k, seed);
    const decisionWeights = opts.balance ? inverseShares(y, k) : undefined;
    const wrap = (fit: TrainedModel) => (calibration.calibrator.method === 'none' && !decisionWeights ? fit : new CalibratedModel(fit, calibration.calibrator, decisionWeights));
    return { model: wrap(model), wrap, calibration };
  }
  return { model, wrap: (fit) => fit, intervals: fitConformal(selectRows(frame, rows), y, oof, { seed }) };
}

/** 1 / (share of each class), scaled to sum to k: weights that make every class count equally. */
function inverseShares(y: Float64Array, k: number): number[] {
  const counts = new Array<number>(k).fill(0);
  for (const v of y) counts[v]++;
  const inv = counts.map((c) => (c > 0 ? y.length / c : 0));
  const total = inv.reduce((a, v) => a + v, 0);
  return inv.map((v) => (v * k) / total);
}
