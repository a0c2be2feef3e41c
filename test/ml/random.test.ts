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

test('sample(n, k): the ascending first k of a partial Fisher–Yates shuffle, whether k is a small or a large share of n', () => {
  for (const [n, k] of [[1000, 10], [1000, 62], [1000, 63], [1000, 500], [400_000, 200_000], [50, 50]]) {
    const sample = new SeededRandom(n + k).sample(n, k);
    // The shuffle itself, from an Rng of the same seed drawing the same integers.
    const twin = new SeededRandom(n + k);
    const all = Int32Array.from({ length: n }, (_, i) => i);
    for (let i = 0; i < k; i++) {
      const j = i + twin.int(n - i);
      [all[i], all[j]] = [all[j], all[i]];
    }
    assert.deepEqual(Array.from(sample), Array.from(all.subarray(0, k)).sort((a, b) => a - b), `n ${n}, k ${k}`);
  }
});
