import assert from 'node:assert/strict';
import { test } from 'node:test';
import { studentTQuantile } from '../../../src/ml/timeseries/forecast/quantiles.js';
import { combinedDof } from '../../../src/ml/timeseries/forecast/tail-shape.js';
import {
  crossValidatedPrior, fitShapeTable, horizonBand, shapeForPeriod, withBandedShape, type BandedTailShape, type HorizonSample,
} from '../../../bench/lib/tail-shape-table.js';
import { gaussian } from './synthetic.js';

/** Draws of t(ν) for integer ν: a normal over the root of a χ²_ν / ν made of ν squared normals. */
function tDraw(normal: () => number, dof: number): number {
  let chi = 0;
  for (let i = 0; i < dof; i++) chi += normal() ** 2;
  return normal() / Math.sqrt(chi / dof);
}

/**
 * Seeded pseudo-holdout errors of `series` series of period m and horizon h: step k of h is
 * scale(k) · t(ν), with the series' own degrees of freedom d = ∞ (the pooled shape alone explains them).
 */
function errors(m: number, h: number, series: number, dof: number, scale: (band: number) => number, seed: number): HorizonSample[] {
  const normal = gaussian(seed);
  const out: HorizonSample[] = [];
  for (let i = 0; i < series; i++) {
    for (let step = 1; step <= h; step++) {
      out.push({ z: scale(horizonBand(step, h)) * tDraw(normal, dof), dof: Infinity, m, step, h, series: `${m}-${i}` });
    }
  }
  return out;
}

test('horizon bands are thirds of the requested horizon; a horizon shorter than three steps is one middle band', () => {
  assert.deepEqual(Array.from({ length: 6 }, (_, k) => horizonBand(k + 1, 6)), [0, 0, 1, 1, 2, 2]);
  assert.deepEqual(Array.from({ length: 8 }, (_, k) => horizonBand(k + 1, 8)), [0, 0, 0, 1, 1, 1, 2, 2]);
  assert.deepEqual([horizonBand(1, 18), horizonBand(6, 18), horizonBand(7, 18), horizonBand(13, 18), horizonBand(18, 18)], [0, 0, 1, 2, 2]);
  assert.deepEqual([horizonBand(1, 1), horizonBand(1, 2), horizonBand(2, 2)], [1, 1, 1]);
});

/** The 95 % quantile of a banded shape in band b (errors with no degrees of freedom of their own). */
function q95(shape: BandedTailShape, b: number): number {
  return shape.bandScales[b] * studentTQuantile(0.975, combinedDof(shape.dof, undefined, shape.seriesDofWeight));
}

test('with little shrinkage the table recovers each period\'s band quantiles and the growth of the spread along the horizon (seeded)', () => {
  // Yearly: scale growing 1.0 → 1.2 → 1.5 along the horizon, t(4); monthly: flat 0.8, t(12).
  const yearly = errors(1, 6, 300, 4, (b) => [1.0, 1.2, 1.5][b], 31);
  const monthly = errors(12, 18, 100, 12, () => 0.8, 32);
  const table = fitShapeTable([...yearly, ...monthly], 10, 0);
  const y = shapeForPeriod(table, 1), m = shapeForPeriod(table, 12);
  const truth = (scale: number, dof: number) => scale * studentTQuantile(0.975, dof);
  [1.0, 1.2, 1.5].forEach((s, b) => assert.ok(Math.abs(q95(y, b) / truth(s, 4) - 1) < 0.08, `yearly band ${b + 1}: ${q95(y, b)} vs ${truth(s, 4)}`));
  [0, 1, 2].forEach((b) => assert.ok(Math.abs(q95(m, b) / truth(0.8, 12) - 1) < 0.08, `monthly band ${b + 1}: ${q95(m, b)} vs ${truth(0.8, 12)}`));
  assert.ok(y.bandScales[2] / y.bandScales[0] > 1.3, `yearly spread growth ${y.bandScales[2] / y.bandScales[0]} (true 1.5)`);
  assert.ok(y.dof < m.dof, `yearly ν₀ ${y.dof} below monthly ${m.dof}`);
  // A period the table has not seen takes the pooled shape.
  assert.equal(shapeForPeriod(table, 7), table.pooled);
});

test('the shrinkage weight is chosen by leave-series-out likelihood: little when the periods differ, pooling beats none when they do not (seeded)', () => {
  const grid = [0, 300, 3000, Infinity];
  const different = [...errors(1, 6, 100, 4, (b) => [1.0, 1.3, 1.7][b], 41), ...errors(4, 8, 60, 8, () => 0.7, 42)];
  const chosenDifferent = crossValidatedPrior(different, grid, 0).priorErrors;
  assert.ok(chosenDifferent <= 300, `periods that differ: prior of ${chosenDifferent} errors`);
  // The same distribution everywhere: a separate fit per period and band only adds noise.
  const same = crossValidatedPrior([...errors(1, 6, 50, 6, () => 1, 43), ...errors(4, 8, 40, 6, () => 1, 44)], grid, 0);
  assert.ok(same.scores[3] > same.scores[0], `periods alike: log-likelihood pooled ${same.scores[3]} vs unshrunk ${same.scores[0]}`);
  assert.ok(same.priorErrors >= 300, `periods alike: prior of ${same.priorErrors} errors`);
});

test('a period with few errors stays near the pooled shape under the prior, one with many follows its own errors (seeded)', () => {
  const many = errors(12, 18, 100, 8, () => 0.8, 51);
  const few = errors(4, 8, 8, 8, () => 1.6, 52);
  const table = fitShapeTable([...many, ...few], 1000, 0);
  const q = shapeForPeriod(table, 4).bandScales[1], m = shapeForPeriod(table, 12).bandScales[1];
  assert.ok(Math.abs(m / 0.8 - 1) < 0.08, `monthly (1800 errors): ${m}`);
  assert.ok(q < 1.1, `quarterly (64 errors at scale 1.6) shrunk towards the pooled 0.8: ${q}`);
});

test('the banded shape scales each step\'s spread by its band and combines the degrees of freedom', () => {
  const f = { mean: new Float64Array(6), sd: new Float64Array(6).fill(2), dof: 10 };
  const shaped = withBandedShape(f, { dof: 10, seriesDofWeight: 1, bandScales: [0.5, 1, 2] });
  assert.deepEqual(Array.from(shaped.sd), [1, 1, 2, 2, 4, 4]);
  assert.ok(Math.abs(shaped.dof! - 5) < 1e-12);
});
