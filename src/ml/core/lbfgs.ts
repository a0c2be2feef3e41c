/**
 * Limited-memory BFGS for smooth convex objectives (the logistic loss), with a backtracking Armijo
 * line search; the one gradient-based minimiser of ml/, budgeted in iterations. Curvature pairs with
 * non-positive sᵀy are skipped, which keeps the inverse-Hessian approximation positive definite
 * without a Wolfe search.
 */

/** Returns f(x) and writes ∇f(x) into grad. */
export type Objective = (x: Float64Array, grad: Float64Array) => number;

export interface LbfgsOptions {
  maxIterations: number;
  /** Stop when max |∇f| ≤ gradientTolerance. */
  gradientTolerance: number;
  /** Stop when the relative decrease of f over an iteration is below this. */
  relativeTolerance: number;
  memory?: number;
}

export interface LbfgsResult {
  x: Float64Array;
  value: number;
  iterations: number;
  converged: boolean;
}

const ARMIJO = 1e-4;

export function minimizeLbfgs(f: Objective, x0: Float64Array, opts: LbfgsOptions): LbfgsResult {
  const dim = x0.length;
  const memory = opts.memory ?? 10;
  const x = Float64Array.from(x0);
  const g = new Float64Array(dim);
  let value = f(x, g);
  const sHistory: Float64Array[] = [];
  const yHistory: Float64Array[] = [];
  const rhoHistory: number[] = [];
  const direction = new Float64Array(dim);
  const xNew = new Float64Array(dim);
  const gNew = new Float64Array(dim);
  const alpha = new Float64Array(memory);

  for (let iter = 0; iter < opts.maxIterations; iter++) {
    if (maxAbs(g) <= opts.gradientTolerance) return { x, value, iterations: iter, converged: true };

    // Two-loop recursion: direction = −H·g.
    for (let j = 0; j < dim; j++) direction[j] = -g[j];
    for (let m = sHistory.length - 1; m >= 0; m--) {
      alpha[m] = rhoHistory[m] * dot(sHistory[m], direction);
      axpy(-alpha[m], yHistory[m], direction);
    }
    const last = sHistory.length - 1;
    const gamma = last >= 0 ? dot(sHistory[last], yHistory[last]) / dot(yHistory[last], yHistory[last]) : 1 / Math.max(1, norm(g));
    for (let j = 0; j < dim; j++) direction[j] *= gamma;
    for (let m = 0; m < sHistory.length; m++) {
      const beta = rhoHistory[m] * dot(yHistory[m], direction);
      axpy(alpha[m] - beta, sHistory[m], direction);
    }

    let slope = dot(g, direction);
    if (slope >= 0) {
      // Not a descent direction (numerical trouble): restart from steepest descent.
      sHistory.length = yHistory.length = rhoHistory.length = 0;
      for (let j = 0; j < dim; j++) direction[j] = -g[j] / Math.max(1, norm(g));
      slope = dot(g, direction);
    }

    let step = 1;
    let newValue = Infinity;
    for (let tries = 0; tries < 50; tries++) {
      for (let j = 0; j < dim; j++) xNew[j] = x[j] + step * direction[j];
      newValue = f(xNew, gNew);
      if (newValue <= value + ARMIJO * step * slope) break;
      step *= 0.5;
    }
    // No decrease along a descent direction: f is flat to rounding here, no further progress is possible.
    if (!(newValue < value)) return { x, value, iterations: iter, converged: true };

    const s = new Float64Array(dim);
    const y = new Float64Array(dim);
    for (let j = 0; j < dim; j++) {
      s[j] = xNew[j] - x[j];
      y[j] = gNew[j] - g[j];
    }
    const sy = dot(s, y);
    if (sy > 1e-12 * dot(y, y)) {
      if (sHistory.length === memory) {
        sHistory.shift();
        yHistory.shift();
        rhoHistory.shift();
      }
      sHistory.push(s);
      yHistory.push(y);
      rhoHistory.push(1 / sy);
    }
    const decrease = value - newValue;
    x.set(xNew);
    g.set(gNew);
    value = newValue;
    if (decrease <= opts.relativeTolerance * Math.max(Math.abs(value), 1e-300)) {
      return { x, value, iterations: iter + 1, converged: true };
    }
  }
  return { x, value, iterations: opts.maxIterations, converged: maxAbs(g) <= opts.gradientTolerance };
}

function dot(a: Float64Array, b: Float64Array): number {
  let s = 0;
  for (let j = 0; j < a.length; j++) s += a[j] * b[j];
  return s;
}

function axpy(a: number, x: Float64Array, y: Float64Array): void {
  for (let j = 0; j < x.length; j++) y[j] += a * x[j];
}

function norm(a: Float64Array): number {
  return Math.sqrt(dot(a, a));
}

function maxAbs(a: Float64Array): number {
  let m = 0;
  for (let j = 0; j < a.length; j++) m = Math.max(m, Math.abs(a[j]));
  return m;
}
