/**
 * One cross-validation fold of a benchmark data set, encoded as the service would (PROTOCOL.md §1):
 * encoder fitted on the training rows, classes = sorted labels of the whole file.
 */
import { basename } from 'node:path';
import { column, readCsv } from '../../../bench/lib/benchdata.js';
import { encodeTarget, fitFrameEncoder, inferDataType, type ColumnSpec } from '../../../src/ml/encode.js';
import type { Frame, Task } from '../../../src/ml/frame.js';

/** Identifier or target-copy columns the protocol drops. */
const DROPPED: Record<string, string[]> = { mtcars: ['model'], auto_mpg: ['Name'], boston_housing: ['medv'] };

export interface BenchmarkFold {
  task: Task;
  train: { frame: Frame; y: Float64Array };
  test: { frame: Frame; y: Float64Array };
}

export function loadBenchmarkFold(kind: Task['kind'], name: string, fold: number): BenchmarkFold {
  const catalog = readCsv('tabular_catalog.csv');
  const entry = catalog.rows.find((r) => basename(r[0]) === `${name}.csv` && r[0].includes(`/${kind}/`));
  if (!entry) throw new Error(`${name} is not in the tabular catalog`);
  const targetName = entry[catalog.header.indexOf('target')];
  const table = readCsv(kind, `${name}.csv`);
  const folds = column(readCsv('folds', kind, `${name}.csv`), 'fold').map(Number);
  const target = encodeTarget(column(table, targetName), kind);
  const missing = new Set(target.missingRows);
  const featureNames = table.header.filter((h) => h !== targetName && !(DROPPED[name] ?? []).includes(h));
  const specs: ColumnSpec[] = featureNames.map((h) => ({ name: h, dataType: inferDataType(column(table, h)) }));
  const rowsWhere = (inFold: boolean) =>
    folds.map((f, i) => i).filter((i) => !missing.has(i) && (folds[i] === fold) === inFold);
  const trainRows = rowsWhere(false);
  const testRows = rowsWhere(true);
  const columnsOf = (rows: number[]) =>
    Object.fromEntries(featureNames.map((h) => {
      const j = table.header.indexOf(h);
      return [h, rows.map((i) => table.rows[i][j] ?? '')];
    }));
  const encoder = fitFrameEncoder(specs, columnsOf(trainRows));
  const pick = (rows: number[]) => Float64Array.from(rows, (i) => target.y[i]);
  return {
    task: target.task,
    train: { frame: encoder.encode(columnsOf(trainRows)), y: pick(trainRows) },
    test: { frame: encoder.encode(columnsOf(testRows)), y: pick(testRows) },
  };
}

/** The reference's metric for one data set, model and fold from reference/tabular_folds.csv. */
export function referenceFoldMetric(name: string, model: string, fold: number, metric: string): number {
  const t = readCsv('reference', 'tabular_folds.csv');
  const col = (h: string) => t.header.indexOf(h);
  const row = t.rows.find((r) => r[col('dataset')] === name && r[col('model')] === model && r[col('fold')] === String(fold));
  if (!row) throw new Error(`no reference for ${name} ${model} fold ${fold}`);
  return Number(row[col(metric)]);
}
