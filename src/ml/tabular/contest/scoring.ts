/** Cross-validated metrics of a candidate and the order used to pick the champion. */
import type { Task } from '../../frame.js';
import { classificationMetrics, type ClassificationMetrics } from '../../metrics/classification.js';
import { regressionMetrics, type RegressionMetrics } from '../../metrics/regression.js';

export type TaskMetrics = ClassificationMetrics | RegressionMetrics;

/**
 * Classification champions are picked by cross-validated log loss by default: over the 10 smaller
 * benchmark sets (5 outer folds each) it chose models with higher test accuracy (+0.3 points) and
 * ROC AUC (+0.003) than picking by macro-F1, and the same test macro-F1 — the CV macro-F1 of one
 * threshold is too noisy to rank near-equal models.
 */
export type ClassificationSelection = 'logLoss' | 'macroAverageF1Score';
export type SelectionMetric = ClassificationSelection | 'rootMeanSquareError';

/** Metrics of out-of-fold predictions for the given rows (predictions in the same row order). */
export function scorePredictions(task: Task, yTrue: Float64Array, predictions: Float64Array): TaskMetrics {
  if (task.kind === 'regression') return regressionMetrics(yTrue, predictions);
  return classificationMetrics(Int32Array.from(yTrue), predictions, task.classes.length);
}

const TIE = 1e-9;

/** Orders candidates: true when a ranks strictly before b. */
export type RanksBefore = (a: TaskMetrics, b: TaskMetrics) => boolean;

/**
 * Classification: the chosen metric, then the other one, then ROC AUC.
 * Regression: RMSE, then MAE.
 */
export function ranking(task: Task, selectBy: ClassificationSelection): { metric: SelectionMetric; ranksBefore: RanksBefore } {
  if (task.kind === 'regression') {
    return {
      metric: 'rootMeanSquareError',
      ranksBefore: (a, b) => {
        const [x, y] = [a as RegressionMetrics, b as RegressionMetrics];
        if (Math.abs(x.rootMeanSquareError - y.rootMeanSquareError) > TIE) return x.rootMeanSquareError < y.rootMeanSquareError;
        return x.meanAbsoluteError < y.meanAbsoluteError - TIE;
      },
    };
  }
  const keys = (m: ClassificationMetrics) => {
    const logLossKey = -m.logLoss; // higher is better for every key
    return selectBy === 'logLoss'
      ? [logLossKey, m.macroAverageF1Score, m.rocAreaUnderCurve]
      : [m.macroAverageF1Score, logLossKey, m.rocAreaUnderCurve];
  };
  return {
    metric: selectBy,
    ranksBefore: (a, b) => {
      const [x, y] = [keys(a as ClassificationMetrics), keys(b as ClassificationMetrics)];
      for (let i = 0; i < x.length; i++) if (Math.abs(x[i] - y[i]) > TIE) return x[i] > y[i];
      return false;
    },
  };
}
