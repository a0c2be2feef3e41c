import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { reference, seatbelts } from './cases.js';

const COVARIATES = ['kms', 'PetrolPrice', 'rear', 'VanKilled'];

test('UK seat-belt law: drivers killed or injured fell by about a fifth', () => {
  const { y, controls, preEnd } = seatbelts('drivers', COVARIATES);
  const r = estimateImpact({ y, preEnd, controls, period: 12 });
  assert.ok(r.absoluteEffectInterval[1] < 0, `interval ${r.absoluteEffectInterval}`);
  assert.ok(r.pValue < 0.05);
  // Literature (log-scale ARIMA with the law dummy): −19.9 %, se ≈ 3.8 points.
  assert.ok(r.relativeEffect > -0.28 && r.relativeEffect < -0.12, `relative ${r.relativeEffect}`);
  // Rear-seat casualties share the drivers' weather and traffic: the control that must stay. The
  // others may be dropped when they do not earn their parameter on the chosen model (AICc).
  assert.ok(r.controlsUsed.includes(2), `controls used ${r.controlsUsed}`);
  assert.ok(r.controlsUsed.every((j) => [0, 1, 2, 3].includes(j)));
  assert.equal(r.predicted.length, y.length - preEnd - 1);
  for (let t = 0; t < r.predicted.length; t++) assert.ok(r.lower[t] < r.predicted[t] && r.predicted[t] < r.upper[t]);
});

test('UK seat-belt law: the local-level regression reproduces statsmodels', () => {
  const { y, controls, preEnd } = seatbelts('drivers', COVARIATES);
  const ref = reference('seatbelts_drivers', 'local_level');
  const r = estimateImpact({ y, preEnd, controls, model: { slope: 'none', seasonalPeriod: 1 } });
  assert.equal(r.model, 'local_level');
  assert.ok(Math.abs(r.absoluteEffect - ref.absEffect) < 0.01 * Math.abs(ref.absEffect));
  assert.ok(Math.abs(r.variances.level - ref.sigma2Level) < 0.02 * ref.sigma2Level);
  assert.ok(Math.abs(r.variances.irregular - ref.sigma2Irregular) < 0.02 * ref.sigma2Irregular);
});

test('UK seat-belt law: rear-seat passengers, not covered by the law, show no significant change', () => {
  const { y, controls, preEnd } = seatbelts('rear', ['kms', 'PetrolPrice']);
  const r = estimateImpact({ y, preEnd, controls, period: 12 });
  assert.ok(r.pValue >= 0.05, `p ${r.pValue}`);
  assert.ok(r.absoluteEffectInterval[0] < 0 && r.absoluteEffectInterval[1] > 0);
});
