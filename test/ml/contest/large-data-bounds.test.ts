import { test } from 'node:test';
import assert from 'node:assert/strict';
import { FOREST_ROWS_PER_LEAF_UNIT, largeDataLeaves, makeLearner } from '../../../src/ml/tabular/contest/candidates.js';
import type { FlatForest } from '../../../src/ml/tabular/forest/flat-forest.js';
import { SeededRandom } from '../../../src/ml/core/random.js';
import type { Frame } from '../../../src/ml/frame.js';

test('forests keep fully grown trees below 2 × FOREST_ROWS_PER_LEAF_UNIT rows and bound their leaves above', () => {
  assert.deepEqual(largeDataLeaves({}, 2 * FOREST_ROWS_PER_LEAF_UNIT - 1), {});
  assert.deepEqual(largeDataLeaves({}, 8 * FOREST_ROWS_PER_LEAF_UNIT), { minSamplesLeaf: 8 });
  assert.deepEqual(largeDataLeaves({ minSamplesLeaf: 20 }, 8 * FOREST_ROWS_PER_LEAF_UNIT), {});

  // Noisy labels: a fully grown tree would keep about one leaf per distinct row.
  const n = 3 * FOREST_ROWS_PER_LEAF_UNIT;
  const rng = new SeededRandom(3);
  const x = Float64Array.from({ length: n }, () => rng.next());
  const z = Float64Array.from({ length: n }, () => rng.next());
  const y = Float64Array.from(x, (v) => (v + 0.8 * rng.next() > 0.9 ? 1 : 0));
  const frame = { nRows: n, columns: [{ name: 'x', kind: 'numeric', values: x }, { name: 'z', kind: 'numeric', values: z }] } as unknown as Frame;
  const task = { kind: 'classification' as const, classes: ['0', '1'] };
  for (const algorithm of ['random_forest', 'extra_trees'] as const) {
    const model = makeLearner({ id: algorithm, algorithm, params: { nTrees: 2 } }, 'final', n).fit(frame, y, task, { seed: 1 });
    const leaves = (model as unknown as { forest: FlatForest }).forest.feature.filter((f) => f < 0).length / 2;
    assert.ok(leaves > 100 && leaves < 2 * FOREST_ROWS_PER_LEAF_UNIT / 3 + 1, `${algorithm}: ${leaves} leaves per tree`);
  }
});
