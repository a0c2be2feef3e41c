/**
 * Small dense linear algebra on row-major Float64Arrays (dimensions up to a few hundred): one
 * Cholesky factorisation and the symmetric solvers built on it, each with the regularisation its
 * callers need.
 */

/**
 * Lower Cholesky factor L (A = LLᵀ) of a symmetric n × n matrix, in a new array.
 * `semidefinite`: directions with no variance (pivot ≤ 1e-12 × largest diagonal) get a zero column
 * instead of failing, which sampling from a singular covariance needs. Otherwise null when A is not
 * positive definite.
 */
export function cholesky(a: Float64Array, n: number, semidefinite = false): Float64Array | null {
  let maxDiag = 0;
  for (let i = 0; i < n; i++) maxDiag = Math.max(maxDiag, a[i * n + i]);
  const tol = semidefinite ? 1e-12 * maxDiag : 0;
  const l = new Float64Array(n * n);
  for (let j = 0; j < n; j++) {
    let d = a[j * n + j];
    for (let k = 0; k < j; k++) d -= l[j * n + k] * l[j * n + k];
    if (!(d > tol)) {
      if (semidefinite) continue;
      return null;
    }
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

/** Solves L Lᵀ x = b for a Cholesky factor L; zero pivots (semidefinite factors) give zero components. */
export function solveWithCholesky(l: Float64Array, b: ArrayLike<number>, n: number): Float64Array {
  const x = Float64Array.from(b);
  for (let i = 0; i < n; i++) {
    let s = x[i];
    for (let k = 0; k < i; k++) s -= l[i * n + k] * x[k];
    x[i] = l[i * n + i] > 0 ? s / l[i * n + i] : 0;
  }
  for (let i = n - 1; i >= 0; i--) {
    let s = x[i];
    for (let k = i + 1; k < n; k++) s -= l[k * n + i] * x[k];
    x[i] = l[i * n + i] > 0 ? s / l[i * n + i] : 0;
  }
  return x;
}

/**
 * Solves A x = b for symmetric positive-definite A (the ridge normal equations). A diagonal jitter,
 * grown until the factorisation succeeds, rescues matrices that are only semi-definite in exact
 * arithmetic (alpha = 0 with collinear columns).
 */
export function solveSymmetricPositive(a: Float64Array, b: ArrayLike<number>, n: number): Float64Array {
  let trace = 0;
  for (let j = 0; j < n; j++) trace += a[j * n + j];
  const jittered = Float64Array.from(a);
  for (let jitter = 0; ; jitter = jitter === 0 ? 1e-12 * (trace / n || 1) : jitter * 100) {
    for (let j = 0; j < n; j++) jittered[j * n + j] = a[j * n + j] + jitter;
    const l = cholesky(jittered, n);
    if (l) return solveWithCholesky(l, b, n);
    if (jitter > trace) throw new Error('cholesky: matrix is not positive definite');
  }
}

/**
 * Solves A x = b for symmetric positive semi-definite A. A relative ridge (default 1e-10 of the mean
 * diagonal) keeps exactly collinear regressors solvable (their coefficients then share the effect).
 */
export function solveSymmetric(a: Float64Array, b: ArrayLike<number>, n: number, relativeRidge = 1e-10): Float64Array {
  const ridged = Float64Array.from(a);
  let trace = 0;
  for (let i = 0; i < n; i++) trace += a[i * n + i];
  const ridge = relativeRidge * (trace / Math.max(n, 1) || 1);
  for (let i = 0; i < n; i++) ridged[i * n + i] += ridge;
  return solveWithCholesky(cholesky(ridged, n, true)!, b, n);
}

/**
 * Ordinary least squares with a tiny ridge term on each diagonal entry (keeps collinear designs
 * solvable). `cols` are the regressors (include a column of ones for an intercept).
 */
export function leastSquares(cols: Float64Array[], y: Float64Array, ridge = 1e-8): Float64Array {
  const k = cols.length;
  const a = new Float64Array(k * k);
  const rhs = new Float64Array(k);
  for (let i = 0; i < k; i++) {
    for (let j = 0; j <= i; j++) {
      let s = 0;
      for (let t = 0; t < y.length; t++) s += cols[i][t] * cols[j][t];
      a[i * k + j] = s;
      a[j * k + i] = s;
    }
    let s = 0;
    for (let t = 0; t < y.length; t++) s += cols[i][t] * y[t];
    rhs[i] = s;
  }
  for (let i = 0; i < k; i++) a[i * k + i] += ridge * (a[i * k + i] + 1);
  return solveWithCholesky(cholesky(a, k, true)!, rhs, k);
}
