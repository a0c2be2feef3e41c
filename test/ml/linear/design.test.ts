import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame } from '../../../src/ml/frame.js';
import { DesignSpec } from '../../../src/ml/tabular/linear/design.js';
import { minimizeLbfgs } from '../../../src/ml/core/lbfgs.js';

const train: Frame = {
  nRows: 4,
  columns: [
    { kind: 'numeric', name: 'a', values: Float64Array.from([1, NaN, 3, 10]) },
    { kind: 'categorical', name: 'c', codes: Int32Array.from([0, 1, -1, 0]), levels: ['x', 'y'] },
    { kind: 'categorical', name: 'd', codes: Int32Array.from([0, 1, 1, 0]), levels: ['p', 'q'] },
  ],
};

/** Dense row i of a design: numeric block, then one-hot columns. */
function denseRow(spec: DesignSpec, frame: Frame, i: number): number[] {
  const x = spec.transform(frame);
  const row = Array.from(x.dense.subarray(i * x.pNum, (i + 1) * x.pNum));
  const oneHot = new Array<number>(x.p - x.pNum).fill(0);
  for (let j = 0; j < x.nCat; j++) {
    const a = x.active[i * x.nCat + j];
    if (a >= 0) oneHot[a - x.pNum] = 1;
  }
  return [...row, ...oneHot];
}

test('numeric: median-imputed, then standardised with the population sd', () => {
  const spec = DesignSpec.fit(train);
  const imputed = [1, 3, 3, 10];
  const mean = 17 / 4;
  const sd = Math.sqrt(imputed.reduce((s, v) => s + (v - mean) ** 2, 0) / 4);
  assert.deepEqual(spec.numeric, [{ name: 'a', median: 3, mean, scale: sd }]);
  assert.equal(denseRow(spec, train, 1)[0], (3 - mean) / sd);
});

test('one-hot: missing is its own level when training had it; otherwise unseen/missing → all zeros', () => {
  const spec = DesignSpec.fit(train);
  assert.equal(spec.p, 1 + 3 + 2); // a; c ∈ {x, y, missing}; d ∈ {p, q}
  assert.deepEqual(denseRow(spec, train, 2).slice(1), [0, 0, 1, 0, 1]);
  const fresh: Frame = {
    nRows: 1,
    columns: [
      { kind: 'categorical', name: 'c', codes: Int32Array.from([-1]), levels: ['x', 'y'] },
      { kind: 'categorical', name: 'd', codes: Int32Array.from([0]), levels: ['r'] }, // unseen level
    ],
  };
  assert.deepEqual(denseRow(spec, fresh, 0), [(3 - 17 / 4) / spec.numeric[0].scale, 0, 0, 1, 0, 0]);
  assert.deepEqual(spec.inputNames(), ['a', 'c', 'c', 'c', 'd', 'd']);
});

test('L-BFGS finds the minimum of the Rosenbrock function', () => {
  const rosenbrock = (x: Float64Array, g: Float64Array) => {
    const [a, b] = x;
    g[0] = -2 * (1 - a) - 400 * a * (b - a * a);
    g[1] = 200 * (b - a * a);
    return (1 - a) ** 2 + 100 * (b - a * a) ** 2;
  };
  const r = minimizeLbfgs(rosenbrock, Float64Array.from([-1.2, 1]), {
    maxIterations: 500,
    gradientTolerance: 1e-8,
    relativeTolerance: 0,
  });
  assert.ok(r.converged);
  assert.ok(Math.abs(r.x[0] - 1) < 1e-6 && Math.abs(r.x[1] - 1) < 1e-6, `${r.x}`);
});
