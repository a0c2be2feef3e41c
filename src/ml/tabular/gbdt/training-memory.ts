/**
 * The arrays the wasm kernels (wasm-kernels.ts) work on, carved out of one fixed wasm memory once
 * per fit: the histogram pool (one per leaf), the gradients and hessians of every class, the leaf
 * partition's row indices and scratch, the training rows' bin codes both column-major (for
 * partitioning) and as row-major histogram slots (for histogram building), and a bin → side table.
 */
import type { BinnedRows, FeatureLayout } from './binned-data.js';
import { HIST_STRIDE } from './histogram.js';
import { type BuildFn, Kernels, type PartitionFn } from './wasm-kernels.js';

export class TrainingMemory {
  readonly pool: Float64Array[];
  /** Class-major: class c of row r at c*nRows + r. */
  readonly grad: Float64Array;
  readonly hess: Float64Array;
  readonly indices: Int32Array;
  private readonly scratch: Int32Array;
  private readonly codes: Uint8Array;
  /** Row r's histogram slot (binOffset[f] + code) for feature f at r*nFeatures + f; Uint32 past 65,536 bins. */
  private readonly slots: Uint16Array | Uint32Array;
  private readonly sideOfBin: Uint8Array;
  private readonly buildKernel: BuildFn;
  private readonly partitionKernel: PartitionFn;
  private readonly nFeatures: number;
  private readonly nRows: number;

  constructor(layout: FeatureLayout, data: BinnedRows, numScores: number, poolSize: number) {
    const n = data.nRows;
    const nf = layout.bins.length;
    const totalBins = layout.binOffset[nf];
    const wideSlots = totalBins > 65536;
    const align = (b: number) => Math.ceil(b / 8) * 8;
    const histBytes = totalBins * HIST_STRIDE * 8;
    const sizes = {
      pool: histBytes * poolSize,
      grad: numScores * n * 8,
      hess: numScores * n * 8,
      indices: align(n * 4),
      scratch: align(n * 4),
      codes: align(n * nf),
      slots: align(n * nf * (wideSlots ? 4 : 2)),
      sideOfBin: 256,
    };
    const kernels = new Kernels(Object.values(sizes).reduce((a, b) => a + b, 0));
    const buffer = kernels.buffer;
    let at = 0;
    const carve = (bytes: number) => {
      const offset = at;
      at += bytes;
      return offset;
    };
    this.pool = Array.from({ length: poolSize }, () => new Float64Array(buffer, carve(histBytes), totalBins * HIST_STRIDE));
    this.grad = new Float64Array(buffer, carve(sizes.grad), numScores * n);
    this.hess = new Float64Array(buffer, carve(sizes.hess), numScores * n);
    this.indices = new Int32Array(buffer, carve(sizes.indices), n);
    this.scratch = new Int32Array(buffer, carve(sizes.scratch), n);
    this.codes = new Uint8Array(buffer, carve(sizes.codes), n * nf);
    this.slots = wideSlots ? new Uint32Array(buffer, carve(sizes.slots), n * nf) : new Uint16Array(buffer, carve(sizes.slots), n * nf);
    this.sideOfBin = new Uint8Array(buffer, carve(sizes.sideOfBin), 256);
    this.codes.set(data.codes);
    for (let f = 0; f < nf; f++) {
      const off = layout.binOffset[f];
      const base = f * n;
      for (let r = 0; r < n; r++) this.slots[r * nf + f] = off + data.codes[base + r];
    }
    this.buildKernel = wideSlots ? kernels.build32 : kernels.build16;
    this.partitionKernel = kernels.partition;
    this.nFeatures = nf;
    this.nRows = n;
  }

  /**
   * hist (a pool member) = histogram over all features of the rows indices[begin .. begin+count),
   * for the gradient pair (grad, hess): one class's slices of this memory's gradients.
   */
  buildHistogram(hist: Float64Array, begin: number, count: number, grad: Float64Array, hess: Float64Array): void {
    hist.fill(0);
    this.buildKernel(
      hist.byteOffset, this.slots.byteOffset, this.indices.byteOffset, begin, begin + count, grad.byteOffset, hess.byteOffset, this.nFeatures, 0, this.nFeatures,
    );
  }

  /**
   * Stable in-place partition of indices[begin .. end) on feature f: rows whose bin has goesLeft[bin] = 1
   * first. Returns the end of the left part.
   */
  partition(begin: number, end: number, f: number, goesLeft: Uint8Array): number {
    this.sideOfBin.set(goesLeft);
    const codes = this.codes.byteOffset + f * this.nRows;
    return this.partitionKernel(this.indices.byteOffset, begin, end, codes, this.sideOfBin.byteOffset, this.scratch.byteOffset);
  }
}
