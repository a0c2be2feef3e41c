/**
 * The short list of learner settings a contest tries, as plain data (so worker threads can rebuild
 * the learner), ordered cheapest / most often winning first.
 */
import type { Learner, Task } from '../../frame.js';
import { ExtraTreesLearner, RandomForestLearner, type ForestParams } from '../forest/index.js';
import { GbdtLearner, type GbdtParams } from '../gbdt/index.js';
import { LinearLearner, type LinearSettings } from '../linear/index.js';

export type CandidateSpec =
  | { id: string; algorithm: 'gbdt'; params: Partial<GbdtParams> }
  | { id: string; algorithm: 'random_forest' | 'extra_trees'; params: Partial<ForestParams> }
  | { id: string; algorithm: 'linear'; params: Partial<LinearSettings> };

/** Below this many rows the strongly regularised small-data GBDT replaces the early-stopping one. */
const SMALL_DATA_ROWS = 1000;

/**
 * Trees per forest while cross-validating: 100 trees score almost as well as 300 at a third of the
 * cost, which buys more folds within the work budget; the refit of a champion uses the full default.
 */
export const FOREST_TREES_IN_CV = 100;

/**
 * Forests on more rows than this stop splitting leaves of fewer than ⌊rows / this⌋ rows, so a tree
 * has fewer than 2 × this many leaves at any size. Fully grown trees have about one leaf per
 * distinct training row: 100 of them on a contest sample of 80,000 rows held about 10 million
 * nodes (several hundred MB per fit, two fits at once), a refit of 300 on 800,000 rows would not fit
 * in memory at all. Below 2 × this many rows trees stay fully grown, as scikit-learn grows them.
 */
export const FOREST_ROWS_PER_LEAF_UNIT = 10_000;

/**
 * Regression also tries ridge with restricted cubic spline terms (4 knots), missing-value indicators
 * and its L2 strength chosen by inner CV over LINEAR_PENALTY_GRID: a linear model that can bend, for
 * targets that are smooth in a few inputs, where trees pay for steps. Ridge solves one system per
 * inner fold for every strength, so it costs about as much as the plain one. On the yardstick (issue
 * 10, nested CV, bench/yardstick-cache.ts) it took RMSE ÷ LightGBM from 0.910 to 0.897 on the tuning
 * half (13 sets; none more than 0.8 % worse, forbes2000 −11 %, baseball_salary −5 %) and the
 * confirmation half agreed (10 sets: 0.930 → 0.928). The logistic counterpart was left out: on the
 * tuning half's 17 classification sets it moved mean AUC by +0.0006 and put one set (lung_status)
 * more than 0.02 below its best reference, for 24 extra L-BFGS fits per fold.
 */
export const LINEAR_PENALTY_GRID = [0.03, 0.1, 0.3, 1, 3, 10, 30, 100];
export const SPLINE_RIDGE: CandidateSpec = {
  id: 'linear_spline',
  algorithm: 'linear',
  params: { splineKnots: 4, missingIndicators: true, penaltyGrid: LINEAR_PENALTY_GRID },
};

export function contestCandidates(nRows: number, kind: Task['kind']): CandidateSpec[] {
  const list: CandidateSpec[] = [
    { id: 'linear', algorithm: 'linear', params: {} },
    ...(kind === 'regression' ? [SPLINE_RIDGE] : []),
    { id: 'gbdt', algorithm: 'gbdt', params: {} },
    { id: 'random_forest', algorithm: 'random_forest', params: {} },
    { id: 'extra_trees', algorithm: 'extra_trees', params: {} },
  ];
  if (nRows < SMALL_DATA_ROWS) {
    list.push({
      id: 'gbdt_small_data',
      algorithm: 'gbdt',
      params: { numLeaves: 8, minDataInLeaf: 5, lambdaL2: 1, learningRate: 0.05, nEstimators: 300, featureFraction: 0.8, baggingFraction: 0.8, baggingFreq: 1 },
    });
  } else {
    list.push({
      id: 'gbdt_slow_early_stop',
      algorithm: 'gbdt',
      params: { learningRate: 0.03, nEstimators: 1000, earlyStoppingRounds: 40, validationFraction: 0.1, featureFraction: 0.8 },
    });
  }
  return list;
}

/**
 * The learner for a candidate; `final` = the refit on all rows (forests get their full tree count).
 * `rows`: the rows it will train on, when known (bounds a big forest's leaves). `threads`: for a GBDT's
 * one fit (its model is the same on any count).
 */
export function makeLearner(spec: CandidateSpec, phase: 'cv' | 'final', rows?: number, threads = 1): Learner {
  switch (spec.algorithm) {
    case 'gbdt':
      return new GbdtLearner(spec.params, { threads });
    case 'random_forest':
      return new RandomForestLearner({ ...(phase === 'cv' ? { nTrees: FOREST_TREES_IN_CV } : {}), ...spec.params, ...largeDataLeaves(spec.params, rows) });
    case 'extra_trees':
      return new ExtraTreesLearner({ ...(phase === 'cv' ? { nTrees: FOREST_TREES_IN_CV } : {}), ...spec.params, ...largeDataLeaves(spec.params, rows) });
    case 'linear':
      return new LinearLearner(spec.params);
  }
}

/** A forest's smallest leaf on `rows` rows (FOREST_ROWS_PER_LEAF_UNIT), unless its settings ask for larger leaves. */
export function largeDataLeaves(params: Partial<ForestParams>, rows: number | undefined): Partial<ForestParams> {
  const minLeaf = rows === undefined ? 1 : Math.floor(rows / FOREST_ROWS_PER_LEAF_UNIT);
  return minLeaf > (params.minSamplesLeaf ?? 1) ? { minSamplesLeaf: minLeaf } : {};
}
