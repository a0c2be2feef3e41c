/**
 * Tail probabilities of anomaly scores: the conformal p-value of a score against the training
 * rows' scores, p = (1 + #{training scores ≤ s}) / (n + 1) — the chance that a row like the
 * training rows is isolated at least this fast. For a new row drawn like the (normal) training
 * rows, P(p ≤ α) ≤ α, so p < 0.01 means fewer than 1 % of ordinary rows look this anomalous,
 * whatever the decision threshold.
 */

const KEPT_SCORES = 2000;

export interface ReferenceScores {
  /** Training rows behind the reference. */
  n: number;
  /** Sorted training scores: every one, or evenly spaced order statistics (rank = index·step + 1). */
  scores: number[];
  rankStep: number;
}

export function referenceScores(trainingScores: Float64Array): ReferenceScores {
  const sorted = Float64Array.from(trainingScores).sort();
  const n = sorted.length;
  const rankStep = Math.max(1, Math.ceil(n / KEPT_SCORES));
  const scores: number[] = [];
  for (let i = 0; i < n; i += rankStep) scores.push(sorted[i]);
  return { n, scores, rankStep };
}

/** Conformal p-values (lower score = more anomalous) against the reference. */
export function tailProbabilities(ref: ReferenceScores, scores: Float64Array): Float64Array {
  const { n, scores: kept, rankStep } = ref;
  return scores.map((s) => {
    // Kept order statistics ≤ s; with thinning, count up to the next kept rank (never understating p).
    let lo = 0;
    let hi = kept.length;
    while (lo < hi) {
      const m = (lo + hi) >> 1;
      if (kept[m] <= s) lo = m + 1;
      else hi = m;
    }
    const atMost = lo === 0 ? 0 : Math.min(n, lo === kept.length ? n : lo * rankStep);
    return (1 + atMost) / (n + 1);
  });
}
