/** The first-fold screen of regression forests (screening.ts) on real data. */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { inThreadExecutor, makeLearner, runContest, type CandidateExecutor, type CandidateSpec } from '../../../src/ml/tabular/contest/index.js';
import { extrapolatedSquaredErrors, SCREEN_TREES } from '../../../src/ml/tabular/contest/screening.js';
import { foldRows, shuffledFolds } from '../../../src/ml/tabular/contest/folds.js';
import { pick, selectRows } from '../../../src/ml/tabular/contest/frame-rows.js';
import { benchFold, fixtureTable } from '../../support/fixtures.js';

const concrete = benchFold(fixtureTable('regression', 'concrete'), 0);

test('two half-forests of 10 trees predict the squared error of a 100-tree forest better than their 20-tree mean does', () => {
  const { train, test: held } = foldRows(shuffledFolds(concrete.train.nRows, 5, 0), 0);
  const frame = selectRows(concrete.train, train);
  const y = pick(concrete.yTrain, train);
  const yHeld = pick(concrete.yTrain, held);
  const predict = (trees: number, seed: number) =>
    makeLearner({ id: 'rf', algorithm: 'random_forest', params: { nTrees: trees } }, 'cv').fit(frame, y, concrete.task, { seed }).predictScores(selectRows(concrete.train, held));
  const mse = (p: Float64Array) => p.reduce((s, v, i) => s + (v - yHeld[i]) ** 2, 0) / p.length;
  const [a, b] = [predict(10, 1), predict(10, 2)];
  const full = mse(predict(100, 3));
  const raw = mse(Float64Array.from(a, (v, i) => (v + b[i]) / 2));
  const extrapolated = extrapolatedSquaredErrors(a, b, yHeld, 10, 100).reduce((s, v) => s + v, 0) / yHeld.length;
  assert.ok(raw > full, `20 trees ${raw} vs 100 trees ${full}`);
  assert.ok(Math.abs(extrapolated - full) < 0.5 * (raw - full), `extrapolated ${extrapolated}, 20 trees ${raw}, 100 trees ${full}`);
});

test('a forest clearly worse than the best contestant stops after its screen; a competitive one is cross-validated in full, the same on every run', async () => {
  const candidates: CandidateSpec[] = [
    { id: 'gbdt', algorithm: 'gbdt', params: { nEstimators: 60 } },
    { id: 'random_forest', algorithm: 'random_forest', params: { nTrees: 40 } },
    // Leaves of at least 150 rows: a forest far too coarse for concrete's strength curves.
    { id: 'coarse_forest', algorithm: 'extra_trees', params: { nTrees: 40, minSamplesLeaf: 150 } },
  ];
  const cells = concrete.train.nRows * concrete.train.columns.length;
  const opts = { seed: 0, workBudget: Infinity, balance: false, candidates };
  const first = await runContest(concrete.train, concrete.yTrain, concrete.task, opts);
  assert.deepEqual(first.screenedOut, ['coarse_forest']);
  assert.deepEqual(first.contestants.filter((c) => c.algorithm !== 'blend').map((c) => c.id).sort(), ['gbdt', 'random_forest']);
  assert.equal(first.foldsEvaluated, 5);
  // Two whole candidates on all rows × 4/5 per fold × 5 folds, plus the screen's share of the coarse forest on fold 0.
  const expected = 2 * 4 * cells + (SCREEN_TREES / 40) * Math.round(0.8 * cells);
  assert.ok(Math.abs(first.work - expected) < 0.01 * expected, `work ${first.work} vs ${expected}`);
  const second = await runContest(concrete.train, concrete.yTrain, concrete.task, { ...opts, executor: slowExecutor() });
  assert.deepEqual(second.screenedOut, first.screenedOut);
  assert.deepEqual(second.contestants.map((c) => [c.id, c.metrics]), first.contestants.map((c) => [c.id, c.metrics]));
});

/** The in-thread executor with every job delayed by a different amount, as on a busy machine. */
function slowExecutor(): CandidateExecutor {
  let calls = 0;
  return {
    concurrency: 2,
    run: async (data, job) => {
      await new Promise((resolve) => setTimeout(resolve, 30 * (++calls % 3)));
      return inThreadExecutor.run(data, job);
    },
  };
}
