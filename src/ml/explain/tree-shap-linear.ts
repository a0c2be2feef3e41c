/**
 * TreeSHAP node by node (the "Linear TreeSHAP" form of Yu, Bifet, Read & Xu 2022): exact, O(nodes · Q)
 * per tree and row with Q = ⌈d/2⌉ for paths through at most d distinct features, and no Ψ tables.
 *
 * With c_j(t) = t·o_j + (1−t)·z_j for each distinct path feature j of a leaf (zero fraction z_j, the
 * row's one fraction o_j), the leaf's value v gives feature i
 *   φ_i = v · (o_i − z_i) · ∫₀¹ Π_{j≠i} c_j(t) dt,
 * (the Shapley weights |U|!(d−|U|−1)!/d! are Beta integrals), a polynomial of degree d − 1 that
 * Gauss–Legendre quadrature with Q nodes t_q integrates exactly. So φ_i = Σ_q κ_i(q) · v·R(q) with
 * R(q) = Π_j c_j(t_q) and κ_i(q) = ω_q (o_i − z_i) / c_i(t_q) — linear in v·R, whose sums A over a
 * subtree's leaves add up bottom-up. A forward pass multiplies R along the row's path (one factor per
 * edge: the feature's new c over its previous one), a backward pass sums A and lets every split node
 * credit its feature with κ · A of each child — less the A of deeper splits on the same feature, which
 * credit those leaves themselves (each leaf counts at the last split on i above it, where its z_i and o_i are final).
 */
import { GAUSS_NODES, GAUSS_WEIGHTS } from './psi-table.js';
import type { ShapTrees, SplitRows } from './tree-shap.js';
import { grow, growFields } from './growable.js';

/** Most distinct features on one path the row masks hold (and Q ≤ 16 quadrature nodes cover). */
const MAX_SLOTS = 30;

/** One tree in preorder with its per-edge factors at the quadrature nodes; reused tree after tree. */
export class LinearPlan {
  nodes = 0;
  /** Quadrature nodes of this tree: ⌈(most distinct features on a path) / 2⌉. */
  q = 1;
  order = new Int32Array(64);
  leftAt = new Int32Array(64);
  rightAt = new Int32Array(64);
  slotAt = new Int32Array(64);
  columnAt = new Int32Array(64);
  /** Split node: preorder index of the child of its nearest ancestor on the same feature whose subtree holds it (−1: none). */
  sameInto = new Int32Array(64);
  /** 1 for a child some deeper split on the same feature takes leaves out of (sameInto points to it). */
  excluded = new Uint8Array(64);
  /** Edge into node a (a > 0), per quadrature node: factor when the feature was hot above and stays hot / turns cold. */
  hotFactor = new Float64Array(64 * 4);
  coldFactor = new Float64Array(64 * 4);
  /** Edge into node a: factor when the feature was already cold (the edge's cover share). */
  share = new Float64Array(64);
  /** Edge into node a: κ(q) when the row follows every branch on the feature down to a, ω_q (1 − z) / (t_q + (1 − t_q) z). */
  hotCoef = new Float64Array(64 * 4);
  /** κ(q) when it does not: −ω_q / (1 − t_q), the same for every edge. */
  coldCoef = new Float64Array(16);
  /** Leaves: value(s), k per preorder node. */
  leafValue = new Float64Array(64);
  only = -1;
  private outputs = 1;
  private pathFeature = new Int32Array(MAX_SLOTS + 1);
  private pathZero = new Float64Array(MAX_SLOTS + 1);
  private pathSplit = new Int32Array(MAX_SLOTS + 1);
  /** Most distinct features on one path of the tree. */
  depthMax = 0;

  /**
   * Most distinct features on one path of tree `tree` (−1: more than MAX_SLOTS), without the edge
   * factors build adds: treeShap asks this of every tree to choose its way and builds only the deep ones.
   */
  depthOf(t: ShapTrees, tree: number): number {
    this.only = t.treeOutput[tree]!;
    this.outputs = this.only >= 0 ? 1 : t.outputs;
    this.nodes = 0;
    this.depthMax = 0;
    return this.walk(t, t.roots[tree]!, 0, 1) ? this.depthMax : -1;
  }

  /** Lays out tree `tree`; false when a path meets more than MAX_SLOTS distinct features. */
  build(t: ShapTrees, tree: number): boolean {
    this.only = t.treeOutput[tree]!;
    this.outputs = this.only >= 0 ? 1 : t.outputs;
    this.nodes = 0;
    this.depthMax = 0;
    // First pass: preorder, slots, and the most distinct features on a path (which fixes Q).
    if (!this.walk(t, t.roots[tree]!, 0, 1)) return false;
    const q = Math.max(1, (this.depthMax + 1) >> 1);
    this.q = q;
    const m = this.nodes;
    if (this.hotFactor.length < m * q) {
      this.hotFactor = new Float64Array(2 * m * q);
      this.coldFactor = new Float64Array(2 * m * q);
      this.hotCoef = new Float64Array(2 * m * q);
    }
    const tq = GAUSS_NODES[q - 1]!;
    const wq = GAUSS_WEIGHTS[q - 1]!;
    for (let i = 0; i < q; i++) this.coldCoef[i] = -wq[i]! / (1 - tq[i]!);
    // Second pass: the edge factors, from each edge's combined zero fraction and the one before it on the same feature.
    this.factors(t, 0, 0, tq, wq, q);
    return true;
  }

  private ensure(at: number): void {
    if (at < this.order.length) return;
    const n = 2 * at;
    growFields<LinearPlan>(this, ['order', 'leftAt', 'rightAt', 'slotAt', 'columnAt', 'sameInto', 'excluded', 'share'], n);
    this.leafValue = grow(this.leafValue, n * this.outputs);
  }

  /** pathSplit[slot]: the preorder child of the last split on that slot's feature this subtree hangs from. */
  private walk(t: ShapTrees, node: number, slots: number, shareIn: number): boolean {
    const at = this.nodes++;
    this.ensure(at);
    if (this.leafValue.length < (at + 1) * this.outputs) this.leafValue = grow(this.leafValue, 2 * (at + 1) * this.outputs);
    this.order[at] = node;
    this.share[at] = shareIn;
    this.excluded[at] = 0;
    const left = t.left[node]!;
    if (left < 0) {
      this.leftAt[at] = -1;
      this.rightAt[at] = -1;
      if (slots > this.depthMax) this.depthMax = slots;
      const k = t.outputs;
      if (this.only >= 0) this.leafValue[at] = t.leafValue[node * k + this.only]!;
      else for (let c = 0; c < k; c++) this.leafValue[at * k + c] = t.leafValue[node * k + c]!;
      return true;
    }
    const f = t.feature[node]!;
    let s = 0;
    while (s < slots && this.pathFeature[s] !== f) s++;
    let next = slots;
    let before = -1;
    if (s === slots) {
      if (slots === MAX_SLOTS) return false;
      this.pathFeature[s] = f;
      next++;
    } else before = this.pathSplit[s]!;
    this.slotAt[at] = s;
    this.columnAt[at] = f;
    this.sameInto[at] = before;
    if (before >= 0) this.excluded[before] = 1;
    const cover = t.cover[node]!;
    const right = t.right[node]!;
    const saved = this.pathSplit[s]!;
    this.leftAt[at] = this.nodes;
    this.pathSplit[s] = this.nodes;
    if (!this.walk(t, left, next, cover > 0 ? t.cover[left]! / cover : 0.5)) return false;
    this.rightAt[at] = this.nodes;
    this.pathSplit[s] = this.nodes;
    if (!this.walk(t, right, next, cover > 0 ? t.cover[right]! / cover : 0.5)) return false;
    this.pathSplit[s] = saved;
    return true;
  }

  /** Fills the edge arrays below preorder node `at`; pathZero[slot] holds the combined zero fraction above. */
  private factors(t: ShapTrees, at: number, slots: number, tq: Float64Array, wq: Float64Array, q: number): void {
    const la = this.leftAt[at]!;
    if (la < 0) return;
    const s = this.slotAt[at]!;
    const fresh = s === slots;
    const zAbove = fresh ? 1 : this.pathZero[s]!;
    for (const child of [la, this.rightAt[at]!]) {
      const z = zAbove * this.share[child]!;
      for (let i = 0; i < q; i++) {
        const ti = tq[i]!;
        const hotAbove = fresh ? 1 : ti + (1 - ti) * zAbove;
        const hot = ti + (1 - ti) * z;
        this.hotFactor[child * q + i] = hot / hotAbove;
        this.coldFactor[child * q + i] = ((1 - ti) * z) / hotAbove;
        this.hotCoef[child * q + i] = (wq[i]! * (1 - z)) / hot;
      }
      this.pathZero[s] = z;
      this.factors(t, child, fresh ? slots + 1 : slots, tq, wq, q);
    }
    this.pathZero[s] = zAbove;
  }
}

/** Scratch for one tree and row: masks, products R (nodes × Q), subtree sums A and exclusions X (nodes × outputs × Q). */
export class LinearScratch {
  mask = new Int32Array(64);
  r = new Float64Array(256);
  a = new Float64Array(256);
  x = new Float64Array(256);

  fit(nodes: number, q: number, k: number): void {
    if (this.mask.length < nodes) this.mask = new Int32Array(2 * nodes);
    if (this.r.length < nodes * q) this.r = new Float64Array(2 * nodes * q);
    if (this.a.length < nodes * q * k) {
      this.a = new Float64Array(2 * nodes * q * k);
      this.x = new Float64Array(2 * nodes * q * k);
    }
  }
}

/**
 * Adds the tree's contributions for rows 0..nRows-1 to phi[(row × outputs + output) × nFeatures + feature].
 */
export function linearTreeShap(p: LinearPlan, w: LinearScratch, rows: SplitRows, phi: Float64Array, outputs: number, nFeatures: number): void {
  const m = p.nodes;
  const q = p.q;
  const only = p.only;
  const k = only >= 0 ? 1 : outputs;
  w.fit(m, q, k);
  const { order, leftAt, rightAt, slotAt, columnAt, sameInto, excluded, hotFactor, coldFactor, share, hotCoef, coldCoef, leafValue } = p;
  const { mask, r: R, a: A, x: X } = w;
  const { x, columns: nc, threshold, defaultLeft } = rows;
  const catOffset = rows.catOffset ?? new Int32Array(0);
  const catBits = rows.catBits ?? new Uint32Array(0);
  const categorical = rows.catOffset !== null;
  const kq = k * q;
  for (let row = 0; row < rows.nRows; row++) {
    const xAt = row * nc;
    // Forward: masks (bit j cleared once the row has left slot j's branch) and the products R.
    mask[0] = -1;
    for (let i = 0; i < q; i++) R[i] = 1;
    for (let at = 0; at < m; at++) {
      const la = leftAt[at]!;
      if (la < 0) continue;
      const node = order[at]!;
      const v = x[xAt + columnAt[at]!]!;
      let left: boolean;
      const cat = categorical ? catOffset[node]! : -1;
      if (cat >= 0) left = ((catBits[cat + (v >>> 5)]! >>> (v & 31)) & 1) === 1;
      else left = v !== v ? defaultLeft[node] === 1 : v <= threshold[node]!;
      const ra = rightAt[at]!;
      const hot = left ? la : ra;
      const cold = left ? ra : la;
      const mk = mask[at]!;
      const s = slotAt[at]!;
      mask[hot] = mk;
      mask[cold] = mk & ~(1 << s);
      const from = at * q;
      const h = hot * q;
      const c = cold * q;
      if ((mk >>> s) & 1) {
        for (let i = 0; i < q; i++) {
          const ri = R[from + i]!;
          R[h + i] = ri * hotFactor[h + i]!;
          R[c + i] = ri * coldFactor[c + i]!;
        }
      } else {
        const sh = share[hot]!;
        const sc = share[cold]!;
        for (let i = 0; i < q; i++) {
          const ri = R[from + i]!;
          R[h + i] = ri * sh;
          R[c + i] = ri * sc;
        }
      }
    }
    // Backward: A = Σ v·R over each subtree; every split credits its feature through both children.
    const phiAt = row * outputs * nFeatures;
    for (let at = m - 1; at >= 0; at--) {
      const la = leftAt[at]!;
      const to = at * kq;
      if (la < 0) {
        const from = at * q;
        for (let c = 0; c < k; c++) {
          const v = leafValue[at * k + c]!;
          for (let i = 0; i < q; i++) A[to + c * q + i] = v * R[from + i]!;
        }
        continue;
      }
      const ra = rightAt[at]!;
      const s = slotAt[at]!;
      const f = phiAt + columnAt[at]!;
      const l0 = la * kq;
      const r0 = ra * kq;
      // κ of each child: its own edge's when the row is still on the feature's branch there, else the common cold one.
      const lk = (mask[la]! >>> s) & 1 ? hotCoef : coldCoef;
      const lo = (mask[la]! >>> s) & 1 ? la * q : 0;
      const rk = (mask[ra]! >>> s) & 1 ? hotCoef : coldCoef;
      const ro = (mask[ra]! >>> s) & 1 ? ra * q : 0;
      const lx = excluded[la] === 1;
      const rx = excluded[ra] === 1;
      for (let c = 0; c < k; c++) {
        let credit = 0;
        const o = c * q;
        for (let i = 0; i < q; i++) {
          const al = A[l0 + o + i]!;
          const ar = A[r0 + o + i]!;
          A[to + o + i] = al + ar;
          credit += lk[lo + i]! * al + rk[ro + i]! * ar;
        }
        if (lx) for (let i = 0; i < q; i++) credit -= lk[lo + i]! * X[l0 + o + i]!;
        if (rx) for (let i = 0; i < q; i++) credit -= rk[ro + i]! * X[r0 + o + i]!;
        phi[f + (only >= 0 ? only : c) * nFeatures]! += credit;
      }
      // Leaves below here are not the business of the same feature's split above: take them out of its child's sum.
      const into = sameInto[at]!;
      if (into >= 0) {
        const xi = into * kq;
        for (let j = 0; j < kq; j++) X[xi + j]! += A[to + j]!;
      }
      // This node's children are done with: clear their exclusions for the next row.
      if (lx) X.fill(0, l0, l0 + kq);
      if (rx) X.fill(0, r0, r0 + kq);
    }
  }
}
