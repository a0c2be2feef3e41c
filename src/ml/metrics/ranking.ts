/**
 * Ranking metrics for a binary labelling (1 = positive) against real-valued scores
 * (higher = more likely positive). Shared by classification and anomaly evaluation.
 */

/**
 * Area under the ROC curve via the Mann–Whitney U statistic; tied scores get their average rank,
 * which equals scikit-learn's trapezoidal `roc_auc_score`. NaN when only one class is present.
 */
export function rocAuc(labels01: ArrayLike<number>, scores: ArrayLike<number>): number {
  const n = labels01.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[a] - scores[b]);
  let positives = 0;
  let positiveRankSum = 0;
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && scores[order[end]] === scores[order[start]]) end++;
    const averageRank = (start + 1 + end) / 2; // ranks are 1-based: start+1 .. end
    for (let j = start; j < end; j++) {
      if (labels01[order[j]] === 1) {
        positives++;
        positiveRankSum += averageRank;
      }
    }
    start = end;
  }
  const negatives = n - positives;
  if (positives === 0 || negatives === 0) return NaN;
  return (positiveRankSum - (positives * (positives + 1)) / 2) / (positives * negatives);
}

/**
 * scikit-learn's `average_precision_score`: Σ (R_t − R_{t−1}) · P_t over the distinct score
 * thresholds t in decreasing order (step-wise, no interpolation). NaN without positives.
 */
export function averagePrecision(labels01: ArrayLike<number>, scores: ArrayLike<number>): number {
  const n = labels01.length;
  const order = Array.from({ length: n }, (_, i) => i).sort((a, b) => scores[b] - scores[a]);
  let positives = 0;
  for (let i = 0; i < n; i++) if (labels01[i] === 1) positives++;
  if (positives === 0) return NaN;
  let truePositives = 0;
  let previousRecall = 0;
  let ap = 0;
  for (let start = 0; start < n; ) {
    let end = start;
    while (end < n && scores[order[end]] === scores[order[start]]) {
      if (labels01[order[end]] === 1) truePositives++;
      end++;
    }
    const recall = truePositives / positives;
    ap += (recall - previousRecall) * (truePositives / end);
    previousRecall = recall;
    start = end;
  }
  return ap;
}
