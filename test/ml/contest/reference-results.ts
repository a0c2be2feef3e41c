/** Per-fold reference results (test/fixtures/reference/tabular_folds.csv, fold 0 of the shared reference results) that test thresholds derive from. */
import { readFixture } from '../../support/fixtures.js';

export type ReferenceModel = 'lightgbm' | 'hist_gbm' | 'random_forest' | 'linear';

export function referenceFold(dataset: string, model: ReferenceModel, fold: number): Record<string, number> {
  const t = readFixture('reference', 'tabular_folds.csv');
  const col = (name: string) => t.header.indexOf(name);
  const row = t.rows.find((r) => r[col('dataset')] === dataset && r[col('model')] === model && Number(r[col('fold')]) === fold);
  if (!row) throw new Error(`no reference for ${dataset}/${model}/fold ${fold}`);
  return Object.fromEntries(t.header.map((h, j) => [h, Number(row[j])]));
}

/** Best value of a metric over the four reference models in one fold. */
export function bestReferenceFold(dataset: string, metric: string, fold: number, higherIsBetter: boolean): number {
  const models: ReferenceModel[] = ['lightgbm', 'hist_gbm', 'random_forest', 'linear'];
  const values = models.map((m) => referenceFold(dataset, m, fold)[metric]);
  return higherIsBetter ? Math.max(...values) : Math.min(...values);
}
