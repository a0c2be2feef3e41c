/** Model selection on real benchmark data (protocol folds), thresholds from the reference results. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { ContestWorkerPool } from '../../../src/jobs/contest-pool.js';
import type { Frame } from '../../../src/ml/frame.js';
import { classificationMetrics } from '../../../src/ml/metrics/classification.js';
import { fitChampion, inThreadExecutor, runContest, type CandidateExecutor, type CandidateSpec } from '../../../src/ml/tabular/contest/index.js';
import { selectRows } from '../../../src/ml/tabular/contest/frame-rows.js';
import { loadModel, serializeModel } from '../../../src/ml/model-loader.js';
import { bestReferenceFold } from './reference-results.js';

const pimaTable = fixtureTable('classification', 'pima_diabetes');
const pima = benchFold(pimaTable, 0);

test('on pima_diabetes the contest picks the linear model or scores near the best reference', async () => {
  const result = await runContest(pima.train, pima.yTrain, pima.task, { seed: 0, workBudget: Infinity, balance: false });
  assert.equal(result.foldsEvaluated, 5);
  assert.ok(result.contestants.length >= 5, 'every candidate is cross-validated');
  for (const c of result.contestants) assert.ok('rocAreaUnderCurve' in c.metrics && c.metrics.rocAreaUnderCurve > 0.7, `${c.id} CV AUC`);
  const model = fitChampion(pima.train, pima.yTrain, pima.task, result, { seed: 0, balance: false });
  const k = pima.task.kind === 'classification' ? pima.task.classes.length : 0;
  const test = classificationMetrics(Int32Array.from(pima.yTest), model.predictScores(pima.test), k, { positiveClass: pimaTable.positiveClass });
  const bestAuc = bestReferenceFold('pima_diabetes', 'roc_auc', 0, true);
  const pickedLinear = result.champion.members.some((m) => m.algorithm === 'linear');
  assert.ok(pickedLinear || test.rocAreaUnderCurve >= bestAuc - 0.02, `champion ${result.champion.id}: AUC ${test.rocAreaUnderCurve} vs best reference ${bestAuc}`);
  assert.equal(result.championMetric.name, 'logLoss');
});

test('a blended champion round-trips through serializeModel/loadModel with identical predictions', async () => {
  const table = fixtureTable('classification', 'glass');
  const split = benchFold(table, 0);
  const candidates: CandidateSpec[] = [
    { id: 'linear', algorithm: 'linear', params: {} },
    { id: 'gbdt', algorithm: 'gbdt', params: { nEstimators: 30 } },
    { id: 'extra_trees', algorithm: 'extra_trees', params: { nTrees: 30 } },
  ];
  const result = await runContest(split.train, split.yTrain, split.task, { seed: 1, workBudget: Infinity, balance: true, candidates });
  const blend = result.contestants.find((c) => c.algorithm === 'blend')!;
  assert.ok(blend, 'the contest scores blends of its best candidates');
  for (const champion of [result.champion, { id: blend.id, members: candidates.filter((c) => blend.id.includes(c.id)), outOfFold: new Float64Array(0) }]) {
    const model = fitChampion(split.train, split.yTrain, split.task, { ...result, champion }, { seed: 1, balance: true });
    const restored = loadModel(JSON.parse(serializeModel(model)));
    assert.equal(restored.algorithm.key, champion.members.length > 1 ? 'blend' : champion.members[0].algorithm);
    assert.deepEqual(restored.predictScores(split.test), model.predictScores(split.test));
  }
});

test('the work budget cuts folds, the same way on every run', async () => {
  const split = benchFold(fixtureTable('classification', 'satellite'), 0);
  const candidates: CandidateSpec[] = [
    { id: 'linear', algorithm: 'linear', params: {} },
    { id: 'gbdt', algorithm: 'gbdt', params: { nEstimators: 20 } },
  ];
  const cellsPerRound = 2 * Math.round(split.train.nRows * 0.8) * split.train.columns.length;
  // Room for the first fold and one more round, not a third.
  const opts = { seed: 0, workBudget: 2.5 * cellsPerRound, balance: false, candidates };
  const first = await runContest(split.train, split.yTrain, split.task, opts);
  assert.equal(first.foldsEvaluated, 2);
  assert.ok(first.work <= opts.workBudget);
  // A busy machine changes nothing: the budget counts work, not time.
  const second = await runContest(split.train, split.yTrain, split.task, { ...opts, executor: slowExecutor() });
  assert.equal(second.foldsEvaluated, 2);
  assert.deepEqual(second.contestants.map((c) => [c.id, c.metrics]), first.contestants.map((c) => [c.id, c.metrics]));
});

test('the worker pool gives the same contest result as in-thread execution', async () => {
  const rows = Int32Array.from({ length: 300 }, (_, i) => i);
  const frame: Frame = selectRows(pima.train, rows);
  const y = Float64Array.from(rows, (r) => pima.yTrain[r]);
  const candidates: CandidateSpec[] = [
    { id: 'linear', algorithm: 'linear', params: {} },
    { id: 'random_forest', algorithm: 'random_forest', params: { nTrees: 20 } },
  ];
  const opts = { seed: 3, workBudget: Infinity, balance: true, candidates };
  const pool = new ContestWorkerPool(2);
  try {
    const inPool = await runContest(frame, y, pima.task, { ...opts, executor: pool });
    const inThread = await runContest(frame, y, pima.task, opts);
    assert.deepEqual(inPool.contestants.map((c) => c.metrics), inThread.contestants.map((c) => c.metrics));
    assert.equal(inPool.champion.id, inThread.champion.id);
  } finally {
    await pool.close();
  }
});

test('small data with a class of one or two rows still runs', async () => {
  const split = benchFold(fixtureTable('classification', 'glass'), 0);
  const k = split.task.kind === 'classification' ? split.task.classes.length : 0;
  // 40 rows per common class, but only 1–2 rows of the smaller ones.
  const perClass = new Array<number>(k).fill(0);
  const rows: number[] = [];
  split.yTrain.forEach((c, i) => {
    const cap = c <= 1 ? 40 : 1 + (c % 2);
    if (perClass[c]++ < cap) rows.push(i);
  });
  const sub = Int32Array.from(rows);
  const y = Float64Array.from(sub, (r) => split.yTrain[r]);
  const result = await runContest(selectRows(split.train, sub), y, split.task, { seed: 0, workBudget: Infinity, balance: true });
  assert.ok(Number.isFinite(result.championMetric.value));
  assert.deepEqual(result.failed, []);
  const model = fitChampion(selectRows(split.train, sub), y, split.task, result, { seed: 0, balance: true });
  assert.ok(model.predictScores(split.test).every(Number.isFinite));
});

test('a handful of rows with a single minority row: folds without that class do not fail candidates', async () => {
  const neg = Array.from(pima.yTrain.keys()).filter((i) => pima.yTrain[i] === 0).slice(0, 5);
  const pos = Array.from(pima.yTrain.keys()).find((i) => pima.yTrain[i] === 1)!;
  const rows = Int32Array.from([...neg, pos]);
  const y = Float64Array.from(rows, (r) => pima.yTrain[r]);
  const result = await runContest(selectRows(pima.train, rows), y, pima.task, { seed: 0, workBudget: Infinity, balance: true });
  assert.deepEqual(result.failed, []);
  assert.equal(result.foldsEvaluated, 5);
});

test('a single-class target is rejected with a clear error', async () => {
  const y = new Float64Array(pima.train.nRows); // every row class 0
  await assert.rejects(
    runContest(pima.train, y, pima.task, { seed: 0, workBudget: Infinity, balance: true }),
    /at least two classes.*found only: neg/,
  );
});

/** The in-thread executor with every job delayed by a different amount, as on a busy machine. */
function slowExecutor(): CandidateExecutor {
  let calls = 0;
  return {
    concurrency: 2,
    run: async (data, job) => {
      await new Promise((resolve) => setTimeout(resolve, 50 * (++calls % 3)));
      return inThreadExecutor.run(data, job);
    },
  };
}
