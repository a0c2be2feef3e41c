/**
 * Plain-TypeScript statements of what each wasm kernel (src/ml/tabular/gbdt/kernels.wat) computes,
 * written for clarity, not speed: the wasm kernels are tested against these on random inputs.
 */
import type { ForestArrays } from '../../../src/ml/tabular/gbdt/compiled-forest.js';

/**
 * hist[2·slot], hist[2·slot+1] += pairs[2r], pairs[2r+1] (row r's gradient and hessian) for rows
 * r = idx[begin..end) and features f0..f1-1, where slot = binOffset[f] + codes[r·nf + f] (codes
 * row-major, one byte per cell).
 */
export function buildReference(
  hist: Float64Array, codes: Uint8Array, idx: Int32Array, begin: number, end: number,
  pairs: Float64Array, nf: number, f0: number, f1: number, binOffset: Int32Array,
): void {
  for (let i = begin; i < end; i++) {
    const r = idx[i];
    for (let f = f0; f < f1; f++) {
      const slot = binOffset[f] + codes[r * nf + f];
      hist[2 * slot] += pairs[2 * r];
      hist[2 * slot + 1] += pairs[2 * r + 1];
    }
  }
}

/** Stable partition of idx[begin..end): rows with table[codes[r]] = 1 first. Returns the left part's end. */
export function partitionReference(idx: Int32Array, begin: number, end: number, codes: Uint8Array, table: Uint8Array): number {
  const segment = Array.from(idx.subarray(begin, end));
  const left = segment.filter((r) => table[codes[r]] === 1);
  const right = segment.filter((r) => table[codes[r]] !== 1);
  idx.set([...left, ...right], begin);
  return begin + left.length;
}

/** out[r·k + t mod k] += value of the leaf row r reaches in tree t; x is row-major nRows × nf. */
export function scoreReference(x: Float64Array, nf: number, nRows: number, forest: ForestArrays, out: Float64Array, k: number): void {
  const nTrees = forest.nodeOffset.length - 1;
  for (let t = 0; t < nTrees; t++) {
    const n0 = forest.nodeOffset[t];
    const empty = forest.nodeOffset[t + 1] === n0;
    for (let r = 0; r < nRows; r++) {
      let leaf = 0;
      if (!empty) {
        let node = 0;
        for (;;) {
          const i = n0 + node;
          const f = forest.feature[i];
          let right: boolean;
          if (f >= 0) {
            const v = x[r * nf + f];
            right = Number.isNaN(v) ? forest.defaultLeft[i] === 0 : v > forest.threshold[i];
          } else {
            const bin = x[r * nf + ~f];
            const word = forest.catBits[forest.catOffset[i] + Math.floor(bin / 32)];
            right = ((word >>> bin % 32) & 1) === 0;
          }
          const child = forest.children[2 * i + (right ? 1 : 0)];
          if (child < 0) {
            leaf = ~child;
            break;
          }
          node = child;
        }
      }
      out[r * k + (t % k)] += forest.leafValue[forest.leafOffset[t] + leaf];
    }
  }
}
