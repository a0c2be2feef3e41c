import { test } from 'node:test';
import assert from 'node:assert/strict';
import { chiSquareUpperTail, ljungBox } from '../../../src/ml/timeseries/impact/adequacy.js';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { simulationRandom } from '../../../src/ml/timeseries/impact/simulate.js';
import { fitStructural } from '../../../src/ml/timeseries/statespace/fit.js';

test('χ² upper tail matches the tables', () => {
  // Critical values from any χ² table (5 %, 1 %, and the median of χ²_2 = 2 ln 2).
  for (const [x, k, p] of [[3.841459, 1, 0.05], [18.307038, 10, 0.05], [13.276704, 4, 0.01], [2 * Math.LN2, 2, 0.5], [50.892181, 30, 0.01]]) {
    assert.ok(Math.abs(chiSquareUpperTail(x, k) - p) < 1e-6, `χ²_${k} > ${x}: ${chiSquareUpperTail(x, k)}`);
  }
  assert.equal(chiSquareUpperTail(0, 3), 1);
});

test('Ljung–Box passes a model that fits and flags one that misses a cycle, and the estimate says so', () => {
  const random = simulationRandom(5);
  const n = 120;
  const noise = Float64Array.from({ length: n }, () => 100 + random.normal());
  const fitsWell = ljungBox(fitStructural(noise, [], { slope: 'none', seasonalPeriod: 1 }), noise, []);
  assert.ok(fitsWell && fitsWell.pValue > 0.05, `white noise p ${fitsWell?.pValue}`);

  // A 6-period cycle the local level cannot represent (no seasonal at period 1).
  const cycled = Float64Array.from(noise, (v, t) => v + 3 * Math.sin((2 * Math.PI * t) / 6));
  const misses = ljungBox(fitStructural(cycled, [], { slope: 'none', seasonalPeriod: 1 }), cycled, []);
  assert.ok(misses && misses.pValue < 1e-6, `cycle p ${misses?.pValue}`);
  const r = estimateImpact({ y: cycled, preEnd: 107, period: 1, nSimulations: 500 });
  assert.ok(r.adequacy && r.adequacy.pValue < 0.01);
  assert.ok(r.warnings.some((w) => /Ljung–Box/.test(w)), r.warnings.join(' | '));
  const fine = estimateImpact({ y: noise, preEnd: 107, period: 1, nSimulations: 500 });
  assert.ok(!fine.warnings.some((w) => /Ljung–Box/.test(w)), fine.warnings.join(' | '));
});
