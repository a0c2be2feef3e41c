/**
 * The per-row work of a fit besides histograms — gradients, partitioning a leaf's rows after a split,
 * adding a tree's leaf values to the rows' scores — on a row range, so that the feature team
 * (feature-team.ts) can cut it into one range per thread. Each piece gives the same numbers whatever
 * the ranges: gradients and score updates are per row; a partition of consecutive ranges, each stable,
 * is merged (mergePartitions) into the one stable partition a single thread makes.
 */
import { type Objective, type ObjectiveState, objectiveFromState } from './objectives.js';
import type { HistogramPlan } from './training-memory.js';
import type { Kernels, PartitionFn } from './wasm-kernels.js';

/** Views of one fit's row arrays on a thread, and the row-range kernels. */
export class RowWork {
  readonly indices: Int32Array;
  readonly scores: Float64Array;
  private readonly scratch: Int32Array;
  private readonly pairs: Float64Array;
  private readonly y: Float64Array;
  private readonly weights: Float64Array | null;
  private readonly partitionKernel: PartitionFn;
  private readonly apartKernel: PartitionFn;
  private readonly objective: Objective;

  constructor(kernels: Kernels, readonly plan: HistogramPlan, objective: Objective | ObjectiveState) {
    const { buffer } = kernels;
    const n = plan.nRows;
    const k = plan.numScores;
    this.indices = new Int32Array(buffer, plan.indicesAt, n);
    this.scratch = new Int32Array(buffer, plan.scratchAt, n);
    this.scores = new Float64Array(buffer, plan.scoresAt, k * n);
    this.pairs = new Float64Array(buffer, plan.pairsAt, 2 * k * n);
    this.y = new Float64Array(buffer, plan.yAt, n);
    this.weights = plan.weightsAt >= 0 ? new Float64Array(buffer, plan.weightsAt, n) : null;
    this.partitionKernel = kernels.partition;
    this.apartKernel = kernels.partitionApart;
    this.objective = 'gradients' in objective ? objective : objectiveFromState(objective);
  }

  /** Gradients and hessians of rows begin .. end − 1, every class. */
  gradients(begin: number, end: number): void {
    this.objective.gradients(this.scores, this.y, this.weights, this.pairs, begin, end);
  }

  /**
   * Stable partition of indices[begin .. end) by the side table (bin → 1 = left) over the codes at
   * byte address codesAt; scratch[begin .. end) is its spare room. Returns the end of the left part.
   */
  partition(begin: number, end: number, codesAt: number): number {
    return this.partitionWith(begin, end, codesAt, this.plan.sideAt);
  }

  /** partition by the side table at byte address sideAt (a split handed ahead has its own: leaf-split.ts). */
  partitionWith(begin: number, end: number, codesAt: number, sideAt: number): number {
    const p = this.plan;
    return this.partitionKernel(p.indicesAt, begin, end, codesAt, sideAt, p.scratchAt + begin * 4);
  }

  /**
   * One range of a partition split between threads: as partition, but the right part stays in
   * scratch[begin .. begin + end − mid) (the returned mid is the end of the left part, in place).
   */
  partitionApart(begin: number, end: number, codesAt: number): number {
    const p = this.plan;
    return this.apartKernel(p.indicesAt, begin, end, codesAt, p.sideAt, p.scratchAt + begin * 4);
  }

  /**
   * Joins consecutive ranges split by partitionApart (range t: bounds[t] .. bounds[t+1], its left part
   * in place up to mids[t], its right part in scratch from bounds[t]) into one stable partition of
   * bounds[0] .. bounds[last]: the left parts in order, then the right parts in order. Returns the end
   * of the left part.
   */
  mergePartitions(bounds: ArrayLike<number>, mids: ArrayLike<number>, parts: number): number {
    const { indices, scratch } = this;
    let left = bounds[0];
    for (let t = 0; t < parts; t++) {
      // Moving left parts down never overwrites a part not yet moved (left ≤ bounds[t]).
      if (left !== bounds[t]) indices.copyWithin(left, bounds[t], mids[t]);
      left += mids[t] - bounds[t];
    }
    let right = left;
    for (let t = 0; t < parts; t++) {
      const n = bounds[t + 1] - mids[t];
      indices.set(scratch.subarray(bounds[t], bounds[t] + n), right);
      right += n;
    }
    return left;
  }

  /**
   * Adds leaf l's value to the class-c score of every row at positions from .. to − 1 of the
   * partition, where leaf l holds positions leafBegin[l] .. leafBegin[l] + leafCount[l] − 1.
   */
  addLeafValues(
    from: number, to: number, numLeaves: number, leafBegin: ArrayLike<number>, leafCount: ArrayLike<number>, leafValue: ArrayLike<number>, c: number,
  ): void {
    const { indices, scores } = this;
    const offset = c * this.plan.nRows;
    for (let l = 0; l < numLeaves; l++) {
      const a = Math.max(from, leafBegin[l]);
      const b = Math.min(to, leafBegin[l] + leafCount[l]);
      const v = leafValue[l];
      for (let i = a; i < b; i++) scores[offset + indices[i]] += v;
    }
  }
}
