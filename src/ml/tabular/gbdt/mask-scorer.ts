/**
 * Scores rows with the leaf-mask kernel (leaf-mask-layout.ts; kernels.wat binColumn and scoreMasks):
 * each numeric column is binned against its feature's cuts, categorical bins are copied as they are,
 * then every tree's exit leaf is found by byte compares. The same sums as the walk (WalkScorer).
 */
import type { ForestArrays } from './compiled-forest.js';
import { leafMaskLayout, type LeafMaskLayout } from './leaf-mask-layout.js';
import { type Kernels, align16, kernelsHolding } from './wasm-kernels.js';

/** Rows scored per kernel call. */
const CHUNK_ROWS = 8192;

export class MaskScorer {
  private readonly kernels: Kernels;
  private readonly at: Record<'trees' | 'value' | 'cats' | 'catBits', number>;
  /** Per feature: the address of its cuts and log2 of their count, or null (no numeric node reads it). */
  private readonly cuts: ({ at: number; steps: number } | null)[];
  private readonly end: number;

  private constructor(private readonly layout: LeafMaskLayout, private readonly numTrees: number) {
    const arrays: Record<string, ArrayBufferView> = { trees: layout.trees, value: layout.value, cats: layout.cats, catBits: layout.catBits };
    layout.cuts.forEach((c, f) => { if (c) arrays[`cuts${f}`] = c; });
    const { kernels, at, end } = kernelsHolding(arrays);
    this.kernels = kernels;
    this.at = at;
    this.end = end;
    this.cuts = layout.cuts.map((c, f) => (c ? { at: at[`cuts${f}`]!, steps: Math.log2(c.length) } : null));
  }

  /** The scorer of a forest whose rows have the given features, or null when the leaf-mask layout does not apply. */
  static of(arrays: ForestArrays, categorical: boolean[]): MaskScorer | null {
    const layout = leafMaskLayout(arrays, categorical);
    return layout && new MaskScorer(layout, arrays.nodeOffset.length - 1);
  }

  /** Raw scores, row-major n × k, of rows given as the forest's input columns (categorical: training bins), starting from initScores. */
  rawScores(columns: (Float64Array | Int32Array)[], n: number, initScores: Float64Array): Float64Array {
    const { kernels, at, layout } = this;
    const k = initScores.length;
    const rowBytes = 16 * layout.vectors;
    const nCat = layout.numCatSlots;
    const chunk = Math.min(CHUNK_ROWS, n);
    const colAt = this.end;
    const binsAt = colAt + align16(chunk * 8);
    const catAt = binsAt + chunk * rowBytes;
    const outAt = catAt + align16(chunk * nCat * 4);
    kernels.ensureBytes(outAt + chunk * k * 8);
    const col = new Float64Array(kernels.buffer, colAt, chunk);
    const catBins = new Int32Array(kernels.buffer, catAt, chunk * nCat);
    const out = new Float64Array(kernels.buffer, outAt, chunk * k);
    // Bytes no node reads (categorical and unused features): zero, so that every row byte is defined.
    kernels.clear(binsAt, chunk * rowBytes);
    const result = new Float64Array(n * k);
    for (let start = 0; start < n; start += chunk) {
      const rows = Math.min(chunk, n - start);
      for (let f = 0; f < columns.length; f++) {
        const cuts = this.cuts[f];
        const slot = layout.catSlot[f];
        if (cuts) {
          col.set(columns[f].subarray(start, start + rows));
          kernels.binColumn(colAt, rows, cuts.at, cuts.steps, binsAt + f, rowBytes, 255);
        } else if (slot >= 0) {
          const bins = columns[f];
          for (let r = 0; r < rows; r++) catBins[r * nCat + slot] = bins[start + r];
        }
      }
      for (let r = 0; r < rows; r++) out.set(initScores, r * k);
      kernels.scoreMasks(binsAt, layout.vectors, rows, at.trees, this.numTrees, at.value, at.cats, catAt, nCat, at.catBits, outAt, k);
      result.set(out.subarray(0, rows * k), start * k);
    }
    return result;
  }
}
