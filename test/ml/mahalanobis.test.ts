import { describe, it } from 'node:test';
import assert from 'node:assert/strict';
import { mahalanobisDistances } from '../../src/ml/metrics/mahalanobis.js';
import { column, readFixture } from '../support/fixtures.js';

describe('Mahalanobis distances', () => {
  it('match NumPy on the iris measurements (sample covariance, distance from the mean)', () => {
    const iris = readFixture('classification/iris.csv');
    const columns = ['Sepal.Length', 'Sepal.Width', 'Petal.Length', 'Petal.Width'].map((c) => Float64Array.from(column(iris, c).map(Number)));
    const d = mahalanobisDistances(columns);
    // np.sqrt(np.einsum('ij,jk,ik->i', X - mu, inv(np.cov(X, rowvar=False)), X - mu)) for rows 0, 1, 41, 100, 149.
    const expected: [number, number][] = [[0, 1.4609818354], [1, 1.6879332588], [41, 3.3799450856], [100, 2.9899161829], [149, 1.8651457935]];
    for (const [row, value] of expected) assert.ok(Math.abs(d[row]! - value) < 1e-6, `row ${row}: ${d[row]} vs ${value}`);
  });

  it('stay finite when a column is constant or two columns are collinear', () => {
    const x = Float64Array.from({ length: 20 }, (_, i) => i);
    const d = mahalanobisDistances([x, Float64Array.from(x, (v) => 2 * v), new Float64Array(20).fill(3)]);
    assert.ok(d.every(Number.isFinite));
    assert.ok(d[0]! > d[10]!, 'the ends are farther from the mean than the middle');
  });
});
