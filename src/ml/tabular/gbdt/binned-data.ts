/**
 * Rows as Uint8 bin codes, column-major (feature f's at f*nRows ..), as read when partitioning a leaf
 * on one feature and walking trees on bins; training-memory.ts adds a row-major copy for histograms.
 */
import type { FeatureColumn, Frame } from '../../frame.js';
import { type FeatureBins, type NumericBins, codeToBinTable, numBins } from './bin-mapper.js';
import { Kernels } from './wasm-kernels.js';

/** Layout of the used features: where each feature's bins sit in a histogram. */
export interface FeatureLayout {
  /** Frame column index of each used feature. */
  column: Int32Array;
  bins: FeatureBins[];
  numBins: Int32Array;
  missingBin: Int32Array;
  isCategorical: Uint8Array;
  /** First histogram slot of each feature; the last entry is the total number of bins. */
  binOffset: Int32Array;
}

export function makeLayout(columns: number[], bins: FeatureBins[]): FeatureLayout {
  const n = columns.length;
  const binOffset = new Int32Array(n + 1);
  for (let f = 0; f < n; f++) binOffset[f + 1] = binOffset[f] + numBins(bins[f]);
  return {
    column: Int32Array.from(columns),
    bins,
    numBins: Int32Array.from(bins, numBins),
    missingBin: Int32Array.from(bins, (b) => b.missingBin),
    isCategorical: Uint8Array.from(bins, (b) => (b.kind === 'categorical' ? 1 : 0)),
    binOffset,
  };
}

export interface BinnedRows {
  nRows: number;
  codes: Uint8Array;
}

export function binRows(frame: Frame, layout: FeatureLayout, rows: Int32Array): BinnedRows {
  const n = rows.length;
  const codes = new Uint8Array(layout.bins.length * n);
  layout.bins.forEach((b, f) => binColumn(b, frame.columns[layout.column[f]], rows, codes.subarray(f * n, (f + 1) * n)));
  return { nRows: n, codes };
}

/** out[i] = the bin of column col's value in row rows[i]. */
export function binColumn(b: FeatureBins, col: FeatureColumn, rows: Int32Array, out: Uint8Array): void {
  const n = rows.length;
  if (b.kind === 'numeric' && col.kind === 'numeric') {
    binNumeric(b, col.values, rows, out);
  } else if (b.kind === 'categorical' && col.kind === 'categorical') {
    const table = codeToBinTable(b, col.levels);
    for (let i = 0; i < n; i++) {
      const c = col.codes[rows[i]];
      out[i] = c >= 0 && c < table.length ? table[c] : b.missingBin;
    }
  } else throw new Error(`GBDT: column ${col.name} changed kind`);
}

/** Rows per binning kernel call: a chunk's values and bins stay in the L2 cache. */
const CHUNK_ROWS = 16384;
/** Room for a feature's upper bounds padded to a power of two (at most 255 bounds: bin codes are bytes). */
const CUTS_BYTES = 256 * 8;

/** This thread's kernel memory for binning (the bounds, a chunk of values, its bins), made at first use. */
let binKernels: Kernels | null = null;

/**
 * out[i] = valueToBin(b, values[rows[i]]) (bin-mapper.ts), by the wasm binColumn kernel a chunk of rows at
 * a time: the same branch-free search over the bounds, padded with +∞ to a power of two, at about a third
 * of the JS loop's cost (a fit bins every training value of every feature).
 */
function binNumeric(b: NumericBins, values: Float64Array, rows: Int32Array, out: Uint8Array): void {
  const kernels = (binKernels ??= new Kernels(CUTS_BYTES + CHUNK_ROWS * 9));
  const valuesAt = CUTS_BYTES;
  const binsAt = valuesAt + CHUNK_ROWS * 8;
  const bounds = b.upperBounds;
  let steps = 0;
  while (1 << steps < bounds.length) steps++;
  const cuts = new Float64Array(kernels.buffer, 0, 1 << steps).fill(Infinity);
  cuts.set(bounds);
  const chunkValues = new Float64Array(kernels.buffer, valuesAt, CHUNK_ROWS);
  const chunkBins = new Uint8Array(kernels.buffer, binsAt, CHUNK_ROWS);
  for (let start = 0; start < rows.length; start += CHUNK_ROWS) {
    const m = Math.min(CHUNK_ROWS, rows.length - start);
    for (let i = 0; i < m; i++) chunkValues[i] = values[rows[start + i]];
    kernels.binColumn(valuesAt, m, 0, steps, binsAt, 1, b.missingBin);
    out.set(chunkBins.subarray(0, m), start);
  }
}
