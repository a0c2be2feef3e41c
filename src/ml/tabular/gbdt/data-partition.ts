/**
 * LightGBM's DataPartition: the (bagged) training row indices, grouped so that each leaf's rows are one
 * contiguous segment; splitting a leaf partitions its segment in place (in wasm, over the fit's threads:
 * see row-work.ts).
 */

/** The arrays a partition lives in: a tree lane of the training memory (training-memory.ts). */
export interface PartitionMemory {
  readonly indices: Int32Array;
  /** Sets the bin → side table for a partition on feature f; returns the byte address of f's codes. */
  sideTable(f: number, goesLeft: Uint8Array): number;
  /** The byte address of feature f's codes (for a partition by another side table). */
  codesAt(f: number): number;
}

/** Who partitions a segment (the feature team over its threads, or one thread alone). */
export interface SegmentPartitioner {
  /** Stable partition of indices begin .. end − 1 by the side table over the codes at codesAt; the end of the left part. */
  partition(begin: number, end: number, codesAt: number): number;
}

export class DataPartition {
  readonly indices: Int32Array;
  readonly begin: Int32Array;
  readonly count: Int32Array;
  /** 0, 1, 2, …: copied in for an unbagged tree (a copy is a memmove; a loop over a shared array is not). */
  private identity = new Int32Array(0);

  constructor(private readonly memory: PartitionMemory, private readonly team: SegmentPartitioner, maxLeaves: number) {
    this.indices = memory.indices;
    this.begin = new Int32Array(maxLeaves);
    this.count = new Int32Array(maxLeaves);
  }

  /** All rows in leaf 0: `rows` (a bag) or 0..nRows-1. */
  reset(rows: Int32Array | null, nRows: number): void {
    if (rows) this.indices.set(rows);
    else {
      if (this.identity.length !== nRows) this.identity = Int32Array.from({ length: nRows }, (_, i) => i);
      this.indices.set(this.identity);
    }
    this.begin[0] = 0;
    this.count[0] = rows ? rows.length : nRows;
  }

  /** Splits `leaf` on feature f: rows whose bin has goesLeft[bin] = 1 stay, the others move to `newLeaf`. */
  split(leaf: number, newLeaf: number, f: number, goesLeft: Uint8Array): void {
    const b = this.begin[leaf];
    this.splitAt(leaf, newLeaf, this.team.partition(b, b + this.count[leaf], this.memory.sideTable(f, goesLeft)));
  }

  /** As split, for a leaf whose rows another thread partitioned already (leaf-split.ts): its left part ends at mid. */
  splitAt(leaf: number, newLeaf: number, mid: number): void {
    const b = this.begin[leaf];
    this.begin[newLeaf] = mid;
    this.count[newLeaf] = b + this.count[leaf] - mid;
    this.count[leaf] = mid - b;
  }
}
