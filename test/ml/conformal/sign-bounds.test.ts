/**
 * Intervals for a target that is never negative (airquality's ozone, skewed, 1–168 ppb): symmetric
 * residual intervals around a small prediction reach below zero, which no ozone reading can. Cut at
 * zero, they keep every held-out truth they held (the cut-off part holds none) and score better.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { fitChampion, runContest, type CandidateSpec } from '../../../src/ml/tabular/contest/index.js';
import { fitConformal } from '../../../src/ml/conformal/regression-intervals.js';
import { pick, selectRows } from '../../../src/ml/tabular/contest/frame-rows.js';
import { meanIntervalScore } from '../../../src/ml/conformal/interval-fields.js';

const candidates: CandidateSpec[] = [{ id: 'gbdt', algorithm: 'gbdt', params: { nEstimators: 60 } }];
const LEVELS = [0.8, 0.95];

test('airquality ozone, 5 protocol folds: no interval bound below zero, the same truths covered, a better interval score', async () => {
  const table = fixtureTable('regression', 'airquality');
  let cut = 0;
  for (let k = 0; k < 5; k++) {
    const split = benchFold(table, k);
    assert.ok(split.yTrain.every((y) => y >= 0));
    const contest = await runContest(split.train, split.yTrain, split.task, { seed: k, balance: false, candidates });
    const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: k, balance: false });
    const intervals = fitConformal(selectRows(split.train, contest.evaluatedRows), pick(split.yTrain, contest.evaluatedRows), contest.champion.outOfFold, { seed: k, adaptive: false });
    const predictions = model.predictScores(split.test);
    for (const level of LEVELS) {
      const { lower, upper } = intervals.intervals(split.test, predictions, level);
      const q = intervals.quantile(level);
      const symmetricLower = predictions.map((p) => p - q);
      for (let i = 0; i < lower.length; i++) {
        assert.ok(lower[i] >= 0 && upper[i] >= lower[i], `fold ${k} row ${i}: [${lower[i]}, ${upper[i]}]`);
        if (symmetricLower[i] < 0) cut++;
        const y = split.yTest[i];
        assert.equal(y >= lower[i] && y <= upper[i], y >= symmetricLower[i] && y <= predictions[i] + q, 'covers exactly what the symmetric interval covered');
      }
      assert.ok(meanIntervalScore(split.yTest, lower, upper, level) <= meanIntervalScore(split.yTest, symmetricLower, predictions.map((p) => p + q), level));
    }
  }
  assert.ok(cut > 20, `symmetric intervals reached below zero on ${cut} test rows × levels`);
});
