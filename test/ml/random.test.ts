import assert from 'node:assert/strict';
import { test } from 'node:test';
import { SeededRandom } from '../../src/ml/core/random.js';

test('chi-square draws have mean ν and variance 2ν, whole and fractional ν alike', () => {
  const random = new SeededRandom(7);
  const n = 200_000;
  for (const dof of [0.7, 3, 19.5]) {
    let sum = 0, squares = 0;
    for (let i = 0; i < n; i++) {
      const x = random.chiSquare(dof);
      assert.ok(x > 0);
      sum += x;
      squares += x * x;
    }
    const mean = sum / n;
    const variance = squares / n - mean * mean;
    // Standard errors: mean √(2ν/n) (≤ 0.014 here), variance about 2ν·√(8/n)·… — a few per cent.
    assert.ok(Math.abs(mean - dof) < 5 * Math.sqrt((2 * dof) / n), `ν ${dof}: mean ${mean}`);
    assert.ok(Math.abs(variance / (2 * dof) - 1) < 0.05, `ν ${dof}: variance ${variance}`);
  }
});
