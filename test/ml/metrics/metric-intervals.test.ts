/**
 * The 95 % intervals of test metrics (test-metric-intervals.ts) on real data: a GBDT fitted on one
 * protocol fold of the credit data, the other four folds as the population whose metric is the truth,
 * and stratified test sets of 200 rows drawn from it as sessions hold them back. The share of
 * intervals holding the truth is near 95 % (40 draws: a binomial s.e. of 3.4 points; the bound is 3
 * s.e. below), and the accuracy interval is as wide as the binomial one, 2·1.96·√(p(1−p)/m).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import { argMaxRows, classificationMetrics } from '../../../src/ml/metrics/classification.js';
import { brierScore, calibratedReference, expectedCalibrationError } from '../../../src/ml/metrics/calibration.js';
import { regressionMetrics } from '../../../src/ml/metrics/regression.js';
import { classificationMetricIntervals, largestPercentShare, regressionMetricIntervals } from '../../../src/ml/metrics/test-metric-intervals.js';
import { SeededRandom } from '../../../src/ml/core/random.js';

const DRAWS = 40;
const M = 200;

test('credit data, 40 test sets of 200 rows: the 95 % intervals of accuracy, ROC AUC and Brier score hold the population figure about 95 % of the time', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new GbdtLearner({ nEstimators: 60 }).fit(split.test, split.yTest, split.task, { seed: 1 });
  const proba = model.predictScores(split.train);
  const y = Int32Array.from(split.yTrain);
  const decisions = argMaxRows(proba, 2);
  const truth: Record<string, number> = { ...classificationMetrics(y, proba, 2, { decisions }), brierScore: brierScore(y, proba, 2) };
  const byClass = [0, 1].map((c) => Array.from(y.keys()).filter((i) => y[i] === c));
  const random = new SeededRandom(7);
  const held = { accuracy: 0, rocAreaUnderCurve: 0, brierScore: 0 };
  let widthRatio = 0;
  for (let d = 0; d < DRAWS; d++) {
    const rows = byClass.flatMap((members) => Array.from(random.sample(members.length, Math.round((M * members.length) / y.length)), (j) => members[j]!));
    const out = classificationMetricIntervals(Int32Array.from(rows, (r) => y[r]!), Float64Array.from(rows.flatMap((r) => [proba[2 * r]!, proba[2 * r + 1]!])), Int32Array.from(rows, (r) => decisions[r]!), 2, d);
    assert.equal(out.level, 0.95);
    for (const metric of Object.keys(held) as (keyof typeof held)[]) {
      const { lower, upper } = out.metrics[metric]!;
      if (truth[metric]! >= lower && truth[metric]! <= upper) held[metric]++;
    }
    const a = truth.accuracy!;
    widthRatio += (out.metrics.accuracy!.upper - out.metrics.accuracy!.lower) / (2 * 1.96 * Math.sqrt((a * (1 - a)) / rows.length)) / DRAWS;
  }
  for (const [metric, count] of Object.entries(held)) assert.ok(count / DRAWS >= 0.95 - 3 * Math.sqrt(0.95 * 0.05 / DRAWS), `${metric}: ${count} of ${DRAWS}`);
  assert.ok(Math.abs(widthRatio - 1) < 0.15, `accuracy interval width / binomial width ${widthRatio}`);
});

test('regression intervals are deterministic, bracket the test figure, and narrow as the test rows grow', () => {
  const split = benchFold(fixtureTable('regression', 'concrete'), 0);
  const model = new GbdtLearner({ nEstimators: 60 }).fit(split.train, split.yTrain, split.task, { seed: 1 });
  const predicted = model.predictScores(split.test);
  const all = regressionMetricIntervals(split.yTest, predicted, 3);
  assert.deepEqual(regressionMetricIntervals(split.yTest, predicted, 3), all);
  const figure = regressionMetrics(split.yTest, predicted);
  for (const [metric, value] of Object.entries(figure)) {
    const { lower, upper } = all.metrics[metric]!;
    assert.ok(lower < value && value < upper, `${metric} ${value} in [${lower}, ${upper}]`);
  }
  const half = regressionMetricIntervals(split.yTest.subarray(0, 100), predicted.subarray(0, 100), 3);
  const width = (m: typeof all, name: string) => m.metrics[name]!.upper - m.metrics[name]!.lower;
  assert.ok(width(half, 'meanAbsoluteError') > 1.2 * width(all, 'meanAbsoluteError'), 'half the rows, a wider interval');
});

test('a metric resting on a few rows gets no interval: two gross misses among concrete\'s test rows leave RMSE and R² without one, MAE keeps its', () => {
  const split = benchFold(fixtureTable('regression', 'concrete'), 0);
  const model = new GbdtLearner({ nEstimators: 60 }).fit(split.train, split.yTrain, split.task, { seed: 1 });
  const predicted = model.predictScores(split.test);
  assert.equal(regressionMetricIntervals(split.yTest, predicted, 3).heavyTailed, undefined, 'the model\'s own errors are not heavy-tailed');
  const missed = Float64Array.from(predicted, (p, i) => (i < 2 ? p + 100 : p));
  const out = regressionMetricIntervals(split.yTest, missed, 3);
  assert.deepEqual(Object.keys(out.heavyTailed ?? {}).sort(), ['rSquared', 'rootMeanSquareError']);
  assert.ok(out.heavyTailed!.rootMeanSquareError! > 0.5, `the two misses make ${out.heavyTailed!.rootMeanSquareError} of the squared error`);
  assert.deepEqual(Object.keys(out.metrics).sort(), ['meanAbsoluteError', 'meanAbsolutePercentError']);
  assert.ok(Math.abs(largestPercentShare(new Float64Array(206).fill(2)) - 0.01) < 1e-12, 'equal terms: the largest 1 % make 1 %');
});

test('the ECE of calibrated scores by chance: outcomes drawn from credit-model scores fit the reference; sharpened scores do not', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new GbdtLearner({ nEstimators: 60 }).fit(split.test, split.yTest, split.task, { seed: 1 });
  const proba = model.predictScores(split.train).subarray(0, 2 * 1000);
  // Outcomes as perfectly calibrated scores would see them: each row's class drawn from its scores.
  const random = new SeededRandom(11);
  const y = Int32Array.from({ length: 1000 }, (_, i) => (random.next() < proba[2 * i + 1]! ? 1 : 0));
  const fair = calibratedReference(y, proba, 2, 1);
  assert.ok(fair.pValue > 0.05, `calibrated scores: p = ${fair.pValue}`);
  const observed = expectedCalibrationError(y, proba, 2);
  assert.ok(observed > 0.005 && observed < fair.upper95, `observed ECE ${observed}, reference ${fair.mean} (95th percentile ${fair.upper95})`);
  // Overconfident scores of the same rows: p^3 renormalised.
  const sharp = Float64Array.from(proba, (p, j) => p ** 3 / (p ** 3 + proba[j % 2 === 0 ? j + 1 : j - 1]! ** 3));
  assert.ok(calibratedReference(y, sharp, 2, 1).pValue < 0.01);
  // Fewer rows, more chance gap: the reference of 200 rows is larger.
  assert.ok(calibratedReference(y.subarray(0, 200), proba.subarray(0, 400), 2, 1).mean > 1.5 * fair.mean);
});

test('test rows without an error: accuracy gets the exact binomial interval, and metrics every resample gives alike get none (not [1, 1])', () => {
  // Iris setosa against versicolor, a real pair that models separate without an error, scored right with a margin.
  const split = benchFold(fixtureTable('classification', 'iris'), 0);
  const pair = Array.from(split.yTest.keys()).filter((i) => split.yTest[i]! < 2);
  const y = Int32Array.from(pair, (i) => split.yTest[i]!);
  const proba = new Float64Array(pair.length * 2);
  pair.forEach((_, j) => { proba[j * 2 + y[j]!] = 0.97; proba[j * 2 + 1 - y[j]!] = 0.03; });
  const out = classificationMetricIntervals(y, proba, argMaxRows(proba, 2), 2, 1);
  assert.ok(Math.abs(out.metrics.accuracy!.lower - 0.025 ** (1 / pair.length)) < 1e-12 && out.metrics.accuracy!.upper === 1, JSON.stringify(out.metrics.accuracy));
  assert.equal(out.errorFreeRows, pair.length);
  assert.ok(out.constant!.includes('matthewsCorrelationCoefficient'), JSON.stringify(out.constant));
  // The ROC AUC of a perfect ranking gets Newcombe's score interval, reaching below 1, not a constant.
  assert.ok(!out.constant!.includes('rocAreaUnderCurve') && out.metrics.rocAreaUnderCurve!.upper === 1 && out.metrics.rocAreaUnderCurve!.lower < 0.99, JSON.stringify(out.metrics.rocAreaUnderCurve));
  for (const m of out.constant!) assert.ok(!(m in out.metrics), m);
  assert.ok(Object.values(out.metrics).every((iv) => iv.lower < iv.upper), JSON.stringify(out.metrics));
});
