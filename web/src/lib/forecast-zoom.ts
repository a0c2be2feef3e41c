/**
 * Where a forecast chart opens. A week forecast after years of daily history is a sliver at the right
 * edge of the whole history; the chart opens instead on the forecast and a stretch of recent history
 * a few times its length (and at least the holdout), and the slider still reaches the rest.
 */

/** History shown before the forecast, in multiples of the forecast's length. */
const HISTORY_SPANS = 3;

/**
 * The time the chart opens at, or undefined when the whole history is short enough to show.
 * `historyTimes`: the history's times in order; the chart opens on one of them.
 */
export function forecastZoomStart(o: { historyTimes: readonly number[]; forecastStart: number; forecastEnd: number; holdoutStart?: number }): number | undefined {
  const span = Math.max(0, o.forecastEnd - o.forecastStart);
  if (!(span > 0) || o.historyTimes.length === 0) return undefined;
  let start = o.forecastStart - HISTORY_SPANS * span;
  if (o.holdoutStart !== undefined && o.holdoutStart < start) start = o.holdoutStart - span;
  if (!(start > o.historyTimes[0]!)) return undefined;
  // Months and years differ in length, so the arithmetic lands between observations (monthly data on
  // the 1st opened at 30 September): open at the first observation from there, a date the data has.
  return o.historyTimes.find((t) => t >= start) ?? start;
}
