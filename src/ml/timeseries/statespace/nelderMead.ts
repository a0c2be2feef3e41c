/** Derivative-free minimisation (Nelder–Mead simplex, standard coefficients) for a few parameters. */

export interface MinimumFound {
  x: Float64Array;
  value: number;
  evaluations: number;
}

export interface NelderMeadOptions {
  /** Initial simplex edge length. */
  step?: number;
  maxEvaluations?: number;
  /** Stop when the simplex values and vertices agree to within these. */
  valueTolerance?: number;
  pointTolerance?: number;
}

export function nelderMead(
  fn: (x: Float64Array) => number,
  start: ArrayLike<number>,
  { step = 1, maxEvaluations = 1000, valueTolerance = 1e-9, pointTolerance = 1e-4 }: NelderMeadOptions = {},
): MinimumFound {
  const d = start.length;
  let evaluations = 0;
  const evaluate = (x: Float64Array): number => {
    evaluations++;
    const v = fn(x);
    return Number.isFinite(v) ? v : Infinity;
  };
  const points: Float64Array[] = [Float64Array.from(start)];
  for (let i = 0; i < d; i++) {
    const p = Float64Array.from(start);
    p[i] += step;
    points.push(p);
  }
  const values = points.map(evaluate);
  const order = (): void => {
    const idx = points.map((_, i) => i).sort((i, j) => values[i] - values[j]);
    const p = idx.map((i) => points[i]);
    const v = idx.map((i) => values[i]);
    points.splice(0, points.length, ...p);
    values.splice(0, values.length, ...v);
  };
  const along = (from: Float64Array, to: Float64Array, t: number): Float64Array => {
    const out = new Float64Array(d);
    for (let i = 0; i < d; i++) out[i] = from[i] + t * (to[i] - from[i]);
    return out;
  };

  order();
  while (evaluations < maxEvaluations) {
    const spread = values[d] - values[0];
    let size = 0;
    for (let k = 1; k <= d; k++) for (let i = 0; i < d; i++) size = Math.max(size, Math.abs(points[k][i] - points[0][i]));
    if (spread <= valueTolerance * (1 + Math.abs(values[0])) && size <= pointTolerance) break;

    const centroid = new Float64Array(d);
    for (let k = 0; k < d; k++) for (let i = 0; i < d; i++) centroid[i] += points[k][i] / d;
    const worst = points[d];
    const reflected = along(centroid, worst, -1);
    const fr = evaluate(reflected);
    if (fr < values[0]) {
      const expanded = along(centroid, worst, -2);
      const fe = evaluate(expanded);
      if (fe < fr) { points[d] = expanded; values[d] = fe; } else { points[d] = reflected; values[d] = fr; }
    } else if (fr < values[d - 1]) {
      points[d] = reflected;
      values[d] = fr;
    } else {
      const contracted = fr < values[d] ? along(centroid, reflected, 0.5) : along(centroid, worst, 0.5);
      const fc = evaluate(contracted);
      if (fc < Math.min(fr, values[d])) {
        points[d] = contracted;
        values[d] = fc;
      } else {
        for (let k = 1; k <= d; k++) {
          points[k] = along(points[0], points[k], 0.5);
          values[k] = evaluate(points[k]);
        }
      }
    }
    order();
  }
  return { x: points[0], value: values[0], evaluations };
}
