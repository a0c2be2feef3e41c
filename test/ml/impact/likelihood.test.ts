import { test } from 'node:test';
import assert from 'node:assert/strict';
import { fitStructural } from '../../../src/ml/timeseries/statespace/fit.js';
import { diffuseKalmanFilter } from '../../../src/ml/timeseries/statespace/kalman.js';
import { structuralSystem, type StructuralSpec } from '../../../src/ml/timeseries/statespace/structural.js';
import { EXACT_FIT_FLOOR, profileLikelihood } from '../../../src/ml/timeseries/statespace/profile.js';
import { SeededRandom } from '../../../src/ml/core/random.js';
import { reference, semiSynthetic } from './cases.js';

/** Exact diffuse log-likelihood at given variances (nothing profiled). */
function logLikelihoodAt(y: Float64Array, spec: StructuralSpec, variances: number[]): number {
  const out = diffuseKalmanFilter(structuralSystem(spec, variances), [y]);
  let ll = 0;
  for (let t = 0; t < y.length; t++) {
    if (out.used[t]) ll -= 0.5 * (Math.log(2 * Math.PI * out.f[t]) + out.v[t] ** 2 / out.f[t]);
  }
  return ll;
}

test('maximum likelihood matches statsmodels UnobservedComponents (nottem, level + seasonal 12)', () => {
  const { y, preEnd } = semiSynthetic('nottem_placebo');
  const ref = reference('nottem_placebo', 'local_level_seasonal');
  const fit = fitStructural(y.subarray(0, preEnd + 1), [], { slope: 'none', seasonalPeriod: 12 });
  const [irregular, level] = fit.variances;
  assert.ok(Math.abs(irregular - ref.sigma2Irregular) < 0.01 * ref.sigma2Irregular, `irregular ${irregular}`);
  assert.ok(Math.abs(level - ref.sigma2Level) < 0.02 * ref.sigma2Level, `level ${level}`);
  // The profiled likelihood at the optimum equals the plain likelihood at the fitted variances.
  assert.ok(Math.abs(fit.logLikelihood - logLikelihoodAt(y.subarray(0, preEnd + 1), fit.spec, Array.from(fit.variances))) < 1e-6);
});

test('where statsmodels stops at a poorer optimum (nottem, local level), ours is at least as likely', () => {
  const { y, preEnd } = semiSynthetic('nottem_placebo');
  const pre = y.subarray(0, preEnd + 1);
  const ref = reference('nottem_placebo', 'local_level');
  const spec: StructuralSpec = { slope: 'none', seasonalPeriod: 1 };
  const fit = fitStructural(pre, [], spec);
  const atReference = logLikelihoodAt(pre, spec, [ref.sigma2Irregular, ref.sigma2Level]);
  assert.ok(fit.logLikelihood > atReference + 1, `${fit.logLikelihood} vs ${atReference}`);
});

test('a random-walk slope with no slope variance reduces to a fixed drift', () => {
  const { y, preEnd } = semiSynthetic('airpassengers_placebo');
  const pre = y.subarray(0, preEnd + 1).map(Math.log);
  const drift = fitStructural(pre, [], { slope: 'fixed', seasonalPeriod: 12 });
  const trend = fitStructural(pre, [], { slope: 'random', seasonalPeriod: 12 });
  assert.ok(trend.logLikelihood >= drift.logLikelihood - 1e-6);
  const withZeroSlope = logLikelihoodAt(pre, trend.spec, [drift.variances[0], drift.variances[1], 0, drift.variances[2]]);
  assert.ok(Math.abs(withZeroSlope - drift.logLikelihood) < 1e-6);
});

test('an AR(1) component recovers its coefficient and leaves the level still on a mean-reverting series', () => {
  // y = 50 + a_t, a_t = 0.7 a_{t−1} + N(0, 1), plus a little observation noise: the level-only model
  // would call it a random walk; the AR(1) form must find the mean reversion.
  const random = new SeededRandom(11);
  const y = new Float64Array(400);
  let a = 0;
  for (let t = 0; t < y.length; t++) {
    a = 0.7 * a + random.normal();
    y[t] = 50 + a + 0.2 * random.normal();
  }
  const ar = fitStructural(y, [], { slope: 'none', seasonalPeriod: 1, autoregressive: true });
  const level = fitStructural(y, [], { slope: 'none', seasonalPeriod: 1 });
  assert.ok(Math.abs(ar.arCoefficient - 0.7) < 0.1, `AR coefficient ${ar.arCoefficient}`);
  // The level's variance is a small share of the AR innovations' (it is zero in truth).
  assert.ok(ar.variances[1] < 0.05 * ar.variances[2], `level ${ar.variances[1]} vs AR ${ar.variances[2]}`);
  // One more parameter buys far more than its AIC price.
  assert.ok(ar.logLikelihood - level.logLikelihood > 10, `log-likelihood gain ${ar.logLikelihood - level.logLikelihood}`);
});

test('a control that explains the series exactly: a smooth likelihood at the exact-fit floor, an exact coefficient', () => {
  const { y, preEnd } = semiSynthetic('nottem_placebo');
  const pre = y.subarray(0, preEnd + 1);
  const spec: StructuralSpec = { slope: 'none', seasonalPeriod: 12 };
  const copy = Float64Array.from(pre, (v) => 3 * v - 7);
  const alone = fitStructural(pre, [], spec);
  const exact = fitStructural(pre, [copy], spec);
  // Rounding error used to make the likelihood noise (and the optimiser crawl); now the scale sits at
  // the floor, the variance ratios are those of the series alone, and the coefficient is exact.
  alone.variances.forEach((v, i) => {
    assert.ok(Math.abs(exact.variances[i] / (EXACT_FIT_FLOOR * v) - 1) < 1e-3, `${exact.variances[i]} vs ${v}`);
  });
  assert.ok(Math.abs(exact.coefficients[0] - 1 / 3) < 1e-8, `coefficient ${exact.coefficients[0]}`);
  // Nearby variance ratios give nearby likelihoods (it was noise at the 1e-3 level).
  const at = (irregular: number) => profileLikelihood(diffuseKalmanFilter(structuralSystem(spec, [irregular, 0.01, 0.01]), [pre, copy])).logLikelihood;
  const steps = [0.98, 0.98 + 1e-7, 0.98 + 2e-7].map(at);
  assert.ok(Math.abs(steps[2] - 2 * steps[1] + steps[0]) < 1e-6, `second difference ${steps[2] - 2 * steps[1] + steps[0]}`);
});
