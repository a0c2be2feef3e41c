/** Forest mechanics on real data: serialisation, determinism, sample weights, missing inputs. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import type { Frame } from '../../../src/ml/frame.js';
import { ExtraTreesLearner, RandomForestLearner, loadForest } from '../../../src/ml/tabular/forest/index.js';
import { loadModel, serializeModel } from '../../../src/ml/model-loader.js';

const credit = benchFold(fixtureTable('classification', 'credit_data'), 0); // NaNs + categoricals
const auto = benchFold(fixtureTable('regression', 'auto_mpg'), 0);

test('a forest restored from JSON predicts identical numbers (classification and regression)', () => {
  for (const [split, learner] of [
    [credit, new RandomForestLearner({ nTrees: 30 })],
    [auto, new ExtraTreesLearner({ nTrees: 30 })],
  ] as const) {
    const model = learner.fit(split.train, split.yTrain, split.task, { seed: 1 });
    const restored = loadModel(JSON.parse(serializeModel(model)));
    assert.equal(restored.algorithm.key, model.algorithm.key);
    assert.deepEqual(restored.predictScores(split.test), model.predictScores(split.test));
    assert.deepEqual(restored.featureImportance(), model.featureImportance());
  }
});

test('the same seed gives the same forest, another seed a different one', () => {
  const fit = (seed: number) => new RandomForestLearner({ nTrees: 20 }).fit(auto.train, auto.yTrain, auto.task, { seed }).predictScores(auto.test);
  assert.deepEqual(fit(7), fit(7));
  assert.notDeepEqual(fit(7), fit(8));
});

test('sample weights shift class probabilities toward the up-weighted class', () => {
  const bad = credit.task.kind === 'classification' ? credit.task.classes.indexOf('bad') : -1;
  assert.ok(bad >= 0);
  const meanBad = (weights?: Float64Array) => {
    const p = new RandomForestLearner({ nTrees: 40, minSamplesLeaf: 10 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0, weights }).predictScores(credit.test);
    let s = 0;
    for (let i = 0; i < credit.test.nRows; i++) s += p[i * 2 + bad];
    return s / credit.test.nRows;
  };
  const weights = Float64Array.from(credit.yTrain, (y) => (y === bad ? 3 : 1));
  // Leaves of ≥ 10 rows: fully grown trees have pure leaves, where weights only move the splits.
  const [weighted, plain] = [meanBad(weights), meanBad()];
  assert.ok(weighted > plain + 0.05, `up-weighting "bad" must raise its predicted share: ${weighted} vs ${plain}`);
});

test('missing and unseen inputs at prediction time give valid probabilities', () => {
  const model = new RandomForestLearner({ nTrees: 20 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0 });
  const blank: Frame = {
    nRows: 3,
    columns: credit.test.columns.map((c) =>
      c.kind === 'numeric'
        ? { ...c, values: new Float64Array(3).fill(NaN) }
        : { ...c, codes: new Int32Array(3).fill(-1) },
    ),
  };
  const noColumns: Frame = { nRows: 2, columns: [] };
  for (const frame of [blank, noColumns]) {
    const p = model.predictScores(frame);
    assert.equal(p.length, frame.nRows * 2);
    for (let i = 0; i < frame.nRows; i++) assert.ok(Math.abs(p[2 * i] + p[2 * i + 1] - 1) < 1e-9 && p.every(Number.isFinite));
  }
});

test('categorical codes are matched by level name when the prediction frame lists levels differently', () => {
  const model = new RandomForestLearner({ nTrees: 20 }).fit(credit.train, credit.yTrain, credit.task, { seed: 0 });
  const reordered: Frame = {
    nRows: credit.test.nRows,
    columns: credit.test.columns.map((c) => {
      if (c.kind === 'numeric') return c;
      const levels = [...c.levels].reverse();
      return { ...c, levels, codes: Int32Array.from(c.codes, (code) => (code < 0 ? -1 : levels.length - 1 - code)) };
    }),
  };
  assert.deepEqual(model.predictScores(reordered), model.predictScores(credit.test));
});

test('loadForest rejects other model kinds', () => {
  assert.throws(() => loadForest({ format: 'sibyl-model', version: 1, kind: 'gbdt' }), /not a forest model/);
});
