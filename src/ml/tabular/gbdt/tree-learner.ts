/**
 * Leaf-wise (best-first) tree growth, LightGBM's SerialTreeLearner: always split the leaf with the
 * largest gain, build the histogram of the smaller child only and get the larger one by subtraction.
 * Buffers (histogram pool, partition) are allocated once per fit and reused.
 */
import type { ResolvedGbdtParams } from './params.js';
import type { BinnedRows, FeatureLayout } from './binned-data.js';
import { DataPartition } from './data-partition.js';
import { subtractHistogram } from './histogram.js';
import { type LeafSums, type SplitInfo, findBestSplit, noSplit } from './split-finder.js';
import { Tree } from './tree.js';
import type { TrainingMemory } from './training-memory.js';

/** Shared "cannot split" marker; never mutated (findBestSplit fills fresh SplitInfo objects). */
const NO_SPLIT = noSplit();

export class TreeLearner {
  readonly partition: DataPartition;
  private readonly hists: Float64Array[];
  private readonly best: SplitInfo[];
  private readonly depth: Int32Array;

  constructor(
    private readonly layout: FeatureLayout,
    private readonly data: BinnedRows,
    private readonly p: ResolvedGbdtParams,
    private readonly memory: TrainingMemory,
  ) {
    this.partition = new DataPartition(memory, p.numLeaves);
    this.hists = memory.pool.slice();
    this.best = new Array<SplitInfo>(p.numLeaves).fill(NO_SPLIT);
    this.depth = new Int32Array(p.numLeaves);
  }

  /**
   * Grows one tree on rows `bag` (null = all) using the given features; leaf values are shrunk by the
   * learning rate. grad/hess: one class's slice of the training memory's gradient arrays.
   */
  grow(grad: Float64Array, hess: Float64Array, bag: Int32Array | null, features: Int32Array): Tree {
    const { p, layout, data, partition: part, hists, best, depth } = this;
    const tree = new Tree(p.numLeaves);
    part.reset(bag, data.nRows);
    const rootSums = sumOf(grad, hess, part.indices, part.count[0]);
    this.build(0, grad, hess);
    depth[0] = 0;
    best[0] = this.bestFor(0, rootSums, features);
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
      this.build(newLeaf, grad, hess, small);
      subtractHistogram(hists[leaf], hists[newLeaf], layout, features);
      if (smallIsLeft) {
        const t = hists[leaf];
        hists[leaf] = hists[newLeaf];
        hists[newLeaf] = t;
      }
      best[leaf] = this.bestFor(leaf, leafSums[leaf], features);
      best[newLeaf] = this.bestFor(newLeaf, leafSums[newLeaf], features);
    }
    for (let l = 0; l < tree.numLeaves; l++) {
      const s = leafSums[l];
      tree.leafValue[l] = (-s.grad / (s.hess + p.lambdaL2)) * p.learningRate;
    }
    return tree;
  }

  /** Histogram of leaf `rowsOf`'s rows into slot `slot`. */
  private build(slot: number, grad: Float64Array, hess: Float64Array, rowsOf = slot): void {
    this.memory.buildHistogram(this.hists[slot], this.partition.begin[rowsOf], this.partition.count[rowsOf], grad, hess);
  }

  private splittable(leaf: number, sums: LeafSums): boolean {
    const p = this.p;
    const tooDeep = p.maxDepth > 0 && this.depth[leaf] >= p.maxDepth;
    return !tooDeep && sums.count >= 2 * p.minDataInLeaf && sums.hess >= 2 * p.minSumHessianInLeaf;
  }

  private bestFor(leaf: number, sums: LeafSums, features: Int32Array): SplitInfo {
    return this.splittable(leaf, sums) ? findBestSplit(this.hists[leaf], this.layout, features, sums, this.p) : NO_SPLIT;
  }
}

function sumOf(grad: Float64Array, hess: Float64Array, idx: Int32Array, n: number): LeafSums {
  let g = 0;
  let h = 0;
  for (let i = 0; i < n; i++) {
    g += grad[idx[i]];
    h += hess[idx[i]];
  }
  return { grad: g, hess: h, count: n };
}

/** Bin → 1 if rows with that bin go left. */
function goesLeftTable(split: SplitInfo, layout: FeatureLayout, f: number): Uint8Array {
  if (split.leftBins) return split.leftBins;
  const table = new Uint8Array(layout.numBins[f]);
  for (let b = 0; b <= split.thresholdBin; b++) table[b] = 1;
  table[layout.missingBin[f]] = split.defaultLeft ? 1 : 0;
  return table;
}
