/**
 * One thread growing whole trees alone on one tree lane of the fit's memory (training-memory.ts): its
 * own histogram pool, partition and side table, so that threads can grow different trees of a round at
 * the same time (the classes of a multiclass round: feature-team.ts growClasses). A tree grown here is
 * the tree one thread grows anywhere: the same leaf jobs on every feature, in the same order.
 */
import type { FeatureLayout } from './binned-data.js';
import type { LeafJob } from './feature-team.js';
import { ThreadShare } from './feature-team.js';
import type { ObjectiveState, Objective } from './objectives.js';
import type { ResolvedGbdtParams } from './params.js';
import { RowWork } from './row-work.js';
import type { SplitInfo } from './split-finder.js';
import { type HistogramPlan, HistogramBuilder, lanePlan } from './training-memory.js';
import type { Tree } from './tree.js';
import { type LaneMemory, type LeafTeam, TreeLearner } from './tree-learner.js';
import type { Kernels } from './wasm-kernels.js';

export class TreeLane implements LeafTeam, LaneMemory {
  readonly pool: Float64Array[];
  readonly indices: Int32Array;
  /** Lane's views of the fit's row arrays: its partition, everyone's scores. */
  readonly rows: RowWork;
  private readonly share: ThreadShare;
  private readonly side: Uint8Array;
  private readonly codesBase: number;
  private readonly nRows: number;
  private readonly learner: TreeLearner;
  private readonly bag: Int32Array;

  constructor(kernels: Kernels, plan: HistogramPlan, lane: number, layout: FeatureLayout, p: ResolvedGbdtParams, objective: Objective | ObjectiveState) {
    const own = lanePlan(plan, lane);
    const histograms = new HistogramBuilder(kernels, own);
    this.pool = histograms.pool;
    this.indices = new Int32Array(kernels.buffer, own.indicesAt, own.nRows);
    this.side = new Uint8Array(kernels.buffer, own.sideAt, 256);
    this.bag = new Int32Array(kernels.buffer, own.bagAt, own.nRows);
    this.codesBase = own.codesAt;
    this.nRows = own.nRows;
    this.rows = new RowWork(kernels, own, objective);
    this.share = new ThreadShare(histograms, layout, p, 0, 1);
    this.learner = new TreeLearner(layout, own.nRows, p, this, this);
  }

  setFeatures(features: Int32Array): void {
    this.share.setFeatures(features);
  }

  run(job: LeafJob): [SplitInfo | null, SplitInfo | null] {
    return this.share.run(job);
  }

  partition(begin: number, end: number, codesAt: number): number {
    return this.rows.partition(begin, end, codesAt);
  }

  sideTable(f: number, goesLeft: Uint8Array): number {
    this.side.set(goesLeft);
    return this.codesAt(f);
  }

  codesAt(f: number): number {
    return this.codesBase + f * this.nRows;
  }

  /**
   * Grows class c's tree of the round on rows of the shared bag (bagLength < 0: every row) and adds its
   * leaf values to the class's scores of those rows (rows out of the bag are the caller's).
   */
  growClass(c: number, bagLength: number, features: Int32Array): Tree {
    const n = this.nRows;
    const pairs = new Float64Array(this.indices.buffer, this.rows.plan.pairsAt + c * n * 16, 2 * n);
    const tree = this.learner.grow(pairs, bagLength >= 0 ? this.bag.subarray(0, bagLength) : null, features);
    if (tree.numLeaves > 1) {
      const part = this.learner.partition;
      this.rows.addLeafValues(0, bagLength >= 0 ? bagLength : n, tree.numLeaves, part.begin, part.count, tree.leafValue, c);
    }
    return tree;
  }
}
