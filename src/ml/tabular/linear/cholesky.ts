/** Dense symmetric positive-definite solves for the ridge normal equations. */

/**
 * Solves A·x = b for symmetric positive-definite A (p × p, row-major; overwritten) by Cholesky.
 * A tiny diagonal jitter rescues matrices that are positive semi-definite in exact arithmetic
 * (alpha = 0 with collinear columns).
 */
export function solveSymmetricPositive(a: Float64Array, b: Float64Array, p: number): Float64Array {
  let trace = 0;
  for (let j = 0; j < p; j++) trace += a[j * p + j];
  const original = Float64Array.from(a);
  for (let jitter = 0; ; jitter = jitter === 0 ? 1e-12 * (trace / p || 1) : jitter * 100) {
    a.set(original);
    for (let j = 0; j < p; j++) a[j * p + j] += jitter;
    if (choleskyInPlace(a, p)) break;
    if (jitter > trace) throw new Error('cholesky: matrix is not positive definite');
  }
  // Forward (L z = b) then backward (Lᵀ x = z) substitution.
  const x = Float64Array.from(b);
  for (let i = 0; i < p; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= a[i * p + k] * x[k];
    x[i] = s / a[i * p + i];
  }
  for (let i = p - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < p; k++) s -= a[k * p + i] * x[k];
    x[i] = s / a[i * p + i];
  }
  return x;
}

/** Lower-triangular factor L (A = LLᵀ) written into the lower triangle; false if A is not positive definite. */
function choleskyInPlace(a: Float64Array, p: number): boolean {
  for (let j = 0; j < p; j++) {
    let d = a[j * p + j];
    for (let k = 0; k < j; k++) d -= a[j * p + k] ** 2;
    if (!(d > 0)) return false;
    const ljj = Math.sqrt(d);
    a[j * p + j] = ljj;
    for (let i = j + 1; i < p; i++) {
      let s = a[i * p + j];
      for (let k = 0; k < j; k++) s -= a[i * p + k] * a[j * p + k];
      a[i * p + j] = s / ljj;
    }
  }
  return true;
}
