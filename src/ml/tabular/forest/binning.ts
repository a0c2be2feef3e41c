/**
 * Quantile binning of feature columns with the shared binner (ml/core/binning.ts, LightGBM's): each
 * column becomes Uint8 bin codes, bin 0 = missing, bins 1..B = value ranges.
 * Categorical codes are binned as ordinal numbers (like scikit-learn's forest on ordinal codes).
 */
import type { FeatureColumn, Frame } from '../../frame.js';
import { quantileBinBounds } from '../../core/binning.js';
import { sortFloat64 } from '../../core/sort-float64.js';

export const MAX_BINS = 255;

export interface BinnedFrame {
  nRows: number;
  bins: Uint8Array[]; // per feature, one code per row
  /**
   * Per feature, indexed by bin code (length = number of codes, missing included): the smallest /
   * largest training value in each bin; split thresholds are placed between them.
   */
  binLow: Float64Array[];
  binHigh: Float64Array[];
}

/** Column values as numbers; categorical code −1 (missing/unseen) becomes NaN. */
export function numericValues(col: FeatureColumn): Float64Array {
  if (col.kind === 'numeric') return col.values;
  const out = new Float64Array(col.codes.length);
  for (let i = 0; i < out.length; i++) out[i] = col.codes[i] < 0 ? NaN : col.codes[i];
  return out;
}

/**
 * Edges between bins (midway between neighbouring distinct values) from the shared binner: every
 * distinct value its own bin when there are at most maxBins of them (exact splits, as scikit-learn's
 * unbinned trees have), else at most maxBins bins of similar row counts, very frequent values alone.
 */
export function fitUpperEdges(values: Float64Array, maxBins = MAX_BINS): Float64Array {
  const bounds = quantileBinBounds(sortFloat64(values.filter((v) => !Number.isNaN(v))), maxBins, 1);
  return Float64Array.from(bounds.slice(0, -1)); // the last bound is +Infinity
}

/** Bin code of a value: 0 for NaN, else 1 + number of edges below it. */
export function binOf(edges: Float64Array, v: number): number {
  if (Number.isNaN(v)) return 0;
  let lo = 0;
  let hi = edges.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (edges[mid] < v) lo = mid + 1;
    else hi = mid;
  }
  return lo + 1;
}

export function binFrame(frame: Frame, maxBins = MAX_BINS): BinnedFrame {
  const bins: Uint8Array[] = [];
  const binLow: Float64Array[] = [];
  const binHigh: Float64Array[] = [];
  for (const col of frame.columns) {
    const values = numericValues(col);
    const edges = fitUpperEdges(values, maxBins);
    const codes = new Uint8Array(frame.nRows);
    const low = new Float64Array(edges.length + 2).fill(Infinity);
    const high = new Float64Array(edges.length + 2).fill(-Infinity);
    for (let i = 0; i < frame.nRows; i++) {
      const b = binOf(edges, values[i]);
      codes[i] = b;
      if (values[i] < low[b]) low[b] = values[i];
      if (values[i] > high[b]) high[b] = values[i];
    }
    bins.push(codes);
    binLow.push(low);
    binHigh.push(high);
  }
  return { nRows: frame.nRows, bins, binLow, binHigh };
}
