/** Derivative-free minimiser used to fit the smoothing models (the optimiser R's ets uses too). */
export interface NelderMeadOptions {
  maxEvals: number;
  /** Stop when the simplex's function values differ by less than this (relative). */
  tolerance: number;
  /** Initial step per coordinate. */
  steps: number[];
}

export function nelderMead(f: (x: Float64Array) => number, x0: ArrayLike<number>, opts: NelderMeadOptions): { x: Float64Array; value: number } {
  const n = x0.length;
  const simplex: Float64Array[] = [];
  const values: number[] = [];
  let evals = 0;
  const evalAt = (x: Float64Array) => { evals++; return f(x); };
  simplex.push(Float64Array.from(x0));
  values.push(evalAt(simplex[0]));
  for (let i = 0; i < n; i++) {
    const x = Float64Array.from(x0);
    x[i] += opts.steps[i];
    simplex.push(x);
    values.push(evalAt(x));
  }
  const order = Array.from({ length: n + 1 }, (_, i) => i);
  const centroid = new Float64Array(n);
  const trial = new Float64Array(n);
  const trial2 = new Float64Array(n);
  while (evals < opts.maxEvals) {
    order.sort((a, b) => values[a] - values[b]);
    const best = order[0], worst = order[n], second = order[n - 1];
    const spread = Math.abs(values[worst] - values[best]);
    if (spread <= opts.tolerance * (Math.abs(values[best]) + opts.tolerance)) break;
    centroid.fill(0);
    for (let k = 0; k < n; k++) {
      const p = simplex[order[k]];
      for (let i = 0; i < n; i++) centroid[i] += p[i] / n;
    }
    const w = simplex[worst];
    for (let i = 0; i < n; i++) trial[i] = centroid[i] + (centroid[i] - w[i]);
    const fr = evalAt(trial);
    if (fr < values[best]) {
      for (let i = 0; i < n; i++) trial2[i] = centroid[i] + 2 * (centroid[i] - w[i]);
      const fe = evalAt(trial2);
      if (fe < fr) { w.set(trial2); values[worst] = fe; } else { w.set(trial); values[worst] = fr; }
    } else if (fr < values[second]) {
      w.set(trial); values[worst] = fr;
    } else {
      const outside = fr < values[worst];
      for (let i = 0; i < n; i++) trial2[i] = outside ? centroid[i] + 0.5 * (trial[i] - centroid[i]) : centroid[i] + 0.5 * (w[i] - centroid[i]);
      const fc = evalAt(trial2);
      if (fc < (outside ? fr : values[worst])) {
        w.set(trial2); values[worst] = fc;
      } else {
        const b = simplex[best];
        for (let k = 1; k <= n; k++) {
          const p = simplex[order[k]];
          for (let i = 0; i < n; i++) p[i] = b[i] + 0.5 * (p[i] - b[i]);
          values[order[k]] = evalAt(p);
        }
      }
    }
  }
  let bi = 0;
  for (let k = 1; k <= n; k++) if (values[k] < values[bi]) bi = k;
  return { x: simplex[bi], value: values[bi] };
}
