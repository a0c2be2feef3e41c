/**
 * Forecast sessions (spec endpoint 6): the request checked against the data set, then the runner
 * that computes the forecast in a worker thread.
 */
import { missingValuesField } from '../../domain/missing-values.js';
import { formatOffset } from '../../domain/dates.js';
import { addPeriods, periodStart, periodsBetween, seasonalPeriods } from '../../ml/timeseries/prepare.js';
import type { SessionRecord } from '../../store/sessions-store.js';
import type { Message } from '../../store/schema.js';
import { pageResults } from '../../store/result-pages.js';
import type { SessionRunner } from '../sessions/session-runner.js';
import { MIN_TRAINING_PERIODS, type ForecastComputeInput, type ForecastComputeOutput } from './forecast-compute-contract.js';
import { ValidationError } from '../errors.js';
import type { Services } from '../services.js';
import { seriesBuffers } from './series-rows.js';
import { capitalised, invalidDateRange, requestedSeries, requireFeatureValues, sessionSeries, type SeriesSessionRequest } from './series-session.js';
import { targetGapsMessages } from './target-gaps.js';
import { partialEdgesMessages } from './partial-edges.js';
import { seriesMissingCodeMessages } from './series-missing-codes.js';
import { featureBlankMessages } from './feature-blanks.js';
import { forecastSpanMessages } from './forecast-span.js';
import { farValueMessages } from './far-values.js';
import { flatBandMessages } from './flat-band.js';
import { onClosedWeekday } from './closed-weekdays.js';
import { placedRequestDate } from './written-offsets.js';

/** Quantile levels every forecast offers (`availablePredictionIntervals`, `?predictionInterval=`). */
export const PREDICTION_LEVELS = [0.05, 0.1, 0.2, 0.5, 0.8, 0.9, 0.95];

/** Longest forecast, in periods (a year of hours is 8,760): beyond it the request is refused rather than left to run for long. */
const MAX_HORIZON = 10_000;

export async function createForecastSession(services: Services, accountId: string, r: SeriesSessionRequest): Promise<SessionRecord> {
  const { dataset, cols, extent, interval, messages: intervalMessages, weekStart, closedWeekdays } = await requestedSeries(services, accountId, r);

  // Without a start date the forecast continues right after the last observation, for one seasonal cycle.
  const start = placedRequestDate(r.start, interval) ?? addPeriods(periodStart(extent.lastTarget, interval, weekStart), interval, 1);
  const end = placedRequestDate(r.end, interval) ?? addPeriods(start, interval, Math.max(seasonalPeriods(interval).main, 2) - 1);
  if (start > end) throw invalidDateRange('Start Date must be before End Date', { startDate: [formatOffset(start)], endDate: [formatOffset(end)] });
  // A start after the period that follows the last observation is accepted: the forecast continues
  // from the data across the gap (as the existing gap test expects), with a message saying so.
  const next = addPeriods(periodStart(extent.lastTarget, interval, weekStart), interval, 1);
  // Days the data never has (a market's weekend) are no gap: the forecast lists none of them.
  let gapPeriods = Math.max(0, periodsBetween(next, start, interval, weekStart));
  if (closedWeekdays.length && Array.from({ length: gapPeriods }, (_, k) => addPeriods(next, interval, k)).every((t) => onClosedWeekday(t, closedWeekdays))) gapPeriods = 0;
  const messages = [...intervalMessages, ...(gapPeriods > 0 ? [{
    severity: 'warning' as const,
    message: `The forecast starts ${gapPeriods} ${interval}${gapPeriods === 1 ? '' : 's'} after the period following the last observation (${formatOffset(extent.lastTarget)}); the model continues from the last observation across the gap, and the periods before the start date are not reported.`,
  }] : [])];
  if (periodsBetween(extent.firstTarget, start, interval, weekStart) < 1) {
    throw invalidDateRange('Start Date must be after the first date in the data source', { startDate: [`there is no data before ${formatOffset(start)}`] });
  }
  // The fit learns from the periods before the start date, up to the last observation (forecast-compute.ts).
  const training = Math.min(periodsBetween(extent.firstTarget, start, interval, weekStart), periodsBetween(extent.firstTarget, extent.lastTarget, interval, weekStart) + 1);
  if (training < MIN_TRAINING_PERIODS) {
    throw invalidDateRange('The data before the start date is too short to forecast from', {
      startDate: [`a forecast learns from at least ${MIN_TRAINING_PERIODS} ${interval}s of data before its start date; '${cols.target}' has ${training} before ${formatOffset(start)}: add earlier data, start later, or choose a finer resultInterval`],
    });
  }
  if (periodsBetween(extent.lastTarget, end, interval, weekStart) > MAX_HORIZON) {
    throw ValidationError.of('endDate', `a forecast covers at most ${MAX_HORIZON} periods after the last observation`);
  }
  requireFeatureValues(cols.features, extent.lastFeature, end, interval, 'forecast period', weekStart);

  return services.sessions.create(accountId, {
    type: 'forecast', predictionDomain: 'forecast', datasetName: dataset.name, targetColumn: cols.target,
    name: r.name ?? `Forecast on ${dataset.name}`, columns: cols.columns, callbackUrl: r.callbackUrl ?? null, messages,
    request: {
      startDate: formatOffset(start), endDate: formatOffset(end), resultInterval: capitalised(interval),
      availablePredictionIntervals: PREDICTION_LEVELS.map(String), extraParameters: {},
      ...(dataset.view ? { dataSourceType: 'view' } : {}),
      ...missingValuesField(r.missingValues),
    },
  });
}

/**
 * Holdouts of fewer periods than this are said to be rough: a forecast's test metrics compare its last
 * periods with one forecast of them, made from one point in time, and on a few periods they swing with
 * the periods (a yearly forecast's default holdout is 2 years; rSquared on 3 points says next to nothing).
 */
const FEW_HOLDOUT_PERIODS = 8;

function holdoutMessages(holdout: number, interval: string): Message[] {
  if (holdout < 1 || holdout >= FEW_HOLDOUT_PERIODS) return [];
  const periods = `${holdout} ${interval}${holdout === 1 ? '' : 's'}`;
  return [{
    severity: 'informational',
    message: `The test metrics compare the last ${periods} of the data with a forecast of them from the periods before, made from one point in time: on ${holdout === 1 ? 'one period' : `${holdout} periods`} they are a rough guide to the forecast's accuracy, and rSquared says little. The forecast's bands (predictionInterval) say how far the values may fall from it.`,
  }];
}

export const runForecastSession: SessionRunner = async (s, ctx) => {
  const { series, start, end } = await sessionSeries(ctx.services, s);
  // Before the run: the series' arrays are transferred to the computation.
  const codes = [...seriesMissingCodeMessages(series), ...featureBlankMessages(series)];
  const input: ForecastComputeInput = { ...series, startMs: start, endMs: end, levels: PREDICTION_LEVELS };
  const out = await ctx.compute.run<ForecastComputeOutput>('forecast', input, seriesBuffers(series));
  return {
    results: pageResults(out.metrics, out.data, {
      intervals: out.intervals, outliers: out.outliers, holdoutPeriods: out.holdout, holdout: out.holdoutRows, savedModel: out.savedModel,
      // The contest's dataSourceProperties then say Smoothed, as the original service's did for a smoothed series.
      ...(out.farValues.some((v) => v.replaced) ? { smoothed: true } : {}),
    }),
    algorithm: { name: out.method, description: 'Chosen per series by backtest on its last periods', key: out.method },
    messages: [
      ...codes,
      ...farValueMessages(out.farValues, series.target.name, s.datasetName),
      ...flatBandMessages(out, series.target.name),
      ...holdoutMessages(out.holdout, series.interval),
      ...forecastSpanMessages(out.span, out.holdout, series.interval),
      ...targetGapsMessages(out.targetGaps, series.target.name, series.interval),
      ...partialEdgesMessages(out.partialEdges, series.target.name, series.interval, true),
    ],
  };
};
