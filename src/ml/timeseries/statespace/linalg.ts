/** Small dense linear algebra on row-major Float64Arrays (dimensions up to a few dozen). */

/**
 * Lower Cholesky factor of a symmetric positive semi-definite n × n matrix. Directions with no
 * variance (pivot ≤ tolerance × largest diagonal) get a zero column instead of failing, which is what
 * sampling from a singular covariance needs.
 */
export function choleskySemidefinite(a: Float64Array, n: number): Float64Array {
  let maxDiag = 0;
  for (let i = 0; i < n; i++) maxDiag = Math.max(maxDiag, a[i * n + i]);
  const tol = 1e-12 * maxDiag;
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= l[j * n + k] * l[j * n + k];
    if (d <= tol) continue;
    const ljj = Math.sqrt(d);
    l[j * n + j] = ljj;
    for (let i = j + 1; i < n; i++) {
      let s = a[i * n + j];
      for (let k = 0; k < j; k++) s -= l[i * n + k] * l[j * n + k];
      l[i * n + j] = s / ljj;
    }
  }
  return l;
}

/**
 * Solves A x = b for symmetric positive semi-definite A. A relative ridge of 1e-10 keeps exactly
 * collinear regressors solvable (their coefficients then share the effect).
 */
export function solveSymmetric(a: Float64Array, b: Float64Array, n: number): Float64Array {
  const ridged = Float64Array.from(a);
  let trace = 0;
  for (let i = 0; i < n; i++) trace += a[i * n + i];
  const ridge = 1e-10 * (trace / Math.max(n, 1) || 1);
  for (let i = 0; i < n; i++) ridged[i * n + i] += ridge;
  const l = choleskySemidefinite(ridged, n);
  const y = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let s = b[i];
    for (let k = 0; k < i; k++) s -= l[i * n + k] * y[k];
    y[i] = l[i * n + i] > 0 ? s / l[i * n + i] : 0;
  }
  const x = new Float64Array(n);
  for (let i = n - 1; i >= 0; i--) {
    let s = y[i];
    for (let k = i + 1; k < n; k++) s -= l[k * n + i] * x[k];
    x[i] = l[i * n + i] > 0 ? s / l[i * n + i] : 0;
  }
  return x;
}
