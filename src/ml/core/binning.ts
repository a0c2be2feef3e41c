/**
 * The one binner of numeric features (LightGBM's GreedyFindBin), shared by the GBDT and the forests:
 * equal-count bins, very frequent values in a bin of their own, bounds midway between neighbouring
 * distinct values.
 */

/** LightGBM's min_data_in_bin default. */
export const MIN_DATA_IN_BIN = 3;

/**
 * Upper bounds of at most maxBins bins over ascending values without NaN: value v falls in the first
 * bin b with v <= bounds[b]; the last bound is +Infinity. With at most maxBins distinct values, a bin
 * closes once it holds minDataInBin rows (1: every distinct value its own bin).
 */
export function quantileBinBounds(sorted: ArrayLike<number>, maxBins: number, minDataInBin = MIN_DATA_IN_BIN): number[] {
  // Typed arrays, not pushes onto number[]: this pass over every training value of every column was a
  // tenth of a 40k-row GBDT fit.
  const distinct = new Float64Array(sorted.length);
  const counts = new Int32Array(sorted.length);
  let n = 0;
  for (let i = 0; i < sorted.length; i++) {
    const v = sorted[i];
    if (n > 0 && v === distinct[n - 1]) counts[n - 1]++;
    else {
      distinct[n] = v;
      counts[n++] = 1;
    }
  }
  return greedyUpperBounds(distinct, counts, n, maxBins, minDataInBin);
}

/** Over the first n entries of distinct (ascending) and their counts. */
function greedyUpperBounds(distinct: Float64Array, counts: Int32Array, n: number, maxBins: number, minDataInBin: number): number[] {
  const bounds: number[] = [];
  const push = (v: number) => {
    if (bounds.length === 0 || bounds[bounds.length - 1] !== v) bounds.push(v);
  };
  if (n <= maxBins) {
    let inBin = 0;
    for (let i = 0; i < n - 1; i++) {
      inBin += counts[i];
      if (inBin >= minDataInBin) {
        const before = bounds.length;
        push((distinct[i] + distinct[i + 1]) / 2);
        if (bounds.length > before) inBin = 0;
      }
    }
    bounds.push(Infinity);
    return bounds;
  }
  let total = 0;
  for (let i = 0; i < n; i++) total += counts[i];
  let meanBinSize = total / maxBins;
  let restBins = maxBins;
  let restSamples = total;
  const big = new Uint8Array(n);
  for (let i = 0; i < n; i++) big[i] = counts[i] >= meanBinSize ? 1 : 0;
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

