/**
 * Conformal intervals over all five protocol folds of a real data set whose errors grow with the
 * price (boston_housing): the held-out coverage, pooled over the 506 rows, is within the binomial
 * sampling error of each level, and the locally adaptive form, when the cross-validated interval
 * score picks it, also scores better on the held-out rows than the plain form.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { fitChampion, runContest, type CandidateSpec } from '../../../src/ml/tabular/contest/index.js';
import { championUncertainty } from '../../../src/ml/calibration/champion-uncertainty.js';
import { fitConformal } from '../../../src/ml/conformal/regression-intervals.js';
import { pick, selectRows } from '../../../src/ml/tabular/contest/frame-rows.js';
import { meanIntervalScore } from '../../../src/ml/conformal/interval-fields.js';

const candidates: CandidateSpec[] = [
  { id: 'random_forest', algorithm: 'random_forest', params: { nTrees: 60 } },
  { id: 'gbdt', algorithm: 'gbdt', params: { nEstimators: 60 } },
];
const LEVELS = [0.8, 0.9, 0.95];

test('boston_housing, 5 protocol folds: pooled held-out coverage within sampling error; the adaptive form, where chosen, scores better', async () => {
  const table = fixtureTable('regression', 'boston_housing');
  const covered = LEVELS.map(() => 0);
  const chosenScore = LEVELS.map(() => 0);
  const plainScore = LEVELS.map(() => 0);
  let rows = 0;
  let adaptiveFolds = 0;
  for (let k = 0; k < 5; k++) {
    const split = benchFold(table, k);
    const contest = await runContest(split.train, split.yTrain, split.task, { seed: k, balance: false, candidates });
    const model = fitChampion(split.train, split.yTrain, split.task, contest, { seed: k, balance: false });
    const u = championUncertainty(model, split.train, split.yTrain, contest, { seed: k, balance: false });
    const plain = fitConformal(selectRows(split.train, contest.evaluatedRows), pick(split.yTrain, contest.evaluatedRows), contest.champion.outOfFold, { seed: k, adaptive: false });
    if (u.intervals!.method === 'normalised') adaptiveFolds++;
    const predictions = model.predictScores(split.test);
    rows += split.yTest.length;
    LEVELS.forEach((level, j) => {
      const chosen = u.intervals!.intervals(split.test, predictions, level);
      const flat = plain.intervals(split.test, predictions, level);
      split.yTest.forEach((y, i) => {
        if (y >= chosen.lower[i] && y <= chosen.upper[i]) covered[j]++;
      });
      chosenScore[j] += meanIntervalScore(split.yTest, chosen.lower, chosen.upper, level) * split.yTest.length;
      plainScore[j] += meanIntervalScore(split.yTest, flat.lower, flat.upper, level) * split.yTest.length;
    });
  }
  LEVELS.forEach((level, j) => {
    const coverage = covered[j] / rows;
    // Deterministic (fixed seeds); 2.5 binomial standard errors at the nominal level.
    assert.ok(Math.abs(coverage - level) <= 2.5 * Math.sqrt((level * (1 - level)) / rows), `level ${level}: coverage ${coverage} over ${rows} rows`);
  });
  assert.ok(adaptiveFolds > 0, 'the spread of boston errors grows with the price: the adaptive form is chosen somewhere');
  const total = (a: number[]) => a.reduce((s, v) => s + v, 0);
  assert.ok(total(chosenScore) < total(plainScore), `held-out interval score ${total(chosenScore) / rows} vs plain ${total(plainScore) / rows}`);
});
