/**
 * Forests on real benchmark data (protocol fold 0), against scikit-learn's random forest run on the
 * same fold (reference/tabular_folds.csv) and against trivial baselines.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { classificationMetrics } from '../../../src/ml/metrics/classification.js';
import { regressionMetrics } from '../../../src/ml/metrics/regression.js';
import { ExtraTreesLearner, RandomForestLearner } from '../../../src/ml/tabular/forest/index.js';
import { referenceFold } from '../contest/reference-results.js';

function classify(name: string, learner: RandomForestLearner | ExtraTreesLearner) {
  const table = fixtureTable('classification', name);
  const split = benchFold(table, 0);
  if (split.task.kind !== 'classification') throw new Error('expected classification');
  const k = split.task.classes.length;
  const model = learner.fit(split.train, split.yTrain, split.task, { seed: 0 });
  const metrics = classificationMetrics(Int32Array.from(split.yTest), model.predictScores(split.test), k, { positiveClass: table.positiveClass });
  // Trivial baseline: always the training fold's majority class, with its class priors as probabilities.
  const counts = new Array<number>(k).fill(0);
  for (const y of split.yTrain) counts[y]++;
  const majority = counts.indexOf(Math.max(...counts));
  const majorityAccuracy = split.yTest.filter((y) => y === majority).length / split.yTest.length;
  return { metrics, majorityAccuracy, model };
}

test('random forest on vehicle (4 classes) matches scikit-learn and beats the majority class by far', () => {
  const ref = referenceFold('vehicle', 'random_forest', 0);
  const { metrics, majorityAccuracy } = classify('vehicle', new RandomForestLearner());
  assert.ok(metrics.accuracy >= ref.accuracy - 0.03, `accuracy ${metrics.accuracy} vs reference ${ref.accuracy}`);
  assert.ok(metrics.rocAreaUnderCurve >= ref.roc_auc - 0.01, `AUC ${metrics.rocAreaUnderCurve} vs reference ${ref.roc_auc}`);
  // The reference forest's own margin over the baseline, of which we must keep most.
  assert.ok(metrics.accuracy - majorityAccuracy >= 0.8 * (ref.accuracy - majorityAccuracy), `accuracy ${metrics.accuracy}, baseline ${majorityAccuracy}`);
});

test('random forest handles missing values (pima_diabetes) as well as scikit-learn', () => {
  const ref = referenceFold('pima_diabetes', 'random_forest', 0);
  const { metrics } = classify('pima_diabetes', new RandomForestLearner());
  assert.ok(metrics.rocAreaUnderCurve >= ref.roc_auc - 0.02, `AUC ${metrics.rocAreaUnderCurve} vs reference ${ref.roc_auc}`);
  assert.ok(metrics.logLoss <= ref.log_loss + 0.03, `log loss ${metrics.logLoss} vs reference ${ref.log_loss}`);
});

test('extra trees on ionosphere are close to the reference random forest', () => {
  const ref = referenceFold('ionosphere', 'random_forest', 0);
  const { metrics } = classify('ionosphere', new ExtraTreesLearner());
  assert.ok(metrics.rocAreaUnderCurve >= ref.roc_auc - 0.02, `AUC ${metrics.rocAreaUnderCurve} vs reference ${ref.roc_auc}`);
  assert.ok(metrics.accuracy >= ref.accuracy - 0.04, `accuracy ${metrics.accuracy} vs reference ${ref.accuracy}`);
});

test('random forest regression on concrete is within 10 % of scikit-learn and far below predicting the mean', () => {
  const ref = referenceFold('concrete', 'random_forest', 0);
  const split = benchFold(fixtureTable('regression', 'concrete'), 0);
  const model = new RandomForestLearner().fit(split.train, split.yTrain, split.task, { seed: 0 });
  const { rootMeanSquareError } = regressionMetrics(split.yTest, model.predictScores(split.test));
  const trainMean = split.yTrain.reduce((a, b) => a + b, 0) / split.yTrain.length;
  const baseline = regressionMetrics(split.yTest, new Float64Array(split.yTest.length).fill(trainMean)).rootMeanSquareError;
  assert.ok(rootMeanSquareError <= ref.rmse * 1.1, `RMSE ${rootMeanSquareError} vs reference ${ref.rmse}`);
  assert.ok(rootMeanSquareError < baseline / 2, `RMSE ${rootMeanSquareError} vs mean baseline ${baseline}`);
});

test('importance ranks iris petal measurements above sepal width and sums to 1', () => {
  const { model } = classify('iris', new RandomForestLearner({ nTrees: 100 }));
  const imp = model.featureImportance();
  assert.deepEqual(Object.keys(imp).sort(), ['Petal.Length', 'Petal.Width', 'Sepal.Length', 'Sepal.Width']);
  assert.ok(imp['Petal.Length'] > imp['Sepal.Width'] && imp['Petal.Width'] > imp['Sepal.Width']);
  assert.ok(Math.abs(Object.values(imp).reduce((a, b) => a + b, 0) - 1) < 1e-9);
});
