/** A model session's computation input (the worker-thread `model` compute) on the first rows of the credit_data fixture. */
import { readFixture } from './fixtures.js';
import type { ModelComputeInput } from '../../src/jobs/compute/model-compute.js';
import { ColumnarLoader } from '../../src/service/datasets/columnar-loader.js';
import { contestWorkBudget } from '../../src/ml/tabular/contest/index.js';
import type { ColumnSpec } from '../../src/ml/encode.js';

const NUMERIC = new Set(['Seniority', 'Time', 'Age', 'Expenses', 'Income', 'Assets', 'Debt', 'Amount', 'Price']);

/** Classification of `Status` on `rows` rows, seed 1234, balanced, the contest's default work budget; `overrides` replace fields. */
export function creditSessionInput(rows: number, overrides: Partial<ModelComputeInput> = {}): ModelComputeInput {
  const table = readFixture('classification', 'credit_data.csv');
  const specs: ColumnSpec[] = table.header.map((name) => ({ name, dataType: NUMERIC.has(name) ? 'numeric' : 'string', role: name === 'Status' ? 'target' : 'feature' }));
  const loader = new ColumnarLoader(specs.map((s) => ({ name: s.name, numeric: s.dataType === 'numeric' })), rows);
  loader.add(table.rows.slice(0, rows).map((r) => JSON.stringify(Object.fromEntries(table.header.map((h, j) => [h, r[j] ?? ''])))));
  return {
    domain: 'classification', seed: 1234, specs, columns: loader.finish(), rows: loader.rowCount,
    targetColumn: 'Status', keyColumn: null, balance: true, containsAnomalies: true, workBudget: contestWorkBudget(rows),
    ...overrides,
  };
}
