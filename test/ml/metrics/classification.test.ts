import { test } from 'node:test';
import assert from 'node:assert/strict';
import {
  averagePrecision,
  classificationMetrics,
  confusionMatrix,
  rocAuc,
} from '../../../src/ml/metrics/classification.js';

const close = (actual: number, expected: number, tol = 1e-9) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≠ ${expected}`);

/** One-hot probabilities for hard predictions. */
function oneHot(pred: number[], k: number): Float64Array {
  const p = new Float64Array(pred.length * k);
  pred.forEach((c, i) => (p[i * k + c] = 1));
  return p;
}

test('rocAuc matches scikit-learn roc_auc_score, ties at average rank', () => {
  close(rocAuc([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 0.75);
  close(rocAuc([0, 1, 0, 1], [0.5, 0.5, 0.5, 0.5]), 0.5);
  close(rocAuc([0, 1, 1, 0, 1], [0.2, 0.2, 0.9, 0.1, 0.5]), (1 + 1 + 0.5 + 1 + 1 + 1) / 6);
  assert.ok(Number.isNaN(rocAuc([1, 1], [0.2, 0.3])));
});

test('averagePrecision matches scikit-learn average_precision_score', () => {
  close(averagePrecision([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8]), 0.8333333333333333);
  // Tied scores form a single threshold: both rows enter together.
  close(averagePrecision([1, 0, 1, 0], [1, 1, 0, 0]), 0.5);
});

test('confusionMatrix: rows actual, columns predicted (scikit-learn doc example)', () => {
  assert.deepEqual(confusionMatrix([2, 0, 2, 2, 0, 1], [0, 0, 2, 2, 0, 2], 3), [
    [2, 0, 0],
    [0, 0, 1],
    [1, 0, 2],
  ]);
});

test('macro precision / recall / F1 match scikit-learn doc example', () => {
  const m = classificationMetrics(Int32Array.from([0, 1, 2, 0, 1, 2]), oneHot([0, 2, 1, 0, 0, 1], 3), 3);
  close(m.accuracy, 2 / 6);
  close(m.macroAverageF1Score, 0.26666666666666666);
  close(m.macroAveragePrecision, 0.2222222222222222);
  close(m.macroAverageRecall, 0.3333333333333333);
});

test('a class absent from the fold and never predicted scores F1 = 0', () => {
  const m = classificationMetrics(Int32Array.from([0, 0, 1, 1]), oneHot([0, 0, 1, 1], 3), 3);
  close(m.accuracy, 1);
  close(m.macroAverageF1Score, 2 / 3);
});

test('MCC: binary matches scikit-learn; multiclass is Gorodkin R_K', () => {
  // matthews_corrcoef([+1, +1, +1, -1], [+1, -1, +1, +1]) = -0.333…; class 0 = -1, class 1 = +1.
  const binary = classificationMetrics(Int32Array.from([1, 1, 1, 0]), oneHot([1, 0, 1, 1], 2), 2);
  close(binary.matthewsCorrelationCoefficient, -1 / 3);
  const multi = classificationMetrics(Int32Array.from([2, 0, 2, 2, 0, 1]), oneHot([0, 0, 2, 2, 0, 2], 3), 3);
  close(multi.matthewsCorrelationCoefficient, 9 / Math.sqrt(18 * 22));
});

test('log loss matches scikit-learn log_loss doc example and clips zero probabilities', () => {
  // log_loss(["spam","ham","ham","spam"], [[.1,.9],[.9,.1],[.8,.2],[.35,.65]]) with ham = 0, spam = 1.
  const m = classificationMetrics(Int32Array.from([1, 0, 0, 1]), Float64Array.from([0.1, 0.9, 0.9, 0.1, 0.8, 0.2, 0.35, 0.65]), 2);
  close(m.logLoss, 0.21616187468057912);
  const clipped = classificationMetrics(Int32Array.from([0]), Float64Array.from([0, 1]), 2);
  close(clipped.logLoss, -Math.log(1e-15));
});

test('binary AUC scores the minority class by default; positiveClass overrides', () => {
  // With proper probabilities both classes give the same AUC, so the columns here are independent
  // scores to show which one is read.
  const y = Int32Array.from([0, 0, 0, 1, 1]); // class 1 is the minority
  const col0 = [0.9, 0.8, 0.3, 0.4, 0.6];
  const col1 = [0.1, 0.2, 0.7, 0.6, 0.9];
  const proba = Float64Array.from(col0.flatMap((p0, i) => [p0, col1[i]]));
  close(classificationMetrics(y, proba, 2).rocAreaUnderCurve, rocAuc([0, 0, 0, 1, 1], col1));
  close(classificationMetrics(y, proba, 2, { positiveClass: 0 }).rocAreaUnderCurve, rocAuc([1, 1, 1, 0, 0], col0));
  const tiedCounts = Int32Array.from([0, 1, 0, 1]); // equal counts: the label that sorts last (1)
  close(classificationMetrics(tiedCounts, proba.subarray(0, 8), 2).rocAreaUnderCurve, rocAuc([0, 1, 0, 1], col1.slice(0, 4)));
});

test('multiclass AUC is the macro mean of one-vs-rest AUCs', () => {
  const y = Int32Array.from([0, 1, 2, 2]);
  const proba = Float64Array.from([0.6, 0.3, 0.1, 0.2, 0.5, 0.3, 0.3, 0.3, 0.4, 0.1, 0.6, 0.3]);
  const expected =
    (rocAuc([1, 0, 0, 0], [0.6, 0.2, 0.3, 0.1]) +
      rocAuc([0, 1, 0, 0], [0.3, 0.5, 0.3, 0.6]) +
      rocAuc([0, 0, 1, 1], [0.1, 0.3, 0.4, 0.3])) /
    3;
  close(classificationMetrics(y, proba, 3).rocAreaUnderCurve, expected);
});
