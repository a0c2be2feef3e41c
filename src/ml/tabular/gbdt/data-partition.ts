/**
 * LightGBM's DataPartition: the (bagged) training row indices, grouped so that each leaf's rows are one
 * contiguous segment; splitting a leaf partitions its segment in place (in wasm, over the fit's threads:
 * see row-work.ts).
 */
import type { FeatureTeam } from './feature-team.js';
import type { TrainingMemory } from './training-memory.js';

export class DataPartition {
  readonly indices: Int32Array;
  readonly begin: Int32Array;
  readonly count: Int32Array;

  constructor(private readonly memory: TrainingMemory, private readonly team: FeatureTeam, maxLeaves: number) {
    this.indices = memory.indices;
    this.begin = new Int32Array(maxLeaves);
    this.count = new Int32Array(maxLeaves);
  }

  /** All rows in leaf 0: `rows` (a bag) or 0..nRows-1. */
  reset(rows: Int32Array | null, nRows: number): void {
    if (rows) this.indices.set(rows);
    else for (let i = 0; i < nRows; i++) this.indices[i] = i;
    this.begin[0] = 0;
    this.count[0] = rows ? rows.length : nRows;
  }

  /** Splits `leaf` on feature f: rows whose bin has goesLeft[bin] = 1 stay, the others move to `newLeaf`. */
  split(leaf: number, newLeaf: number, f: number, goesLeft: Uint8Array): void {
    const b = this.begin[leaf];
    const mid = this.team.partition(b, b + this.count[leaf], this.memory.sideTable(f, goesLeft));
    this.begin[newLeaf] = mid;
    this.count[newLeaf] = b + this.count[leaf] - mid;
    this.count[leaf] = mid - b;
  }
}
