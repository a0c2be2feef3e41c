import assert from 'node:assert/strict';
import { test } from 'node:test';
import { readFixture, seriesValues } from '../../support/fixtures.js';
import { predictiveDistribution } from '../../../src/ml/timeseries/forecast/forecast.js';
import { POOLED_TAIL_SHAPE } from '../../../src/ml/timeseries/forecast/tail-shape.js';
import { fitBestTailShape, fitTailShape, studentTLogDensity, type ShapeSample } from '../../../bench/lib/tail-shape-fit.js';
import { gaussian } from './synthetic.js';

/** Draws of s · t(ν) for integer ν: a normal over the root of a χ²_ν / ν made of ν squared normals. */
function studentDraws(n: number, dof: number, scale: number, seed: number): number[] {
  const normal = gaussian(seed);
  return Array.from({ length: n }, () => {
    let chi = 0;
    for (let i = 0; i < dof; i++) chi += normal() ** 2;
    return (scale * normal()) / Math.sqrt(chi / dof);
  });
}

test('the t log density matches R dt(log = TRUE), and the normal at infinite degrees of freedom', () => {
  for (const [x, dof, exact] of [[1.5, 4, -2.096547010], [0, 2.5, -1.016639593], [-3, 30, -4.993916425], [0.7, Infinity, -1.163938533]]) {
    assert.ok(Math.abs(studentTLogDensity(x, dof) - exact) < 1e-8, `dt(${x}, ${dof}) = ${exact}, got ${studentTLogDensity(x, dof)}`);
  }
});

test('the pooled shape fit recovers a known scale and t degrees of freedom from simulated errors (seeded)', () => {
  const samples: ShapeSample[] = studentDraws(6000, 4, 0.8, 11).map((z) => ({ z, dof: Infinity }));
  const fit = fitTailShape(samples);
  assert.ok(Math.abs(fit.dof - 4) < 0.8, `ν₀ = ${fit.dof}`);
  assert.ok(Math.abs(fit.scale / 0.8 - 1) < 0.05, `s = ${fit.scale}`);
  // Gaussian errors: no extra tail weight (a large ν₀), the scale of the data.
  const gaussianFit = fitTailShape(studentDraws(6000, 400, 1.3, 12).map((z) => ({ z, dof: Infinity })));
  assert.ok(gaussianFit.dof > 40, `Gaussian data: ν₀ = ${gaussianFit.dof}`);
  assert.ok(Math.abs(gaussianFit.scale / 1.3 - 1) < 0.04, `Gaussian data: s = ${gaussianFit.scale}`);
});

test('the pooled shape is what remains after each series\' own degrees of freedom: t(6) errors from series with d = 12 give ν₀ ≈ 12', () => {
  // 1/6 = 1/ν₀ + 1/12 ⇒ ν₀ = 12.
  const samples: ShapeSample[] = studentDraws(8000, 6, 1, 5).map((z) => ({ z, dof: 12 }));
  const fit = fitTailShape(samples);
  assert.ok(fit.dof > 8 && fit.dof < 20, `ν₀ = ${fit.dof}`);
});

test('the weight of the series\' own degrees of freedom is fitted: near 1 when they explain the tails, near 0 when they say nothing', () => {
  // Each series' errors are t(d) with its own d (3 or 40): d tells the tails.
  const light = studentDraws(1000, 40, 1, 21), heavy = studentDraws(1000, 3, 1, 22);
  const told: ShapeSample[] = [...light.map((z) => ({ z, dof: 40 })), ...heavy.map((z) => ({ z, dof: 3 }))];
  const informative = fitBestTailShape(told).seriesDofWeight;
  assert.ok(informative >= 0.7, `informative d: λ = ${informative}`);
  // The same errors with the labels swapped: d is wrong about the tails, the pooled ν₀ must carry them.
  const misled: ShapeSample[] = [...light.map((z) => ({ z, dof: 3 })), ...heavy.map((z) => ({ z, dof: 40 }))];
  const misleading = fitBestTailShape(misled).seriesDofWeight;
  assert.ok(misleading <= 0.2, `misleading d: λ = ${misleading}`);
});

test('on real quarterly series the pseudo-holdout errors are heavier-tailed than Gaussian at the calibrated spread', () => {
  const series = seriesValues(readFixture('forecast/m3/m3_quarterly_train.csv'));
  const h = 8;
  const samples: ShapeSample[] = [];
  for (const y of [...series.values()].slice(0, 60)) {
    const n = y.length - h;
    const d = predictiveDistribution(Float64Array.from(y.slice(0, n)), h, { period: 4 });
    if (!d.calibrated) continue;
    for (let k = 0; k < h; k++) samples.push({ z: (y[n + k] - Math.max(d.chosen.mean[k], d.floor)) / d.chosen.sd[k], dof: d.chosen.dof ?? Infinity });
  }
  assert.ok(samples.length > 300, `${samples.length} errors`);
  // At the weight of the series' own degrees of freedom that forecasts use (their backtests' t counts little).
  const fit = fitTailShape(samples, POOLED_TAIL_SHAPE.seriesDofWeight);
  // The centre narrower than the calibrated spread, the tails heavier than Gaussian.
  assert.ok(fit.scale < 1, `s = ${fit.scale}`);
  assert.ok(fit.dof < 30, `ν₀ = ${fit.dof}`);
});
