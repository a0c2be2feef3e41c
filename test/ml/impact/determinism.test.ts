import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
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
