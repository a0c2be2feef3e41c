import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { seatbelts } from './cases.js';

const model = { slope: 'none', seasonalPeriod: 12 } as const;

test('missing pre-period values are skipped by the filter, not imputed', () => {
  const { y, controls, preEnd } = seatbelts('drivers', ['kms', 'PetrolPrice']);
  const full = estimateImpact({ y, preEnd, controls, model, nSimulations: 2000 });
  const gappy = Float64Array.from(y);
  for (const t of [20, 21, 90, 150]) gappy[t] = NaN;
  const r = estimateImpact({ y: gappy, preEnd, controls, model, nSimulations: 2000 });
  assert.ok(Number.isFinite(r.absoluteEffect));
  assert.ok(Math.abs(r.relativeEffect - full.relativeEffect) < 0.02);
});

test('invalid inputs are refused', () => {
  const { y, controls, preEnd } = seatbelts('drivers', ['kms']);
  const postGap = Float64Array.from(y);
  postGap[preEnd + 3] = NaN;
  assert.throws(() => estimateImpact({ y: postGap, preEnd }), /post-period/);
  assert.throws(() => estimateImpact({ y, preEnd: y.length - 1 }), RangeError);
  assert.throws(() => estimateImpact({ y, preEnd: 1 }), RangeError);
  assert.throws(() => estimateImpact({ y, preEnd, controls: [controls[0].subarray(1)] }), /length/);
  const badControl = Float64Array.from(controls[0]);
  badControl[5] = NaN;
  assert.throws(() => estimateImpact({ y, preEnd, controls: [badControl] }), /missing/);
});

test('a series with zeros is modelled on its original scale only', () => {
  const { y, preEnd } = seatbelts('rear', []);
  const shifted = y.map((v) => v - 300); // pre-period minimum 224: some months below zero
  const r = estimateImpact({ y: shifted, preEnd, period: 12, nSimulations: 1000 });
  assert.ok(r.candidates.every((c) => !c.model.endsWith('_log')));
  // No slope or a drift, with or without the seasonal (and the AR(1) forms when those leave autocorrelation).
  assert.equal(r.candidates.filter((c) => !c.model.includes('_ar1')).length, 4);
});
