/**
 * A trained forest compiled into flat typed arrays for fast, allocation-free prediction from raw
 * values: internal nodes send `value ≤ threshold` left and NaN to the learned side.
 */
import type { GrownTree } from './tree-grower.js';
import { fromBase64, toBase64 } from '../../core/codecs.js';

export interface FlatForest {
  /** Outputs per row: number of classes, or 1 for regression. */
  nOutputs: number;
  treeRoots: Int32Array;
  /** −1 marks a leaf. */
  feature: Int32Array;
  /** Split nodes: threshold; leaves: offset of the leaf's outputs in `leafOutputs`. */
  threshold: Float64Array;
  missingLeft: Uint8Array;
  left: Int32Array;
  right: Int32Array;
  leafOutputs: Float64Array;
  /** Training weight per node (TreeSHAP's covers); null for forests saved before they were kept. */
  cover: Float64Array | null;
}

/** Accumulates grown trees; pure class leaves share one one-hot row each to keep big forests small. */
export class FlatForestBuilder {
  private readonly roots: number[] = [];
  private readonly feature: number[] = [];
  private readonly threshold: number[] = [];
  private readonly missingLeft: number[] = [];
  private readonly left: number[] = [];
  private readonly right: number[] = [];
  private readonly leafOutputs: number[] = [];
  private readonly cover: number[] = [];

  constructor(
    private readonly nOutputs: number,
    private readonly binLow: Float64Array[],
    private readonly binHigh: Float64Array[],
    private readonly classification: boolean,
  ) {
    if (classification) {
      for (let c = 0; c < nOutputs; c++) for (let j = 0; j < nOutputs; j++) this.leafOutputs.push(c === j ? 1 : 0);
    }
  }

  get nTrees(): number {
    return this.roots.length;
  }

  add(tree: GrownTree): void {
    const base = this.feature.length;
    this.roots.push(base);
    for (let node = 0; node < tree.feature.length; node++) {
      const f = tree.feature[node];
      this.feature.push(f);
      this.cover.push(tree.cover[node]!);
      this.missingLeft.push(tree.missingLeft[node] ? 1 : 0);
      if (f >= 0) {
        // Midway between the node's values on either side of the split, as CART does.
        const next = tree.nextBin[node];
        this.threshold.push(next < 0 ? Infinity : (this.binHigh[f][tree.splitBin[node]] + this.binLow[f][next]) / 2);
        this.left.push(base + tree.left[node]);
        this.right.push(base + tree.right[node]);
      } else {
        this.threshold.push(this.leafOffset(tree.leafValue[node]!));
        this.left.push(-1);
        this.right.push(-1);
      }
    }
  }

  private leafOffset(value: number[]): number {
    if (this.classification) {
      const pure = value.indexOf(1);
      if (pure >= 0) return pure * this.nOutputs;
    }
    const offset = this.leafOutputs.length;
    for (const v of value) this.leafOutputs.push(v);
    return offset;
  }

  build(): FlatForest {
    return {
      nOutputs: this.nOutputs,
      treeRoots: Int32Array.from(this.roots),
      feature: Int32Array.from(this.feature),
      threshold: Float64Array.from(this.threshold),
      missingLeft: Uint8Array.from(this.missingLeft),
      left: Int32Array.from(this.left),
      right: Int32Array.from(this.right),
      leafOutputs: Float64Array.from(this.leafOutputs),
      cover: Float64Array.from(this.cover),
    };
  }
}

/** Mean of the trees' leaf outputs, row-major nRows × nOutputs. `columns` are indexed by feature. */
export function predictFlatForest(forest: FlatForest, columns: Float64Array[], nRows: number): Float64Array {
  const { nOutputs: k, treeRoots, feature, threshold, missingLeft, left, right, leafOutputs } = forest;
  const out = new Float64Array(nRows * k);
  for (let t = 0; t < treeRoots.length; t++) {
    const root = treeRoots[t];
    for (let i = 0; i < nRows; i++) {
      let node = root;
      let f = feature[node];
      while (f >= 0) {
        const v = columns[f][i];
        node = v !== v ? (missingLeft[node] ? left[node] : right[node]) : v <= threshold[node] ? left[node] : right[node];
        f = feature[node];
      }
      const offset = threshold[node];
      for (let c = 0; c < k; c++) out[i * k + c] += leafOutputs[offset + c];
    }
  }
  const scale = 1 / treeRoots.length;
  for (let j = 0; j < out.length; j++) out[j] *= scale;
  return out;
}

export interface SerializedFlatForest {
  nOutputs: number;
  treeRoots: string;
  feature: string;
  threshold: string;
  missingLeft: string;
  left: string;
  right: string;
  leafOutputs: string;
  cover?: string;
}

export function serializeFlatForest(f: FlatForest): SerializedFlatForest {
  return {
    nOutputs: f.nOutputs,
    treeRoots: toBase64(f.treeRoots),
    feature: toBase64(f.feature),
    threshold: toBase64(f.threshold),
    missingLeft: toBase64(f.missingLeft),
    left: toBase64(f.left),
    right: toBase64(f.right),
    leafOutputs: toBase64(f.leafOutputs),
    ...(f.cover ? { cover: toBase64(f.cover) } : {}),
  };
}

export function deserializeFlatForest(s: SerializedFlatForest): FlatForest {
  return {
    nOutputs: s.nOutputs,
    treeRoots: fromBase64(s.treeRoots, Int32Array),
    feature: fromBase64(s.feature, Int32Array),
    threshold: fromBase64(s.threshold, Float64Array),
    missingLeft: fromBase64(s.missingLeft, Uint8Array),
    left: fromBase64(s.left, Int32Array),
    right: fromBase64(s.right, Int32Array),
    leafOutputs: fromBase64(s.leafOutputs, Float64Array),
    cover: s.cover ? fromBase64(s.cover, Float64Array) : null,
  };
}
