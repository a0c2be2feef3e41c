/**
 * Values for the missing points of a series (NaN), as R's forecast::na.interp fills them: a
 * non-seasonal series (or one shorter than two cycles) linearly between its neighbours; a seasonal
 * one by linear interpolation of the seasonally adjusted series, its seasonal figure added back.
 * A missing cell is neither the column's mean nor zero: either would be a value nobody observed,
 * far off the series' level where it trends (a10's mean 9.5 in a year when it ran at 16–20).
 */
import { centredMovingAverage } from './forecast/decompose.js';

/** The series with its missing points filled (a copy); leading and trailing gaps take the nearest value. */
export function interpolateMissing(y: Float64Array, period = 1): Float64Array {
  const linear = linearFill(y);
  if (period <= 1 || y.length < 2 * period || linear.length === y.filter(Number.isFinite).length) return linear;
  const figure = seasonalFigureOfObserved(y, linear, period);
  const adjusted = linearFill(y.map((v, t) => v - figure[t % period]));
  return adjusted.map((v, t) => (Number.isFinite(y[t]) ? y[t] : v + figure[t % period]));
}

function linearFill(y: Float64Array): Float64Array {
  const out = Float64Array.from(y);
  if (!y.some(Number.isFinite)) return out;
  let previous = -1;
  for (let t = 0; t <= y.length; t++) {
    if (t < y.length && !Number.isFinite(y[t])) continue;
    for (let k = previous + 1; k < t; k++) {
      out[k] = previous < 0 ? y[t] : t === y.length ? y[previous] : y[previous] + ((y[t] - y[previous]) * (k - previous)) / (t - previous);
    }
    previous = t;
  }
  return out;
}

/** Additive seasonal indices (mean 0) from the observed points only, around a trend of the first fill. */
function seasonalFigureOfObserved(y: Float64Array, filled: Float64Array, period: number): Float64Array {
  const trend = centredMovingAverage(filled, period);
  const sums = new Float64Array(period);
  const counts = new Float64Array(period);
  for (let t = 0; t < y.length; t++) {
    if (!Number.isFinite(y[t]) || !Number.isFinite(trend[t])) continue;
    sums[t % period] += y[t] - trend[t];
    counts[t % period]++;
  }
  const figure = sums.map((s, j) => (counts[j] > 0 ? s / counts[j] : 0));
  const mean = figure.reduce((a, b) => a + b, 0) / period;
  return figure.map((v) => v - mean);
}
