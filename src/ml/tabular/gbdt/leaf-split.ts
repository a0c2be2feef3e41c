/**
 * One leaf's split done whole by one thread: partition its rows, build the smaller child's histogram,
 * the larger one's by subtraction, the best split of each child. The tree learner (tree-learner.ts)
 * hands such a split to a helper thread ahead of its turn — the leaf with the best gain after the one
 * being split, which leaf-wise growth usually splits next — so that two leaves split at once. A leaf's
 * split depends on its own rows, histogram and best split only, never on when it is done, so the tree
 * is the one a single thread grows.
 */
import type { LeafJob } from './feature-team.js';
import type { ResolvedGbdtParams } from './params.js';
import type { LeafSums, SplitInfo } from './split-finder.js';

export interface LeafSplitTask {
  /** The leaf's rows: partition indices begin .. end − 1. */
  begin: number;
  end: number;
  /** Byte address of the split feature's codes, and bin → 1 if its rows go left. */
  codesAt: number;
  goesLeft: Uint8Array;
  /** The leaf's histogram slot (the larger child's after), and a free slot (the smaller child's). */
  parent: number;
  free: number;
  /** The children's depth. */
  depth: number;
  /** Byte address of the class's (gradient, hessian) pairs. */
  pairsAt: number;
  /** The split's left and right sums (their counts are the partition's). */
  left: LeafSums;
  right: LeafSums;
}

export interface LeafSplitDone {
  /** The end of the left child's rows. */
  mid: number;
  /** The slot the smaller child's histogram went to (the task's free slot), or −1: neither child may split, none built. */
  built: number;
  /** Best splits of the left and right child (null: that child may not split). */
  a: SplitInfo | null;
  b: SplitInfo | null;
}

/** Whether a leaf of these sums at this depth may split (LightGBM's min_data_in_leaf, min_sum_hessian_in_leaf, max_depth). */
export function canSplit(p: ResolvedGbdtParams, depth: number, sums: LeafSums): boolean {
  const tooDeep = p.maxDepth > 0 && depth >= p.maxDepth;
  return !tooDeep && sums.count >= 2 * p.minDataInLeaf && sums.hess >= 2 * p.minSumHessianInLeaf;
}

/**
 * The split on this thread: partition(begin, end, codesAt) partitions with the task's side table
 * (already in place); run does a leaf job on every feature. The same computations, in the same order,
 * as the tree learner's own split of a leaf.
 */
export function splitLeafAlone(
  task: LeafSplitTask, p: ResolvedGbdtParams, partition: (begin: number, end: number, codesAt: number) => number,
  run: (job: LeafJob) => [SplitInfo | null, SplitInfo | null],
): LeafSplitDone {
  const { begin, end } = task;
  const mid = partition(begin, end, task.codesAt);
  const left = { grad: task.left.grad, hess: task.left.hess, count: mid - begin };
  const right = { grad: task.right.grad, hess: task.right.hess, count: end - mid };
  const canA = canSplit(p, task.depth, left);
  const canB = canSplit(p, task.depth, right);
  if (!canA && !canB) return { mid, built: -1, a: null, b: null };
  const smallIsLeft = left.count <= right.count;
  const slotA = smallIsLeft ? task.free : task.parent;
  const slotB = smallIsLeft ? task.parent : task.free;
  const [a, b] = run({
    build: task.free, begin: smallIsLeft ? begin : mid, end: smallIsLeft ? mid : end, parent: task.parent,
    findA: canA ? slotA : -1, sumsA: left, findB: canB ? slotB : -1, sumsB: right, pairsAt: task.pairsAt,
  });
  return { mid, built: task.free, a, b };
}
