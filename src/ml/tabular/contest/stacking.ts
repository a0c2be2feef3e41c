/**
 * Stacking with a non-negative meta-learner (Breiman 1996, "Stacked regressions"): weights on the
 * simplex (non-negative, summing to 1) for the candidates' out-of-fold predictions, chosen to minimise
 * the out-of-fold log loss (classification: a mixture of the candidates' class probabilities) or
 * squared error (regression). On the simplex a stack can only average, never extrapolate, so a few
 * weights fitted on the rows' own out-of-fold predictions overfit little.
 */

/** Below this weight a member is dropped (and the rest renormalised): it would cost a refit for nothing. */
const MIN_WEIGHT = 0.02;
const ITERATIONS = 500;

/**
 * Mixture weights maximising Σ log Σₘ wₘ pₘ(yᵢ) by EM (the multiplicative update wₘ ← mean of the
 * posterior responsibility), which stays on the simplex and never increases the loss.
 * `probabilities[m][i]` = member m's probability of row i's true class.
 */
export function classificationStackWeights(probabilities: Float64Array[]): number[] {
  const m = probabilities.length;
  const n = probabilities[0].length;
  let w = new Array<number>(m).fill(1 / m);
  const floor = 1e-15;
  for (let it = 0; it < ITERATIONS; it++) {
    const next = new Array<number>(m).fill(0);
    for (let i = 0; i < n; i++) {
      let mix = 0;
      for (let j = 0; j < m; j++) mix += w[j] * Math.max(floor, probabilities[j][i]);
      for (let j = 0; j < m; j++) next[j] += (w[j] * Math.max(floor, probabilities[j][i])) / mix / n;
    }
    const change = next.reduce((a, v, j) => Math.max(a, Math.abs(v - w[j])), 0);
    w = next;
    if (change < 1e-7) break;
  }
  return pruned(w);
}

/**
 * Weights minimising Σ (yᵢ − Σₘ wₘ fₘ(xᵢ))² on the simplex, by projected gradient descent with step
 * 1/L (L = the largest eigenvalue bound, the Gram matrix's trace).
 */
export function regressionStackWeights(predictions: Float64Array[], y: Float64Array): number[] {
  const m = predictions.length;
  const n = y.length;
  const gram = new Float64Array(m * m);
  const xty = new Float64Array(m);
  for (let a = 0; a < m; a++) {
    for (let i = 0; i < n; i++) xty[a] += predictions[a][i] * y[i];
    for (let b = 0; b <= a; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += predictions[a][i] * predictions[b][i];
      gram[a * m + b] = gram[b * m + a] = s;
    }
  }
  let trace = 0;
  for (let a = 0; a < m; a++) trace += gram[a * m + a];
  if (!(trace > 0)) return new Array<number>(m).fill(1 / m);
  let w = new Array<number>(m).fill(1 / m);
  for (let it = 0; it < 20 * ITERATIONS; it++) {
    const step = w.map((wa, a) => {
      let g = -xty[a];
      for (let b = 0; b < m; b++) g += gram[a * m + b] * w[b];
      return wa - g / trace;
    });
    const next = projectOntoSimplex(step);
    const change = next.reduce((acc, v, j) => Math.max(acc, Math.abs(v - w[j])), 0);
    w = next;
    if (change < 1e-9) break;
  }
  return pruned(w);
}

/** Euclidean projection onto {w ≥ 0, Σw = 1} (Duchi et al. 2008). */
export function projectOntoSimplex(v: number[]): number[] {
  const u = [...v].sort((a, b) => b - a);
  let cumulative = 0;
  let theta = 0;
  for (let j = 0; j < u.length; j++) {
    cumulative += u[j];
    const t = (cumulative - 1) / (j + 1);
    if (u[j] - t > 0) theta = t;
  }
  return v.map((x) => Math.max(0, x - theta));
}

function pruned(w: number[]): number[] {
  const kept = w.map((x) => (x < MIN_WEIGHT ? 0 : x));
  const total = kept.reduce((a, b) => a + b, 0);
  return total > 0 ? kept.map((x) => x / total) : w;
}
