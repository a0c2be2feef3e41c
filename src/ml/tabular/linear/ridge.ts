/**
 * Ridge regression, as scikit-learn's Ridge(alpha): minimise Σ wᵢ(yᵢ − xᵢβ − b)² + α‖β‖² with
 * an unpenalised intercept. Closed form: centre by the weighted means, solve
 * (XcᵀWXc + αI) β = XcᵀW yc by Cholesky, then b = ȳ − x̄ᵀβ. Beyond `maxDenseColumns` design
 * columns (many one-hot levels) the p × p matrix would not fit in memory, so the same objective
 * is minimised iteratively instead.
 */
import type { Design } from './design.js';
import { solveSymmetricPositive } from '../../core/linalg.js';
import { minimizeLbfgs } from '../../core/lbfgs.js';

export const MAX_DENSE_COLUMNS = 2000;

/** Returns p weights followed by the intercept (the layout of Design.scores with one output). */
export function fitRidge(
  x: Design,
  y: Float64Array,
  weights: Float64Array,
  alpha: number,
  maxDenseColumns = MAX_DENSE_COLUMNS,
): Float64Array {
  return x.p <= maxDenseColumns ? fitRidgeCholesky(x, y, weights, alpha) : fitRidgeIteratively(x, y, weights, alpha);
}

function fitRidgeCholesky(x: Design, y: Float64Array, weights: Float64Array, alpha: number): Float64Array {
  return solveRidge(ridgeSystem(x, y, weights), alpha);
}

/** The weighted normal equations of a ridge fit, before the penalty: XᵀWX, XᵀWy and the weighted means. */
export interface RidgeSystem {
  p: number;
  gram: Float64Array;
  xty: Float64Array;
  xMean: Float64Array;
  yMean: number;
  weightSum: number;
}

export function ridgeSystem(x: Design, y: Float64Array, weights: Float64Array): RidgeSystem {
  const { n, p, pNum, nCat } = x;
  const idx = new Int32Array(pNum + nCat);
  const val = new Float64Array(pNum + nCat);
  const gram = new Float64Array(p * p);
  const xty = new Float64Array(p);
  const xMean = new Float64Array(p);
  let weightSum = 0;
  let yMean = 0;
  for (let i = 0; i < n; i++) {
    const w = weights[i];
    if (w === 0) continue;
    const m = rowEntries(x, i, idx, val);
    weightSum += w;
    yMean += w * y[i];
    for (let a = 0; a < m; a++) {
      const wa = w * val[a];
      xMean[idx[a]] += wa;
      xty[idx[a]] += wa * y[i];
      const row = idx[a] * p;
      for (let b = 0; b < m; b++) gram[row + idx[b]] += wa * val[b];
    }
  }
  if (weightSum <= 0) throw new Error('ridge: all training weights are zero');
  yMean /= weightSum;
  for (let j = 0; j < p; j++) xMean[j] /= weightSum;
  return { p, gram, xty, xMean, yMean, weightSum };
}

/** Solves one ridge system for a penalty; the system is left as it was, so several penalties can share it. */
export function solveRidge(system: RidgeSystem, alpha: number): Float64Array {
  const { p, xMean, yMean, weightSum } = system;
  const gram = Float64Array.from(system.gram);
  const xty = Float64Array.from(system.xty);
  // Centring: XcᵀWXc = XᵀWX − S·x̄x̄ᵀ and XcᵀW yc = XᵀWy − S·x̄·ȳ.
  for (let a = 0; a < p; a++) {
    for (let b = 0; b < p; b++) gram[a * p + b] -= weightSum * xMean[a] * xMean[b];
    gram[a * p + a] += alpha;
    xty[a] -= weightSum * xMean[a] * yMean;
  }
  const beta = solveSymmetricPositive(gram, xty, p);
  const out = new Float64Array(p + 1);
  out.set(beta);
  let intercept = yMean;
  for (let j = 0; j < p; j++) intercept -= xMean[j] * beta[j];
  out[p] = intercept;
  return out;
}

/**
 * L-BFGS on ½Σ wᵢ(y'ᵢ − xᵢβ' − b')² + ½α‖β'‖² with y' = (y − ȳ)/sd(y), so the tolerances are
 * scale-free; β = sd·β' and b = ȳ + sd·b' solve the original problem (the ratio to α is unchanged).
 */
function fitRidgeIteratively(x: Design, y: Float64Array, weights: Float64Array, alpha: number): Float64Array {
  let weightSum = 0;
  let yMean = 0;
  for (let i = 0; i < x.n; i++) {
    weightSum += weights[i];
    yMean += weights[i] * y[i];
  }
  if (weightSum <= 0) throw new Error('ridge: all training weights are zero');
  yMean /= weightSum;
  let yVar = 0;
  for (let i = 0; i < x.n; i++) yVar += weights[i] * (y[i] - yMean) ** 2;
  const ySd = Math.sqrt(yVar / weightSum) || 1;
  const z = new Float64Array(1);
  const r = new Float64Array(1);
  const objective = (theta: Float64Array, grad: Float64Array): number => {
    grad.fill(0);
    let loss = 0;
    for (let i = 0; i < x.n; i++) {
      if (weights[i] === 0) continue;
      x.scores(i, theta, 1, z);
      const e = z[0] - (y[i] - yMean) / ySd;
      loss += weights[i] * e * e;
      r[0] = weights[i] * e;
      x.accumulate(i, r, grad, 1);
    }
    let reg = 0;
    for (let j = 0; j < x.p; j++) {
      reg += theta[j] * theta[j];
      grad[j] += alpha * theta[j];
    }
    for (let j = 0; j <= x.p; j++) grad[j] /= weightSum;
    return (0.5 * loss + 0.5 * alpha * reg) / weightSum;
  };
  const { x: theta } = minimizeLbfgs(objective, new Float64Array(x.p + 1), {
    maxIterations: 5000,
    gradientTolerance: 1e-9,
    relativeTolerance: 1e-15,
  });
  const out = theta.map((t) => t * ySd);
  out[x.p] += yMean;
  return out;
}

export function predictRidge(x: Design, coefficients: Float64Array): Float64Array {
  const out = new Float64Array(x.n);
  const z = new Float64Array(1);
  for (let i = 0; i < x.n; i++) {
    x.scores(i, coefficients, 1, z);
    out[i] = z[0];
  }
  return out;
}

/** Non-zero entries of row i (dense numeric values, then active one-hot columns); returns their count. */
function rowEntries(x: Design, i: number, idx: Int32Array, val: Float64Array): number {
  let m = 0;
  for (let j = 0; j < x.pNum; j++) {
    idx[m] = j;
    val[m++] = x.dense[i * x.pNum + j];
  }
  for (let j = 0; j < x.nCat; j++) {
    const a = x.active[i * x.nCat + j];
    if (a >= 0) {
      idx[m] = a;
      val[m++] = 1;
    }
  }
  return m;
}
