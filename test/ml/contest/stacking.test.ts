/** Stacking: non-negative weights on the simplex for the candidates' out-of-fold predictions, and the weighted blend it yields. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { classificationStackWeights, projectOntoSimplex, regressionStackWeights } from '../../../src/ml/tabular/contest/stacking.js';
import { rankContestants, type CrossValidated } from '../../../src/ml/tabular/contest/rank-contestants.js';
import { BlendModel, type CandidateSpec } from '../../../src/ml/tabular/contest/index.js';
import { SeededRandom } from '../../../src/ml/core/random.js';
import { LinearLearner } from '../../../src/ml/tabular/linear/index.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import { loadModel } from '../../../src/ml/model-loader.js';
import type { TrainedModel } from '../../../src/ml/estimator.js';
import { benchFold, fixtureTable } from '../../support/fixtures.js';

test('projection onto the simplex: known cases', () => {
  assert.deepEqual(projectOntoSimplex([0.2, 0.8]), [0.2, 0.8]);
  assert.deepEqual(projectOntoSimplex([2, 0]), [1, 0]);
  const p = projectOntoSimplex([0.5, 0.5, 0.5]);
  for (const v of p) assert.ok(Math.abs(v - 1 / 3) < 1e-12);
});

test('regression stack: recovers the mixing weights of a target that is a convex mix of two members, and drops a useless one', () => {
  const r = new SeededRandom(3);
  const n = 500;
  const a = Float64Array.from({ length: n }, () => r.normal());
  const b = Float64Array.from({ length: n }, () => r.normal());
  const junk = Float64Array.from({ length: n }, () => 5 * r.normal());
  const y = Float64Array.from(a, (v, i) => 0.3 * v + 0.7 * b[i]!);
  const w = regressionStackWeights([a, b, junk], y);
  assert.ok(Math.abs(w[0]! - 0.3) < 1e-4 && Math.abs(w[1]! - 0.7) < 1e-4, `${w}`);
  assert.equal(w[2], 0);
});

test('classification stack (EM on the mixture): nearly all weight on the member that predicts the labels, none on noise', () => {
  const r = new SeededRandom(5);
  const n = 400;
  const good = Float64Array.from({ length: n }, () => 0.7 + 0.25 * r.next()); // p(true class) of each row
  const noise = Float64Array.from({ length: n }, () => r.next());
  const w = classificationStackWeights([noise, good]);
  assert.ok(w[1]! > 0.95, `${w}`);
  assert.ok(Math.abs(w.reduce((s, v) => s + v, 0) - 1) < 1e-12);
});

test('ranking with stacks: the stack of two complementary regressors beats each and the equal blend, and carries its weights', () => {
  const r = new SeededRandom(9);
  const n = 600;
  const y = Float64Array.from({ length: n }, () => r.normal());
  const ea = Float64Array.from({ length: n }, () => r.normal());
  const eb = Float64Array.from({ length: n }, () => r.normal());
  // a's errors are four times b's in variance: the best convex weight on a is 0.2, not 0.5.
  const spec = (id: string, algorithm: 'gbdt' | 'random_forest'): CandidateSpec => ({ id, algorithm, params: {} });
  const candidates: CrossValidated[] = [
    { spec: spec('gbdt', 'gbdt'), outOfFold: Float64Array.from(y, (v, i) => v + ea[i]!), fitSeconds: 0 },
    { spec: spec('random_forest', 'random_forest'), outOfFold: Float64Array.from(y, (v, i) => v + 0.5 * eb[i]!), fitSeconds: 0 },
  ];
  const rows = Int32Array.from({ length: n }, (_, i) => i);
  const ranked = rankContestants({ kind: 'regression' }, 'logLoss', candidates, rows, y, 5, 'best-mean', 'stack');
  assert.match(ranked.champion.id, /^stack\(/);
  assert.equal(ranked.champion.members.length, 2);
  const w = ranked.champion.weights!;
  const onA = w[ranked.champion.members.findIndex((m) => m.id === 'gbdt')]!;
  assert.ok(Math.abs(onA - 0.2) < 0.06 && Math.abs(w[0]! + w[1]! - 1) < 1e-12, `${w}`);
  const averaged = rankContestants({ kind: 'regression' }, 'logLoss', candidates, rows, y, 5, 'best-mean', 'average');
  assert.equal(averaged.champion.weights, undefined);
});

test('a weighted blend predicts the weighted mean of its members, and keeps its weights through a save and load', () => {
  const split = benchFold(fixtureTable('classification', 'credit_data'), 0);
  const members = [
    new GbdtLearner({ nEstimators: 30 }).fit(split.train, split.yTrain, split.task, { seed: 0 }),
    new LinearLearner().fit(split.train, split.yTrain, split.task, { seed: 0 }),
  ];
  const blend = new BlendModel(split.task, members, [0.25, 0.75]);
  const p = blend.predictScores(split.test);
  const a = members[0]!.predictScores(split.test);
  const b = members[1]!.predictScores(split.test);
  for (let j = 0; j < p.length; j++) assert.ok(Math.abs(p[j]! - (0.25 * a[j]! + 0.75 * b[j]!)) < 1e-12);
  const loaded = loadModel(JSON.parse(JSON.stringify(blend.toJSON()))) as TrainedModel;
  assert.deepEqual(loaded.predictScores(split.test), p);
  assert.throws(() => new BlendModel(split.task, members, [1]), /one non-negative weight per member/);
});
