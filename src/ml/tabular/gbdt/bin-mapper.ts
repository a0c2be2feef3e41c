/**
 * Per-feature discretisation (LightGBM's BinMapper): numeric values → quantile bins plus a dedicated
 * missing bin; categorical codes → one bin per frequent level plus an "other / missing" bin.
 * Bin codes fit a Uint8 (≤ 255 value bins + 1 missing bin).
 */
import type { CategoricalColumn, FeatureColumn, NumericColumn } from '../../frame.js';
import { Rng } from './rng.js';

/** LightGBM bin_construct_sample_cnt: bin boundaries come from at most this many rows. */
const BIN_SAMPLE_ROWS = 200_000;
/** LightGBM min_data_in_bin. */
const MIN_DATA_IN_BIN = 3;

export interface NumericBins {
  kind: 'numeric';
  /** Value v falls in the first bin b with v <= upperBounds[b]; the last bound is +Infinity. */
  upperBounds: Float64Array;
  /** = upperBounds.length: the bin of NaN. */
  missingBin: number;
  hasMissing: boolean;
}

export interface CategoricalBins {
  kind: 'categorical';
  /** Training level names; levelToBin[code] is that level's bin. */
  levels: string[];
  levelToBin: Int32Array;
  /** Bin shared by missing, unseen and levels too rare to keep. */
  missingBin: number;
}

export type FeatureBins = NumericBins | CategoricalBins;

export function numBins(b: FeatureBins): number {
  return b.missingBin + 1;
}

/** False when the feature cannot separate any rows. */
export function isUseful(b: FeatureBins): boolean {
  return b.kind === 'numeric' ? b.upperBounds.length > 1 || b.hasMissing : b.missingBin >= 1;
}

export function fitBins(col: FeatureColumn, rows: Int32Array, maxBins: number, seed: number): FeatureBins {
  const sample = rows.length > BIN_SAMPLE_ROWS ? pick(rows, new Rng(seed).sample(rows.length, BIN_SAMPLE_ROWS)) : rows;
  return col.kind === 'numeric' ? fitNumeric(col, sample, maxBins) : fitCategorical(col, rows, maxBins);
}

function pick(rows: Int32Array, at: Int32Array): Int32Array {
  const out = new Int32Array(at.length);
  for (let i = 0; i < at.length; i++) out[i] = rows[at[i]];
  return out;
}

function fitNumeric(col: NumericColumn, rows: Int32Array, maxBins: number): NumericBins {
  const present = new Float64Array(rows.length);
  let k = 0;
  for (let i = 0; i < rows.length; i++) {
    const v = col.values[rows[i]];
    if (!Number.isNaN(v)) present[k++] = v;
  }
  const hasMissing = k < rows.length;
  const sorted = present.subarray(0, k).sort();
  const distinct: number[] = [];
  const counts: number[] = [];
  for (let i = 0; i < k; i++) {
    if (i > 0 && sorted[i] === sorted[i - 1]) counts[counts.length - 1]++;
    else {
      distinct.push(sorted[i]);
      counts.push(1);
    }
  }
  const upperBounds = Float64Array.from(greedyUpperBounds(distinct, counts, maxBins));
  return { kind: 'numeric', upperBounds, missingBin: upperBounds.length, hasMissing };
}

/** LightGBM's GreedyFindBin: equal-count bins, with very frequent values given a bin of their own. */
function greedyUpperBounds(distinct: number[], counts: number[], maxBins: number): number[] {
  const n = distinct.length;
  const bounds: number[] = [];
  const push = (v: number) => {
    if (bounds.length === 0 || bounds[bounds.length - 1] !== v) bounds.push(v);
  };
  if (n <= maxBins) {
    let inBin = 0;
    for (let i = 0; i < n - 1; i++) {
      inBin += counts[i];
      if (inBin >= MIN_DATA_IN_BIN) {
        const before = bounds.length;
        push((distinct[i] + distinct[i + 1]) / 2);
        if (bounds.length > before) inBin = 0;
      }
    }
    bounds.push(Infinity);
    return bounds;
  }
  const total = counts.reduce((a, b) => a + b, 0);
  let meanBinSize = total / maxBins;
  let restBins = maxBins;
  let restSamples = total;
  const big = counts.map((c) => c >= meanBinSize);
  for (let i = 0; i < n; i++)
    if (big[i]) {
      restBins--;
      restSamples -= counts[i];
    }
  meanBinSize = restSamples / restBins;
  const uppers: number[] = [];
  const lowers: number[] = [distinct[0]];
  let inBin = 0;
  for (let i = 0; i < n - 1; i++) {
    if (!big[i]) restSamples -= counts[i];
    inBin += counts[i];
    if (big[i] || inBin >= meanBinSize || (big[i + 1] && inBin >= Math.max(1, meanBinSize * 0.5))) {
      uppers.push(distinct[i]);
      lowers.push(distinct[i + 1]);
      if (uppers.length >= maxBins - 1) break;
      inBin = 0;
      if (!big[i]) {
        restBins--;
        meanBinSize = restSamples / restBins;
      }
    }
  }
  for (let i = 0; i < uppers.length; i++) push((uppers[i] + lowers[i + 1]) / 2);
  bounds.push(Infinity);
  return bounds;
}

function fitCategorical(col: CategoricalColumn, rows: Int32Array, maxBins: number): CategoricalBins {
  const counts = new Float64Array(col.levels.length);
  for (let i = 0; i < rows.length; i++) {
    const c = col.codes[rows[i]];
    if (c >= 0) counts[c]++;
  }
  const seen: number[] = [];
  for (let c = 0; c < counts.length; c++) if (counts[c] > 0) seen.push(c);
  seen.sort((a, b) => counts[b] - counts[a] || a - b);
  const kept = seen.slice(0, maxBins - 1);
  const missingBin = kept.length;
  const levelToBin = new Int32Array(col.levels.length).fill(missingBin);
  kept.forEach((code, bin) => (levelToBin[code] = bin));
  return { kind: 'categorical', levels: col.levels.slice(), levelToBin, missingBin };
}

export function valueToBin(b: NumericBins, v: number): number {
  if (Number.isNaN(v)) return b.missingBin;
  const ub = b.upperBounds;
  let lo = 0;
  let hi = ub.length - 1;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if (v <= ub[mid]) hi = mid;
    else lo = mid + 1;
  }
  return lo;
}

/** Maps a (possibly differently levelled) prediction column's codes to training bins, by level name. */
export function codeToBinTable(b: CategoricalBins, levels: string[]): Int32Array {
  const byName = new Map<string, number>();
  b.levels.forEach((name, code) => byName.set(name, b.levelToBin[code]));
  const table = new Int32Array(levels.length);
  for (let c = 0; c < levels.length; c++) table[c] = byName.get(levels[c]) ?? b.missingBin;
  return table;
}
