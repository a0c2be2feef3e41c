/**
 * Exact TreeSHAP (Lundberg, Erion & Lee 2018, "Consistent individualized feature attribution for tree
 * ensembles", Algorithm 2): the Shapley values of v(S) = E[f(x) | x_S], where the expectation over the
 * features outside S follows the tree's own training covers (at a node splitting on a feature not in S,
 * both children weighted by their share of the node's training rows). Polynomial time: O(L·D²) per tree
 * and row (L leaves, D depth), one path walk serving every output of a multi-output leaf.
 * This is the algorithm of shap's tree_shap and LightGBM's pred_contrib, ported to typed arrays.
 */

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

/** Deepest path among the trees (for the working buffers). */
function maxDepth(t: ShapTrees): number {
  let deepest = 0;
  const stack: number[] = [];
  for (let i = 0; i < t.roots.length; i++) {
    stack.push(t.roots[i]!, 0);
    while (stack.length) {
      const d = stack.pop()!;
      const n = stack.pop()!;
      if (d > deepest) deepest = d;
      if (t.left[n]! >= 0) stack.push(t.left[n]!, d + 1, t.right[n]!, d + 1);
    }
  }
  return deepest;
}

/**
 * Work of explaining one row, in path steps: Σ over leaves of (depth + 1)², TreeSHAP's cost. Requests
 * are bounded by this count (explain/explanation.ts), never by the clock.
 */
export function pathWork(t: ShapTrees): number {
  let work = 0;
  const stack: number[] = [];
  for (let i = 0; i < t.roots.length; i++) {
    stack.push(t.roots[i]!, 0);
    while (stack.length) {
      const d = stack.pop()!;
      const n = stack.pop()!;
      if (t.left[n]! >= 0) stack.push(t.left[n]!, d + 1, t.right[n]!, d + 1);
      else work += (d + 1) * (d + 1);
    }
  }
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

/**
 * Contributions of rows 0..nRows-1: phi[(row × outputs + output) × nFeatures + feature]. For each row and
 * output, Σ_features phi + expectedValue = the ensemble's raw output.
 */
export function treeShap(t: ShapTrees, nFeatures: number, nRows: number, decide: Decide): Float64Array {
  const k = t.outputs;
  const depth = maxDepth(t) + 2;
  // One path per recursion level, each a copy of its parent's plus one element.
  const size = ((depth + 1) * (depth + 2)) / 2;
  const path: Path = {
    feature: new Int32Array(size),
    zero: new Float64Array(size),
    one: new Float64Array(size),
    weight: new Float64Array(size),
  };
  const phi = new Float64Array(nRows * k * nFeatures);
  const ctx: Walk = { t, decide, row: 0, phi, phiAt: 0, nFeatures, only: -1, path };
  for (let r = 0; r < nRows; r++) {
    ctx.row = r;
    ctx.phiAt = r * k * nFeatures;
    for (let i = 0; i < t.roots.length; i++) {
      ctx.only = t.treeOutput[i]!;
      recurse(ctx, t.roots[i]!, 0, 0, 1, 1, -1);
    }
  }
  return phi;
}

interface Path {
  feature: Int32Array;
  zero: Float64Array;
  one: Float64Array;
  weight: Float64Array;
}

interface Walk {
  t: ShapTrees;
  decide: Decide;
  row: number;
  phi: Float64Array;
  phiAt: number;
  nFeatures: number;
  only: number;
  path: Path;
}

/**
 * parentAt: where the parent's path starts in the buffers; this node's (depth+1 elements) starts right after it.
 * zero/one: the fractions of the incoming edge (cover share, and whether the row follows it).
 */
function recurse(w: Walk, node: number, parentAt: number, depth: number, zero: number, one: number, feature: number): void {
  const { t, path } = w;
  // Copy the parent's path (depth elements) to this level's slot, then extend it by the incoming edge.
  const self = parentAt + depth;
  // Paths are short: a plain loop beats four native copyWithin calls per node.
  const { feature: pf, zero: pz, one: po, weight: pw } = path;
  for (let i = 0; i < depth; i++) {
    pf[self + i] = pf[parentAt + i]!;
    pz[self + i] = pz[parentAt + i]!;
    po[self + i] = po[parentAt + i]!;
    pw[self + i] = pw[parentAt + i]!;
  }
  extend(path, self, depth, zero, one, feature);
  const left = t.left[node]!;
  if (left < 0) {
    const k = t.outputs;
    const { phi, phiAt, nFeatures, only } = w;
    // For an element the row does not follow (one fraction 0) the unwound sum is C / zero with C the
    // same for all of them, and its weight (0 − zero) × C / zero = −C: one O(depth) sum serves them all.
    let coldWeight = NaN;
    for (let i = 1; i <= depth; i++) {
      const one = path.one[self + i]!;
      const zero = path.zero[self + i]!;
      let scale: number;
      if (one !== 0) scale = unwoundSum(path, self, depth, i) * (one - zero);
      else if (zero === 0) continue;
      else {
        if (coldWeight !== coldWeight) {
          coldWeight = 0;
          for (let j = depth - 1; j >= 0; j--) coldWeight += (path.weight[self + j]! * (depth + 1)) / (depth - j);
        }
        scale = -coldWeight;
      }
      const f = path.feature[self + i]!;
      if (only >= 0) phi[phiAt + only * nFeatures + f]! += scale * t.leafValue[node * k + only]!;
      else for (let c = 0; c < k; c++) phi[phiAt + c * nFeatures + f]! += scale * t.leafValue[node * k + c]!;
    }
    return;
  }
  const right = t.right[node]!;
  const goLeft = w.decide(node, w.row);
  const hot = goLeft ? left : right;
  const cold = goLeft ? right : left;
  const cover = t.cover[node]!;
  const hotZero = cover > 0 ? t.cover[hot]! / cover : 0.5;
  const coldZero = cover > 0 ? t.cover[cold]! / cover : 0.5;
  let inZero = 1;
  let inOne = 1;
  let d = depth;
  const split = t.feature[node]!;
  // A feature met again on the path: undo its earlier element and carry its fractions into this one.
  for (let i = 1; i <= d; i++) {
    if (path.feature[self + i] === split) {
      inZero = path.zero[self + i]!;
      inOne = path.one[self + i]!;
      unwind(path, self, d, i);
      d--;
      break;
    }
  }
  recurse(w, hot, self, d + 1, hotZero * inZero, inOne, split);
  recurse(w, cold, self, d + 1, coldZero * inZero, 0, split);
}

function extend(p: Path, at: number, depth: number, zero: number, one: number, feature: number): void {
  p.feature[at + depth] = feature;
  p.zero[at + depth] = zero;
  p.one[at + depth] = one;
  p.weight[at + depth] = depth === 0 ? 1 : 0;
  for (let i = depth - 1; i >= 0; i--) {
    p.weight[at + i + 1]! += (one * p.weight[at + i]! * (i + 1)) / (depth + 1);
    p.weight[at + i] = (zero * p.weight[at + i]! * (depth - i)) / (depth + 1);
  }
}

function unwind(p: Path, at: number, depth: number, index: number): void {
  const one = p.one[at + index]!;
  const zero = p.zero[at + index]!;
  let next = p.weight[at + depth]!;
  for (let i = depth - 1; i >= 0; i--) {
    if (one !== 0) {
      const tmp = p.weight[at + i]!;
      p.weight[at + i] = (next * (depth + 1)) / ((i + 1) * one);
      next = tmp - (p.weight[at + i]! * zero * (depth - i)) / (depth + 1);
    } else {
      p.weight[at + i] = (p.weight[at + i]! * (depth + 1)) / (zero * (depth - i));
    }
  }
  for (let i = index; i < depth; i++) {
    p.feature[at + i] = p.feature[at + i + 1]!;
    p.zero[at + i] = p.zero[at + i + 1]!;
    p.one[at + i] = p.one[at + i + 1]!;
  }
}

/** The path's total weight with element `index` removed, without changing the path. */
function unwoundSum(p: Path, at: number, depth: number, index: number): number {
  const one = p.one[at + index]!;
  const zero = p.zero[at + index]!;
  let next = p.weight[at + depth]!;
  let total = 0;
  for (let i = depth - 1; i >= 0; i--) {
    if (one !== 0) {
      const tmp = (next * (depth + 1)) / ((i + 1) * one);
      total += tmp;
      next = p.weight[at + i]! - tmp * zero * ((depth - i) / (depth + 1));
    } else if (zero !== 0) {
      total += p.weight[at + i]! / zero / ((depth - i) / (depth + 1));
    }
  }
  return total;
}
