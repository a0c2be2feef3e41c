/** Statistics of simulated counterfactual sums. */

import { quantileSorted } from '../../core/statistics.js';

/**
 * Two-sided simulation p-value of the observed sum against simulated counterfactual sums:
 * min(1, 2·min((1 + #{S ≥ O})/(N + 1), (1 + #{S ≤ O})/(N + 1))).
 */
export function twoSidedPValue(simulatedSums: ArrayLike<number>, observed: number): number {
  let above = 0;
  let below = 0;
  for (let i = 0; i < simulatedSums.length; i++) {
    if (simulatedSums[i] >= observed) above++;
    if (simulatedSums[i] <= observed) below++;
  }
  const n = simulatedSums.length;
  return Math.min(1, 2 * Math.min((1 + above) / (n + 1), (1 + below) / (n + 1)));
}

export interface PathSummary {
  /** 2.5 % and 97.5 % quantiles of the counterfactual per post-period step. */
  lower: Float64Array;
  upper: Float64Array;
  /** 95 % intervals of O − S and (O − S)/S, S = a path's sum, O = the observed sum; the relative one is [NaN, NaN] when S's 95 % band holds zero. */
  absoluteEffectInterval: [number, number];
  relativeEffectInterval: [number, number];
  /** 95 % interval of the cumulative effect Σ_{s≤t}(O_s − S_s) at each post-period step (the last is absoluteEffectInterval). */
  cumulativeLower: Float64Array;
  cumulativeUpper: Float64Array;
  /** Two-sided p-value of the cumulative effect. */
  pValue: number;
}

/**
 * Summary of simulated counterfactual paths (paths × horizon, row-major) against the observed values;
 * `bandFloor` bounds the per-step band from below (0 for a series never negative). A step with no
 * observed value (NaN) keeps its band but adds nothing to the sums, on the paths' side either.
 */
export function summarisePaths(paths: Float64Array, observed: ArrayLike<number>, bandFloor = -Infinity): PathSummary {
  const horizon = observed.length;
  const count = paths.length / horizon;
  let observedSum = 0;
  for (let t = 0; t < horizon; t++) if (Number.isFinite(observed[t])) observedSum += observed[t];
  const sums = new Float64Array(count);
  for (let p = 0; p < count; p++) {
    for (let t = 0; t < horizon; t++) if (Number.isFinite(observed[t])) sums[p] += paths[p * horizon + t];
  }
  const absolute = sums.map((s) => observedSum - s).sort();
  const relative = sums.map((s) => (observedSum - s) / s).sort();
  // Relative to a total that may be zero or of either sign, an effect has no meaningful interval
  // (a series around zero, or one that is zero throughout, gave [−1, −1]).
  const sortedSums = Float64Array.from(sums).sort();
  const signKnown = quantileSorted(sortedSums, 0.025) > 0 || quantileSorted(sortedSums, 0.975) < 0;
  const lower = new Float64Array(horizon);
  const upper = new Float64Array(horizon);
  const cumulativeLower = new Float64Array(horizon);
  const cumulativeUpper = new Float64Array(horizon);
  const step = new Float64Array(count);
  const cumulativePath = new Float64Array(count);
  let cumulativeObserved = 0;
  for (let t = 0; t < horizon; t++) {
    const seen = Number.isFinite(observed[t]);
    if (seen) cumulativeObserved += observed[t];
    for (let p = 0; p < count; p++) {
      step[p] = paths[p * horizon + t];
      if (seen) cumulativePath[p] += step[p];
    }
    step.sort();
    lower[t] = Math.max(bandFloor, quantileSorted(step, 0.025));
    upper[t] = Math.max(bandFloor, quantileSorted(step, 0.975));
    const effect = cumulativePath.map((c) => cumulativeObserved - c).sort();
    cumulativeLower[t] = quantileSorted(effect, 0.025);
    cumulativeUpper[t] = quantileSorted(effect, 0.975);
  }
  return {
    lower,
    upper,
    absoluteEffectInterval: [quantileSorted(absolute, 0.025), quantileSorted(absolute, 0.975)],
    relativeEffectInterval: signKnown ? [quantileSorted(relative, 0.025), quantileSorted(relative, 0.975)] : [NaN, NaN],
    cumulativeLower,
    cumulativeUpper,
    pValue: twoSidedPValue(sums, observedSum),
  };
}
