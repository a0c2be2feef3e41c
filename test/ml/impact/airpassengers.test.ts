import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { reference, semiSynthetic } from './cases.js';

const inside = (x: number, [lo, hi]: [number, number]) => x >= lo && x <= hi;
const SEASONAL_12 = { slope: 'none', seasonalPeriod: 12 } as const;

test('AirPassengers +15 %: the reference model finds it, its placebo not, as statsmodels does', () => {
  const plus = semiSynthetic('airpassengers_plus15');
  const placebo = semiSynthetic('airpassengers_placebo');
  const ref = reference('airpassengers_plus15', 'local_level_seasonal');
  // Without the backtest calibration: the model's own intervals, parameters fixed at their MLE, as statsmodels.
  const found = estimateImpact({ y: plus.y, preEnd: plus.preEnd, period: 12, model: SEASONAL_12, calibrate: false });
  assert.ok(found.pValue < 0.05, `p ${found.pValue}`);
  assert.ok(inside(plus.trueEffect, found.absoluteEffectInterval));
  // Same model, same maximum-likelihood fit: the point estimate agrees with statsmodels to 0.1 %,
  // the simulated interval to a few percent of its width.
  assert.ok(Math.abs(found.absoluteEffect - ref.absEffect) < 1e-3 * Math.abs(ref.absEffect));
  const width = ref.absHi - ref.absLo;
  assert.ok(Math.abs(found.absoluteEffectInterval[0] - ref.absLo) < 0.03 * width);
  assert.ok(Math.abs(found.absoluteEffectInterval[1] - ref.absHi) < 0.03 * width);

  const none = estimateImpact({ y: placebo.y, preEnd: placebo.preEnd, period: 12, model: SEASONAL_12, calibrate: false });
  assert.ok(none.pValue >= 0.05, `placebo p ${none.pValue}`);
  assert.ok(inside(0, none.absoluteEffectInterval));

  // Calibrated on backtests before the event, the same model still finds the effect and only widens.
  const calibrated = estimateImpact({ y: plus.y, preEnd: plus.preEnd, period: 12, model: SEASONAL_12 });
  assert.ok(calibrated.pValue < 0.05, `calibrated p ${calibrated.pValue}`);
  assert.ok(inside(plus.trueEffect, calibrated.absoluteEffectInterval));
});

test('AirPassengers +15 %: the model chosen by AICc estimates the effect closer than the reference', () => {
  const plus = semiSynthetic('airpassengers_plus15');
  const placebo = semiSynthetic('airpassengers_placebo');
  const ref = reference('airpassengers_plus15', 'local_level_seasonal');
  const chosen = estimateImpact({ y: plus.y, preEnd: plus.preEnd, period: 12 });
  // Multiplicative seasonality and growth: the log scale wins by a wide AICc margin.
  assert.match(chosen.model, /seasonal_12_log$/);
  assert.ok(inside(plus.trueEffect, chosen.absoluteEffectInterval));
  assert.ok(chosen.absoluteEffect > 0);
  assert.ok(Math.abs(chosen.absoluteEffect - plus.trueEffect) < Math.abs(ref.absEffect - plus.trueEffect) / 2);
  assert.ok(chosen.pValue < 0.1, `p ${chosen.pValue}`);

  const none = estimateImpact({ y: placebo.y, preEnd: placebo.preEnd, period: 12 });
  assert.ok(none.pValue >= 0.05, `placebo p ${none.pValue}`);
  assert.ok(none.pValue > 5 * chosen.pValue);
  assert.ok(inside(0, none.absoluteEffectInterval));
  assert.ok(inside(0, none.relativeEffectInterval));
});
