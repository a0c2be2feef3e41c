/** The champion choice among cross-validated contestants: best mean vs the one-standard-error rule. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { rankContestants, type CrossValidated } from '../../../src/ml/tabular/contest/rank-contestants.js';
import type { CandidateSpec } from '../../../src/ml/tabular/contest/index.js';
import { SeededRandom } from '../../../src/ml/core/random.js';
import type { Task } from '../../../src/ml/frame.js';

const task: Task = { kind: 'regression' };
const n = 400;
const random = new SeededRandom(7);
const y = Float64Array.from({ length: n }, () => random.next() * 10);
const rows = Int32Array.from({ length: n }, (_, i) => i);
const linear: CandidateSpec = { id: 'linear', algorithm: 'linear', params: {} };
const gbdt: CandidateSpec = { id: 'gbdt', algorithm: 'gbdt', params: {} };
// Errors share a large common part (what neither model can learn) and differ by a small own part.
const common = new SeededRandom(11);
const shared = Float64Array.from(y, () => common.normal());
const noisy = (sd: number, seed: number) => {
  const r = new SeededRandom(seed);
  return Float64Array.from(y, (v, i) => v + shared[i] + sd * r.normal());
};
const contestant = (spec: CandidateSpec, outOfFold: Float64Array): CrossValidated => ({ spec, outOfFold, fitSeconds: 0 });

test('one-standard-error rule: a linear model in a near-tie with a tree ensemble wins; by best mean it loses', () => {
  // Errors of nearly the same size on every row: the tree model's slightly lower mean is noise.
  const treePredictions = noisy(0.1, 1);
  const r = new SeededRandom(2);
  const trees = contestant(gbdt, treePredictions);
  const lin = contestant(linear, Float64Array.from(treePredictions, (v) => v + 0.03 * r.normal()));
  const bestMean = rankContestants(task, 'logLoss', [lin, trees], rows, y, 5, 'best-mean');
  const oneSe = rankContestants(task, 'logLoss', [lin, trees], rows, y, 5, 'one-standard-error');
  assert.notEqual(bestMean.champion.id, 'linear', `best mean: ${bestMean.contestants.map((c) => c.id).join(', ')}`);
  assert.equal(oneSe.champion.id, 'linear');
  assert.equal(oneSe.champion.members.length, 1);
});

test('one-standard-error rule: a clearly worse linear model does not win', () => {
  const trees = contestant(gbdt, noisy(0.1, 1));
  const lin = contestant(linear, noisy(1.0, 2));
  const oneSe = rankContestants(task, 'logLoss', [lin, trees], rows, y, 5, 'one-standard-error');
  assert.notEqual(oneSe.champion.id, 'linear');
});
