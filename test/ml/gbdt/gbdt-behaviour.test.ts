/** Behaviour of the GBDT learner that holds by construction: missing values, categories, objectives, options. */
import { ARTIFACT_VERSION } from '../../../src/ml/estimator.js';
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import type { Task } from '../../../src/ml/frame.js';
import { regressionMetrics } from '../../../src/ml/metrics/regression.js';
import { GbdtLearner, GbdtModel, loadGbdt } from '../../../src/ml/tabular/gbdt/index.js';
import { categorical, frame, lcg, numeric, rowsOf } from './synthetic.js';

const BINARY: Task = { kind: 'classification', classes: ['no', 'yes'] };

test('missing values: the learned default side sends NaN where the training NaNs pointed', () => {
  const rnd = lcg(1);
  const n = 2000;
  const x = new Float64Array(n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    // y = 1 for large x and for every missing x; missing values are 20 % of rows.
    const missing = rnd() < 0.2;
    x[i] = missing ? NaN : rnd();
    y[i] = missing || x[i] > 0.7 ? 1 : 0;
  }
  const noise = Float64Array.from({ length: n }, () => rnd());
  const model = new GbdtLearner({ nEstimators: 30 }).fit(frame(numeric('x', x), numeric('noise', noise)), y, BINARY, { seed: 0 });
  const p = model.predictScores(frame(numeric('x', [NaN, 0.1, 0.9]), numeric('noise', [0.5, 0.5, 0.5])));
  assert.ok(p[1] > 0.9, `P(yes | x missing) = ${p[1]}`);
  assert.ok(p[3] < 0.1, `P(yes | x = 0.1) = ${p[3]}`);
  assert.ok(p[5] > 0.9, `P(yes | x = 0.9) = ${p[5]}`);
});

test('categorical splits group levels by their effect; unseen and missing levels give finite predictions', () => {
  const rnd = lcg(2);
  const levels = Array.from({ length: 12 }, (_, i) => `L${i}`);
  const n = 3000;
  const codes = Int32Array.from({ length: n }, () => Math.floor(rnd() * 12));
  // Levels L0, L3, L6, L9 are "yes": not an ordered range of codes, so only a set split finds them.
  const y = Float64Array.from(codes, (c) => (c % 3 === 0 ? 1 : 0));
  const model = new GbdtLearner({ nEstimators: 50 }).fit(frame(categorical('c', levels, codes)), y, BINARY, { seed: 0 });
  const all = model.predictScores(frame(categorical('c', levels, levels.map((_, i) => i))));
  for (let c = 0; c < 12; c++) {
    const p = all[2 * c + 1];
    assert.ok(c % 3 === 0 ? p > 0.95 : p < 0.05, `P(yes | L${c}) = ${p}`);
  }
  // The prediction frame has its own level list: matching is by name; "new" was never seen.
  const p = model.predictScores(frame(categorical('c', ['L9', 'L4', 'new'], [0, 1, 2, -1])));
  assert.deepEqual(Array.from(p.subarray(0, 4)), [all[18], all[19], all[8], all[9]]);
  for (const v of p) assert.ok(Number.isFinite(v));
  assert.ok(Math.abs(p[4] + p[5] - 1) < 1e-12 && Math.abs(p[6] + p[7] - 1) < 1e-12);
});

test('unseen categories and missing numbers in real data (credit_data) give finite probabilities', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new GbdtLearner({ nEstimators: 20 }).fit(split.train, split.yTrain, split.task, { seed: 0 });
  const test = rowsOf(split.test, [0, 1, 2, 3]);
  test.columns = test.columns.map((c) =>
    c.kind === 'numeric' ? numeric(c.name, [NaN, NaN, NaN, NaN]) : categorical(c.name, ['never-seen'], [0, -1, 0, -1]),
  );
  for (const v of model.predictScores(test)) assert.ok(Number.isFinite(v) && v >= 0 && v <= 1);
});

test('serialisation round trip through JSON text predicts identical numbers', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const model = new GbdtLearner({ nEstimators: 30 }).fit(split.train, split.yTrain, split.task, { seed: 0 });
  const json = JSON.parse(JSON.stringify(model.toJSON()));
  assert.equal(json.format, 'sibyl-model');
  assert.equal(json.version, ARTIFACT_VERSION);
  assert.equal(json.kind, 'gbdt');
  assert.equal(json.params.nEstimators, 30);
  const restored = loadGbdt(json);
  assert.deepEqual(restored.predictScores(split.test), model.predictScores(split.test));
  assert.deepEqual(restored.featureImportance(), model.featureImportance());
  assert.deepEqual(restored.task, model.task);
});

test('a seed fixes the model, bagging and feature sampling included; another seed changes it', () => {
  const split = benchFold(fixtureTable('classification', 'breast_cancer_wdbc'), 0);
  const params = { nEstimators: 20, baggingFraction: 0.7, baggingFreq: 1, featureFraction: 0.5 };
  const fit = (seed: number) => new GbdtLearner(params).fit(split.train, split.yTrain, split.task, { seed }).predictScores(split.test);
  assert.deepEqual(fit(7), fit(7));
  assert.notDeepEqual(fit(7), fit(8));
});

test('early stopping ends well before nEstimators on an easy set and keeps the best round', () => {
  const split = benchFold(fixtureTable('classification', 'breast_cancer_wdbc'), 0);
  const model = new GbdtLearner({ nEstimators: 1000, earlyStoppingRounds: 10 }).fit(split.train, split.yTrain, split.task, { seed: 0 });
  assert.ok(model instanceof GbdtModel);
  assert.ok(model.rounds >= 5 && model.rounds < 500, `kept ${model.rounds} rounds`);
  assert.equal(model.forest.numTrees, model.rounds);
});

test('a single-class training target is a clear error', () => {
  const f = frame(numeric('x', [1, 2, 3, 4]));
  assert.throws(() => new GbdtLearner().fit(f, new Float64Array(4), BINARY, { seed: 0 }), /single class \(no\)/);
});

test('class weights multiply gradients: up-weighting a class raises its predicted probability', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const meanP = (weights?: Float64Array) => {
    const p = new GbdtLearner({ nEstimators: 30 }).fit(split.train, split.yTrain, split.task, { seed: 0, weights }).predictScores(split.test);
    let s = 0;
    for (let r = 0; r < split.test.nRows; r++) s += p[2 * r + 1];
    return s / split.test.nRows;
  };
  const balanced = Float64Array.from(split.yTrain, (y) => (y === 1 ? 3 : 1));
  assert.ok(meanP(balanced) > meanP() + 0.05);
});

test('huber objective resists gross target outliers that pull the L2 fit away (concrete)', () => {
  const split = benchFold(fixtureTable('regression', 'concrete'), 0);
  const rnd = lcg(3);
  // Corrupt 5 % of the training targets by +500 (the target's range is ~80).
  const yDirty = Float64Array.from(split.yTrain, (y) => (rnd() < 0.05 ? y + 500 : y));
  const rmse = (objective: 'l2' | 'huber') =>
    regressionMetrics(split.yTest, new GbdtLearner({ objective }).fit(split.train, yDirty, split.task, { seed: 0 }).predictScores(split.test))
      .rootMeanSquareError;
  const huber = rmse('huber');
  const l2 = rmse('l2');
  assert.ok(huber < 0.7 * l2, `huber RMSE ${huber} vs l2 ${l2}`);
});

test('gain importance names every input column and ranks a signal column above pure noise', () => {
  const rnd = lcg(4);
  const n = 1000;
  const signal = Float64Array.from({ length: n }, () => rnd());
  const noise = Float64Array.from({ length: n }, () => rnd());
  const constant = new Float64Array(n).fill(1);
  const y = Float64Array.from(signal, (s) => 3 * s + 0.1 * rnd());
  const model = new GbdtLearner({ nEstimators: 30 }).fit(
    frame(numeric('signal', signal), numeric('noise', noise), numeric('constant', constant)), y, { kind: 'regression' }, { seed: 0 },
  );
  const imp = model.featureImportance();
  assert.deepEqual(Object.keys(imp).sort(), ['constant', 'noise', 'signal']);
  assert.equal(imp.constant, 0);
  assert.ok(imp.signal > 10 * imp.noise, JSON.stringify(imp));
});

test('maxDepth bounds every tree', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const shallow = new GbdtLearner({ nEstimators: 20, maxDepth: 2 }).fit(split.train, split.yTrain, split.task, { seed: 0 });
  assert.ok(shallow instanceof GbdtModel);
  const { nodeOffset } = shallow.forest.arrays;
  for (let t = 0; t < shallow.forest.numTrees; t++) assert.ok(nodeOffset[t + 1] - nodeOffset[t] <= 3, `tree ${t}`);
});

test('large batches (scored in chunks) give the same numbers as small ones', () => {
  const rnd = lcg(6);
  const n = 20_001;
  const x = Float64Array.from({ length: n }, () => (rnd() < 0.05 ? NaN : rnd()));
  const y = Float64Array.from(x, (v) => (Number.isNaN(v) ? 2 : Math.sin(6 * v)) + 0.1 * rnd());
  const f = frame(numeric('x', x));
  const model = new GbdtLearner({ nEstimators: 10 }).fit(f, y, { kind: 'regression' }, { seed: 0 });
  const all = model.predictScores(f);
  const head = model.predictScores(rowsOf(f, Array.from({ length: 3 }, (_, i) => i)));
  const tail = model.predictScores(rowsOf(f, [n - 1]));
  assert.equal(all.length, n);
  assert.deepEqual(Array.from(all.subarray(0, 3)), Array.from(head));
  assert.equal(all[n - 1], tail[0]);
});
