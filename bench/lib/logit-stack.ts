/**
 * Experiment (issue 10): stacking in log-odds space. Weights w ≥ 0 (no sum constraint) on the
 * candidates' log-probabilities, p(c) ∝ exp(Σₘ wₘ ln pₘ(c)): a normalised weighted geometric mean,
 * which can sharpen or soften as well as mix. Fitted to the out-of-fold log loss by projected
 * gradient descent with backtracking. Only bench/yardstick-cache.ts uses it (`--logit-stack`), to
 * judge it on the yardstick before any model kind is built for it.
 */
const FLOOR = 1e-6;

/** Row-major class probabilities of the geometric stack for member predictions `p[m]` (n × k each). */
export function logitStackPredict(p: Float64Array[], w: number[], k: number): Float64Array {
  const n = p[0].length / k;
  const out = new Float64Array(n * k);
  const z = new Float64Array(k);
  for (let i = 0; i < n; i++) {
    let max = -Infinity;
    for (let c = 0; c < k; c++) {
      let s = 0;
      for (let m = 0; m < p.length; m++) s += w[m] * Math.log(Math.max(FLOOR, p[m][i * k + c]));
      z[c] = s;
      if (s > max) max = s;
    }
    let total = 0;
    for (let c = 0; c < k; c++) total += (z[c] = Math.exp(z[c] - max));
    for (let c = 0; c < k; c++) out[i * k + c] = z[c] / total;
  }
  return out;
}

function logLoss(p: Float64Array[], w: number[], y: Float64Array, k: number): number {
  const q = logitStackPredict(p, w, k);
  let s = 0;
  for (let i = 0; i < y.length; i++) s -= Math.log(Math.max(1e-15, q[i * k + y[i]]));
  return s / y.length;
}

export function logitStackWeights(p: Float64Array[], y: Float64Array, k: number): { weights: number[]; logLoss: number } {
  const m = p.length;
  const n = y.length;
  let w = new Array<number>(m).fill(1 / m);
  let loss = logLoss(p, w, y, k);
  let step = 1;
  for (let it = 0; it < 300; it++) {
    const q = logitStackPredict(p, w, k);
    const g = new Array<number>(m).fill(0);
    for (let i = 0; i < n; i++) {
      for (let c = 0; c < k; c++) {
        const r = q[i * k + c] - (y[i] === c ? 1 : 0);
        if (r === 0) continue;
        for (let j = 0; j < m; j++) g[j] += (r * Math.log(Math.max(FLOOR, p[j][i * k + c]))) / n;
      }
    }
    let improved = false;
    for (let tries = 0; tries < 30; tries++) {
      const next = w.map((v, j) => Math.max(0, v - step * g[j]));
      const l = logLoss(p, next, y, k);
      if (l < loss - 1e-12) {
        const change = Math.max(...next.map((v, j) => Math.abs(v - w[j])));
        w = next;
        loss = l;
        step *= 1.5;
        improved = change > 1e-7;
        break;
      }
      step /= 2;
    }
    if (!improved) break;
  }
  return { weights: w, logLoss: loss };
}
