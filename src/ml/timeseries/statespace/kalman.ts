/**
 * Kalman filter with exact diffuse initialisation (Koopman & Durbin 2000, univariate observations):
 * every state starts diffuse, so nothing about the series' level, slope or seasonal pattern is
 * assumed. Observations that resolve a diffuse direction only pin down the initial state and carry
 * no likelihood, as in statsmodels.
 *
 * Several data columns share one pass: the gains do not depend on the data, so filtering regressors
 * alongside y gives the innovations that profile the regression coefficients out of the likelihood
 * (see profile.ts). A NaN in the first column (y) marks a missing observation.
 */
import type { StateSpaceSystem } from './structural.js';

/** Below this, a diffuse variance counts as resolved. P∞ entries are O(1), set by the model's structure. */
const DIFFUSE_TOLERANCE = 1e-8;

export interface FilterOutput {
  n: number;
  /** Number of data columns filtered together. */
  columns: number;
  /** One-step innovation variance per step (NaN where the step is not used). */
  f: Float64Array;
  /** One-step innovations, n × columns, row-major. */
  v: Float64Array;
  /** 1 where the step contributes to the likelihood: observed and past the diffuse phase. */
  used: Uint8Array;
  /** Predicted state mean for the step after the data (m × columns, row-major). */
  nextMean: Float64Array;
  /** Predicted state covariance for the step after the data (m × m). */
  nextCovariance: Float64Array;
  /** True when some state is still diffuse after the last observation (too few observations). */
  diffuseAtEnd: boolean;
}

export function diffuseKalmanFilter(sys: StateSpaceSystem, data: readonly ArrayLike<number>[]): FilterOutput {
  const { m, z, obsVariance } = sys;
  const c = data.length;
  const n = data[0].length;
  const a = new Float64Array(m * c);
  const pInf = new Float64Array(m * m);
  for (let i = 0; i < m; i++) pInf[i * m + i] = 1;
  const pStar = new Float64Array(m * m);
  let diffuse = true;
  const f = new Float64Array(n).fill(NaN);
  const v = new Float64Array(n * c);
  const used = new Uint8Array(n);
  const mInf = new Float64Array(m);
  const mStar = new Float64Array(m);
  const gain = new Float64Array(m);
  const vt = new Float64Array(c);
  const loaded = loadedStates(z);
  const plan = transitionPlan(sys);
  const meanScratch = new Float64Array(m * c);

  // Once past the diffuse phase the covariance of a time-invariant model converges; from then on the
  // gain is constant and only the means need updating (a missing observation restarts the recursion).
  let steady = false;
  let fStar = NaN;
  const lastPredicted = new Float64Array(m * m);
  const scratch = new Float64Array(m * m);
  for (let t = 0; t < n; t++) {
    const observed = Number.isFinite(data[0][t]);
    if (observed) {
      for (let j = 0; j < c; j++) {
        let pred = 0;
        for (let i = 0; i < m; i++) pred += z[i] * a[i * c + j];
        vt[j] = data[j][t] - pred;
      }
      if (!steady) fStar = quadratic(pStar, z, loaded, m, mStar) + obsVariance;
      const fInf = diffuse ? quadratic(pInf, z, loaded, m, mInf) : 0;
      if (fInf > DIFFUSE_TOLERANCE) {
        for (let i = 0; i < m; i++) gain[i] = mInf[i] / fInf;
        addOuter(a, gain, vt, m, c);
        for (let i = 0; i < m; i++) {
          for (let k = 0; k < m; k++) pStar[i * m + k] += gain[i] * gain[k] * fStar - gain[i] * mStar[k] - mStar[i] * gain[k];
        }
        subtractOuter(pInf, mInf, fInf, m);
      } else if (fStar > 0) {
        for (let i = 0; i < m; i++) gain[i] = mStar[i] / fStar;
        addOuter(a, gain, vt, m, c);
        if (!steady) subtractOuter(pStar, mStar, fStar, m);
        f[t] = fStar;
        for (let j = 0; j < c; j++) v[t * c + j] = vt[j];
        used[t] = 1;
      }
    } else {
      steady = false;
    }
    multiplyByTransition(plan, m, a, c, meanScratch);
    a.set(meanScratch);
    if (steady) continue;
    applyTransitionToCovariance(plan, m, pStar, scratch);
    for (let i = 0; i < m; i++) pStar[i * m + i] += sys.stateVariance[i];
    if (diffuse) {
      applyTransitionToCovariance(plan, m, pInf, scratch);
      diffuse = maxAbs(pInf) > DIFFUSE_TOLERANCE;
    } else if (observed && previousObserved(data[0], t)) {
      steady = hasConverged(lastPredicted, pStar);
    }
    lastPredicted.set(pStar);
  }
  return { n, columns: c, f, v, used, nextMean: a, nextCovariance: pStar, diffuseAtEnd: diffuse };
}

/** Relative change below which the predicted covariance counts as converged. */
const STEADY_TOLERANCE = 1e-9;

function hasConverged(before: Float64Array, after: Float64Array): boolean {
  let scale = 0;
  let change = 0;
  for (let i = 0; i < after.length; i++) {
    scale = Math.max(scale, Math.abs(after[i]));
    change = Math.max(change, Math.abs(after[i] - before[i]));
  }
  return change <= STEADY_TOLERANCE * scale;
}

function maxAbs(x: Float64Array): number {
  let max = 0;
  for (let i = 0; i < x.length; i++) max = Math.max(max, Math.abs(x[i]));
  return max;
}

function previousObserved(y: ArrayLike<number>, t: number): boolean {
  return t > 0 && Number.isFinite(y[t - 1]);
}

/** Indices of z's non-zero loadings: a structural model observes two or three of its states. */
function loadedStates(z: Float64Array): Int32Array {
  const out: number[] = [];
  for (let i = 0; i < z.length; i++) if (z[i] !== 0) out.push(i);
  return Int32Array.from(out);
}

/**
 * z' P z, leaving P z in `out`. Only z's loaded states enter the sums, in index order: the terms
 * left out are exact zeros, so the result is the full sum's to the bit.
 */
function quadratic(p: Float64Array, z: Float64Array, loaded: Int32Array, m: number, out: Float64Array): number {
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let l = 0; l < loaded.length; l++) s += p[i * m + loaded[l]] * z[loaded[l]];
    out[i] = s;
  }
  let q = 0;
  for (let l = 0; l < loaded.length; l++) q += z[loaded[l]] * out[loaded[l]];
  return q;
}

/**
 * P −= u uᵀ / f for a symmetric P, computed on the upper triangle and mirrored: the product is
 * symmetric to the bit, so this is the full update's result at half its divisions.
 */
function subtractOuter(p: Float64Array, u: Float64Array, f: number, m: number): void {
  for (let i = 0; i < m; i++) {
    for (let k = i; k < m; k++) {
      const value = p[i * m + k] - u[i] * u[k] / f;
      p[i * m + k] = value;
      p[k * m + i] = value;
    }
  }
}

/** a += g vᵀ for the m × c state-mean matrix. */
function addOuter(a: Float64Array, g: Float64Array, vt: Float64Array, m: number, c: number): void {
  for (let i = 0; i < m; i++) for (let j = 0; j < c; j++) a[i * c + j] += g[i] * vt[j];
}

/** a ← T a, in place, for an m × c matrix of state means; `scratch` (a's length) saves an allocation a step. */
export function transitionMean(sys: StateSpaceSystem, a: Float64Array, c: number, scratch?: Float64Array): void {
  const out = scratch ?? new Float64Array(a.length);
  multiplyByTransition(transitionPlan(sys), sys.m, a, c, out);
  a.set(out.subarray(0, a.length));
}

/** out = T a for an m × c matrix a: a copy row takes its entry, the others sum in T's order (the sparse product's sums, to the bit). */
function multiplyByTransition(plan: TransitionPlan, m: number, a: Float64Array, c: number, out: Float64Array): void {
  const { copyOf, start, cols, values } = plan;
  for (let r = 0; r < m; r++) {
    const row = r * c;
    if (copyOf[r] >= 0) {
      const k = copyOf[r] * c;
      for (let j = 0; j < c; j++) out[row + j] = a[k + j];
      continue;
    }
    for (let j = 0; j < c; j++) out[row + j] = 0;
    for (let e = start[r]; e < start[r + 1]; e++) {
      const k = cols[e] * c;
      const value = values[e];
      for (let j = 0; j < c; j++) out[row + j] += value * a[k + j];
    }
  }
}

/**
 * How T P Tᵀ is formed for one transition matrix: most rows of a structural model's T (the seasonal
 * states shifting by one period) hold a single 1, and for those the product copies P's entries
 * instead of summing over T's non-zeros. Other rows keep their entries in T's order, so every sum is
 * accumulated as the plain sparse product would, to the bit.
 */
interface TransitionPlan {
  /** Per row: the one column whose entry 1 makes the row a copy, or −1. */
  copyOf: Int32Array;
  /** The other rows' entries, grouped by row in T's order (CSR): row r's are start[r] … start[r+1]−1. */
  start: Int32Array;
  cols: Int32Array;
  values: Float64Array;
}

const plans = new WeakMap<StateSpaceSystem['transition'], TransitionPlan>();

function transitionPlan(sys: StateSpaceSystem): TransitionPlan {
  const cached = plans.get(sys.transition);
  if (cached) return cached;
  const { m } = sys;
  const { rows, cols, values } = sys.transition;
  const count = new Int32Array(m);
  for (let e = 0; e < rows.length; e++) count[rows[e]]++;
  const copyOf = new Int32Array(m).fill(-1);
  for (let e = 0; e < rows.length; e++) if (count[rows[e]] === 1 && values[e] === 1) copyOf[rows[e]] = cols[e];
  const start = new Int32Array(m + 1);
  for (let r = 0; r < m; r++) start[r + 1] = start[r] + (copyOf[r] < 0 ? count[r] : 0);
  const fill = start.slice(0, m);
  const planCols = new Int32Array(start[m]);
  const planValues = new Float64Array(start[m]);
  for (let e = 0; e < rows.length; e++) {
    const r = rows[e];
    if (copyOf[r] >= 0) continue;
    planCols[fill[r]] = cols[e];
    planValues[fill[r]++] = values[e];
  }
  const plan = { copyOf, start, cols: planCols, values: planValues };
  plans.set(sys.transition, plan);
  return plan;
}

/** P ← T P Tᵀ in place (symmetrised against rounding drift); `scratch` is an m × m work array. */
export function transitionCovariance(sys: StateSpaceSystem, p: Float64Array, scratch: Float64Array): void {
  applyTransitionToCovariance(transitionPlan(sys), sys.m, p, scratch);
}

function applyTransitionToCovariance(plan: TransitionPlan, m: number, p: Float64Array, scratch: Float64Array): void {
  multiplyByTransition(plan, m, p, m, scratch); // scratch = T P
  const { copyOf, start, cols, values } = plan;
  // P = scratch Tᵀ, column by column.
  for (let r = 0; r < m; r++) {
    if (copyOf[r] >= 0) {
      const k = copyOf[r];
      for (let i = 0; i < m; i++) p[i * m + r] = scratch[i * m + k];
      continue;
    }
    for (let i = 0; i < m; i++) {
      let s = 0;
      for (let e = start[r]; e < start[r + 1]; e++) s += scratch[i * m + cols[e]] * values[e];
      p[i * m + r] = s;
    }
  }
  for (let i = 0; i < m; i++) {
    for (let k = i + 1; k < m; k++) {
      const s = 0.5 * (p[i * m + k] + p[k * m + i]);
      p[i * m + k] = s;
      p[k * m + i] = s;
    }
  }
}
