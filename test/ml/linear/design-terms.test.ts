import { test } from 'node:test';
import assert from 'node:assert/strict';
import type { Frame } from '../../../src/ml/frame.js';
import { DesignSpec } from '../../../src/ml/tabular/linear/design.js';

const n = 200;
const xs = Float64Array.from({ length: n }, (_, i) => (i % 17 === 0 ? NaN : (i * 37) % 101));
const binary = Float64Array.from({ length: n }, (_, i) => i % 2);
const levels = ['a', 'b', 'c', 'rare1', 'rare2'];
const codes = Int32Array.from({ length: n }, (_, i) => (i === 0 ? 3 : i === 1 ? 4 : i % 3));
const train: Frame = {
  nRows: n,
  columns: [
    { kind: 'numeric', name: 'x', values: xs },
    { kind: 'numeric', name: 'flag', values: binary },
    { kind: 'categorical', name: 'c', codes, levels },
  ],
};
const options = { splineKnots: 4, missingIndicators: true, minLevelRows: 3 };

function column(values: number[], name = 'x'): Frame {
  return { nRows: values.length, columns: [{ kind: 'numeric', name, values: Float64Array.from(values) }] };
}

test('spline terms: a many-valued number gets knots − 2 of them, a 0/1 column none; each input keeps its dense columns together', () => {
  const spec = DesignSpec.fit(train, options);
  assert.equal(spec.numeric[0]!.knots!.length, 4);
  assert.equal(spec.numeric[1]!.knots, undefined);
  // x: value, 2 spline terms, missing indicator; flag: value alone (no missing values).
  assert.deepEqual(Array.from(spec.denseInput), [0, 0, 0, 0, 1]);
  assert.deepEqual(spec.inputNames().slice(0, 5), ['x', 'x', 'x', 'x', 'flag']);
  const d = spec.transform(train);
  for (let j = 0; j < d.pNum; j++) {
    let mean = 0;
    let ss = 0;
    for (let i = 0; i < n; i++) mean += d.dense[i * d.pNum + j]! / n;
    for (let i = 0; i < n; i++) ss += (d.dense[i * d.pNum + j]! - mean) ** 2 / n;
    assert.ok(Math.abs(mean) < 1e-9 && Math.abs(ss - 1) < 1e-9, `dense column ${j}: mean ${mean}, variance ${ss}`);
  }
});

test('restricted cubic spline: linear beyond the outer knots, curved between them', () => {
  const spec = DesignSpec.fit(train, options);
  const knots = spec.numeric[0]!.knots!;
  const last = knots[knots.length - 1]!;
  const beyond = spec.transform(column([last + 1, last + 2, last + 3, last + 4]));
  const inside = spec.transform(column([knots[1]!, knots[1]! + 1, knots[1]! + 2]));
  let bendInside = 0;
  for (const t of [1, 2]) {
    const at = (d: typeof beyond, i: number) => d.dense[i * d.pNum + t]!;
    const second = (d: typeof beyond, i: number) => at(d, i + 1) - 2 * at(d, i) + at(d, i - 1);
    assert.ok(Math.abs(second(beyond, 1)) < 1e-9 && Math.abs(second(beyond, 2)) < 1e-9, `term ${t} bends beyond the last knot`);
    bendInside = Math.max(bendInside, Math.abs(second(inside, 1)));
  }
  assert.ok(bendInside > 1e-6, 'the spline terms are straight between the knots');
});

test('missing indicator: 1 for a missing value, 0 otherwise (standardised); a missing value is imputed with the median', () => {
  const spec = DesignSpec.fit(train, options);
  const ind = spec.numeric[0]!.missingIndicator!;
  const d = spec.transform(column([NaN, 5]));
  assert.equal(d.dense[0 * d.pNum + 3], (1 - ind.mean) / ind.scale);
  assert.equal(d.dense[1 * d.pNum + 3], (0 - ind.mean) / ind.scale);
  assert.equal(d.dense[0], (spec.numeric[0]!.median - spec.numeric[0]!.mean) / spec.numeric[0]!.scale);
});

test('rare levels share an "other" column, which also takes levels unseen in training', () => {
  const spec = DesignSpec.fit(train, options);
  const c = spec.categorical[0]!;
  assert.deepEqual(c.levels, ['a', 'b', 'c']);
  assert.deepEqual(c.pooled, ['rare1', 'rare2']);
  assert.equal(c.hasMissingLevel, false);
  const fresh: Frame = { nRows: 3, columns: [{ kind: 'categorical', name: 'c', codes: Int32Array.from([0, 1, 2]), levels: ['b', 'rare2', 'never seen'] }] };
  const d = spec.transform(fresh);
  assert.deepEqual(Array.from(d.active), [c.offset + 1, c.offset + 3, c.offset + 3]);
  assert.equal(spec.p, c.offset + 4);
  // Shares of the training rows per column: a, b, c, other.
  assert.ok(Math.abs(c.shares!.reduce((a, b) => a + b, 0) - 1) < 1e-12);
  assert.equal(c.shares![3], 2 / n);
});

test('without options the design is the plain one (scikit-learn’s preprocessing): no extra columns, no pooling', () => {
  const spec = DesignSpec.fit(train);
  assert.equal(spec.pDense, 2);
  assert.equal(spec.categorical[0]!.pooled, undefined);
  assert.equal(spec.p, 2 + 5);
  assert.deepEqual(DesignSpec.load(JSON.parse(JSON.stringify(spec.toJSON()))).p, spec.p);
});

test('L2 strength by inner CV: a noise target gets the strongest penalty, a clean one a weak one; the choice is recorded and repeatable', async () => {
  const { LinearLearner } = await import('../../../src/ml/tabular/linear/index.js');
  const { SeededRandom } = await import('../../../src/ml/core/random.js');
  const r = new SeededRandom(4);
  const m = 120;
  const cols = Array.from({ length: 8 }, (_, j) => ({ kind: 'numeric' as const, name: `x${j}`, values: Float64Array.from({ length: m }, () => r.normal()) }));
  const frame: Frame = { nRows: m, columns: cols };
  const noise = Float64Array.from({ length: m }, () => (r.next() < 0.5 ? 1 : 0));
  const clean = Float64Array.from({ length: m }, (_, i) => (cols[0]!.values[i]! + 0.2 * r.normal() > 0 ? 1 : 0));
  const task = { kind: 'classification' as const, classes: ['0', '1'] };
  const learner = new LinearLearner({ penaltyGrid: [0.1, 1, 10, 100] });
  const onNoise = learner.fit(frame, noise, task, { seed: 1 });
  const onClean = learner.fit(frame, clean, task, { seed: 1 });
  assert.equal(onNoise.params.strength, 100);
  assert.ok((onClean.params.strength as number) <= 1, `clean: ${onClean.params.strength}`);
  assert.deepEqual(learner.fit(frame, noise, task, { seed: 1 }).predictScores(frame), onNoise.predictScores(frame));
  const ridge = learner.fit(frame, Float64Array.from(noise, (v) => v + r.normal()), { kind: 'regression' }, { seed: 1 });
  assert.equal(ridge.params.strength, 100);
});
