/**
 * One cross-validation fold of a protocol table, encoded as the service would (PROTOCOL.md §1):
 * encoder fitted on the training rows, classes = sorted labels of the whole file.
 */
import type { Frame, Task } from '../../../src/ml/frame.js';
import { benchFold, fixtureTable } from '../../support/fixtures.js';
import { referenceFold, type ReferenceModel } from '../contest/reference-results.js';

export interface BenchmarkFold {
  task: Task;
  train: { frame: Frame; y: Float64Array };
  test: { frame: Frame; y: Float64Array };
}

export function loadBenchmarkFold(kind: Task['kind'], name: string, fold: number): BenchmarkFold {
  const split = benchFold(fixtureTable(kind, name), fold);
  return { task: split.task, train: { frame: split.train, y: split.yTrain }, test: { frame: split.test, y: split.yTest } };
}

/** The reference's metric for one data set, model and fold (reference/tabular_folds.csv). */
export function referenceFoldMetric(name: string, model: ReferenceModel, fold: number, metric: string): number {
  return referenceFold(name, model, fold)[metric];
}
