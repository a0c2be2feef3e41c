/**
 * The tabular protocol's tables (benchdata/PROTOCOL.md §1) from any data root: a table of the
 * catalogue with its fixed folds, and fold k as encoded train/test frames.
 */
import { column } from './csv.js';
import type { DataRoot } from './data-root.js';
import { encodeTarget, fitFrameEncoder, inferDataType, type ColumnSpec } from '../../src/ml/encode.js';
import type { Frame, Task } from '../../src/ml/frame.js';

export type TabularKind = 'classification' | 'regression';

/** PROTOCOL.md §1: identifier columns and copies of the target that are not features. */
export const DROPPED_COLUMNS: Record<string, string[]> = { mtcars: ['model'], auto_mpg: ['Name'], boston_housing: ['medv'] };

export interface BenchTable {
  name: string;
  kind: TabularKind;
  specs: ColumnSpec[];
  /** Feature columns as strings, rows with a missing target removed. */
  columns: Record<string, string[]>;
  targetValues: string[];
  fold: Int32Array;
  /** Classification: the sorted labels of the whole file and the minority (positive) class index. */
  classes?: string[];
  positiveClass?: number;
}

export interface BenchSplit {
  task: Task;
  train: Frame;
  yTrain: Float64Array;
  test: Frame;
  yTest: Float64Array;
}

export function loadBenchTable(root: DataRoot, kind: TabularKind, name: string): BenchTable {
  const catalog = root.read('tabular_catalog.csv');
  const entry = catalog.rows.find((r) => r[catalog.header.indexOf('path')].endsWith(`${kind}/${name}.csv`));
  if (!entry) throw new Error(`${kind}/${name} is not in tabular_catalog.csv`);
  const targetName = entry[catalog.header.indexOf('target')];
  const table = root.read(kind, `${name}.csv`);
  const foldColumn = column(root.read('folds', kind, `${name}.csv`), 'fold');
  const allTargets = column(table, targetName);
  const keep = allTargets.map((v, i) => (v === '' ? -1 : i)).filter((i) => i >= 0);
  const dropped = new Set([targetName, ...(DROPPED_COLUMNS[name] ?? [])]);
  const columns: Record<string, string[]> = {};
  const specs: ColumnSpec[] = [];
  for (const header of table.header.filter((h) => !dropped.has(h))) {
    const all = column(table, header);
    specs.push({ name: header, dataType: inferDataType(all) });
    columns[header] = keep.map((i) => all[i]);
  }
  const targetValues = keep.map((i) => allTargets[i]);
  const fold = Int32Array.from(keep, (i) => Number(foldColumn[i]));
  const out: BenchTable = { name, kind, specs, columns, targetValues, fold };
  if (kind === 'classification') {
    const { task, y } = encodeTarget(targetValues, 'classification');
    const classes = (task as { classes: string[] }).classes;
    const counts = new Array<number>(classes.length).fill(0);
    for (const c of y) counts[c]++;
    // Minority class of the whole file; ties go to the label that sorts last.
    let positive = 0;
    for (let c = 1; c < classes.length; c++) if (counts[c] <= counts[positive]) positive = c;
    out.classes = classes;
    out.positiveClass = positive;
  }
  return out;
}

/** Fold k of the protocol: train on fold ≠ k, test on fold = k; categorical levels from the training rows. */
export function benchFold(table: BenchTable, k: number): BenchSplit {
  const pickRows = (test: boolean) => {
    const rows: number[] = [];
    table.fold.forEach((f, i) => (f === k) === test && rows.push(i));
    return rows;
  };
  const subset = (rows: number[]) =>
    Object.fromEntries(Object.entries(table.columns).map(([name, values]) => [name, rows.map((i) => values[i])]));
  const trainRows = pickRows(false);
  const testRows = pickRows(true);
  const encoder = fitFrameEncoder(table.specs, subset(trainRows));
  const target = (rows: number[]) => encodeTarget(rows.map((i) => table.targetValues[i]), table.kind, table.classes);
  const train = target(trainRows);
  return {
    task: train.task,
    train: encoder.encode(subset(trainRows), trainRows.length),
    yTrain: train.y,
    test: encoder.encode(subset(testRows), testRows.length),
    yTest: target(testRows).y,
  };
}
