/**
 * bench:impact-placebo --oracle: what power a window's data allow, next to the power our calibrated
 * test has, both in expectation over the noise rather than on the one realisation the window holds.
 *
 * The noise is the chosen model's own, with its parameters at their estimates (the uncalibrated
 * counterfactual's paths): each path, scaled by an injected effect, is one possible observed
 * post-period. The oracle knows that noise exactly and rejects outside its 2.5–97.5 % quantiles of
 * the sum (size 5 % by construction); ours rejects outside the calibrated counterfactual's quantiles.
 * If the model is right, the oracle is the most a test of the window's sum can do (a data limit)
 * and the gap to ours is the price of the calibration; ours at no effect is our size under the model.
 */
import { quantileSorted } from '../../src/ml/core/statistics.js';
import type { Counterfactual } from '../../src/ml/timeseries/impact/estimate.js';

export interface ExpectedPower {
  /** Standard deviation of the model's counterfactual sum over its mean (the noise of the window). */
  noise: number;
  /** Half-width of our calibrated 95 % interval of the sum, over its mean. */
  halfWidth: number;
  /** Per effect (a multiplier per post-period step): share of rejections at 5 %, ours and the oracle's. */
  ours: number[];
  oracle: number[];
}

function sums(paths: Float64Array, horizon: number, weights?: Float64Array): Float64Array {
  const count = paths.length / horizon;
  const out = new Float64Array(count);
  for (let p = 0; p < count; p++) {
    let s = 0;
    for (let t = 0; t < horizon; t++) s += (weights ? weights[t] : 1) * paths[p * horizon + t];
    out[p] = s;
  }
  return out;
}

/** Expected power of `calibrated` (ours) and of the oracle under `model`'s noise, for each effect. */
export function expectedPower(calibrated: Counterfactual, model: Counterfactual, effects: Float64Array[]): ExpectedPower {
  const h = model.predicted.length;
  const ourSums = sums(calibrated.paths, h).sort();
  const modelSums = sums(model.paths, h);
  const sorted = Float64Array.from(modelSums).sort();
  const mean = modelSums.reduce((a, b) => a + b, 0) / modelSums.length;
  const sd = Math.sqrt(modelSums.reduce((a, b) => a + (b - mean) ** 2, 0) / (modelSums.length - 1));
  const [ourLo, ourHi] = [quantileSorted(ourSums, 0.025), quantileSorted(ourSums, 0.975)];
  const [oracleLo, oracleHi] = [quantileSorted(sorted, 0.025), quantileSorted(sorted, 0.975)];
  const ours: number[] = [];
  const oracle: number[] = [];
  for (const effect of effects) {
    const observed = sums(model.paths, h, effect);
    ours.push(observed.filter((o) => o < ourLo || o > ourHi).length / observed.length);
    oracle.push(observed.filter((o) => o < oracleLo || o > oracleHi).length / observed.length);
  }
  return { noise: sd / mean, halfWidth: (ourHi - ourLo) / 2 / mean, ours, oracle };
}
