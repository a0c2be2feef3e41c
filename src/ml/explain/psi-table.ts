/**
 * A leaf's Ψ table for TreeSHAP (tree-shap.ts): Ψ(T) = Σ_{U ⊆ T} |U|!(d−|U|−1)!/d! · Π_{j ∉ U} z_j for
 * every subset T of its d path features, T ≠ all of them.
 *
 * The Shapley weight is a Beta integral, |U|!(d−|U|−1)!/d! = ∫₀¹ t^|U| (1−t)^(d−1−|U|) dt, so
 *   Ψ(T) = ∫₀¹ Π_{j∈T} (t + (1−t) z_j) · Π_{j∉T} (1−t) z_j / (1−t) dt,
 * a polynomial of degree d − 1 in t when T leaves out a feature (the "Linear TreeSHAP" form, Yu et al.
 * 2022). Gauss–Legendre quadrature with ⌈d/2⌉ nodes integrates it exactly, and over the nodes the
 * products of all subsets follow from each other by one factor: ~d multiplications per entry, every
 * term positive (no cancellation).
 */

/** Gauss–Legendre nodes and weights on [0, 1] for 1..16 points (GAUSS_WEIGHTS), and the weights divided by (1 − t) (WEIGHTS). */
export const GAUSS_NODES: Float64Array[] = [];
export const GAUSS_WEIGHTS: Float64Array[] = [];
const NODES = GAUSS_NODES;
const WEIGHTS: Float64Array[] = [];
for (let q = 1; q <= 16; q++) {
  const t = new Float64Array(q);
  const w = new Float64Array(q);
  for (let i = 0; i < q; i++) {
    // Newton's method on the Legendre polynomial P_q from the usual Chebyshev-like start.
    let x = Math.cos((Math.PI * (i + 0.75)) / (q + 0.5));
    let dp = 1;
    for (let iter = 0; iter < 100; iter++) {
      let p0 = 1;
      let p1 = x;
      for (let n = 2; n <= q; n++) {
        const p2 = ((2 * n - 1) * x * p1 - (n - 1) * p0) / n;
        p0 = p1;
        p1 = p2;
      }
      const pq = q === 1 ? x : p1;
      const pPrev = q === 1 ? 1 : p0;
      dp = (q * (x * pq - pPrev)) / (x * x - 1);
      const step = pq / dp;
      x -= step;
      if (Math.abs(step) < 1e-16) break;
    }
    t[i] = (1 - x) / 2;
    w[i] = 1 / ((1 - x * x) * dp * dp);
  }
  NODES.push(t);
  GAUSS_WEIGHTS.push(w);
  WEIGHTS.push(w.map((v, i) => v / (1 - t[i]!)));
}

let scratch = new Float64Array(1 << 12);
const ratio = new Float64Array(16 * 32);

/**
 * Writes scale · Ψ(T) for the d path features with zero fractions zero[at … at+d−1] (all > 0) to
 * out[start + T], bit j of T = feature j; the entry for all d features (never looked up) is 0.
 */
export function psiTable(zero: Float64Array, at: number, d: number, scale: number, out: Float64Array, start: number): void {
  const q = (d + 1) >> 1;
  const t = NODES[q - 1]!;
  const w = WEIGHTS[q - 1]!;
  const size = 1 << d;
  if (size * q > scratch.length) scratch = new Float64Array(size * q);
  const p = scratch;
  for (let i = 0; i < q; i++) {
    let cold = 1;
    for (let j = 0; j < d; j++) {
      const z = zero[at + j]!;
      const b = (1 - t[i]!) * z;
      cold *= b;
      ratio[j * 16 + i] = (t[i]! + b) / b;
    }
    p[i] = cold;
  }
  let psi = 0;
  for (let i = 0; i < q; i++) psi += w[i]! * p[i]!;
  out[start] = scale * psi;
  for (let s = 1; s < size - 1; s++) {
    const j = 31 - Math.clz32(s);
    const from = (s ^ (1 << j)) * q;
    const to = s * q;
    const r = j * 16;
    psi = 0;
    for (let i = 0; i < q; i++) {
      const v = p[from + i]! * ratio[r + i]!;
      p[to + i] = v;
      psi += w[i]! * v;
    }
    out[start + s] = scale * psi;
  }
  if (d > 0) out[start + size - 1] = 0;
}
