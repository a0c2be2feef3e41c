/**
 * The one derivative-free minimiser of ml/: Nelder–Mead simplex with the standard coefficients
 * (reflection 1, expansion 2, contraction ½, shrink ½), the optimiser R's ets and optim use. It fits
 * the smoothing and ARIMA models and the state-space likelihoods. Its budget counts evaluations.
 */

export interface NelderMeadOptions {
  /** Initial simplex: a step per coordinate, or one step for all. */
  steps: number | ArrayLike<number>;
  maxEvaluations: number;
  /**
   * Converged when the spread of the simplex values is ≤ valueTolerance × (|best| + valueOffset)
   * and every vertex is within pointTolerance of the best in every coordinate.
   */
  valueTolerance: number;
  /** Default valueTolerance itself (a relative test that stays meaningful near 0). */
  valueOffset?: number;
  /** Default Infinity: the value test alone decides. */
  pointTolerance?: number;
}

export interface MinimumFound {
  x: Float64Array;
  value: number;
  evaluations: number;
}

/** Minimises fn from start; non-finite values count as +Infinity (outside the admissible region). */
export function nelderMead(fn: (x: Float64Array) => number, start: ArrayLike<number>, opts: NelderMeadOptions): MinimumFound {
  const n = start.length;
  const valueOffset = opts.valueOffset ?? opts.valueTolerance;
  const pointTolerance = opts.pointTolerance ?? Infinity;
  const stepOf = (i: number) => (typeof opts.steps === 'number' ? opts.steps : opts.steps[i]);
  let evaluations = 0;
  const evaluate = (x: Float64Array): number => {
    evaluations++;
    const v = fn(x);
    return Number.isFinite(v) ? v : Infinity;
  };
  const simplex: Float64Array[] = [Float64Array.from(start)];
  for (let i = 0; i < n; i++) {
    const x = Float64Array.from(start);
    x[i] += stepOf(i);
    simplex.push(x);
  }
  const values = simplex.map(evaluate);
  // Vertices stay in place; `order` ranks them (a stable sort, so ties keep their previous rank).
  const order = Array.from({ length: n + 1 }, (_, i) => i);
  const centroid = new Float64Array(n);
  const trial = new Float64Array(n);
  const trial2 = new Float64Array(n);
  while (evaluations < opts.maxEvaluations) {
    order.sort((a, b) => values[a] - values[b]);
    const best = order[0], worst = order[n], second = order[n - 1];
    if (converged(simplex, values, order, valueOffset, opts.valueTolerance, pointTolerance)) break;
    centroid.fill(0);
    for (let k = 0; k < n; k++) {
      const p = simplex[order[k]];
      for (let i = 0; i < n; i++) centroid[i] += p[i] / n;
    }
    const w = simplex[worst];
    for (let i = 0; i < n; i++) trial[i] = centroid[i] + (centroid[i] - w[i]);
    const fr = evaluate(trial);
    if (fr < values[best]) {
      for (let i = 0; i < n; i++) trial2[i] = centroid[i] + 2 * (centroid[i] - w[i]);
      const fe = evaluate(trial2);
      if (fe < fr) { w.set(trial2); values[worst] = fe; } else { w.set(trial); values[worst] = fr; }
    } else if (fr < values[second]) {
      w.set(trial); values[worst] = fr;
    } else {
      const outside = fr < values[worst];
      for (let i = 0; i < n; i++) trial2[i] = outside ? centroid[i] + 0.5 * (trial[i] - centroid[i]) : centroid[i] + 0.5 * (w[i] - centroid[i]);
      const fc = evaluate(trial2);
      if (fc < (outside ? fr : values[worst])) {
        w.set(trial2); values[worst] = fc;
      } else {
        const b = simplex[best];
        for (let k = 1; k <= n; k++) {
          const p = simplex[order[k]];
          for (let i = 0; i < n; i++) p[i] = b[i] + 0.5 * (p[i] - b[i]);
          values[order[k]] = evaluate(p);
        }
      }
    }
  }
  let bi = 0;
  for (let k = 1; k <= n; k++) if (values[k] < values[bi]) bi = k;
  return { x: simplex[bi], value: values[bi], evaluations };
}

function converged(simplex: Float64Array[], values: number[], order: number[], offset: number, valueTol: number, pointTol: number): boolean {
  const n = order.length - 1;
  const best = values[order[0]];
  if (!(Math.abs(values[order[n]] - best) <= valueTol * (Math.abs(best) + offset))) return false;
  if (pointTol === Infinity) return true;
  const b = simplex[order[0]];
  for (let k = 1; k <= n; k++) {
    const p = simplex[order[k]];
    for (let i = 0; i < b.length; i++) if (Math.abs(p[i] - b[i]) > pointTol) return false;
  }
  return true;
}
