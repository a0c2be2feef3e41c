/**
 * The forest's walk layout (walk-layout.ts) and leaf-mask layout (leaf-mask-layout.ts) score exactly as the reference walk over the saved
 * arrays: GBDTs fitted on fixture tables, credit_data (categorical splits, missing values in numeric
 * and categorical columns, one score) and iris (three scores per row), every row predicted.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { encodeTarget, fitFrameEncoder } from '../../../src/ml/encode.js';
import { GbdtLearner } from '../../../src/ml/tabular/gbdt/index.js';
import type { GbdtModel } from '../../../src/ml/tabular/gbdt/model.js';
import { walkLayout } from '../../../src/ml/tabular/gbdt/walk-layout.js';
import { leafMaskLayout } from '../../../src/ml/tabular/gbdt/leaf-mask-layout.js';
import { fixtureTable } from '../../support/fixtures.js';
import { scoreReference } from './kernel-reference.js';

function fitted(name: string, rounds: number, numLeaves?: number) {
  const table = fixtureTable('classification', name);
  const n = table.targetValues.length;
  const frame = fitFrameEncoder(table.specs, table.columns).encode(table.columns, n);
  const { task, y } = encodeTarget(table.targetValues, 'classification', table.classes);
  const model = new GbdtLearner({ nEstimators: rounds, ...(numLeaves ? { numLeaves } : {}) }).fit(frame, y, task, { seed: 7 }) as GbdtModel;
  return { frame, forest: model.forest };
}

// credit_data with 63-leaf trees: too large for the leaf-mask kernel, so rawScores walks them.
for (const [name, rounds, numLeaves] of [['credit_data', 80, undefined], ['iris', 30, undefined], ['credit_data', 20, 63]] as const) {
  test(`walk layout and leaf masks: every ${name} row${numLeaves ? ` (${numLeaves}-leaf trees)` : ''} scores exactly as the reference walk of the saved arrays`, () => {
    const { frame, forest } = fitted(name, rounds, numLeaves);
    const nf = forest.features.length;
    const k = forest.numScores;
    const n = frame.nRows;
    const columns = forest.inputColumns(frame);
    const x = new Float64Array(n * nf);
    for (let f = 0; f < nf; f++) for (let r = 0; r < n; r++) x[r * nf + f] = columns[f][r];
    const expected = new Float64Array(n * k);
    for (let r = 0; r < n; r++) expected.set(forest.initScores, r * k);
    scoreReference(x, nf, n, forest.arrays, expected, k);

    assert.deepEqual(forest.rawScores(frame), expected);
    assert.deepEqual(forest.walkedRawScores(frame), expected);
    // Which way rawScores took: leaf masks for trees of up to 32 leaves (leaf-mask-layout.ts), else the walk.
    const categorical = forest.features.map((f) => f.categorical !== null);
    assert.equal(leafMaskLayout(forest.arrays, categorical) === null, numLeaves !== undefined);
    // Odd batch sizes (padded to the kernel's lanes) and single rows score as the whole table does.
    const slice = (start: number, rows: number) => ({
      nRows: rows,
      columns: frame.columns.map((c) => (c.kind === 'numeric' ? { ...c, values: c.values.subarray(start, start + rows) } : { ...c, codes: c.codes.subarray(start, start + rows) })),
    });
    assert.deepEqual(forest.rawScores(slice(3, 1)), expected.subarray(3 * k, 4 * k));
    assert.deepEqual(forest.rawScores(slice(10, 7)), expected.subarray(10 * k, 17 * k));

    if (name === 'credit_data') {
      // What this fixture is here for: the forest has categorical splits and the rows reach them with missing values.
      assert.ok(forest.arrays.feature.some((f) => f < 0), 'categorical splits');
      assert.ok(x.some((v) => Number.isNaN(v)), 'missing numeric values');
      assert.ok(forest.features.some((feat, f) => feat.categorical && columns[f].some((b) => b === feat.categorical!.missingBin)), 'missing categories');
    } else assert.equal(k, 3);
    // Every split node and every leaf is laid out once.
    const layout = walkLayout(forest.arrays);
    assert.equal(layout.value.length, forest.arrays.feature.length + forest.arrays.leafValue.length);
  });
}
