/**
 * A forecast session's computation (worker thread): the target series on the result interval,
 * metrics from a holdout of the last periods, then the forecast of the requested periods by a refit
 * on all data, with one quantile series per prediction level. Like the original service, the series
 * is tried as it is and with its outliers smoothed, and a backtest on its last periods decides which
 * one is fitted. The metrics measure that whole procedure: run on the data before the holdout (outliers
 * found, raw or smoothed chosen, model fitted), it never sees the held-out periods.
 */
import { zeroFloorIfNeverNegative } from '../../ml/core/statistics.js';
import { forecast, smoothOutliers, type ForecastOptions, type ForecastResult, type ForecastXreg } from '../../ml/timeseries/forecast/index.js';
import { saveForecast } from '../../ml/timeseries/forecast/saved-forecast.js';
import { mae, mase } from '../../ml/timeseries/forecast/metrics.js';
import { regressionMetrics } from '../../ml/metrics/regression.js';
import { seasonalPeriods } from '../../ml/timeseries/prepare.js';
import { finiteOrNaN } from '../../domain/metric-values.js';
import { indexOf, periodLabel, toGrid, type SeriesGrid } from '../../service/timeseries/series-grid.js';
import { targetGaps } from '../../service/timeseries/target-gaps.js';
import { partialEdges } from '../../service/timeseries/partial-edges.js';
import type { ForecastComputeInput, ForecastComputeOutput, ResultRow } from '../../service/timeseries/forecast-compute-contract.js';
import type { SeriesInput } from '../../service/timeseries/series-rows.js';

export type { ForecastComputeInput, ForecastComputeOutput, ResultRow } from '../../service/timeseries/forecast-compute-contract.js';

/** The holdout may not take more than a third of the series: training keeps at least twice as much (compat-notes §3.4). */
const MAX_HOLDOUT_SHARE = 1 / 3;
const MIN_TRAINING_PERIODS = 3;

export function compute(input: ForecastComputeInput): ForecastComputeOutput {
  const g = toGrid(input);
  // Training ends before the first requested period; after the last observation when there is a gap.
  const trainEnd = Math.min(g.lastTarget, indexOf(g, input.startMs) - 1);
  const endIndex = indexOf(g, input.endMs);
  const n = trainEnd - g.firstTarget + 1;
  if (n < MIN_TRAINING_PERIODS) throw new Error(`a forecast needs at least ${MIN_TRAINING_PERIODS} periods of data before the start date; there are ${Math.max(n, 0)}`);
  const h = endIndex - trainEnd;
  const firstOutput = Math.max(indexOf(g, input.startMs), trainEnd + 1);

  const actual = g.target.slice(g.firstTarget, trainEnd + 1);
  const features = g.features.map((f) => f.slice(g.firstTarget, g.firstTarget + n + h));
  if (features.some((f) => f.length < n + h)) throw new Error('feature values are missing for part of the forecast period');
  const target = input.target.name;

  const holdout = Math.min(h, Math.floor(n * MAX_HOLDOUT_SHARE));
  let metrics: Record<string, number | string> = {};
  const holdoutRows: ResultRow[] = [];
  if (holdout >= 1) {
    const nTrain = n - holdout;
    const fit = fitProcedure(g, input, actual.subarray(0, nTrain), features, holdout);
    const observed = actual.subarray(nTrain);
    metrics = holdoutMetrics(actual.subarray(0, nTrain), observed, fit.forecast.mean);
    for (let k = 0; k < holdout; k++) {
      holdoutRows.push({ [input.timestampColumn]: periodLabel(g, g.firstTarget + nTrain + k), [`${target}:actual`]: String(observed[k]), [`${target}:predicted`]: String(fit.forecast.mean[k]) });
    }
  }

  const final = fitProcedure(g, input, actual, features, h, input.levels);
  const f = final.forecast;
  const rows = (values: Float64Array): ResultRow[] => {
    const out: ResultRow[] = [];
    for (let i = firstOutput; i <= endIndex; i++) out.push({ [input.timestampColumn]: periodLabel(g, i), [input.target.name]: String(values[i - trainEnd - 1]) });
    return out;
  };
  const intervals = Object.fromEntries(Object.entries(f.quantiles).map(([level, q]) => [level, rows(q)]));
  return {
    metrics, data: rows(f.mean), intervals, outliers: final.outliers, smoothed: final.smoothed, method: f.method, holdout, holdoutRows,
    savedModel: saveForecast(f, final.options), targetGaps: targetGaps(g, g.firstTarget, trainEnd, input.target.imputation),
    partialEdges: partialEdges(input, g, g.firstTarget, trainEnd),
  };
}

/**
 * What a session does with the data it has (y, the first periods of the series): find the target's
 * outliers in y, fit y raw and smoothed when there are any, keeping the one whose forecast of the last
 * `horizon` periods of y (fitted on the rest) is closer to the observed values, and forecast `horizon`
 * periods after y with it. The features span y and the horizon after it.
 */
function fitProcedure(g: SeriesGrid, input: ForecastComputeInput, y: Float64Array, features: Float64Array[], horizon: number, levels: number[] = [0.5]) {
  const n = y.length;
  const cols = features.map((c) => c.subarray(0, n + horizon));
  const smoothing = smoothTarget(g, y, cols, input, g.firstTarget);
  let series = y;
  if (smoothing.outliers.length) {
    const inner = Math.min(horizon, Math.floor(n * MAX_HOLDOUT_SHARE));
    if (inner >= 1) {
      const nInner = n - inner;
      const observed = y.subarray(nInner);
      // Both candidates are scored against the recorded values: smoothing is judged by the forecasts it gives.
      const score = (candidate: Float64Array) => mae(observed, run(input, candidate.subarray(0, nInner), cols, inner, [0.5]).forecast.mean);
      if (score(smoothing.y) < score(y)) series = smoothing.y;
    }
  }
  const { forecast, options } = run(input, series, cols, horizon, levels);
  if (series !== y && levels.some((p) => p !== 0.5)) widenToRawSpread(forecast, run(input, y, cols, horizon, levels).forecast, zeroFloorIfNeverNegative(y));
  return { forecast, options, outliers: smoothing.outliers, smoothed: series !== y };
}

/**
 * The smoothed series gives the better centre, but a model fitted without the outliers believes the
 * future has none, and its bands are too narrow: on M3/M1 monthly (bench:forecast-sessions) the 90 %
 * band of smoothed series covered 76–78 % of the held-out points against 87–88 % for the others. So
 * each quantile keeps the larger of its distance from the mean under the smoothed fit and under the fit
 * of the series as recorded (outliers and all), on the smoothed fit's side of the mean, and above
 * `floor` as every forecast of data never negative is.
 */
function widenToRawSpread(smoothed: ForecastResult, raw: ForecastResult, floor: number): void {
  const widen = (q: Float64Array, rawQ: Float64Array | undefined) => {
    if (!rawQ) return;
    for (let t = 0; t < q.length; t++) {
      const own = q[t] - smoothed.mean[t];
      const recorded = rawQ[t] - raw.mean[t];
      if (Math.sign(own) === Math.sign(recorded) && Math.abs(recorded) > Math.abs(own)) q[t] = Math.max(floor, smoothed.mean[t] + recorded);
    }
  };
  for (const [level, q] of Object.entries(smoothed.quantiles)) widen(q, raw.quantiles[level]);
  for (const [coverage, band] of Object.entries(smoothed.intervals)) {
    widen(band.lower, raw.intervals[coverage]?.lower);
    widen(band.upper, raw.intervals[coverage]?.upper);
  }
}

/** Forecast of `horizon` periods after y (features spanning y and the horizon), with the options it was made with. */
function run(input: ForecastComputeInput, y: Float64Array, features: Float64Array[], horizon: number, levels: number[]) {
  const season = seasonalPeriods(input.interval, y.length);
  const options: ForecastOptions = {
    period: season.main, extraPeriods: season.extra, levels,
    xreg: xregOf(features.map((c) => c.subarray(0, y.length + horizon)), y.length, horizon),
  };
  return { forecast: forecast(y, horizon, options), options };
}

function xregOf(features: Float64Array[], n: number, h: number): ForecastXreg | undefined {
  if (features.length === 0) return undefined;
  return { train: features.map((f) => f.subarray(0, n)), future: features.map((f) => f.subarray(n, n + h)) };
}

/**
 * The series with its outliers replaced by their smoothed values; not where a logical feature is on, since the declared
 * feature (a holiday, a promotion) is the explanation the model should learn from.
 */
function smoothTarget(g: SeriesGrid, actual: Float64Array, features: Float64Array[], names: SeriesInput, offset: number): { y: Float64Array; outliers: ResultRow[] } {
  const found = smoothOutliers(actual, seasonalPeriods(g.interval, actual.length).main);
  const y = Float64Array.from(actual);
  const outliers: ResultRow[] = [];
  found.indices.forEach((t, k) => {
    if (features.some((f) => isFlag(f) && f[t] !== 0)) return;
    y[t] = found.values[k]!;
    const target = names.target.name;
    outliers.push({ [names.timestampColumn]: periodLabel(g, offset + t), [`${target}:actual`]: String(actual[t]), [`${target}:smooth`]: String(y[t]) });
  });
  return { y, outliers };
}

function isFlag(values: Float64Array): boolean {
  return values.every((v) => v === 0 || v === 1);
}

/** The session metrics of a holdout forecast (MASE scaled by the in-sample one-step naive error, compat-notes §6). */
function holdoutMetrics(train: Float64Array, observed: Float64Array, predicted: Float64Array): Record<string, number | string> {
  const m = regressionMetrics(observed, predicted);
  return {
    meanAbsoluteError: finiteOrNaN(m.meanAbsoluteError),
    meanAbsolutePercentError: finiteOrNaN(m.meanAbsolutePercentError),
    meanAbsoluteScaledError: finiteOrNaN(mase(train, observed, predicted, 1)),
    rootMeanSquareError: finiteOrNaN(m.rootMeanSquareError),
    rSquared: finiteOrNaN(m.rSquared),
  };
}
