/**
 * Rows as Uint8 bin codes, column-major (feature f's at f*nRows ..), as read when partitioning a leaf
 * on one feature and walking trees on bins; training-memory.ts adds a row-major copy for histograms.
 */
import type { FeatureColumn, Frame } from '../../frame.js';
import { type FeatureBins, codeToBinTable, numBins, valueToBin } from './bin-mapper.js';

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
    for (let i = 0; i < n; i++) out[i] = valueToBin(b, col.values[rows[i]]);
  } else if (b.kind === 'categorical' && col.kind === 'categorical') {
    const table = codeToBinTable(b, col.levels);
    for (let i = 0; i < n; i++) {
      const c = col.codes[rows[i]];
      out[i] = c >= 0 && c < table.length ? table[c] : b.missingBin;
    }
  } else throw new Error(`GBDT: column ${col.name} changed kind`);
}
