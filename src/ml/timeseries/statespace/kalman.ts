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
      if (!steady) fStar = quadratic(pStar, z, m, mStar) + obsVariance;
      const fInf = diffuse ? quadratic(pInf, z, m, mInf) : 0;
      if (fInf > DIFFUSE_TOLERANCE) {
        for (let i = 0; i < m; i++) gain[i] = mInf[i] / fInf;
        addOuter(a, gain, vt, m, c);
        for (let i = 0; i < m; i++) {
          for (let k = 0; k < m; k++) {
            pStar[i * m + k] += gain[i] * gain[k] * fStar - gain[i] * mStar[k] - mStar[i] * gain[k];
            pInf[i * m + k] -= mInf[i] * mInf[k] / fInf;
          }
        }
      } else if (fStar > 0) {
        for (let i = 0; i < m; i++) gain[i] = mStar[i] / fStar;
        addOuter(a, gain, vt, m, c);
        if (!steady) {
          for (let i = 0; i < m; i++) {
            for (let k = 0; k < m; k++) pStar[i * m + k] -= mStar[i] * mStar[k] / fStar;
          }
        }
        f[t] = fStar;
        for (let j = 0; j < c; j++) v[t * c + j] = vt[j];
        used[t] = 1;
      }
    } else {
      steady = false;
    }
    transitionMean(sys, a, c);
    if (steady) continue;
    transitionCovariance(sys, pStar, scratch);
    for (let i = 0; i < m; i++) pStar[i * m + i] += sys.stateVariance[i];
    if (diffuse) {
      transitionCovariance(sys, pInf, scratch);
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

/** z' P z, leaving P z in `out`. */
function quadratic(p: Float64Array, z: Float64Array, m: number, out: Float64Array): number {
  let q = 0;
  for (let i = 0; i < m; i++) {
    let s = 0;
    for (let k = 0; k < m; k++) s += p[i * m + k] * z[k];
    out[i] = s;
    q += z[i] * s;
  }
  return q;
}

/** a += g vᵀ for the m × c state-mean matrix. */
function addOuter(a: Float64Array, g: Float64Array, vt: Float64Array, m: number, c: number): void {
  for (let i = 0; i < m; i++) for (let j = 0; j < c; j++) a[i * c + j] += g[i] * vt[j];
}

/** a ← T a, in place, for an m × c matrix of state means. */
export function transitionMean(sys: StateSpaceSystem, a: Float64Array, c: number): void {
  const { rows, cols, values } = sys.transition;
  const out = new Float64Array(a.length);
  for (let e = 0; e < values.length; e++) {
    const r = rows[e] * c;
    const k = cols[e] * c;
    for (let j = 0; j < c; j++) out[r + j] += values[e] * a[k + j];
  }
  a.set(out);
}

/** P ← T P Tᵀ in place (symmetrised against rounding drift); `scratch` is an m × m work array. */
export function transitionCovariance(sys: StateSpaceSystem, p: Float64Array, scratch: Float64Array): void {
  const m = sys.m;
  const { rows, cols, values } = sys.transition;
  scratch.fill(0);
  for (let e = 0; e < values.length; e++) {
    const r = rows[e] * m;
    const k = cols[e] * m;
    for (let j = 0; j < m; j++) scratch[r + j] += values[e] * p[k + j];
  }
  p.fill(0);
  for (let e = 0; e < values.length; e++) {
    const r = rows[e];
    const k = cols[e];
    for (let i = 0; i < m; i++) p[i * m + r] += scratch[i * m + k] * values[e];
  }
  for (let i = 0; i < m; i++) {
    for (let k = i + 1; k < m; k++) {
      const s = 0.5 * (p[i * m + k] + p[k * m + i]);
      p[i * m + k] = s;
      p[k * m + i] = s;
    }
  }
}
