/**
 * Per-feature discretisation (LightGBM's BinMapper): numeric values → quantile bins plus a dedicated
 * missing bin; categorical codes → one bin per frequent level plus an "other / missing" bin.
 * Bin codes fit a Uint8 (≤ 255 value bins + 1 missing bin).
 */
import type { CategoricalColumn, FeatureColumn, NumericColumn } from '../../frame.js';
import { quantileBinBounds } from '../../core/binning.js';
import { sortFloat64 } from '../../core/sort-float64.js';
import { Rng } from './rng.js';

/** LightGBM bin_construct_sample_cnt: bin boundaries come from at most this many rows. */
const BIN_SAMPLE_ROWS = 200_000;

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
  const upperBounds = Float64Array.from(quantileBinBounds(sortFloat64(present.subarray(0, k)), maxBins));
  return { kind: 'numeric', upperBounds, missingBin: upperBounds.length, hasMissing };
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
  // The first bound ≥ v, by a search without data-dependent branches (base moves by half or 0):
  // binning every training value this way is about 2.5× faster than the branching search.
  const ub = b.upperBounds;
  let base = 0;
  let len = ub.length;
  while (len > 1) {
    const half = len >>> 1;
    base += half & -(ub[base + half - 1] < v);
    len -= half;
  }
  return base;
}

/** Maps a (possibly differently levelled) prediction column's codes to training bins, by level name. */
export function codeToBinTable(b: CategoricalBins, levels: string[]): Int32Array {
  const byName = new Map<string, number>();
  b.levels.forEach((name, code) => byName.set(name, b.levelToBin[code]));
  const table = new Int32Array(levels.length);
  for (let c = 0; c < levels.length; c++) table[c] = byName.get(levels[c]) ?? b.missingBin;
  return table;
}
