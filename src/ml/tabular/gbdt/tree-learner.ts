/**
 * Leaf-wise (best-first) tree growth, LightGBM's SerialTreeLearner: always split the leaf with the
 * largest gain, build the histogram of the smaller child only and get the larger one by subtraction.
 * Buffers (histogram pool, partition) are allocated once per fit and reused. Histogram work and split
 * search run as leaf jobs of a LeafTeam: the fit's feature team (one or more threads), or one thread
 * alone on its own tree lane (tree-lane.ts); the same result either way.
 */
import type { ResolvedGbdtParams } from './params.js';
import type { FeatureLayout } from './binned-data.js';
import { DataPartition, type PartitionMemory, type SegmentPartitioner } from './data-partition.js';
import type { LeafJob } from './feature-team.js';
import { HIST_STRIDE } from './histogram.js';
import { type LeafSums, type SplitInfo, noSplit } from './split-finder.js';
import { Tree } from './tree.js';

/** Who does a tree's leaf jobs and partitions: the fit's feature team, or one thread alone (tree-lane.ts). */
export interface LeafTeam extends SegmentPartitioner {
  /** The candidate features of the next tree (ascending). */
  setFeatures(features: Int32Array): void;
  /** The best split of leaf A and of leaf B (gain 0: none), or null if not asked. */
  run(job: LeafJob): [SplitInfo | null, SplitInfo | null];
}

/** A tree lane's arrays: the histogram pool (one per leaf) and the partition's. */
export interface LaneMemory extends PartitionMemory {
  readonly pool: Float64Array[];
}

/** Shared "cannot split" marker; never mutated (findBestSplit fills fresh SplitInfo objects). */
const NO_SPLIT = noSplit();
const ZERO: LeafSums = { grad: 0, hess: 0, count: 0 };

export class TreeLearner {
  readonly partition: DataPartition;
  private readonly pool: Float64Array[];
  /** Histogram pool slot of each leaf; slots of leaves not yet grown are free. */
  private readonly slotOf: Int32Array;
  private readonly best: SplitInfo[];
  private readonly depth: Int32Array;

  constructor(
    private readonly layout: FeatureLayout,
    private readonly nRows: number,
    private readonly p: ResolvedGbdtParams,
    memory: LaneMemory,
    private readonly team: LeafTeam,
  ) {
    this.partition = new DataPartition(memory, team, p.numLeaves);
    this.pool = memory.pool;
    this.slotOf = new Int32Array(p.numLeaves);
    this.best = new Array<SplitInfo>(p.numLeaves).fill(NO_SPLIT);
    this.depth = new Int32Array(p.numLeaves);
  }

  /**
   * Grows one tree on rows `bag` (null = all) using the given features (ascending); leaf values are
   * shrunk by the learning rate. pairs: one class's slice of the training memory's (gradient, hessian) pairs.
   */
  grow(pairs: Float64Array, bag: Int32Array | null, features: Int32Array): Tree {
    const { p, layout, partition: part, best, depth, slotOf, team } = this;
    const tree = new Tree(p.numLeaves);
    part.reset(bag, this.nRows);
    for (let l = 0; l < p.numLeaves; l++) slotOf[l] = l;
    team.setFeatures(features);
    const job: LeafJob = {
      build: slotOf[0], begin: 0, end: part.count[0], parent: -1, findA: -1, findB: -1,
      sumsA: ZERO, sumsB: ZERO, pairsAt: pairs.byteOffset,
    };
    team.run(job);
    // Every row falls in one bin of any feature: the root's sums from its histogram.
    const rootSums = sumOfFeature(this.pool[slotOf[0]], layout, features[0], part.count[0]);
    depth[0] = 0;
    best[0] = this.splittable(0, rootSums) ? team.run({ ...job, build: -1, findA: slotOf[0], sumsA: rootSums })[0] ?? NO_SPLIT : NO_SPLIT;
    const leafSums: LeafSums[] = [rootSums];
    const nodeOfLeaf = new Int32Array(p.numLeaves).fill(-1);
    const leafIsLeft = new Uint8Array(p.numLeaves);

    while (tree.numLeaves < p.numLeaves) {
      let leaf = -1;
      let gain = 0;
      for (let l = 0; l < tree.numLeaves; l++) if (best[l].gain > gain) { gain = best[l].gain; leaf = l; }
      if (leaf < 0) break;
      const split = best[leaf];
      const node = tree.numLeaves - 1;
      const newLeaf = tree.numLeaves;
      const f = split.feature;
      tree.feature[node] = f;
      tree.thresholdBin[node] = split.thresholdBin;
      tree.defaultLeft[node] = split.defaultLeft ? 1 : 0;
      tree.leftBins[node] = split.leftBins;
      tree.gain[node] = split.gain;
      tree.left[node] = ~leaf;
      tree.right[node] = ~newLeaf;
      const parentNode = nodeOfLeaf[leaf];
      if (parentNode >= 0) {
        if (leafIsLeft[leaf]) tree.left[parentNode] = node;
        else tree.right[parentNode] = node;
      }
      nodeOfLeaf[leaf] = node;
      leafIsLeft[leaf] = 1;
      nodeOfLeaf[newLeaf] = node;
      leafIsLeft[newLeaf] = 0;
      tree.numLeaves++;

      part.split(leaf, newLeaf, f, goesLeftTable(split, layout, f));
      leafSums[leaf] = { ...split.left, count: part.count[leaf] };
      leafSums[newLeaf] = { ...split.right, count: part.count[newLeaf] };
      depth[leaf] = depth[newLeaf] = depth[leaf] + 1;
      best[leaf] = best[newLeaf] = NO_SPLIT;
      // Histograms only for children that may still split: never after the last split, for instance.
      if (tree.numLeaves === p.numLeaves || !(this.splittable(leaf, leafSums[leaf]) || this.splittable(newLeaf, leafSums[newLeaf]))) continue;

      // Smaller child from its rows (into the free slot), larger = parent − smaller (in the parent's slot).
      const smallIsLeft = part.count[leaf] <= part.count[newLeaf];
      const small = smallIsLeft ? leaf : newLeaf;
      const smallSlot = slotOf[newLeaf];
      const parentSlot = slotOf[leaf];
      if (smallIsLeft) {
        slotOf[leaf] = smallSlot;
        slotOf[newLeaf] = parentSlot;
      }
      const [a, b] = team.run({
        build: smallSlot, begin: part.begin[small], end: part.begin[small] + part.count[small], parent: parentSlot,
        findA: this.splittable(leaf, leafSums[leaf]) ? slotOf[leaf] : -1, sumsA: leafSums[leaf],
        findB: this.splittable(newLeaf, leafSums[newLeaf]) ? slotOf[newLeaf] : -1, sumsB: leafSums[newLeaf],
        pairsAt: pairs.byteOffset,
      });
      best[leaf] = a ?? NO_SPLIT;
      best[newLeaf] = b ?? NO_SPLIT;
    }
    for (let l = 0; l < tree.numLeaves; l++) {
      const s = leafSums[l];
      tree.leafValue[l] = (-s.grad / (s.hess + p.lambdaL2)) * p.learningRate;
      tree.leafCover[l] = s.count;
    }
    return tree;
  }

  private splittable(leaf: number, sums: LeafSums): boolean {
    const p = this.p;
    const tooDeep = p.maxDepth > 0 && this.depth[leaf] >= p.maxDepth;
    return !tooDeep && sums.count >= 2 * p.minDataInLeaf && sums.hess >= 2 * p.minSumHessianInLeaf;
  }

}

/** The leaf's (grad, hess) sums from its histogram: every row falls in exactly one bin of feature f. */
function sumOfFeature(hist: Float64Array, layout: FeatureLayout, f: number, count: number): LeafSums {
  let g = 0;
  let h = 0;
  for (let s = layout.binOffset[f] * HIST_STRIDE, end = layout.binOffset[f + 1] * HIST_STRIDE; s < end; s += HIST_STRIDE) {
    g += hist[s];
    h += hist[s + 1];
  }
  return { grad: g, hess: h, count };
}

/** Bin → 1 if rows with that bin go left. */
function goesLeftTable(split: SplitInfo, layout: FeatureLayout, f: number): Uint8Array {
  if (split.leftBins) return split.leftBins;
  const table = new Uint8Array(layout.numBins[f]);
  for (let b = 0; b <= split.thresholdBin; b++) table[b] = 1;
  table[layout.missingBin[f]] = split.defaultLeft ? 1 : 0;
  return table;
}
