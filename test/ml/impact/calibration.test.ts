import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { sumVariance } from '../../../src/ml/timeseries/impact/calibration.js';
import { simulatePaths, simulationRandom } from '../../../src/ml/timeseries/impact/simulate.js';
import { fitStructural } from '../../../src/ml/timeseries/statespace/fit.js';
import { seatbelts, semiSynthetic } from './cases.js';

test('the variance of a weighted forecast sum matches simulated paths', () => {
  const { y, preEnd } = seatbelts('drivers', []);
  const fit = fitStructural(y.slice(0, preEnd + 1), [], { slope: 'fixed', seasonalPeriod: 12 });
  const h = 10;
  const n = 40_000;
  const weights = Float64Array.from({ length: h }, (_, t) => 1 + t / 10);
  const paths = simulatePaths(fit, new Float64Array(h), n, simulationRandom(1));
  const sums = new Float64Array(n);
  for (let p = 0; p < n; p++) for (let t = 0; t < h; t++) sums[p] += weights[t] * paths[p * h + t];
  const mean = sums.reduce((a, b) => a + b, 0) / n;
  const simulated = sums.reduce((a, s) => a + (s - mean) ** 2, 0) / n;
  // Monte Carlo sd of a variance from 40,000 normal draws: √(2/n) ≈ 0.7 %.
  assert.ok(Math.abs(sumVariance(fit, weights) / simulated - 1) < 0.03, `${sumVariance(fit, weights)} vs ${simulated}`);
});

test('Nottingham temperatures: placebo windows at several positions get p ≥ 0.05, a +15 % shift in them p < 0.05', () => {
  const full = semiSynthetic('nottem_placebo').y;
  // (months before the series end, window length): the last one is a false positive (p 0.04) of the
  // model with its parameters fixed at their estimates.
  for (const [back, length] of [[0, 6], [24, 6], [12, 12], [36, 12]]) {
    const end = full.length - 1 - back;
    const y = full.slice(0, end + 1);
    const placebo = estimateImpact({ y, preEnd: end - length, period: 12 });
    assert.ok(placebo.pValue >= 0.05, `${back}/${length}: placebo p ${placebo.pValue}`);
    assert.ok(placebo.absoluteEffectInterval[0] < 0 && placebo.absoluteEffectInterval[1] > 0);
    assert.deepEqual(placebo.warnings, []);
    const shifted = y.slice();
    for (let t = end - length + 1; t <= end; t++) shifted[t] *= 1.15;
    const found = estimateImpact({ y: shifted, preEnd: end - length, period: 12 });
    assert.ok(found.pValue < 0.05, `${back}/${length}: +15 % p ${found.pValue}`);
  }
});

test('a short pre-period gets a warning and wider intervals than the model alone would give', () => {
  const full = semiSynthetic('nottem_placebo').y;
  const y = full.slice(0, 36);
  const short = estimateImpact({ y, preEnd: 23, period: 12 });
  const modelOnly = estimateImpact({ y, preEnd: 23, period: 12, calibrate: false });
  assert.ok(short.calibration.backtests < 3, `${short.calibration.backtests} backtests`);
  assert.match(short.warnings.join(' '), /pre-period is short/);
  const width = (r: typeof short) => r.absoluteEffectInterval[1] - r.absoluteEffectInterval[0];
  assert.ok(width(short) > width(modelOnly), `${width(short)} vs ${width(modelOnly)}`);
  assert.ok(short.pValue >= modelOnly.pValue);
});

test('the cumulative-effect band ends at the whole-window effect interval', () => {
  const c = semiSynthetic('nottem_plus5');
  const r = estimateImpact({ y: c.y, preEnd: c.preEnd, period: 12, nSimulations: 2000 });
  const last = r.predicted.length - 1;
  assert.equal(r.cumulativeLower[last], r.absoluteEffectInterval[0]);
  assert.equal(r.cumulativeUpper[last], r.absoluteEffectInterval[1]);
  for (let t = 0; t <= last; t++) assert.ok(r.cumulativeLower[t] < r.cumulativeUpper[t]);
});
