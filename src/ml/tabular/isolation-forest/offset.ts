/**
 * Where the decision function crosses zero (decision = score_samples − offset; negative = anomaly).
 *
 * Clean training data (containsAnomalies = false): scikit-learn's contamination='auto',
 * offset = −0.5 — a row is anomalous when it is isolated faster than an average row would be
 * (E[h] < c(ψ), the criterion of the original paper).
 *
 * Training data that contains anomalies (the default): the contamination is estimated from the
 * data as the share of training rows meeting that same criterion, at most MAX_CONTAMINATION
 * (anomalies are the minority by definition), and the offset is the training scores' quantile at
 * that share. On the ODDS tables this estimate is 0.12 / 0.38 / 0.27 / 0.12 / 0.11 for true rates
 * 0.07 / 0.35 / 0.36 / 0.35 / 0.04 (shuttle, breastw, ionosphere, pima, glass); the former fixed
 * cap of 10 % was 0.25 off on the three common-anomaly tables. Its known weakness: on
 * low-dimensional data ordinary rows in the sparse fringe also fall below −0.5 (about 17 % of a
 * clean 2-d sample), so a caller who knows the share passes it (`contamination`), and every row
 * also gets a tail probability (tail.ts) that does not depend on the threshold.
 *
 * One feature (a series' values, a single measurement): there the fringe is all there is, and the
 * −0.5 criterion flagged a mean 0.22 of each of NAB's 58 series (up to the 0.5 cap; nyc_taxi 0.47)
 * where 0.089 lie in the labelled anomaly windows. A value is anomalous there when it lies beyond
 * the bulk, so the share is the rows scoring below Tukey's lower fence of the training scores
 * (Q1 − 1.5 IQR): 0.083 on NAB; on clean data it flags the few rows past the fence, not a fifth.
 * A series' value with its deviation from the usual value at its time (ml/timeseries/seasonal-baseline.ts)
 * is still one measurement: 0.066 flagged on NAB, where counted as two features the criterion took 0.17.
 */
import { quantileSorted } from '../../core/statistics.js';

export const MAX_CONTAMINATION = 0.5;

/**
 * Below this many rows the share flagged without a given contamination is mostly the criterion's
 * small-sample bias: on the clean rows alone of breastw, pima, shuttle and glass (10 draws each) it
 * flags 31–33 % of 12 rows, 20–32 % of 25, 17–27 % of 50, 13–19 % of 100 and 10–13 % of 200.
 */
export const FEW_ROWS_FOR_ESTIMATED_SHARE = 200;
const AVERAGE_ISOLATION_SCORE = -0.5;

export interface Threshold {
  offset: number;
  /** Share of training rows scoring below the offset (flagged as anomalous). */
  contamination: number;
}

/**
 * `contamination`, when given (0 < c ≤ MAX_CONTAMINATION), is the share of training rows to flag;
 * `features` is the number of measurements the forest's inputs describe.
 */
export function decisionThreshold(trainingScores: Float64Array, containsAnomalies: boolean, contamination?: number, features = 2): Threshold {
  const sorted = Float64Array.from(trainingScores).sort();
  let offset = AVERAGE_ISOLATION_SCORE;
  if (contamination !== undefined) {
    if (!(contamination > 0 && contamination <= MAX_CONTAMINATION)) throw new Error(`contamination must be in (0, ${MAX_CONTAMINATION}], got ${contamination}`);
    offset = quantileSorted(sorted, contamination);
  } else if (containsAnomalies && features === 1) {
    const q1 = quantileSorted(sorted, 0.25);
    offset = Math.min(q1 - 1.5 * (quantileSorted(sorted, 0.75) - q1), quantileSorted(sorted, MAX_CONTAMINATION));
  } else if (containsAnomalies) {
    offset = Math.min(AVERAGE_ISOLATION_SCORE, quantileSorted(sorted, MAX_CONTAMINATION));
  }
  let below = 0;
  while (below < sorted.length && sorted[below] < offset) below++;
  return { offset, contamination: below / sorted.length };
}
