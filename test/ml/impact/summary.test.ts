import { test } from 'node:test';
import assert from 'node:assert/strict';
import { quantileSorted } from '../../../src/ml/core/statistics.js';
import { summarisePaths, twoSidedPValue } from '../../../src/ml/timeseries/impact/summary.js';

test('two-sided p-value counts simulated sums on both sides of the observed one', () => {
  const sums = Float64Array.from({ length: 99 }, (_, i) => i + 1); // 1..99
  assert.equal(twoSidedPValue(sums, 50), 1); // in the middle
  assert.equal(twoSidedPValue(sums, 1000), (2 * 1) / 100); // beyond every simulation: the floor 2/(N+1)
  assert.equal(twoSidedPValue(sums, 5.5), (2 * 6) / 100); // 5 at or below, plus one
});

test('quantiles interpolate linearly between order statistics (numpy default)', () => {
  const sorted = [1, 2, 3, 4, 10];
  assert.equal(quantileSorted(sorted, 0), 1);
  assert.equal(quantileSorted(sorted, 1), 10);
  assert.equal(quantileSorted(sorted, 0.5), 3);
  assert.equal(quantileSorted(sorted, 0.875), 4 + 0.5 * 6);
});

test('path summary: per-step bands, effect intervals and p-value from the path sums', () => {
  // 101 paths of two steps: path p is (p, 100 − p / 2), so its sum is 100 + p / 2.
  const paths = new Float64Array(202);
  for (let p = 0; p <= 100; p++) {
    paths[2 * p] = p;
    paths[2 * p + 1] = 100 - p / 2;
  }
  const s = summarisePaths(paths, [60, 70]); // observed sum 130 = the sum of path 60
  assert.deepEqual(Array.from(s.lower), [2.5, 100 - 97.5 / 2]);
  assert.deepEqual(Array.from(s.upper), [97.5, 100 - 2.5 / 2]);
  assert.deepEqual(s.absoluteEffectInterval, [130 - (100 + 97.5 / 2), 130 - (100 + 2.5 / 2)]);
  assert.equal(s.pValue, (2 * (1 + 41)) / 102); // 41 path sums at or above 130
  assert.ok(s.relativeEffectInterval[0] < 0 && s.relativeEffectInterval[1] > 0);
});
