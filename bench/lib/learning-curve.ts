/**
 * The learning curve's second point for bench/interval-learning-curve.ts: the contest champion's fold
 * models fitted again on a seeded ρ share of each evaluated fold's training rows (the contest's
 * settings: forests with their cross-validation tree count), predicting the same held-out rows.
 * Beside the contest's out-of-fold predictions (fold models on m₁ = (k−1)/k of the rows) they show
 * how much the champion's error falls with more rows.
 */
import type { Frame } from '../../src/ml/frame.js';
import type { ContestResult } from '../../src/ml/tabular/contest/index.js';
import { makeLearner } from '../../src/ml/tabular/contest/candidates.js';
import { foldRows, shuffledFolds } from '../../src/ml/tabular/contest/folds.js';
import { pick, selectRows } from '../../src/ml/tabular/contest/frame-rows.js';
import { SeededRandom } from '../../src/ml/core/random.js';

/** The share of each fold's training rows the second point's models train on. */
export const LEARNING_CURVE_SUBSAMPLE = 0.75;

export interface LearningCurvePoint {
  /** Predictions of the contest's evaluated rows (in their order) by the fold models on fewer rows. */
  smallerOutOfFold: Float64Array;
  /** The contest's fold of each evaluated row. */
  rowFold: Int32Array;
}

/** `frame`/`target`: the rows the contest ran on; `seed`: the contest's (a regression contest's folds are shuffledFolds of it). */
export function championLearningCurve(frame: Frame, target: Float64Array, contest: ContestResult, seed: number): LearningCurvePoint {
  const foldOf = shuffledFolds(frame.nRows, contest.folds, seed);
  const weights = contest.champion.weights ?? contest.champion.members.map(() => 1 / contest.champion.members.length);
  const byRow = new Float64Array(frame.nRows);
  for (let f = 0; f < contest.foldsEvaluated; f++) {
    const { train, test } = foldRows(foldOf, f);
    const order = Int32Array.from(train);
    new SeededRandom(seed * 7919 + f).shuffle(order);
    const sub = order.slice(0, Math.max(2, Math.round(LEARNING_CURVE_SUBSAMPLE * order.length))).sort();
    const trainFrame = selectRows(frame, sub);
    const testFrame = selectRows(frame, test);
    contest.champion.members.forEach((spec, j) => {
      const model = makeLearner(spec, 'cv', sub.length).fit(trainFrame, pick(target, sub), contest.task, { seed: seed + f });
      model.predictScores(testFrame).forEach((v, i) => (byRow[test[i]] += weights[j] * v));
    });
  }
  return { smallerOutOfFold: pick(byRow, contest.evaluatedRows), rowFold: Int32Array.from(contest.evaluatedRows, (r) => foldOf[r]) };
}
