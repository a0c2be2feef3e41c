/**
 * One regression tree as grown on bins. Internal node n splits on a used feature; a child reference
 * c ≥ 0 is an internal node, c < 0 is leaf ~c. Leaf values already include the learning rate.
 */
import type { FeatureLayout } from './binned-data.js';

export class Tree {
  numLeaves = 1;
  readonly feature: Int32Array;
  readonly thresholdBin: Int32Array;
  readonly defaultLeft: Uint8Array;
  /** Categorical nodes: bins sent left; null for numeric nodes. */
  readonly leftBins: (Uint8Array | null)[];
  readonly gain: Float64Array;
  readonly left: Int32Array;
  readonly right: Int32Array;
  readonly leafValue: Float64Array;
  /** Training rows that reached each leaf (TreeSHAP's covers). */
  readonly leafCover: Float64Array;

  constructor(maxLeaves: number) {
    this.feature = new Int32Array(maxLeaves - 1);
    this.thresholdBin = new Int32Array(maxLeaves - 1);
    this.defaultLeft = new Uint8Array(maxLeaves - 1);
    this.leftBins = new Array<Uint8Array | null>(maxLeaves - 1).fill(null);
    this.gain = new Float64Array(maxLeaves - 1);
    this.left = new Int32Array(maxLeaves - 1);
    this.right = new Int32Array(maxLeaves - 1);
    this.leafValue = new Float64Array(maxLeaves);
    this.leafCover = new Float64Array(maxLeaves);
  }

  get numNodes(): number {
    return this.numLeaves - 1;
  }

  /** Leaf reached by row r of column-major codes with nRows rows. */
  leafOfBinned(codes: Uint8Array, nRows: number, r: number, layout: FeatureLayout): number {
    if (this.numLeaves === 1) return 0;
    let node = 0;
    for (;;) {
      const f = this.feature[node];
      const bin = codes[f * nRows + r];
      const cat = this.leftBins[node];
      const goLeft = cat !== null
        ? cat[bin] === 1
        : bin === layout.missingBin[f] ? this.defaultLeft[node] === 1 : bin <= this.thresholdBin[node];
      const next = goLeft ? this.left[node] : this.right[node];
      if (next < 0) return ~next;
      node = next;
    }
  }
}
