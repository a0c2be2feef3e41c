/**
 * Exact TreeSHAP by Lundberg, Erion & Lee (2018), Algorithm 2: one recursive walk per tree and row that
 * extends and unwinds the path's subset weights, O(L·D²) per tree and row. The fallback of tree-shap.ts
 * for trees with paths through more distinct features than its bit masks hold, and its reference in tests.
 */
import type { Decide, ShapTrees } from './tree-shap.js';

/** 1 / (i + 1), for the paths' weight updates (deeper paths than this do not occur: trees are grown to depth ≤ 64, or their leaves counted). */
const RECIPROCAL = Float64Array.from({ length: 4096 }, (_, i) => 1 / (i + 1));

/**
 * Adds the contributions of trees `trees` (indices into t.roots, at most `deepest` levels deep) for rows
 * 0..nRows-1 to phi[(row × outputs + output) × nFeatures + feature].
 */
export function treeShapRecursive(t: ShapTrees, nFeatures: number, nRows: number, decide: Decide, phi: Float64Array, trees: ArrayLike<number>, deepest: number): void {
  const k = t.outputs;
  const depth = deepest + 2;
  if (depth >= RECIPROCAL.length) throw new Error(`trees ${depth} levels deep are too deep to explain`);
  // One path per recursion level, each a copy of its parent's plus one element; an element is 4
  // numbers side by side (feature, zero fraction, one fraction, weight), so a copy is one sweep.
  const path = new Float64Array(((depth + 1) * (depth + 2)) / 2 * 4);
  // Each row's decision at every split node first, in one tight pass; the walk then reads them.
  const goesLeft = new Uint8Array(t.left.length);
  const ctx: Walk = { t, goesLeft, phi, phiAt: 0, nFeatures, only: -1, path };
  for (let r = 0; r < nRows; r++) {
    ctx.phiAt = r * k * nFeatures;
    for (let node = 0; node < goesLeft.length; node++) goesLeft[node] = t.left[node]! >= 0 && decide(node, r) ? 1 : 0;
    for (let j = 0; j < trees.length; j++) {
      const i = trees[j]!;
      ctx.only = t.treeOutput[i]!;
      recurse(ctx, t.roots[i]!, 0, 0, 1, 1, -1);
    }
  }
}

/** Offsets of an element's fields in the path buffer. */
const F = 0;
const Z = 1;
const O = 2;
const W = 3;

interface Walk {
  t: ShapTrees;
  goesLeft: Uint8Array;
  phi: Float64Array;
  phiAt: number;
  nFeatures: number;
  only: number;
  path: Float64Array;
}

/**
 * parentAt: element index where the parent's path starts; this node's (depth+1 elements) starts right
 * after the parent's depth elements. zero/one: the fractions of the incoming edge (cover share, and
 * whether the row follows it).
 */
function recurse(w: Walk, node: number, parentAt: number, depth: number, zero: number, one: number, feature: number): void {
  const { t, path: p } = w;
  const self = parentAt + depth;
  const s4 = self * 4;
  // Copy the parent's path (depth elements), then extend it by the incoming edge.
  for (let i = parentAt * 4, end = s4; i < end; i++) p[i + depth * 4] = p[i]!;
  extend(p, s4, depth, zero, one, feature);
  const left = t.left[node]!;
  if (left < 0) {
    const k = t.outputs;
    const { phi, phiAt, nFeatures, only } = w;
    // For an element the row does not follow (one fraction 0) the unwound sum is C / zero with C the
    // same for all of them, and its weight (0 − zero) × C / zero = −C: one O(depth) sum serves them all.
    let coldWeight = NaN;
    for (let i = 1; i <= depth; i++) {
      const e = s4 + i * 4;
      const oneI = p[e + O]!;
      const zeroI = p[e + Z]!;
      let scale: number;
      if (oneI !== 0) scale = unwoundSum(p, s4, depth, oneI, zeroI) * (oneI - zeroI);
      else if (zeroI === 0) continue;
      else {
        if (coldWeight !== coldWeight) {
          coldWeight = 0;
          for (let j = depth - 1; j >= 0; j--) coldWeight += (p[s4 + j * 4 + W]! * (depth + 1)) / (depth - j);
        }
        scale = -coldWeight;
      }
      const f = p[e + F]!;
      if (only >= 0) phi[phiAt + only * nFeatures + f]! += scale * t.leafValue[node * k + only]!;
      else for (let c = 0; c < k; c++) phi[phiAt + c * nFeatures + f]! += scale * t.leafValue[node * k + c]!;
    }
    return;
  }
  const right = t.right[node]!;
  const goLeft = w.goesLeft[node] === 1;
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
    const e = s4 + i * 4;
    if (p[e + F] === split) {
      inZero = p[e + Z]!;
      inOne = p[e + O]!;
      unwind(p, s4, d, i);
      d--;
      break;
    }
  }
  recurse(w, hot, self, d + 1, hotZero * inZero, inOne, split);
  recurse(w, cold, self, d + 1, coldZero * inZero, 0, split);
}

function extend(p: Float64Array, s4: number, depth: number, zero: number, one: number, feature: number): void {
  const e = s4 + depth * 4;
  p[e + F] = feature;
  p[e + Z] = zero;
  p[e + O] = one;
  p[e + W] = depth === 0 ? 1 : 0;
  const inv = 1 / (depth + 1);
  const oneInv = one * inv;
  const zeroInv = zero * inv;
  for (let i = depth - 1; i >= 0; i--) {
    const at = s4 + i * 4 + W;
    const wi = p[at]!;
    p[at + 4]! += oneInv * wi * (i + 1);
    p[at] = zeroInv * wi * (depth - i);
  }
}

function unwind(p: Float64Array, s4: number, depth: number, index: number): void {
  const one = p[s4 + index * 4 + O]!;
  const zero = p[s4 + index * 4 + Z]!;
  let next = p[s4 + depth * 4 + W]!;
  for (let i = depth - 1; i >= 0; i--) {
    const at = s4 + i * 4 + W;
    if (one !== 0) {
      const tmp = p[at]!;
      p[at] = (next * (depth + 1)) / ((i + 1) * one);
      next = tmp - (p[at]! * zero * (depth - i)) / (depth + 1);
    } else {
      p[at] = (p[at]! * (depth + 1)) / (zero * (depth - i));
    }
  }
  for (let i = index; i < depth; i++) {
    const at = s4 + i * 4;
    p[at + F] = p[at + 4 + F]!;
    p[at + Z] = p[at + 4 + Z]!;
    p[at + O] = p[at + 4 + O]!;
  }
}

/** The path's total weight with an element (of fractions one, zero; one ≠ 0) removed, without changing the path. */
function unwoundSum(p: Float64Array, s4: number, depth: number, one: number, zero: number): number {
  let next = p[s4 + depth * 4 + W]!;
  let total = 0;
  const d1 = depth + 1;
  const scale = d1 / one;
  const zeroInv = zero / d1;
  for (let i = depth - 1; i >= 0; i--) {
    const tmp = next * scale * RECIPROCAL[i]!;
    total += tmp;
    next = p[s4 + i * 4 + W]! - tmp * zeroInv * (depth - i);
  }
  return total;
}
