/**
 * Leaf-wise (best-first) tree growth, LightGBM's SerialTreeLearner: always split the leaf with the
 * largest gain, build the histogram of the smaller child only and get the larger one by subtraction.
 * Buffers (histogram pool, partition) are allocated once per fit and reused. Histogram work and split
 * search run as leaf jobs of a LeafTeam: the fit's feature team (one or more threads), or one thread
 * alone on its own tree lane (tree-lane.ts); the same result either way.
 *
 * With a helper thread (AheadTeam), leaves are split ahead of their turn: when the learner splits the
 * best leaf, it hands the split of the next best one (of at most aheadRows rows) to the helper; when it
 * reaches a leaf a helper is still splitting, it splits the next best leaf itself meanwhile. Leaf-wise
 * growth usually splits that leaf next or soon (synthetic 40k × 30, 31 leaves: of 4,653 such splits in
 * 200 trees, 4,613 were used, 3,910 at the very next step). A leaf's split depends on its rows,
 * histogram and best split only, so its answer is the same whenever it is done, and the tree is the
 * one a single thread grows: the order of splits is still the gains'. Histogram slots come from a free
 * list (AHEAD_SLOTS more than leaves: the smaller children of leaves split ahead and not yet reached).
 */
import type { ResolvedGbdtParams } from './params.js';
import type { FeatureLayout } from './binned-data.js';
import { DataPartition, type PartitionMemory, type SegmentPartitioner } from './data-partition.js';
import type { LeafJob } from './feature-team.js';
import { HIST_STRIDE } from './histogram.js';
import { type LeafSums, type SplitInfo, noSplit } from './split-finder.js';
import { Tree } from './tree.js';
import { type LeafSplitDone, type LeafSplitTask, canSplit, splitLeafAlone } from './leaf-split.js';

/** Who does a tree's leaf jobs and partitions: the fit's feature team, or one thread alone (tree-lane.ts). */
export interface LeafTeam extends SegmentPartitioner {
  /** The candidate features of the next tree (ascending). */
  setFeatures(features: Int32Array): void;
  /** The best split of leaf A and of leaf B (gain 0: none), or null if not asked. */
  run(job: LeafJob): [SplitInfo | null, SplitInfo | null];
}

/** A team that can split a leaf on a helper thread while the main thread splits another (feature-team.ts). */
export interface AheadTeam extends LeafTeam {
  readonly splitsAhead: boolean;
  /** Rows of a leaf at most whose split may be handed ahead. */
  readonly aheadRows: number;
  /** Splits handed ahead at most at a time. */
  readonly aheadAtOnce: number;
  /** Hands a split to a helper: its number. */
  splitAhead(task: LeafSplitTask): number;
  splitBusy(seq: number): boolean;
  splitAnswer(seq: number): LeafSplitDone;
}

/** A tree lane's arrays: the histogram pool (one per leaf, and AHEAD_SLOTS more) and the partition's. */
export interface LaneMemory extends PartitionMemory {
  readonly pool: Float64Array[];
}

/**
 * Histogram slots beyond one per leaf: the smaller children of leaves split ahead and not yet reached
 * (at most this many at a time).
 */
export const AHEAD_SLOTS = 3;

/** Shared "cannot split" marker; never mutated (findBestSplit fills fresh SplitInfo objects). */
const NO_SPLIT = noSplit();
const ZERO: LeafSums = { grad: 0, hess: 0, count: 0 };

export class TreeLearner {
  readonly partition: DataPartition;
  private readonly pool: Float64Array[];
  /** Histogram pool slot of each leaf (−1: none); slots not held by a leaf are in freeSlots. */
  private readonly slotOf: Int32Array;
  private readonly freeSlots: number[] = [];
  private readonly best: SplitInfo[];
  private readonly depth: Int32Array;
  /** The team when it splits leaves ahead (null: every leaf split in turn). */
  private readonly ahead: AheadTeam | null;
  /** Leaves split ahead and not yet reached: their answers. */
  private readonly aheadDone = new Map<number, LeafSplitDone>();
  /** Leaves a helper is splitting ahead: their splits' numbers. */
  private readonly inFlight = new Map<number, number>();

  constructor(
    private readonly layout: FeatureLayout,
    private readonly nRows: number,
    private readonly p: ResolvedGbdtParams,
    private readonly memory: LaneMemory,
    private readonly team: LeafTeam,
  ) {
    this.partition = new DataPartition(memory, team, p.numLeaves);
    this.pool = memory.pool;
    this.slotOf = new Int32Array(p.numLeaves);
    this.best = new Array<SplitInfo>(p.numLeaves).fill(NO_SPLIT);
    this.depth = new Int32Array(p.numLeaves);
    const ahead = team as Partial<AheadTeam>;
    this.ahead = ahead.splitsAhead && this.pool.length >= p.numLeaves + AHEAD_SLOTS ? (team as AheadTeam) : null;
  }

  /**
   * Grows one tree on rows `bag` (null = all) using the given features (ascending); leaf values are
   * shrunk by the learning rate. pairs: one class's slice of the training memory's (gradient, hessian) pairs.
   */
  grow(pairs: Float64Array, bag: Int32Array | null, features: Int32Array): Tree {
    const { p, layout, partition: part, best, depth, slotOf, team, freeSlots: free, ahead, aheadDone: done, inFlight } = this;
    const tree = new Tree(p.numLeaves);
    part.reset(bag, this.nRows);
    free.length = 0;
    for (let s = this.pool.length - 1; s >= 0; s--) free.push(s);
    slotOf.fill(-1);
    slotOf[0] = free.pop()!;
    done.clear();
    inFlight.clear();
    team.setFeatures(features);
    const job: LeafJob = {
      build: slotOf[0], begin: 0, end: part.count[0], parent: -1, findA: -1, findB: -1,
      sumsA: ZERO, sumsB: ZERO, pairsAt: pairs.byteOffset,
    };
    team.run(job);
    // Every row falls in one bin of any feature: the root's sums from its histogram.
    const rootSums = sumOfFeature(this.pool[slotOf[0]], layout, features[0], part.count[0]);
    depth[0] = 0;
    best[0] = canSplit(p, 0, rootSums) ? team.run({ ...job, build: -1, findA: slotOf[0], sumsA: rootSums })[0] ?? NO_SPLIT : NO_SPLIT;
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

      if (ahead) this.refill(ahead, leaf, tree.numLeaves, pairs);
      // The leaf's split: done ahead, being done ahead, or done now.
      let answer = done.get(leaf);
      if (answer) done.delete(leaf);
      else {
        const seq = inFlight.get(leaf);
        if (seq !== undefined) {
          // While a helper splits it, this thread splits the leaf with the next best gain, if any.
          if (ahead!.splitBusy(seq)) this.splitHere(leaf, tree.numLeaves, pairs);
          answer = ahead!.splitAnswer(seq);
          inFlight.delete(leaf);
        }
      }
      if (answer) {
        part.splitAt(leaf, newLeaf, answer.mid);
        this.childSums(leaf, newLeaf, split, leafSums);
        if (answer.built < 0) continue;
        this.childSlots(leaf, newLeaf, answer.built);
        best[leaf] = answer.a ?? NO_SPLIT;
        best[newLeaf] = answer.b ?? NO_SPLIT;
        continue;
      }

      part.split(leaf, newLeaf, f, goesLeftTable(split, layout, f));
      if (ahead) this.refill(ahead, leaf, tree.numLeaves, pairs);
      this.childSums(leaf, newLeaf, split, leafSums);
      const canA = canSplit(p, depth[leaf], leafSums[leaf]);
      const canB = canSplit(p, depth[newLeaf], leafSums[newLeaf]);
      // Histograms only for children that may still split: never after the last split, for instance.
      if (tree.numLeaves === p.numLeaves || !(canA || canB)) continue;

      // Smaller child from its rows (into a free slot), larger = parent − smaller (in the parent's slot).
      const smallIsLeft = part.count[leaf] <= part.count[newLeaf];
      const small = smallIsLeft ? leaf : newLeaf;
      const parentSlot = slotOf[leaf];
      const smallSlot = free.pop();
      if (smallSlot === undefined) throw new Error('GBDT: no free histogram slot');
      this.childSlots(leaf, newLeaf, smallSlot);
      const [a, b] = team.run({
        build: smallSlot, begin: part.begin[small], end: part.begin[small] + part.count[small], parent: parentSlot,
        findA: canA ? slotOf[leaf] : -1, sumsA: leafSums[leaf],
        findB: canB ? slotOf[newLeaf] : -1, sumsB: leafSums[newLeaf],
        pairsAt: pairs.byteOffset,
      });
      best[leaf] = a ?? NO_SPLIT;
      best[newLeaf] = b ?? NO_SPLIT;
    }
    // The partition (and the pool) are the next tree's only once no helper is splitting a leaf.
    for (const seq of inFlight.values()) ahead!.splitAnswer(seq);
    for (let l = 0; l < tree.numLeaves; l++) {
      const s = leafSums[l];
      tree.leafValue[l] = (-s.grad / (s.hess + p.lambdaL2)) * p.learningRate;
      tree.leafCover[l] = s.count;
    }
    return tree;
  }

  /** After leaf's split into leaf (left) and newLeaf (right): the children's sums and depth; no best split yet. */
  private childSums(leaf: number, newLeaf: number, split: SplitInfo, leafSums: LeafSums[]): void {
    const { partition: part, depth, best } = this;
    leafSums[leaf] = { ...split.left, count: part.count[leaf] };
    leafSums[newLeaf] = { ...split.right, count: part.count[newLeaf] };
    depth[leaf] = depth[newLeaf] = depth[leaf] + 1;
    best[leaf] = best[newLeaf] = NO_SPLIT;
  }

  /** The smaller child's histogram in slot `small`, the larger one's in the parent's slot. */
  private childSlots(leaf: number, newLeaf: number, small: number): void {
    const { partition: part, slotOf } = this;
    if (part.count[leaf] <= part.count[newLeaf]) {
      slotOf[newLeaf] = slotOf[leaf];
      slotOf[leaf] = small;
    } else slotOf[newLeaf] = small;
  }

  /**
   * Collects the answers of splits ahead that are done (but `leaf`'s, being split now, into `leaves`
   * leaves in all), then hands to the helpers the splits of the leaves with the best gains besides
   * `leaf` while there is a free mailbox, as long as they may be reached before the tree is full: the
   * leaves leaf-wise growth most often splits next.
   */
  private refill(ahead: AheadTeam, leaf: number, leaves: number, pairs: Float64Array): void {
    const { inFlight, aheadDone: done } = this;
    for (const [l, seq] of inFlight) {
      if (l !== leaf && !ahead.splitBusy(seq)) {
        done.set(l, ahead.splitAnswer(seq));
        inFlight.delete(l);
      }
    }
    while (inFlight.size < ahead.aheadAtOnce) {
      const pick = this.nextAhead(ahead, leaf, leaves);
      if (pick < 0) break;
      inFlight.set(pick, ahead.splitAhead(this.aheadTask(pick, pairs, false)));
    }
  }

  /** As refill's splits, but on this thread (while a helper does the split handed ahead); the answer kept for when the leaf is reached. */
  private splitHere(leaf: number, leaves: number, pairs: Float64Array): void {
    const ahead = this.ahead!;
    const pick = this.nextAhead(ahead, leaf, leaves);
    if (pick < 0) return;
    const task = this.aheadTask(pick, pairs, true);
    this.aheadDone.set(pick, splitLeafAlone(task, this.p, (begin, end, codesAt) => this.team.partition(begin, end, codesAt), (job) => this.team.run(job)));
  }

  /** The leaf to split ahead of its turn (−1: none): see refill. */
  private nextAhead(ahead: AheadTeam, leaf: number, leaves: number): number {
    const { p, best, partition: part, aheadDone: done, inFlight, freeSlots: free } = this;
    // Every split done ahead and not yet reached needs one more split of the tree to be of use, and a slot.
    const pending = done.size + inFlight.size;
    if (leaves + pending >= p.numLeaves || pending >= AHEAD_SLOTS || free.length < 2) return -1;
    let pick = -1;
    let gain = 0;
    for (let l = 0; l < leaves - 1; l++) {
      if (l === leaf || best[l].gain <= gain || done.has(l) || inFlight.has(l) || part.count[l] > ahead.aheadRows) continue;
      gain = best[l].gain;
      pick = l;
    }
    return pick;
  }

  /** The split of leaf pick as a task; `here`: partitioned on this thread, by this lane's own side table (else by the task's). */
  private aheadTask(pick: number, pairs: Float64Array, here: boolean): LeafSplitTask {
    const split = this.best[pick];
    const begin = this.partition.begin[pick];
    const goesLeft = goesLeftTable(split, this.layout, split.feature);
    const codesAt = here ? this.memory.sideTable(split.feature, goesLeft) : this.memory.codesAt(split.feature);
    return {
      begin, end: begin + this.partition.count[pick], codesAt, goesLeft,
      parent: this.slotOf[pick], free: this.freeSlots.pop()!, depth: this.depth[pick] + 1, pairsAt: pairs.byteOffset, left: split.left, right: split.right,
    };
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
