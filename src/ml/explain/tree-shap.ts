/**
 * Exact TreeSHAP: the Shapley values of v(S) = E[f(x) | x_S], where the expectation over the features
 * outside S follows the tree's own training covers (at a node splitting on a feature not in S, both
 * children weighted by their share of the node's training rows) — the values of shap's tree_shap and
 * LightGBM's pred_contrib (Lundberg, Erion & Lee 2018).
 *
 * Computed leaf by leaf. A leaf's path runs through d distinct features j, each with a zero fraction z_j
 * (the product of its cover shares along the path) and, for a row, a one fraction o_j ∈ {0, 1} (does
 * the row take every branch on j towards the leaf). With S = {j : o_j = 1} and
 *   Ψ(T) = Σ_{U ⊆ T} |U|!(d−|U|−1)!/d! · Π_{j ∉ U} z_j,
 * the leaf (value v) adds −v·Ψ(S) to every path feature outside S and v·(1−z_i)/z_i·Ψ(S∖{i}) to each i in S.
 * Ψ depends on the row only through S, so when rows are many (Fast TreeSHAP v2, Yang 2021) each leaf's
 * Ψ is tabulated once for all 2^d subsets and a row costs O(d) per leaf; otherwise Ψ comes from the
 * polynomial Π_{j∈S}(x + z_j)·Π_{j∉S} z_j in O(d·|S|). Trees are taken one at a time over all rows, so
 * one tree's tables stay in cache; a tree whose paths meet more distinct features than a 30-bit mask
 * holds goes to the recursive Algorithm 2 (tree-shap-recursive.ts).
 */
import { treeShapRecursive } from './tree-shap-recursive.js';

/** Trees of one ensemble in one node table; each tree's outputs are added to the ensemble's. */
export interface ShapTrees {
  /** Root node of each tree. */
  roots: Int32Array;
  /** Children of a split node; −1 for a leaf. */
  left: Int32Array;
  right: Int32Array;
  /** Feature index (into the explanation's features) of a split node. */
  feature: Int32Array;
  /** Training weight (rows, or their weights) that reached each node; a split node's is its children's sum. */
  cover: Float64Array;
  /** Leaves: values per output, node-major (node × outputs); the ensemble's scale (learning rate, tree weight applied). */
  leafValue: Float64Array;
  /** Output each tree adds to: −1 = every output (leafValue holds a vector), t = only output t (leafValue scalar at node × outputs + t). */
  treeOutput: Int32Array;
  outputs: number;
}

/** Which child row r takes at split node `node`: true = left. */
export type Decide = (node: number, row: number) => boolean;

/**
 * How leaves are evaluated: `auto` tabulates a leaf's Ψ when that is cheaper for this many rows;
 * the others force one way (tests check that all agree).
 */
export type TreeShapMethod = 'auto' | 'table' | 'direct' | 'recursive';

/** visit(node, depth) for every node of every tree, depth first (roots at depth 0). */
function walkDepths(t: ShapTrees, visit: (node: number, depth: number) => void, trees?: ArrayLike<number>): void {
  const stack: number[] = [];
  const count = trees ? trees.length : t.roots.length;
  for (let j = 0; j < count; j++) {
    stack.push(t.roots[trees ? trees[j]! : j]!, 0);
    while (stack.length) {
      const d = stack.pop()!;
      const n = stack.pop()!;
      visit(n, d);
      if (t.left[n]! >= 0) stack.push(t.left[n]!, d + 1, t.right[n]!, d + 1);
    }
  }
}

/**
 * Work of explaining one row, in path steps: Σ over leaves of (d + 1)² with d the distinct features on
 * the leaf's path — what evaluating a leaf directly costs (a tabulated leaf costs less; fully grown
 * forests meet few distinct features on deep paths). Requests are bounded by this count
 * (explain/explanation.ts), never by the clock.
 */
export function pathWork(t: ShapTrees): number {
  let maxFeature = 0;
  for (let n = 0; n < t.feature.length; n++) if (t.left[n]! >= 0 && t.feature[n]! > maxFeature) maxFeature = t.feature[n]!;
  const seen = new Int32Array(maxFeature + 1);
  let work = 0;
  const walk = (node: number, distinct: number): void => {
    if (t.left[node]! < 0) {
      work += (distinct + 1) * (distinct + 1);
      return;
    }
    const f = t.feature[node]!;
    const fresh = seen[f] === 0 ? 1 : 0;
    seen[f]!++;
    walk(t.left[node]!, distinct + fresh);
    walk(t.right[node]!, distinct + fresh);
    seen[f]!--;
  };
  for (let i = 0; i < t.roots.length; i++) walk(t.roots[i]!, 0);
  return work;
}

/** E[f] per output: each tree's leaves weighted by their covers. */
export function expectedValue(t: ShapTrees): Float64Array {
  const k = t.outputs;
  const out = new Float64Array(k);
  const stack: number[] = [];
  for (let i = 0; i < t.roots.length; i++) {
    const root = t.roots[i]!;
    const total = t.cover[root]!;
    const only = t.treeOutput[i]!;
    stack.push(root);
    while (stack.length) {
      const n = stack.pop()!;
      if (t.left[n]! >= 0) {
        stack.push(t.left[n]!, t.right[n]!);
        continue;
      }
      const share = total > 0 ? t.cover[n]! / total : 0;
      if (only >= 0) out[only]! += share * t.leafValue[n * k + only]!;
      else for (let c = 0; c < k; c++) out[c]! += share * t.leafValue[n * k + c]!;
    }
  }
  return out;
}

/** Most distinct features on one path that the row masks (32-bit integers) hold. */
const MAX_SLOTS = 30;
/** Largest leaf table: 2^16 subsets. */
const MAX_TABLE_SLOTS = 16;

/** SHAPLEY[d × 32 + k] = k!(d−k−1)!/d!, the weight of a k-subset of the other d−1 path features; 0 for k ≥ d. */
const SHAPLEY = (() => {
  const w = new Float64Array(32 * 32);
  for (let d = 1; d < 32; d++) {
    let v = 1 / d;
    for (let k = 0; k < d; k++) {
      w[d * 32 + k] = v;
      v *= (k + 1) / (d - k - 1);
    }
  }
  return w;
})();

/** One tree's leaves as path summaries: the distinct features met on the way, their zero fractions, and tables. */
class TreePlan {
  /** Per node of the ensemble: a split node's slot (position of its feature among its path's distinct features); a leaf's index in this plan. */
  readonly slot: Int32Array;
  leaves = 0;
  leafNode = new Int32Array(64);
  /** Distinct path features of leaf l at leafAt[l] … leafAt[l] + leafSlots[l] − 1 of feature / zero / hotScale. */
  leafSlots = new Int32Array(64);
  leafAt = new Int32Array(64);
  /** Start of leaf l's Ψ table (2^d entries; times the leaf's value when the tree has one output), −1 when evaluated directly. */
  tableAt = new Int32Array(64);
  feature = new Int32Array(256);
  zero = new Float64Array(256);
  /** (1 − z)/z: a feature in S gets v · hotScale · Ψ(S∖{i}). */
  hotScale = new Float64Array(256);
  used = 0;
  table = new Float64Array(1024);
  tableUsed = 0;
  depth = 0;
  /** The tree's one output (its tables are then scaled by the leaf values), or −1. */
  only = -1;
  // The walk's path: distinct features and their zero fractions so far.
  private pathFeature = new Int32Array(MAX_SLOTS + 1);
  private pathZero = new Float64Array(MAX_SLOTS + 1);
  private poly = new Float64Array((MAX_TABLE_SLOTS + 2) * 32);

  constructor(nodes: number) {
    this.slot = new Int32Array(nodes);
  }

  /** Summarises tree `root`; false when a path meets more than MAX_SLOTS distinct features. */
  build(t: ShapTrees, tree: number, rows: number, method: TreeShapMethod): boolean {
    const root = t.roots[tree]!;
    this.only = t.treeOutput[tree]!;
    this.leaves = 0;
    this.used = 0;
    this.tableUsed = 0;
    this.depth = 0;
    return this.walk(t, root, 0, 0, rows, method);
  }

  private walk(t: ShapTrees, node: number, depth: number, slots: number, rows: number, method: TreeShapMethod): boolean {
    if (depth > this.depth) this.depth = depth;
    const left = t.left[node]!;
    if (left < 0) {
      this.addLeaf(node, slots, rows, method, this.only >= 0 ? t.leafValue[node * t.outputs + this.only]! : 1);
      return true;
    }
    const f = t.feature[node]!;
    let s = 0;
    while (s < slots && this.pathFeature[s] !== f) s++;
    let next = slots;
    if (s === slots) {
      if (slots === MAX_SLOTS) return false;
      this.pathFeature[s] = f;
      this.pathZero[s] = 1;
      next++;
    }
    this.slot[node] = s;
    const cover = t.cover[node]!;
    const before = this.pathZero[s]!;
    for (const child of [left, t.right[node]!]) {
      this.pathZero[s] = before * (cover > 0 ? t.cover[child]! / cover : 0.5);
      if (!this.walk(t, child, depth + 1, next, rows, method)) return false;
    }
    this.pathZero[s] = before;
    return true;
  }

  private addLeaf(node: number, d: number, rows: number, method: TreeShapMethod, scale: number): void {
    const l = this.leaves++;
    if (l === this.leafNode.length) {
      this.leafNode = grow(this.leafNode, 2 * l);
      this.leafSlots = grow(this.leafSlots, 2 * l);
      this.leafAt = grow(this.leafAt, 2 * l);
      this.tableAt = grow(this.tableAt, 2 * l);
    }
    this.slot[node] = l;
    this.leafNode[l] = node;
    this.leafSlots[l] = d;
    const at = this.used;
    this.leafAt[l] = at;
    this.used += d;
    if (this.used > this.feature.length) {
      this.feature = grow(this.feature, 2 * this.used);
      this.zero = grow(this.zero, 2 * this.used);
      this.hotScale = grow(this.hotScale, 2 * this.used);
    }
    let positive = true;
    for (let j = 0; j < d; j++) {
      const z = this.pathZero[j]!;
      this.feature[at + j] = this.pathFeature[j]!;
      this.zero[at + j] = z;
      this.hotScale[at + j] = (1 - z) / z;
      if (!(z > 0)) positive = false;
    }
    // A table costs ~2^d·d once and saves ~d²/2 per row over the direct way; it needs z > 0 (Ψ(S∖{i}) is divided by z_i).
    const table = positive && d > 0 && d <= MAX_TABLE_SLOTS && (method === 'table' || (method === 'auto' && 3 * (1 << d) <= rows * d));
    this.tableAt[l] = table ? this.tabulate(at, d, scale) : -1;
  }

  /** Ψ(T) for every subset T of the leaf's d path features (bit j = slot j), by extending Π(x + z_j) or z_j feature by feature. */
  private tabulate(at: number, d: number, scale: number): number {
    const start = this.tableUsed;
    this.tableUsed += 1 << d;
    if (this.tableUsed > this.table.length) this.table = grow(this.table, 2 * this.tableUsed);
    const p = this.poly;
    p[0] = 1;
    const fill = (j: number, mask: number, degree: number): void => {
      const src = j * 32;
      if (j === d) {
        let psi = 0;
        for (let k = 0; k <= degree; k++) psi += SHAPLEY[d * 32 + k]! * p[src + k]!;
        this.table[start + mask] = scale * psi;
        return;
      }
      const z = this.zero[at + j]!;
      const dst = src + 32;
      for (let k = 0; k <= degree; k++) p[dst + k] = z * p[src + k]!;
      fill(j + 1, mask, degree);
      p[dst] = z * p[src]!;
      for (let k = 1; k <= degree; k++) p[dst + k] = p[src + k - 1]! + z * p[src + k]!;
      p[dst + degree + 1] = p[src + degree]!;
      fill(j + 1, mask | (1 << j), degree + 1);
    };
    fill(0, 0, 0);
    return start;
  }
}

function grow<A extends Int32Array | Float64Array>(a: A, size: number): A {
  const b = new (a.constructor as new (n: number) => A)(size);
  b.set(a);
  return b;
}

/**
 * Contributions of rows 0..nRows-1: phi[(row × outputs + output) × nFeatures + feature]. For each row and
 * output, Σ_features phi + expectedValue = the ensemble's raw output.
 */
export function treeShap(t: ShapTrees, nFeatures: number, nRows: number, decide: Decide, method: TreeShapMethod = 'auto'): Float64Array {
  const k = t.outputs;
  const phi = new Float64Array(nRows * k * nFeatures);
  const plan = new TreePlan(t.left.length);
  const deep: number[] = [];
  let stackNode = new Int32Array(64);
  let stackMask = new Int32Array(64);
  const values = new Float64Array(MAX_SLOTS);
  const g = new Float64Array(MAX_SLOTS + 2);
  for (let i = 0; i < t.roots.length; i++) {
    const root = t.roots[i]!;
    if (t.left[root]! < 0) continue; // a single leaf moves no feature
    if (method === 'recursive' || !plan.build(t, i, nRows, method)) {
      deep.push(i);
      continue;
    }
    if (plan.depth + 2 > stackNode.length) {
      stackNode = new Int32Array(2 * (plan.depth + 2));
      stackMask = new Int32Array(2 * (plan.depth + 2));
    }
    const only = t.treeOutput[i]!;
    const slot = plan.slot;
    const { leafSlots, leafAt, tableAt, feature, zero, hotScale, table } = plan;
    for (let r = 0; r < nRows; r++) {
      const phiAt = r * k * nFeatures;
      // Depth first with the row's mask: bit j cleared once the row leaves the path at slot j's feature.
      let sp = 0;
      stackNode[0] = root;
      stackMask[0] = -1;
      sp = 1;
      while (sp > 0) {
        sp--;
        const n = stackNode[sp]!;
        const mask = stackMask[sp]!;
        const left = t.left[n]!;
        if (left >= 0) {
          const goLeft = decide(n, r);
          stackNode[sp] = goLeft ? t.right[n]! : left;
          stackMask[sp] = mask & ~(1 << slot[n]!);
          stackNode[sp + 1] = goLeft ? left : t.right[n]!;
          stackMask[sp + 1] = mask;
          sp += 2;
          continue;
        }
        const l = slot[n]!;
        const d = leafSlots[l]!;
        if (d === 0) continue;
        const at = leafAt[l]!;
        const s = mask & ((1 << d) - 1);
        const tb = tableAt[l]!;
        if (tb >= 0 && only >= 0) {
          // One output: the leaf's value is folded into its table, and the contributions go straight to phi.
          const base = phiAt + only * nFeatures;
          const cold = -table[tb + s]!;
          for (let j = 0; j < d; j++) {
            const bit = 1 << j;
            phi[base + feature[at + j]!]! += s & bit ? hotScale[at + j]! * table[tb + (s ^ bit)]! : cold;
          }
          continue;
        }
        if (tb >= 0) {
          const psi = table[tb + s]!;
          for (let j = 0; j < d; j++) values[j] = (s >> j) & 1 ? hotScale[at + j]! * table[tb + (s ^ (1 << j))]! : -psi;
        } else {
          // g = Π_{j∈S}(x + z_j), degree |S|; cold = Π_{j∉S} z_j.
          let degree = 0;
          let cold = 1;
          g[0] = 1;
          for (let j = 0; j < d; j++) {
            const z = zero[at + j]!;
            if ((s >> j) & 1) {
              g[degree + 1] = g[degree]!;
              for (let m = degree; m > 0; m--) g[m] = g[m - 1]! + z * g[m]!;
              g[0] = z * g[0]!;
              degree++;
            } else cold *= z;
          }
          const w = d * 32;
          let psi = 0;
          for (let m = 0; m <= degree; m++) psi += SHAPLEY[w + m]! * g[m]!;
          psi *= cold;
          for (let j = 0; j < d; j++) {
            if (!((s >> j) & 1)) {
              values[j] = -psi;
              continue;
            }
            // g / (x + z_j), from the top (multiplying by z ≤ 1 keeps rounding errors from growing).
            const z = zero[at + j]!;
            let q = g[degree]!;
            let sum = SHAPLEY[w + degree - 1]! * q;
            for (let m = degree - 1; m > 0; m--) {
              q = g[m]! - z * q;
              sum += SHAPLEY[w + m - 1]! * q;
            }
            values[j] = (1 - z) * cold * sum;
          }
        }
        if (only >= 0) {
          const v = t.leafValue[n * k + only]!;
          const base = phiAt + only * nFeatures;
          for (let j = 0; j < d; j++) phi[base + feature[at + j]!]! += v * values[j]!;
        } else {
          for (let c = 0; c < k; c++) {
            const v = t.leafValue[n * k + c]!;
            const base = phiAt + c * nFeatures;
            for (let j = 0; j < d; j++) phi[base + feature[at + j]!]! += v * values[j]!;
          }
        }
      }
    }
  }
  if (deep.length) {
    let deepest = 0;
    walkDepths(t, (_, d) => { if (d > deepest) deepest = d; }, deep);
    treeShapRecursive(t, nFeatures, nRows, decide, phi, deep, deepest);
  }
  return phi;
}
