/**
 * Best split of one leaf from its histogram. Gain is LightGBM's: G_L²/(H_L+λ) + G_R²/(H_R+λ) − G²/(H+λ).
 */
import type { ResolvedGbdtParams } from './params.js';
import type { FeatureLayout } from './binned-data.js';
import { HIST_STRIDE } from './histogram.js';
import type { NumericBins } from './bin-mapper.js';

/** Module-local copy: hot loops then read a constant rather than an imported binding. */
const STRIDE = HIST_STRIDE;

export interface LeafSums {
  grad: number;
  hess: number;
  /** Rows; in a split's children an estimate from the hessians (see histogram.ts). */
  count: number;
}

export interface SplitInfo {
  /** Gain over not splitting; ≤ 0 = no usable split. */
  gain: number;
  feature: number;
  /** Numeric: bins ≤ threshold go left. */
  thresholdBin: number;
  /** Where missing values (the missing bin) go; for categorical splits, the missing bin's side. */
  defaultLeft: boolean;
  /** Categorical: leftBins[bin] = 1 for bins sent left. */
  leftBins: Uint8Array | null;
  left: LeafSums;
  right: LeafSums;
}

export function noSplit(): SplitInfo {
  return { gain: 0, feature: -1, thresholdBin: 0, defaultLeft: false, leftBins: null, left: zero(), right: zero() };
}

function zero(): LeafSums {
  return { grad: 0, hess: 0, count: 0 };
}

export function leafGain(g: number, h: number, lambda: number): number {
  return (g * g) / (h + lambda);
}

/**
 * The best split of a leaf among the given features that may still split it (splittable[f] = 1); a
 * feature with no split of positive gain here gets splittable[f] = 0, which its descendants inherit
 * (LightGBM's is_splittable: they are not scanned again, nor their histograms built).
 */
export function findBestSplit(
  hist: Float64Array,
  layout: FeatureLayout,
  features: Int32Array,
  sums: LeafSums,
  p: ResolvedGbdtParams,
  splittable: Uint8Array,
): SplitInfo {
  const best = noSplit();
  for (let fi = 0; fi < features.length; fi++) {
    const f = features[fi];
    if (splittable[f] === 0) continue;
    const any = layout.isCategorical[f] ? categoricalSplit(hist, layout, f, sums, p, best) : numericSplit(hist, layout, f, sums, p, best);
    if (!any) splittable[f] = 0;
  }
  return best;
}

/** Whether any threshold had a positive gain. */
function numericSplit(hist: Float64Array, layout: FeatureLayout, f: number, sums: LeafSums, p: ResolvedGbdtParams, best: SplitInfo): boolean {
  const off = layout.binOffset[f] * STRIDE;
  const m = layout.missingBin[f];
  const mg = hist[off + m * STRIDE];
  const mh = hist[off + m * STRIDE + 1];
  const lambda = p.lambdaL2;
  const G = sums.grad;
  const H = sums.hess;
  const cntFactor = sums.count / H;
  // minDataInLeaf as a hessian bound (counts are hessian × cntFactor, rounded), so the scan adds no counts.
  const minLeafHess = Math.max(p.minSumHessianInLeaf, (p.minDataInLeaf - 0.5) / cntFactor);
  const parentGain = leafGain(G, H, lambda);
  // Any row in the missing bin adds hessian (objectives floor it above zero).
  const hasMissing = mh > 0;
  let cg = 0;
  let ch = 0;
  // Candidates must beat `bar`: 0 until this feature shows a positive gain (it stays splittable), then
  // the best gain so far, as one comparison per candidate either way.
  let any = false;
  let bar = 0;
  if (!hasMissing) {
    // No missing values here: one scan; unseen NaN will follow zero (LightGBM's treatment).
    for (let t = 0; t < m - 1; t++) {
      const s = off + t * STRIDE;
      cg += hist[s];
      ch += hist[s + 1];
      if (ch < minLeafHess) continue;
      const rh = H - ch;
      if (rh < minLeafHess) break;
      const rg = G - cg;
      const gain = (cg * cg) / (ch + lambda) + (rg * rg) / (rh + lambda) - parentGain;
      if (gain > bar) {
        any = true;
        if (gain > best.gain) recordNumeric(best, f, gain, t, 0 <= (layout.bins[f] as NumericBins).upperBounds[t], cg, ch, sums, cntFactor);
        bar = best.gain;
      }
    }
    return any;
  }
  // Missing values present: try them on each side; t = m-1 (every value left) isolates them.
  for (let t = 0; t < m; t++) {
    const s = off + t * STRIDE;
    cg += hist[s];
    ch += hist[s + 1];
    for (let missLeft = 0; missLeft < (t < m - 1 ? 2 : 1); missLeft++) {
      const lg = missLeft ? cg + mg : cg;
      const lh = missLeft ? ch + mh : ch;
      const rh = H - lh;
      if (lh < minLeafHess || rh < minLeafHess) continue;
      const rg = G - lg;
      const gain = (lg * lg) / (lh + lambda) + (rg * rg) / (rh + lambda) - parentGain;
      if (gain > bar) {
        any = true;
        if (gain > best.gain) recordNumeric(best, f, gain, t, missLeft === 1, lg, lh, sums, cntFactor);
        bar = best.gain;
      }
    }
  }
  return any;
}

function recordNumeric(
  best: SplitInfo, f: number, gain: number, t: number, defaultLeft: boolean, lg: number, lh: number, sums: LeafSums, cntFactor: number,
): void {
  best.gain = gain;
  best.feature = f;
  best.thresholdBin = t;
  best.defaultLeft = defaultLeft;
  best.leftBins = null;
  const lc = Math.round(lh * cntFactor);
  set(best.left, lg, lh, lc);
  set(best.right, sums.grad - lg, sums.hess - lh, sums.count - lc);
}

/**
 * LightGBM's categorical search: ≤ maxCatToOnehot bins → one category vs the rest; otherwise the
 * categories with enough rows are sorted by grad/(hess + catSmooth) and the best prefix (from either end,
 * at most maxCatThreshold categories) goes left. Bins left out of the search go right.
 */
function categoricalSplit(hist: Float64Array, layout: FeatureLayout, f: number, sums: LeafSums, p: ResolvedGbdtParams, best: SplitInfo): boolean {
  const off = layout.binOffset[f] * STRIDE;
  const nb = layout.numBins[f];
  const cntFactor = sums.count / sums.hess;
  const minData = p.minDataInLeaf;
  const minHess = p.minSumHessianInLeaf;
  let any = false;
  if (nb <= p.maxCatToOnehot) {
    const parentGain = leafGain(sums.grad, sums.hess, p.lambdaL2);
    for (let t = 0; t < nb; t++) {
      const s = off + t * STRIDE;
      const lg = hist[s];
      const lh = hist[s + 1];
      const lc = Math.round(lh * cntFactor);
      const rc = sums.count - lc;
      const rh = sums.hess - lh;
      if (lc < minData || rc < minData || lh < minHess || rh < minHess) continue;
      const rg = sums.grad - lg;
      const gain = leafGain(lg, lh, p.lambdaL2) + leafGain(rg, rh, p.lambdaL2) - parentGain;
      if (gain > 0) any = true;
      if (gain > best.gain) recordCategorical(best, f, gain, Int32Array.of(t), nb, layout.missingBin[f], lg, lh, lc, rg, rh, rc);
    }
    return any;
  }
  const lambda = p.lambdaL2 + p.catL2;
  const parentGain = leafGain(sums.grad, sums.hess, lambda);
  const sorted: number[] = [];
  for (let t = 0; t < nb; t++) if (Math.round(hist[off + t * STRIDE + 1] * cntFactor) >= p.catSmooth) sorted.push(t);
  const ratio = (t: number) => hist[off + t * STRIDE] / (hist[off + t * STRIDE + 1] + p.catSmooth);
  sorted.sort((a, b) => ratio(a) - ratio(b) || a - b);
  const used = sorted.length;
  const maxNumCat = Math.min(p.maxCatThreshold, (used + 1) >> 1);
  const minGroup = p.minDataPerCategoryGroup;
  for (const dir of [1, -1]) {
    let pos = dir === 1 ? 0 : used - 1;
    let lg = 0;
    let lh = 0;
    let lc = 0;
    let groupCount = 0;
    for (let i = 0; i < used && i < maxNumCat; i++, pos += dir) {
      const s = off + sorted[pos] * STRIDE;
      lg += hist[s];
      lh += hist[s + 1];
      const c = Math.round(hist[s + 1] * cntFactor);
      lc += c;
      groupCount += c;
      if (lc < minData || lh < minHess) continue;
      const rc = sums.count - lc;
      const rh = sums.hess - lh;
      if (rc < minData || rc < minGroup || rh < minHess) break;
      if (groupCount < minGroup) continue;
      groupCount = 0;
      const rg = sums.grad - lg;
      const gain = leafGain(lg, lh, lambda) + leafGain(rg, rh, lambda) - parentGain;
      if (gain > 0) any = true;
      if (gain > best.gain) {
        const left = new Int32Array(i + 1);
        for (let k = 0; k <= i; k++) left[k] = sorted[dir === 1 ? k : used - 1 - k];
        recordCategorical(best, f, gain, left, nb, layout.missingBin[f], lg, lh, lc, rg, rh, rc);
      }
    }
  }
  return any;
}

function recordCategorical(
  best: SplitInfo, f: number, gain: number, leftList: Int32Array, nb: number, missingBin: number,
  lg: number, lh: number, lc: number, rg: number, rh: number, rc: number,
): void {
  const leftBins = new Uint8Array(nb);
  for (const b of leftList) leftBins[b] = 1;
  best.gain = gain;
  best.feature = f;
  best.thresholdBin = -1;
  best.leftBins = leftBins;
  best.defaultLeft = leftBins[missingBin] === 1;
  set(best.left, lg, lh, lc);
  set(best.right, rg, rh, rc);
}

function set(s: LeafSums, g: number, h: number, c: number): void {
  s.grad = g;
  s.hess = h;
  s.count = c;
}
