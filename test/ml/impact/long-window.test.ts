import { test } from 'node:test';
import assert from 'node:assert/strict';
import { estimateImpact, FEW_BACKTESTS } from '../../../src/ml/timeseries/impact/estimate.js';
import { SeededRandom } from '../../../src/ml/core/random.js';

/**
 * Six and a half years of simulated daily sales: a slowly wandering level, a weekly cycle and noise.
 * The model is fitted on the last 500 days before the event, but a window of 300 days can be
 * backtested only further back than that, in the rest of the 2,100-day pre-period.
 */
function dailySales(seed: number, n: number): Float64Array {
  const random = new SeededRandom(seed);
  const week = [40, 25, 20, 15, 30, -60, -70];
  const y = new Float64Array(n);
  let level = 1000;
  for (let t = 0; t < n; t++) {
    level += 0.5 * random.normal();
    y[t] = level + week[t % 7] + 20 * random.normal();
  }
  return y;
}

test('a window of 300 days after 2,100 is checked on backtests from the whole pre-period, and a +5 % step in it is found', () => {
  const preEnd = 2099;
  const y = dailySales(7, 2400);
  const quiet = estimateImpact({ y, preEnd, period: 7, nSimulations: 2000 });
  assert.ok(quiet.calibration.backtests >= FEW_BACKTESTS, `${quiet.calibration.backtests} backtests`);
  assert.doesNotMatch(quiet.warnings.join(' '), /pre-period is short/);
  const stepped = y.map((v, t) => (t > preEnd ? v * 1.05 : v));
  const found = estimateImpact({ y: stepped, preEnd, period: 7, nSimulations: 2000 });
  assert.ok(found.pValue < 0.05, `+5 %: p ${found.pValue}, interval ${found.relativeEffectInterval}`);
});
