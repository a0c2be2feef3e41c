import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterfactual, effectsAgainst, estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { seatbelts } from './cases.js';

test('a seed fixes the simulated intervals and p-value; another seed moves them only slightly', () => {
  const { y, controls, preEnd } = seatbelts('front', ['kms', 'PetrolPrice']);
  const model = { slope: 'none', seasonalPeriod: 12 } as const;
  const a = estimateImpact({ y, preEnd, controls, period: 12, model, seed: 7, nSimulations: 4000 });
  const b = estimateImpact({ y, preEnd, controls, period: 12, model, seed: 7, nSimulations: 4000 });
  const c = estimateImpact({ y, preEnd, controls, period: 12, model, seed: 8, nSimulations: 4000 });
  assert.deepEqual(a, b);
  // The counterfactual mean does not depend on the simulation; the interval does, by Monte Carlo error.
  assert.deepEqual(c.predicted, a.predicted);
  assert.equal(c.absoluteEffect, a.absoluteEffect);
  assert.notDeepEqual(c.absoluteEffectInterval, a.absoluteEffectInterval);
  const width = a.absoluteEffectInterval[1] - a.absoluteEffectInterval[0];
  assert.ok(Math.abs(c.absoluteEffectInterval[0] - a.absoluteEffectInterval[0]) < 0.05 * width);
  assert.ok(Math.abs(c.absoluteEffectInterval[1] - a.absoluteEffectInterval[1]) < 0.05 * width);
});

test('one counterfactual judges several post-periods exactly as separate estimates would', () => {
  const { y, controls, preEnd } = seatbelts('front', ['kms', 'PetrolPrice']);
  const model = { slope: 'none', seasonalPeriod: 12 } as const;
  const input = { y, preEnd, controls, period: 12, model, seed: 3, nSimulations: 2000 };
  const cf = counterfactual(input);
  // The pre-period alone fixes the counterfactual: a post-period raised by 10 % is judged against the same paths.
  const raised = Float64Array.from(y, (v, t) => (t > preEnd ? 1.1 * v : v));
  for (const series of [y, raised]) {
    assert.deepEqual(effectsAgainst(cf, series.subarray(preEnd + 1)), estimateImpact({ ...input, y: series }));
  }
  const before = effectsAgainst(cf, y.subarray(preEnd + 1));
  const after = effectsAgainst(cf, raised.subarray(preEnd + 1));
  const added = raised.subarray(preEnd + 1).reduce((s, v, t) => s + v - y[preEnd + 1 + t], 0);
  assert.ok(Math.abs(after.absoluteEffect - before.absoluteEffect - added) < 1e-6 * Math.abs(added));
  assert.throws(() => effectsAgainst(cf, y.subarray(preEnd)), /post-period values/);
});
