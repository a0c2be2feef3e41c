/**
 * Calibrated class scores and conformal intervals on real fixture data (protocol fold 0), from a
 * short contest's out-of-fold predictions; thresholds from the reference results and from the
 * binomial sampling error of the held-out rows.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { classificationMetrics } from '../../../src/ml/metrics/classification.js';
import { brierScore, expectedCalibrationError, reliabilityTable } from '../../../src/ml/metrics/calibration.js';
import { fitChampion, runContest, type CandidateSpec } from '../../../src/ml/tabular/contest/index.js';
import { championUncertainty } from '../../../src/ml/calibration/champion-uncertainty.js';
import { applyCalibrator, chooseCalibrator, fitCalibrator } from '../../../src/ml/calibration/class-calibrator.js';
import { ConformalRegressor } from '../../../src/ml/conformal/regression-intervals.js';
import { intervalCoverage } from '../../../src/ml/conformal/interval-fields.js';
import { loadModel, loadTrainedModel, serializeModel } from '../../../src/ml/model-loader.js';
import { referenceFold } from '../contest/reference-results.js';

const forests: CandidateSpec[] = [
  { id: 'random_forest', algorithm: 'random_forest', params: { nTrees: 60 } },
  { id: 'gbdt', algorithm: 'gbdt', params: { nEstimators: 60 } },
];

test('credit_data, classes balanced in training (the default): calibration restores the class mix and beats the raw scores on held-out rows', async () => {
  // 4,454 rows, 28 % "bad": balancing trains on a 50/50 prior, so raw scores overstate "bad".
  const table = fixtureTable('classification', 'credit_data');
  const split = benchFold(table, 0);
  const k = split.task.kind === 'classification' ? split.task.classes.length : 0;
  const contest = await runContest(split.train, split.yTrain, split.task, { seed: 0, balance: true, candidates: forests });
  const raw = fitChampion(split.train, split.yTrain, split.task, contest, { seed: 0, balance: true });
  const u = championUncertainty(raw, split.train, split.yTrain, contest, { seed: 0, balance: true });
  assert.notEqual(u.calibration!.calibrator.method, 'none');
  const y = Int32Array.from(split.yTest);
  const before = raw.predictScores(split.test);
  const after = u.model.predictScores(split.test);
  const lossBefore = classificationMetrics(y, before, k).logLoss;
  const lossAfter = classificationMetrics(y, after, k).logLoss;
  const eceBefore = expectedCalibrationError(y, before, k);
  const eceAfter = expectedCalibrationError(y, after, k);
  // The contest's stack is weighted by out-of-fold log loss, which already pulls its raw scores part of the way.
  assert.ok(lossAfter < lossBefore, `log loss ${lossBefore} → ${lossAfter}`);
  assert.ok(eceAfter < eceBefore - 0.005 && eceAfter < 0.03, `ECE ${eceBefore} → ${eceAfter}`);
  assert.ok(brierScore(y, after, k) < brierScore(y, before, k), 'Brier score');
  // As good as LightGBM's own probabilities on this fold (log loss within 0.02).
  const lgb = referenceFold('credit_data', 'lightgbm', 0).log_loss;
  assert.ok(lossAfter < lgb + 0.02, `log loss ${lossAfter} vs LightGBM ${lgb}`);
  // The predicted share of "bad" matches the data's, which the balanced scores do not.
  const meanScore = (p: Float64Array, c: number) => p.filter((_, j) => j % k === c).reduce((a, v) => a + v, 0) / y.length;
  const bad = table.positiveClass!;
  const actual = y.filter((c) => c === bad).length / y.length;
  assert.ok(Math.abs(meanScore(after, bad) - actual) < 0.02, `mean score ${meanScore(after, bad)} vs share ${actual}`);
  assert.ok(meanScore(before, bad) - actual > 0.03, `the balanced scores overstate the minority class: ${meanScore(before, bad)} vs ${actual}`);
  const restored = loadModel(JSON.parse(serializeModel(u.model)));
  assert.deepEqual(restored.predictScores(split.test), after);
  assert.deepEqual(restored.predict(split.test), u.model.predict(split.test));
  assert.equal(restored.algorithm.key, raw.algorithm.key);
  const table10 = reliabilityTable(y, after, k);
  assert.equal(table10.reduce((a, b) => a + b.count, 0), y.length);
});

test('wine: out-of-fold scores that separate the classes do not buy a sharpening map that costs held-out log loss', async () => {
  // 178 rows, 3 classes. In fold 0 the champion's out-of-fold scores put every calibration row's
  // class first; fitted to 0/1 targets the temperature slope ran to ~35 and the one held-out row the
  // champion got wrong was left the floor probability (log loss 0.086 → 0.164). Platt's targets keep
  // the slope finite, and the cross-validated choice then keeps scores that are already good.
  const split = benchFold(fixtureTable('classification', 'wine'), 0);
  const k = split.task.kind === 'classification' ? split.task.classes.length : 0;
  const contest = await runContest(split.train, split.yTrain, split.task, { seed: 0, balance: true });
  const raw = fitChampion(split.train, split.yTrain, split.task, contest, { seed: 0, balance: true });
  const u = championUncertainty(raw, split.train, split.yTrain, contest, { seed: 0, balance: true });
  const y = Int32Array.from(split.yTest);
  const lossBefore = classificationMetrics(y, raw.predictScores(split.test), k).logLoss;
  const lossAfter = classificationMetrics(y, u.model.predictScores(split.test), k).logLoss;
  // 36 held-out rows: one row moved from p = 0.9 to the floor would add 0.15.
  assert.ok(lossAfter <= lossBefore + 0.01, `held-out log loss ${lossBefore} → ${lossAfter} (${u.calibration!.calibrator.method})`);
  const yCal = Int32Array.from(contest.evaluatedRows, (r) => split.yTrain[r]);
  const temperature = fitCalibrator('temperature', contest.champion.outOfFold, yCal, k);
  assert.ok(temperature.method === 'temperature' && temperature.slope < 5, `temperature slope ${JSON.stringify(temperature)}`);
});

test('each calibration map returns probability rows; the choice falls back to none for scores that are already calibrated', () => {
  // Scores drawn as calibrated: P(class 1) = s exactly, from a seeded generator.
  let a = 12345;
  const rand = () => ((a = (Math.imul(a, 1664525) + 1013904223) >>> 0) / 4294967296);
  const n = 3000;
  const proba = new Float64Array(n * 2);
  const y = new Int32Array(n);
  for (let i = 0; i < n; i++) {
    const s = rand();
    proba[i * 2 + 1] = s;
    proba[i * 2] = 1 - s;
    y[i] = rand() < s ? 1 : 0;
  }
  for (const method of ['temperature', 'platt', 'isotonic'] as const) {
    const out = applyCalibrator(fitCalibrator(method, proba, y, 2), proba, 2);
    for (let i = 0; i < n; i++) assert.ok(Math.abs(out[i * 2] + out[i * 2 + 1] - 1) < 1e-9 && out[i * 2] > 0 && out[i * 2 + 1] > 0);
  }
  assert.equal(chooseCalibrator(proba, y, 2, 1).calibrator.method, 'none');
});

test('concrete: conformal intervals from out-of-fold residuals cover held-out rows near their level', async () => {
  const split = benchFold(fixtureTable('regression', 'concrete'), 0);
  const contest = await runContest(split.train, split.yTrain, split.task, { seed: 0, balance: false, candidates: forests });
  const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: 0, balance: false });
  const u = championUncertainty(model, split.train, split.yTrain, contest, { seed: 0, balance: false });
  const predictions = model.predictScores(split.test);
  const n = split.yTest.length;
  let lastWidth = 0;
  for (const level of [0.5, 0.8, 0.9, 0.95]) {
    const { lower, upper } = u.intervals!.intervals(split.test, predictions, level);
    const coverage = intervalCoverage(split.yTest, lower, upper);
    // 206 held-out rows: within 3 binomial standard errors of the level.
    assert.ok(Math.abs(coverage - level) <= 3 * Math.sqrt((level * (1 - level)) / n), `level ${level}: coverage ${coverage}`);
    const width = upper.reduce((a, v, i) => a + v - lower[i], 0) / n;
    assert.ok(width > lastWidth, 'a higher level gives wider intervals');
    lastWidth = width;
  }
  const restored = ConformalRegressor.load(JSON.parse(JSON.stringify(u.intervals!.toJSON())), loadTrainedModel);
  assert.deepEqual(restored.intervals(split.test, predictions, 0.9), u.intervals!.intervals(split.test, predictions, 0.9));
  assert.equal(ConformalRegressor.fromScores(Float64Array.of(1, 2, 3), 'absolute').quantile(0.9), Infinity, 'too few rows for the level: unbounded');
});
