import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateImpact } from '../../../src/ml/timeseries/impact/estimate.js';
import { prepareControls } from '../../../src/ml/timeseries/impact/controls.js';
import { coefficientDesign, simulationRandom as seededRandom } from '../../../src/ml/timeseries/impact/simulate.js';
import { fitStructural } from '../../../src/ml/timeseries/statespace/fit.js';

const N = 150;
const PRE_END = 119;
const COEFFICIENT = 3;
const EFFECT_PER_PERIOD = 2;

/** Random-walk level plus 3 × an AR(1) control (around 10) plus noise; +2 per period after PRE_END. */
function synthetic(seed: number) {
  const random = seededRandom(seed);
  const x = new Float64Array(N);
  const y = new Float64Array(N);
  let level = 50;
  let ar = 0;
  for (let t = 0; t < N; t++) {
    ar = 0.8 * ar + random.normal();
    x[t] = 10 + ar;
    level += 0.3 * random.normal();
    y[t] = level + COEFFICIENT * x[t] + 0.5 * random.normal() + (t > PRE_END ? EFFECT_PER_PERIOD : 0);
  }
  return { x, y, trueEffect: EFFECT_PER_PERIOD * (N - PRE_END - 1) };
}

test('a control with a known coefficient is recovered and sharpens the counterfactual', () => {
  const { x, y, trueEffect } = synthetic(11);
  const withControl = estimateImpact({ y, preEnd: PRE_END, controls: [x] });
  const without = estimateImpact({ y, preEnd: PRE_END });
  assert.ok(Math.abs(withControl.coefficients[0] - COEFFICIENT) < 0.1 * COEFFICIENT, `β ${withControl.coefficients[0]}`);
  const bestAicc = (r: typeof without) => Math.min(...r.candidates.map((c) => c.aicc));
  assert.ok(bestAicc(withControl) < bestAicc(without) - 10);
  const width = (r: typeof without) => r.absoluteEffectInterval[1] - r.absoluteEffectInterval[0];
  assert.ok(width(withControl) < width(without) / 2, `${width(withControl)} vs ${width(without)}`);
  const [lo, hi] = withControl.absoluteEffectInterval;
  assert.ok(trueEffect >= lo && trueEffect <= hi);
  assert.ok(withControl.pValue < 0.05);
});

test('with more controls than n_pre/4 only the best-correlated are kept, the informative one among them', () => {
  const { x, y } = synthetic(12);
  const random = seededRandom(99);
  const noise = Array.from({ length: 40 }, () => Float64Array.from({ length: N }, () => random.normal()));
  const prepared = prepareControls(y, [...noise.slice(0, 20), x, ...noise.slice(20)], PRE_END + 1);
  assert.equal(prepared.used.length, Math.floor((PRE_END + 1) / 4));
  assert.ok(prepared.used.includes(20));
  // Kept controls are standardised over the pre-period.
  const z = prepared.values[prepared.used.indexOf(20)].subarray(0, PRE_END + 1);
  const mean = z.reduce((a, b) => a + b, 0) / z.length;
  const sd = Math.sqrt(z.reduce((a, b) => a + (b - mean) ** 2, 0) / z.length);
  assert.ok(Math.abs(mean) < 1e-12 && Math.abs(sd - 1) < 1e-12);
  // A control constant over the pre-period is dropped.
  assert.deepEqual(prepareControls(y, [new Float64Array(N).fill(4), x], PRE_END + 1).used, [1]);
});

test("the coefficients' sampling covariance matches their spread over replications; the state absorbs most of a coefficient error", () => {
  // Short pre-periods (40 points), where the coefficient's error matters: β̂ from 80 independent
  // series against the standard error the fit reports for each.
  const n = 40;
  const estimates: number[] = [];
  const variances: number[] = [];
  for (let r = 0; r < 80; r++) {
    const { x, y } = synthetic(1000 + r);
    const fit = fitStructural(y.subarray(0, n), [x.subarray(0, n)], { slope: 'none', seasonalPeriod: 1 });
    estimates.push(fit.coefficients[0]);
    variances.push(fit.coefficientCovariance[0]);
  }
  const mean = estimates.reduce((a, b) => a + b, 0) / estimates.length;
  const empirical = estimates.reduce((a, b) => a + (b - mean) ** 2, 0) / (estimates.length - 1);
  const reported = variances.reduce((a, b) => a + b, 0) / variances.length;
  // 80 replications pin a variance down to about ±16 % (1 sd); the bounds allow 2.5 sd.
  assert.ok(reported / empirical > 0.6 && reported / empirical < 1.6, `reported ${reported}, empirical ${empirical}`);
  assert.ok(Math.abs(mean - COEFFICIENT) < 3 * Math.sqrt(empirical / estimates.length), `mean β̂ ${mean}`);

  // A local level absorbs most of a coefficient error on a control that stays where it ended (the
  // state, estimated from y − βx, carries −δ × the control's filtered level), none of a move after the event.
  const { x, y } = synthetic(7);
  const fit = fitStructural(y.subarray(0, n), [x.subarray(0, n)], { slope: 'none', seasonalPeriod: 1 });
  const flat = coefficientDesign(fit, [new Float64Array(5).fill(x[n - 1])])[0];
  const moved = coefficientDesign(fit, [new Float64Array(5).fill(x[n - 1] + 5)])[0];
  assert.ok(Math.max(...flat.map(Math.abs)) < 0.2 * x[n - 1], `flat ${flat} for a control at ${x[n - 1]}`);
  assert.ok(moved.every((d, t) => Math.abs(d - flat[t] - 5) < 1e-9), `moved ${moved}`);
});

test('an irrelevant wandering control is dropped (spurious regression), the informative one kept', () => {
  // Six replications: an unrelated random walk passes AICc's 2-per-parameter price by chance about
  // one time in six, so most replications must drop it; the informative control must always stay.
  let dropped = 0;
  for (let seed = 21; seed < 27; seed++) {
    const { x, y } = synthetic(seed);
    const random = seededRandom(seed + 100);
    const wander = new Float64Array(N);
    let w = 0;
    for (let t = 0; t < N; t++) wander[t] = w += random.normal();
    const r = estimateImpact({ y, preEnd: PRE_END, controls: [x, wander], nSimulations: 1000 });
    assert.ok(r.controlsUsed.includes(0), `seed ${seed}: informative control dropped`);
    if (!r.controlsUsed.includes(1)) dropped++;
  }
  assert.ok(dropped >= 4, `irrelevant control dropped in ${dropped} of 6`);
});
