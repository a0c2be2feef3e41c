/**
 * The short list of learner settings a contest tries, as plain data (so worker threads can rebuild
 * the learner), ordered cheapest / most often winning first.
 */
import type { Learner } from '../../frame.js';
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

export function contestCandidates(nRows: number): CandidateSpec[] {
  const list: CandidateSpec[] = [
    { id: 'linear', algorithm: 'linear', params: {} },
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

/** The learner for a candidate; `final` = the refit on all rows (forests get their full tree count). */
export function makeLearner(spec: CandidateSpec, phase: 'cv' | 'final'): Learner {
  switch (spec.algorithm) {
    case 'gbdt':
      return new GbdtLearner(spec.params);
    case 'random_forest':
      return new RandomForestLearner(phase === 'cv' ? { nTrees: FOREST_TREES_IN_CV, ...spec.params } : spec.params);
    case 'extra_trees':
      return new ExtraTreesLearner(phase === 'cv' ? { nTrees: FOREST_TREES_IN_CV, ...spec.params } : spec.params);
    case 'linear':
      return new LinearLearner(spec.params);
  }
}
