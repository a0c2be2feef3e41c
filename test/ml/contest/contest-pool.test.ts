import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { ContestWorkerPool } from '../../../src/jobs/contest-pool.js';
import { foldRows, stratifiedFolds } from '../../../src/ml/tabular/contest/folds.js';
import { runFoldJob, type ContestData, type FoldJob } from '../../../src/ml/tabular/contest/index.js';

const iris = benchFold(fixtureTable('classification', 'iris'), 0);
const data: ContestData = { frame: iris.train, target: iris.yTrain, task: iris.task };
const { train, test: held } = foldRows(stratifiedFolds(Int32Array.from(iris.yTrain), 3, 5, 0), 0);
const job = (params: Record<string, number>): FoldJob => ({
  candidate: { id: 'gbdt', algorithm: 'gbdt', params },
  fold: 0,
  trainRows: train,
  testRows: held,
  seed: 0,
  balance: false,
});

test('a job that throws in a worker rejects with its message and the pool keeps working', async () => {
  const pool = new ContestWorkerPool(2);
  try {
    await assert.rejects(pool.run(data, job({ numLeaves: 1 })), /numLeaves/);
    const outcome = await pool.run(data, job({ nEstimators: 20 }));
    assert.deepEqual(outcome.predictions, runFoldJob(data, job({ nEstimators: 20 })).predictions);
  } finally {
    await pool.close();
  }
  await assert.rejects(pool.run(data, job({})), /closed/);
});
