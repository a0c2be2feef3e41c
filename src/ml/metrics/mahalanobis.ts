/**
 * Mahalanobis distance of each row from the sample mean under the sample covariance: the
 * diagnostic the original service showed next to anomaly scores (compat-notes §3.6). A ridge of
 * 1e-9·trace keeps constant or collinear columns from making the covariance singular.
 */
import { cholesky, solveWithCholesky } from '../core/linalg.js';

/** `columns[j][i]` is the value of column j in row i; every value must be finite. */
export function mahalanobisDistances(columns: Float64Array[]): Float64Array {
  const p = columns.length;
  const n = p ? columns[0]!.length : 0;
  const out = new Float64Array(n);
  if (p === 0 || n < 2) return out;
  const mean = columns.map((c) => c.reduce((s, v) => s + v, 0) / n);
  const cov = new Float64Array(p * p);
  for (let a = 0; a < p; a++) {
    for (let b = a; b < p; b++) {
      let s = 0;
      for (let i = 0; i < n; i++) s += (columns[a]![i]! - mean[a]!) * (columns[b]![i]! - mean[b]!);
      cov[a * p + b] = cov[b * p + a] = s / (n - 1);
    }
  }
  let trace = 0;
  for (let j = 0; j < p; j++) trace += cov[j * p + j]!;
  for (let j = 0; j < p; j++) cov[j * p + j]! += 1e-9 * (trace || 1);
  // Σ⁻¹ column by column from one factorisation (the ridge above keeps Σ positive definite).
  const l = cholesky(cov, p, true)!;
  const inverse = new Float64Array(p * p);
  for (let j = 0; j < p; j++) {
    const e = new Float64Array(p);
    e[j] = 1;
    const x = solveWithCholesky(l, e, p);
    for (let k = 0; k < p; k++) inverse[k * p + j] = x[k]!;
  }
  const d = new Float64Array(p);
  for (let i = 0; i < n; i++) {
    for (let j = 0; j < p; j++) d[j] = columns[j]![i]! - mean[j]!;
    let q = 0;
    for (let a = 0; a < p; a++) {
      let s = 0;
      for (let b = 0; b < p; b++) s += inverse[a * p + b]! * d[b]!;
      q += d[a]! * s;
    }
    out[i] = Math.sqrt(Math.max(0, q));
  }
  return out;
}
