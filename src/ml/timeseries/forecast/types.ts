/** Public types of the forecasting engine. */
import type { FarOutlier } from './far-outliers.js';
import type { OutlierResult } from './outliers.js';

/** Feature columns known in advance: one Float64Array per feature, over the training span and over the horizon. */
export interface ForecastXreg {
  train: Float64Array[];
  future: Float64Array[];
}

export interface ForecastOptions {
  /** Seasonal period m of the main seasonality; 1 = none. */
  period: number;
  /** Further seasonal periods, e.g. [24, 168] for hourly or [7, 365] for daily data. */
  extraPeriods?: number[];
  /**
   * Quantile levels p in (0, 1) to return, e.g. [0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95].
   * `quantiles[p]` is the series that the future value is expected to stay below with probability p.
   */
  levels?: number[];
  xreg?: ForecastXreg;
  /**
   * Restrict the candidates to these methods (naive, snaive, ets, damped, theta, arima, comb,
   * regression); default all that apply. With a single method no backtest is run.
   */
  methods?: string[];
}

/** Backtest errors of a candidate (rolling origin over the last windows of length h, averaged). */
export interface BacktestScore {
  mae: number;
  smape: number;
  mase: number;
}

export interface CandidateReport {
  method: string;
  backtest: BacktestScore;
}

/** Central prediction interval built from the quantiles p and 1 − p; its coverage is 1 − 2p. */
export interface PredictionInterval {
  lower: Float64Array;
  upper: Float64Array;
}

export interface ForecastResult {
  /** Point forecast (also the 0.5 quantile). */
  mean: Float64Array;
  /** Quantile forecasts keyed by level as given, formatted with String(p) (e.g. "0.05"). */
  quantiles: Record<string, Float64Array>;
  /**
   * Central intervals keyed by coverage String(1 − 2p) for each requested p < 0.5 (e.g. p = 0.05 → "0.9"):
   * lower = quantile p, upper = quantile 1 − p.
   */
  intervals: Record<string, PredictionInterval>;
  /** Name of the chosen method (a single model or a combination). */
  method: string;
  candidates: CandidateReport[];
  /** In-sample one-step fitted values of the chosen method, when it has them. */
  fitted?: Float64Array;
  /** Values far outside the rest of the series; those with `replaced` were fitted as their expected values. */
  farOutliers: FarOutlier[];
  /** The series' outliers as `smoothOutliers` finds them (the far values are among them), for a caller that lists them. */
  outliers: OutlierResult;
}

/**
 * What every candidate method produces: a Gaussian predictive distribution per horizon step.
 * Combinations average means and standard deviations (quantile averaging of normals).
 */
export interface PointForecast {
  mean: Float64Array;
  sd: Float64Array;
  fitted?: Float64Array;
  /**
   * Degrees of freedom of the spread when it was estimated from a few backtests (Student's t
   * quantiles); absent for a model's own Gaussian spread.
   */
  dof?: number;
}

/** A candidate method: fits on y and forecasts h steps. */
export interface Forecaster {
  name: string;
  run(y: Float64Array, h: number): PointForecast;
}
