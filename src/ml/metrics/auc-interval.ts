/**
 * Newcombe's score-type interval for the area under the ROC curve (Newcombe 2006, "Confidence
 * intervals for an effect size measure based on the Mann–Whitney statistic. Part 2", Statistics in
 * Medicine 25): the θ whose distance from the estimate is within z standard errors, the standard
 * error taken at θ itself (Hanley & McNeil's variance under exponential score distributions, with
 * both group sizes replaced by N* = (m + n)/2 − 1). Like Wilson's interval for a proportion it stays honest near 1,
 * where an AUC rests on a few misranked pairs: the variance at a lower θ is larger, so the interval
 * reaches down to values a test set without those rare misrankings cannot show by resampling.
 */
import { normalQuantile } from '../core/statistics.js';

export interface AucGroups {
  positives: number;
  negatives: number;
}

/**
 * `groups`: one for a binary AUC; for a macro mean of one-vs-rest AUCs, one a class, the mean's
 * variance at θ taken as that of the mean of independent AUCs each equal to θ.
 */
export function aucScoreInterval(auc: number, groups: AucGroups[], level: number): { lower: number; upper: number } {
  const z = normalQuantile((1 + level) / 2);
  const one = (theta: number, { positives, negatives }: AucGroups) => {
    const nStar = (positives + negatives) / 2 - 1;
    return (theta * (1 - theta) * (1 + nStar * ((1 - theta) / (2 - theta) + theta / (1 + theta)))) / (positives * negatives);
  };
  const variance = (theta: number) => groups.reduce((s, g) => s + one(theta, g), 0) / groups.length ** 2;
  const outside = (theta: number) => (auc - theta) ** 2 > z * z * variance(theta);
  // The accepted θ form one interval around the estimate: bisect for its ends.
  const end = (from: number, to: number) => {
    if (!outside(to)) return to;
    let inside = from;
    let out = to;
    for (let i = 0; i < 60; i++) {
      const mid = (inside + out) / 2;
      if (outside(mid)) out = mid;
      else inside = mid;
    }
    return inside;
  };
  return { lower: end(auc, 0), upper: end(auc, 1) };
}
