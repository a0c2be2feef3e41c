import assert from 'node:assert/strict';
import { test } from 'node:test';
import { combinedDof, withTailShape } from '../../../src/ml/timeseries/forecast/tail-shape.js';

test('degrees of freedom of two scale mixtures combine by their reciprocals', () => {
  assert.equal(combinedDof(Infinity, undefined), Infinity);
  assert.equal(combinedDof(Infinity, 7), 7);
  assert.ok(Math.abs(combinedDof(6, 12) - 4) < 1e-12);
  assert.equal(combinedDof(3, 2.5), 2, 'never below the quantiles\' floor of 2');
});

test('the pooled shape scales every step\'s spread by s and combines the degrees of freedom with ν₀', () => {
  const f = { mean: new Float64Array(4), sd: Float64Array.from([1, 2, 3, 4]), dof: 10 };
  const shaped = withTailShape(f, { scale: 0.5, dof: 10, seriesDofWeight: 1 });
  assert.deepEqual(Array.from(shaped.sd), [0.5, 1, 1.5, 2]);
  assert.ok(Math.abs(shaped.dof! - 5) < 1e-12);
  // λ = 0: the series' own degrees of freedom give way to ν₀.
  assert.equal(withTailShape(f, { scale: 1, dof: 6, seriesDofWeight: 0 }).dof, 6);
});
