/**
 * Values far outside the rest of a series — a typo such as 999 among values of 2 to 30 — which a
 * forecast must not be fitted on: one such point breaks the seasonal checks (Theta's autocorrelation
 * test) and the ETS model choice, and the combination of their forecasts goes flat (fpp2 a10 with one
 * value set to 999: forecast MAE 3.8 against the clean series' forecast, 0 with the point replaced).
 * R's `tsclean` replaces every `tsoutliers` point before fitting; here only the gross ones are, since
 * replacing every listed outlier made competition forecasts worse (jobs/compute/forecast-compute.ts).
 *
 * A far value is one of `smoothOutliers`' outliers that lies beyond the range of the values that are
 * not outliers by more than FAR_RANGES times that range — on the series' own scale or, when those
 * values are all above zero, on the log scale (`beyond`) — alone (neither neighbour is an outlier too: a
 * run of outliers is a new level or an episode, not a slip). Only one with a value on both sides is replaced, by the
 * value the robust decomposition expects there; at either end of the series nothing on the other side
 * says whether it is a mistake or the start of a new level (the last values of growing yearly series
 * often are), so it is kept and only reported.
 */
import { smoothOutliers, type OutlierResult } from './outliers.js';

/**
 * How far beyond the range of the other values, in multiples of that range, a value must lie. On the
 * M1, M3 and tourism training series (5,315) this replaces one point in each of 2 series (M3 quarterly
 * N0832: sMAPE on the test periods 5.42 → 6.29, N0847: 10.83 → 10.57) and keeps the last value of 1
 * (tourism Y22); bench:forecast's sMAPE and MASE are unchanged. At 1 range (and only a far neighbour ending a
 * run) interior points of 38 series were replaced, real spikes of tourism series among them (M260:
 * 21.8 → 27.8). A run of outliers is left alone: M1
 * MND19's four high months are an episode. Below a positive series (farSide), the log-scale rule
 * alone added 3 of those 5,315 series, M3 quarterly drops by factors of 2 to 9 in series of narrow
 * range (N0820: 748 among 6,802–10,004; N0816: 1,414 among 5,804–7,880; N0802's last value 126); on
 * their test periods the replaced fits did worse (N0816 sMAPE 3.84 → 4.92, N0820 24.93 → 41.63, its
 * test periods holding another such drop, 2,692): a real fall can be that deep. A dropped digit
 * divides by ten or more, so a positive value counts as a slip only below a tenth of the usual
 * lowest as well; that leaves those series as they were, and still catches a month keyed as 0 in
 * fpp2 a10 (its forecast 0.72 a month from the clean series' one; 0.02 with the rule).
 */
export const FAR_RANGES = 3;
/** A digit dropped divides a value by ten at least: a positive value is a slip only that far below the usual lowest. */
const DIGIT_SLIP = 10;

export interface FarOutlier {
  /** Position in the series. */
  index: number;
  value: number;
  /** The value the robust decomposition expects there (what a replaced point is fitted as). */
  expected: number;
  /** Whether the fit used `expected` in its place (a point inside the series) or the value as recorded (an end). */
  replaced: boolean;
  /** The lowest and highest of the values that are not outliers. */
  usualLow: number;
  usualHigh: number;
  /** The scale it is far on: 'range' beyond the usual range, 'ratio' below it on the log scale (a zero or a dropped digit). */
  beyond: 'range' | 'ratio';
}

/**
 * Which way a value is far from the usual values low..high, if it is. On the series' own scale, by
 * FAR_RANGES ranges either way; that catches a typo upwards (an extra digit: 999 among 2 to 30) but
 * never one downwards in a positive series whose range reaches near zero (0, 9 or -5000 among 2,000
 * to 9,000 are all within 3 ranges below 2,000). Digit slips are multiplicative, so for a series of
 * positive values the same rule is applied to the logs too: below low by over FAR_RANGES times the
 * log range (9 among 2,000–9,000: under 2,000 / 4.5³ ≈ 22) and by a factor of DIGIT_SLIP, and a
 * zero or a negative value among them. Upwards the log rule is implied by the linear one (high·r³ − high ≥ 3·(high − low) for
 * r = high / low ≥ 1), so it adds nothing there. A series that touches zero (counts, intermittent
 * demand) has low ≤ 0 and keeps the linear rule alone.
 */
export function farSide(v: number, low: number, high: number): FarOutlier['beyond'] | undefined {
  const range = high - low;
  if (v > high + FAR_RANGES * range || v < low - FAR_RANGES * range) return 'range';
  if (low > 0 && (v <= 0 || (v < low / DIGIT_SLIP && Math.log(low / v) > FAR_RANGES * Math.log(high / low)))) return 'ratio';
  return undefined;
}

/**
 * The far values of y (period m), ascending; `excluded(t)` keeps a point out (a declared event explains
 * it). `found`: y's smoothOutliers, when the caller has them.
 */
export function farOutliers(y: Float64Array, m: number, excluded: (t: number) => boolean = () => false, found: OutlierResult = smoothOutliers(y, m)): FarOutlier[] {
  if (found.indices.length === 0) return [];
  const flagged = new Set(found.indices);
  let low = Infinity, high = -Infinity;
  for (let t = 0; t < y.length; t++) {
    if (flagged.has(t)) continue;
    low = Math.min(low, y[t]);
    high = Math.max(high, y[t]);
  }
  if (!(high - low > 0)) return [];
  return found.indices
    .filter((t) => !flagged.has(t - 1) && !flagged.has(t + 1) && !excluded(t))
    .flatMap((t) => {
      const beyond = farSide(y[t], low, high);
      return beyond ? [{ index: t, value: y[t], expected: found.smoothed[t], replaced: t > 0 && t < y.length - 1, usualLow: low, usualHigh: high, beyond }] : [];
    });
}

/** y with the replaced far values set to their expected values (y itself when there are none). */
export function withoutFarOutliers(y: Float64Array, far: FarOutlier[]): Float64Array {
  if (!far.some((o) => o.replaced)) return y;
  const out = Float64Array.from(y);
  for (const o of far) if (o.replaced) out[o.index] = o.expected;
  return out;
}
