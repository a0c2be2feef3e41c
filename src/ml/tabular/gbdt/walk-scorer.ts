/**
 * Scores rows by walking the trees (walk-layout.ts; kernels.wat score4 and score1): the way for every
 * forest, and the one for forests the leaf-mask kernel does not take (leaf-mask-layout.ts).
 */
import type { ForestArrays } from './compiled-forest.js';
import { type Kernels, SCORE_LANES, kernelsHolding } from './wasm-kernels.js';
import { walkLayout, type WalkLayout } from './walk-layout.js';

/** Rows scored per kernel call. */
const CHUNK_ROWS = 8192;

export class WalkScorer {
  private readonly kernels: Kernels;
  private readonly at: Record<keyof WalkLayout, number>;
  private readonly end: number;

  constructor(arrays: ForestArrays, private readonly numTrees: number) {
    ({ kernels: this.kernels, at: this.at, end: this.end } = kernelsHolding(walkLayout(arrays)));
  }

  /**
   * Raw scores, row-major n × k, of rows given as the forest's input columns, starting from initScores:
   * score4 over the rows in fours, score1 over the one to three left, in chunks of rows so that the
   * kernel memory stays small whatever the batch size.
   */
  rawScores(columns: (Float64Array | Int32Array)[], n: number, initScores: Float64Array): Float64Array {
    const { kernels, at } = this;
    const nf = columns.length;
    const k = initScores.length;
    const chunk = Math.min(CHUNK_ROWS, n);
    const xAt = this.end;
    const outAt = xAt + chunk * nf * 8;
    kernels.ensureBytes(outAt + chunk * k * 8);
    const x = new Float64Array(kernels.buffer, xAt, chunk * nf);
    const out = new Float64Array(kernels.buffer, outAt, chunk * k);
    const result = new Float64Array(n * k);
    for (let start = 0; start < n; start += chunk) {
      const rows = Math.min(chunk, n - start);
      const fours = rows - (rows % SCORE_LANES);
      rowMajorInputs(columns, start, rows, x);
      for (let r = 0; r < rows; r++) out.set(initScores, r * k);
      if (fours > 0) kernels.score4(xAt, nf, fours, at.treeRoot, this.numTrees, at.nodes, at.value, at.catBits, outAt, k);
      if (rows > fours) {
        kernels.score1(xAt + fours * nf * 8, nf, rows - fours, at.treeRoot, this.numTrees, at.nodes, at.value, at.catBits, outAt + fours * k * 8, k);
      }
      result.set(out.subarray(0, rows * k), start * k);
    }
    return result;
  }
}

/** x = rows start .. start+rows of the input columns, row by row. */
function rowMajorInputs(columns: (Float64Array | Int32Array)[], start: number, rows: number, x: Float64Array): void {
  const nf = columns.length;
  for (let f = 0; f < nf; f++) {
    const col = columns[f];
    for (let r = 0; r < rows; r++) x[r * nf + f] = col[start + r];
  }
}
