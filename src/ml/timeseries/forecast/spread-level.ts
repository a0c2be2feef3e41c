/**
 * Which power of a positive seasonal series makes its seasonal swing independent of its level: Tukey's
 * spread-versus-level rule. If the spread of each cycle grows as level^b, the power 1 − b steadies it
 * (b = 1, a swing proportional to the level: the log). Sales and passenger counts swing in proportion;
 * an additive profile fitted to them takes the early small swings as the pattern and the late large ones
 * as outliers.
 */
import { median, quantileSorted } from '../../core/statistics.js';

/** Cycles needed to estimate b: with fewer, the slope rests on one or two level differences. */
const MIN_CYCLES = 4;

/**
 * Slopes below this many standard errors from 0 leave the series as it is: a level that hardly moves
 * (or noise on a flat series) gives a slope that means nothing, and a power taken from it would
 * distort a series that needs none.
 */
const MIN_T = 2;

/**
 * Box–Cox power λ in [0, 1] for y with period m and a trend of it: 1 (unchanged) unless the log spread
 * of the cycles (interquartile range of y − trend in each full cycle) rises with their log level (the
 * median of y in the cycle) clearly enough.
 */
export function spreadLevelPower(y: Float64Array, trend: Float64Array, m: number): number {
  const cycles = Math.floor(y.length / m);
  if (m < 2 || cycles < MIN_CYCLES || !y.every((v) => v > 0)) return 1;
  const x: number[] = [];
  const s: number[] = [];
  for (let c = 0; c < cycles; c++) {
    const from = c * m;
    const detrended = Float64Array.from({ length: m }, (_, k) => y[from + k] - trend[from + k]).sort();
    const spread = quantileSorted(detrended, 0.75) - quantileSorted(detrended, 0.25);
    if (!(spread > 0)) continue;
    x.push(Math.log(median(y.subarray(from, from + m))));
    s.push(Math.log(spread));
  }
  const k = x.length;
  if (k < MIN_CYCLES) return 1;
  const mx = x.reduce((a, v) => a + v, 0) / k;
  const ms = s.reduce((a, v) => a + v, 0) / k;
  let sxx = 0, sxs = 0;
  for (let i = 0; i < k; i++) { sxx += (x[i] - mx) ** 2; sxs += (x[i] - mx) * (s[i] - ms); }
  if (!(sxx > 0)) return 1;
  const b = sxs / sxx;
  let rss = 0;
  for (let i = 0; i < k; i++) rss += (s[i] - ms - b * (x[i] - mx)) ** 2;
  const se = Math.sqrt(rss / (k - 2) / sxx);
  if (!(b > MIN_T * se)) return 1;
  return Math.max(0, 1 - b);
}

/** Box–Cox transform (log at λ = 0). */
export function boxCox(y: Float64Array, lambda: number): Float64Array {
  return y.map((v) => (lambda === 0 ? Math.log(v) : (v ** lambda - 1) / lambda));
}

/** Inverse of boxCox; a value below the transform's range maps to 0. */
export function inverseBoxCox(z: number, lambda: number): number {
  return lambda === 0 ? Math.exp(z) : Math.max(lambda * z + 1, 0) ** (1 / lambda);
}
