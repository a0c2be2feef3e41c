/**
 * The text-classification check shared by `bench:text` and its test: the fine-food reviews fixture
 * (test/fixtures/text/fine_foods.csv) run through the model session's computation with the review
 * as a `text` column, and again with the review left out (role `none`), on the same seeded holdout.
 */
import { readFileSync } from 'node:fs';
import { compute, type ModelComputeInput, type ModelComputeOutput } from '../../src/jobs/compute/model-compute.js';
import { ColumnarLoader } from '../../src/service/datasets/columnar-loader.js';
import { holdoutSplit } from '../../src/service/models/holdout-split.js';
import { encodeTarget, type ColumnSpec } from '../../src/ml/encode.js';
import { contestWorkBudget } from '../../src/ml/tabular/contest/run-contest.js';
import { column, parseCsv, type CsvTable } from './csv.js';

export const TEXT_TARGET = 'score';

export function readTextTable(path: string): CsvTable {
  return parseCsv(readFileSync(path, 'utf8'));
}

/** The holdout a session with this seed draws (the rows the reference tool is judged on too). */
export function textSplit(table: CsvTable, seed: number): { train: number[]; test: number[] } {
  const y = encodeTarget(column(table, TEXT_TARGET), 'classification').y;
  const s = holdoutSplit(table.rows.length, seed, y);
  return { train: Array.from(s.train), test: Array.from(s.test) };
}

export async function runTextSession(table: CsvTable, seed: number, withText: boolean): Promise<Extract<ModelComputeOutput, { artifact: unknown }>> {
  const names = table.header;
  const loader = new ColumnarLoader(names.map((name) => ({ name, numeric: false })), table.rows.length);
  // Rows as the store holds them: JSON objects of string values.
  loader.add(table.rows.map((r) => JSON.stringify(Object.fromEntries(names.map((n, j) => [n, r[j] ?? ''])))));
  const specs: ColumnSpec[] = names.map((name) => ({
    name,
    dataType: name === 'review' ? 'text' : 'string',
    role: name === TEXT_TARGET ? 'target' : name === 'review' && !withText ? 'none' : 'feature',
  }));
  const input: ModelComputeInput = {
    domain: 'classification', seed, specs, columns: loader.finish(), rows: table.rows.length, targetColumn: TEXT_TARGET,
    keyColumn: null, balance: true, containsAnomalies: true, workBudget: contestWorkBudget(Math.round(table.rows.length * 0.8)),
  };
  const out = await compute(input);
  if ('failure' in out) throw new Error(out.failure);
  return out;
}
