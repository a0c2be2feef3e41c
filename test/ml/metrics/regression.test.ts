import { test } from 'node:test';
import assert from 'node:assert/strict';
import { regressionMetrics } from '../../../src/ml/metrics/regression.js';

const close = (actual: number, expected: number, tol = 1e-12) =>
  assert.ok(Math.abs(actual - expected) <= tol, `${actual} ≠ ${expected}`);

test('regression metrics match scikit-learn doc examples', () => {
  const m = regressionMetrics([3, -0.5, 2, 7], [2.5, 0.0, 2, 8]);
  close(m.meanAbsoluteError, 0.5);
  close(m.rootMeanSquareError, Math.sqrt(0.375));
  close(m.rSquared, 0.9486081370449679);
  close(m.meanAbsolutePercentError, 0.3273809523809524);
});

test('percent error skips rows whose actual value is 0', () => {
  const m = regressionMetrics([0, 2, 4], [1, 1, 5]);
  close(m.meanAbsolutePercentError, (0.5 + 0.25) / 2);
  close(m.meanAbsoluteError, 1);
});
