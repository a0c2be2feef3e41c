/**
 * A forecast session's computation (worker thread): the target series on the result interval,
 * metrics from a holdout of the last periods, then the forecast of the requested periods by a refit
 * on all data, with one quantile series per prediction level. Like the original service, the series
 * is tried as it is and with its outliers smoothed; the holdout decides which one is fitted.
 */
import { forecast, smoothOutliers, type ForecastOptions, type ForecastXreg } from '../../ml/timeseries/forecast/index.js';
import { saveForecast } from '../../ml/timeseries/forecast/saved-forecast.js';
import { mase } from '../../ml/timeseries/forecast/metrics.js';
import { regressionMetrics } from '../../ml/metrics/regression.js';
import { seasonalPeriods } from '../../ml/timeseries/prepare.js';
import { finiteOrNaN, indexOf, periodLabel, toGrid, type SeriesGrid } from '../../service/timeseries/series-grid.js';
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
  const smoothing = smoothTarget(g, actual, features, input, g.firstTarget);

  const holdout = Math.min(h, Math.floor(n * MAX_HOLDOUT_SHARE));
  let y: Float64Array = actual;
  let metrics: Record<string, number | string> = {};
  if (holdout >= 1) {
    const raw = holdoutScore(input, actual, actual, features, holdout);
    const smooth = smoothing.outliers.length ? holdoutScore(input, smoothing.y, actual, features, holdout) : undefined;
    const best = smooth && smooth.mae < raw.mae ? smooth : raw;
    y = best === smooth ? smoothing.y : actual;
    metrics = best.metrics;
  }

  const season = seasonalPeriods(input.interval, n);
  const options: ForecastOptions = {
    period: season.main, extraPeriods: season.extra, levels: input.levels,
    xreg: xregOf(features, n, h),
  };
  const f = forecast(y, h, options);
  const rows = (values: Float64Array): ResultRow[] => {
    const out: ResultRow[] = [];
    for (let i = firstOutput; i <= endIndex; i++) out.push({ [input.timestampColumn]: periodLabel(g, i), [input.target.name]: String(values[i - trainEnd - 1]) });
    return out;
  };
  const intervals = Object.fromEntries(Object.entries(f.quantiles).map(([level, q]) => [level, rows(q)]));
  return { metrics, data: rows(f.mean), intervals, outliers: smoothing.outliers, smoothed: y !== actual, method: f.method, holdout, savedModel: saveForecast(f, options) };
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

/** Fit y but its last `holdout` periods, forecast them, score against the observed values. */
function holdoutScore(input: ForecastComputeInput, y: Float64Array, actual: Float64Array, features: Float64Array[], holdout: number): { mae: number; metrics: Record<string, number | string> } {
  const nTrain = y.length - holdout;
  const season = seasonalPeriods(input.interval, nTrain);
  const f = forecast(y.slice(0, nTrain), holdout, {
    period: season.main, extraPeriods: season.extra, levels: [0.5],
    xreg: xregOf(features.map((c) => c.slice(0, y.length)), nTrain, holdout),
  });
  const observed = actual.subarray(nTrain);
  const m = regressionMetrics(observed, f.mean);
  const metrics = {
    meanAbsoluteError: finiteOrNaN(m.meanAbsoluteError),
    meanAbsolutePercentError: finiteOrNaN(m.meanAbsolutePercentError),
    // Scaled by the in-sample one-step naive error (compat-notes §6).
    meanAbsoluteScaledError: finiteOrNaN(mase(actual.subarray(0, nTrain), observed, f.mean, 1)),
    rootMeanSquareError: finiteOrNaN(m.rootMeanSquareError),
    rSquared: finiteOrNaN(m.rSquared),
  };
  return { mae: m.meanAbsoluteError, metrics };
}
