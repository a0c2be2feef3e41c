/** What a forecast session hands to its computation (a worker thread under jobs/) and gets back. */
import type { SavedForecast } from '../../ml/timeseries/forecast/saved-forecast.js';
import type { SeriesInput } from './series-rows.js';
import type { TargetGaps } from './target-gaps.js';
import type { PartialEdge } from './partial-edges.js';
import type { ForecastSpan } from './forecast-span.js';
import type { FarValue } from './far-values.js';

/** Fewest periods a forecast is fitted on: a session with fewer before its start date is a 400 when it is requested. */
export const MIN_TRAINING_PERIODS = 3;

export interface ForecastComputeInput extends SeriesInput {
  /** First and last requested periods (epoch ms). */
  startMs: number;
  endMs: number;
  /** Quantile levels of the prediction intervals, e.g. [0.05, …, 0.95]. */
  levels: number[];
}

export type ResultRow = Record<string, string>;

export interface ForecastComputeOutput {
  metrics: Record<string, number | string>;
  /** One row per requested period: timestamp and the point forecast. */
  data: ResultRow[];
  /** Rows of the quantile series, by level as String(level). */
  intervals: Record<string, ResultRow[]>;
  /** Target outliers and the values a smoothed series would give them (the fit uses the recorded values but for `farValues`): timestamp, <target>:actual, <target>:smooth. */
  outliers: ResultRow[];
  /** Values far outside the rest of the training series (a typo?), and whether the fit replaced them (far-values.ts). */
  farValues: FarValue[];
  method: string;
  /** Periods held out for the metrics (0 when the series is too short to spare any). */
  holdout: number;
  /** The held-out periods: timestamp, <target>:actual, <target>:predicted (what the metrics score). */
  holdoutRows: ResultRow[];
  /** The forecast's saved form (what a refit on new data or a chart needs). */
  savedModel: SavedForecast;
  /** Periods of the training data without a target value, filled by its imputation (null: none). */
  targetGaps: TargetGaps | null;
  /** The first and last periods of the training data when they hold less data than the others (partial-edges.ts). */
  partialEdges: PartialEdge[];
  /** The training data against the forecast's length (forecast-span.ts). */
  span: ForecastSpan;
}
