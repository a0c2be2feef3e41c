/**
 * GBDT on real benchmark data (protocol fold 0) against LightGBM run with the same settings on the same
 * fold (reference/tabular_folds.csv): thresholds are the reference minus a small margin.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { classificationMetrics } from '../../../src/ml/metrics/classification.js';
import { regressionMetrics } from '../../../src/ml/metrics/regression.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import { referenceFold } from '../contest/reference-results.js';

function classify(name: string) {
  const table = fixtureTable('classification', name);
  const split = benchFold(table, 0);
  if (split.task.kind !== 'classification') throw new Error('expected classification');
  const model = new GbdtLearner().fit(split.train, split.yTrain, split.task, { seed: 0 });
  const proba = model.predictScores(split.test);
  const k = split.task.classes.length;
  assert.equal(proba.length, split.test.nRows * k);
  return classificationMetrics(Int32Array.from(split.yTest), proba, k, { positiveClass: table.positiveClass });
}

test('binary, numeric features (breast_cancer_wdbc): AUC within 0.01 of LightGBM', () => {
  const ref = referenceFold('breast_cancer_wdbc', 'lightgbm', 0);
  const m = classify('breast_cancer_wdbc');
  assert.ok(m.rocAreaUnderCurve >= ref.roc_auc - 0.01, `AUC ${m.rocAreaUnderCurve} vs LightGBM ${ref.roc_auc}`);
  assert.ok(m.accuracy >= ref.accuracy - 0.03, `accuracy ${m.accuracy} vs LightGBM ${ref.accuracy}`);
});

test('binary with missing values and categorical columns (credit_data): AUC within 0.01 of LightGBM', () => {
  const ref = referenceFold('credit_data', 'lightgbm', 0);
  const m = classify('credit_data');
  assert.ok(m.rocAreaUnderCurve >= ref.roc_auc - 0.01, `AUC ${m.rocAreaUnderCurve} vs LightGBM ${ref.roc_auc}`);
  assert.ok(m.logLoss <= ref.log_loss + 0.03, `log loss ${m.logLoss} vs LightGBM ${ref.log_loss}`);
});

test('categorical-only features with many missing votes (house_votes84): AUC within 0.02 of LightGBM', () => {
  const ref = referenceFold('house_votes84', 'lightgbm', 0);
  const m = classify('house_votes84');
  assert.ok(m.rocAreaUnderCurve >= ref.roc_auc - 0.02, `AUC ${m.rocAreaUnderCurve} vs LightGBM ${ref.roc_auc}`);
});

test('multiclass softmax (vehicle, 4 classes): accuracy within 0.03 of LightGBM', () => {
  const ref = referenceFold('vehicle', 'lightgbm', 0);
  const m = classify('vehicle');
  assert.ok(m.accuracy >= ref.accuracy - 0.03, `accuracy ${m.accuracy} vs LightGBM ${ref.accuracy}`);
  assert.ok(m.rocAreaUnderCurve >= ref.roc_auc - 0.01, `AUC ${m.rocAreaUnderCurve} vs LightGBM ${ref.roc_auc}`);
});

test('L2 regression (concrete): RMSE within 10 % of LightGBM', () => {
  const ref = referenceFold('concrete', 'lightgbm', 0);
  const split = benchFold(fixtureTable('regression', 'concrete'), 0);
  const model = new GbdtLearner().fit(split.train, split.yTrain, split.task, { seed: 0 });
  const m = regressionMetrics(split.yTest, model.predictScores(split.test));
  assert.ok(m.rootMeanSquareError <= ref.rmse * 1.1, `RMSE ${m.rootMeanSquareError} vs LightGBM ${ref.rmse}`);
});
