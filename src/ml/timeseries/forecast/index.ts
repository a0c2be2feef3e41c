/** Sibyl's univariate forecasting engine (pure computation: typed arrays in, forecasts out). */
export { forecast } from './forecast.js';
export { smoothOutliers, type OutlierResult } from './outliers.js';
export { type FarOutlier } from './far-outliers.js';
export { isFlagColumn } from './stats.js';
export type { BacktestScore, CandidateReport, ForecastOptions, ForecastResult, ForecastXreg, PredictionInterval } from './types.js';
