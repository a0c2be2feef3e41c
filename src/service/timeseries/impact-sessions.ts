/**
 * Impact sessions (spec endpoint 7): the event window checked against the data set, then the runner
 * that estimates the event's effect in a worker thread. Features describing the event are set to
 * role `none` by the caller; the remaining features are controls.
 */
import { missingValuesField } from '../../domain/missing-values.js';
import { formatOffset } from '../../domain/dates.js';
import { addPeriods, periodsBetween, periodStart, type Interval, type Weekday } from '../../ml/timeseries/prepare.js';
import type { SessionRecord } from '../../store/sessions-store.js';
import { pageResults } from '../../store/result-pages.js';
import type { SessionRunner } from '../sessions/session-runner.js';
import type { ImpactComputeInput, ImpactComputeOutput } from './impact-compute-contract.js';
import { ValidationError } from '../errors.js';
import type { Services } from '../services.js';
import { seriesBuffers } from './series-rows.js';
import { capitalised, invalidDateRange, requestedSeries, requireFeatureValues, sessionSeries, type SeriesSessionRequest } from './series-session.js';
import { targetGapsMessages } from './target-gaps.js';
import { partialEdgesMessages } from './partial-edges.js';
import { seriesMissingCodeMessages } from './series-missing-codes.js';
import { featureBlankMessages } from './feature-blanks.js';
import { controlSensitivityMessages } from './control-sensitivity-message.js';
import { placedRequestDate } from './written-offsets.js';

export interface ImpactSessionRequest extends SeriesSessionRequest {
  eventName: string;
}

/**
 * The pre-event period must hold at least this many periods: the fewest the local-level model (one
 * diffuse state, two variances) can be fitted on. A window longer than the pre-period is accepted —
 * a permanent level shift over a long post-period (the Nile after 1898) is a fair question — and
 * its estimate says the pre-period is short: with no backtest of the window's length, the
 * calibration's prior alone widens the intervals.
 */
const MIN_PRE_PERIODS = 3;
/** Fixed seed: the same request gives the same p-value and intervals. */
const SIMULATION_SEED = 1;

export async function createImpactSession(services: Services, accountId: string, r: ImpactSessionRequest): Promise<SessionRecord> {
  const missing: Record<string, string[]> = {};
  if (r.start === undefined) missing.startDate = ['startDate (the start of the event window) is required'];
  if (r.end === undefined) missing.endDate = ['endDate (the end of the event window) is required'];
  if (Object.keys(missing).length) throw new ValidationError(missing);

  const { dataset, cols, extent, interval, messages, weekStart } = await requestedSeries(services, accountId, r);
  // The window on the series' clock: by day and coarser its dates as written, as the rows are.
  const start = placedRequestDate(r.start, interval)!;
  const end = placedRequestDate(r.end, interval)!;
  if (start > end) throw invalidDateRange('Start Date must be before End Date', { startDate: [formatOffset(start)], endDate: [formatOffset(end)] });
  if (periodsBetween(extent.lastTarget, end, interval, weekStart) > 0) {
    throw invalidDateRange('End Date must be before the last date in the data source', {
      endDate: [`${formatOffset(end)} is after the last date of ${cols.target}, ${formatOffset(extent.lastTarget)}`],
    });
  }
  const window = periodsBetween(start, end, interval, weekStart) + 1;
  const pre = periodsBetween(extent.firstTarget, start, interval, weekStart);
  if (pre < MIN_PRE_PERIODS) {
    throw invalidDateRange('Start Date leaves too little data before the event', {
      startDate: [`the event window of ${window} period${window === 1 ? '' : 's'} needs at least ${MIN_PRE_PERIODS} periods of data before it to fit a model of the series; there are ${Math.max(pre, 0)}`],
    });
  }
  requireFeatureValues(cols.features, extent.lastFeature, end, interval, 'event window', weekStart);

  return services.sessions.create(accountId, {
    type: 'impact', predictionDomain: 'impact', datasetName: dataset.name, targetColumn: cols.target,
    name: r.name ?? `Impact of ${r.eventName} on ${dataset.name}`, columns: cols.columns, callbackUrl: r.callbackUrl ?? null, messages,
    request: {
      startDate: formatOffset(start), endDate: formatOffset(end), resultInterval: capitalised(interval),
      eventName: r.eventName, extraParameters: { event: r.eventName }, availablePredictionIntervals: ['0.5'],
      ...(dataset.view ? { dataSourceType: 'view' } : {}),
      ...missingValuesField(r.missingValues),
    },
  });
}

export const runImpactSession: SessionRunner = async (s, ctx) => {
  const { series, start, end } = await sessionSeries(ctx.services, s);
  // Before the run: the series' arrays are transferred to the computation.
  const codes = [...seriesMissingCodeMessages(series), ...featureBlankMessages(series)];
  const input: ImpactComputeInput = { ...series, startMs: start, endMs: end, seed: SIMULATION_SEED };
  const out = await ctx.compute.run<ImpactComputeOutput>('impact', input, seriesBuffers(series));
  return {
    // The rows are the counterfactual's mean and 95 % interval: the only prediction interval offered is 0.5.
    results: pageResults(out.metrics, out.data, { intervals: { '0.5': out.data }, resultFields: { ...out.effectIntervals, ...controlSensitivityFields(out) }, ...out.details, savedModel: out.savedModel }),
    algorithm: { name: out.details.model, description: 'Structural time-series counterfactual fitted on the pre-event period, its uncertainty calibrated on backtests before the event', key: out.details.model },
    messages: [
      ...out.warnings.map((message) => ({ severity: 'warning' as const, message })),
      ...partialPeriods(start, end, series.interval, series.weekStart),
      ...controlsLeftOut(series.features.map((f) => f.name), out.details.controlsUsed),
      ...controlSensitivityMessages(out),
      ...codes,
      ...targetGapsMessages(out.targetGaps, series.target.name, series.interval),
      ...partialEdgesMessages(out.partialEdges, series.target.name, series.interval, false),
    ],
  };
};

const DAY_MS = 86_400_000;

/**
 * Says when the window's dates cut through periods of the result interval, which the analysis takes
 * whole: the days before the start in its first period count as after the event, and dilute an effect
 * that began on the start date. A date at the start of a period names that period, as the original
 * service's clients send them (month windows from the 1st to the 1st); an end on a period's last day
 * ends it. Daily and hourly results take every day as given.
 */
export function partialPeriods(startMs: number, endMs: number, interval: Interval, weekStart?: Weekday): { severity: 'informational'; message: string }[] {
  if (interval === 'hour' || interval === 'day') return [];
  const first = periodStart(startMs, interval, weekStart);
  const endPeriod = periodStart(endMs, interval, weekStart);
  const afterLast = addPeriods(endPeriod, interval, 1);
  const before = Math.round((startMs - first) / DAY_MS);
  const after = endMs === endPeriod ? 0 : Math.round((afterLast - (Math.floor(endMs / DAY_MS) + 1) * DAY_MS) / DAY_MS);
  if (before <= 0 && after <= 0) return [];
  const day = (ms: number) => formatOffset(ms).slice(0, 10);
  const days = (n: number) => (n === 1 ? '1 day' : `${n} days`);
  const count = (n: number) => (n === 1 ? 'counts' : 'count');
  const parts = [
    ...(before > 0 ? [`it starts on ${day(startMs)}, so the ${days(before)} from ${day(first)} before it ${count(before)} as part of the event, diluting an effect that began on its start date`] : []),
    ...(after > 0 ? [`it ends on ${day(endMs)}, so the ${days(after)} to ${day(afterLast - DAY_MS)} after it ${count(after)} as part of the event`] : []),
  ];
  return [{
    severity: 'informational',
    message: `The event window is analysed in whole ${interval}s, ${day(first)} to ${day(afterLast - DAY_MS)}: ${parts.join('; ')}. Start on the first day of a ${interval} and end on its last to analyse the dates as given.`,
  }];
}

/** The analysis without its controls and what each control did, served beside the effects when controls were used. */
function controlSensitivityFields(out: ImpactComputeOutput): Record<string, unknown> {
  const { withoutControls, controlShifts } = out.details;
  return withoutControls ? { withoutControls, controlShifts } : {};
}

/** Says which control columns the counterfactual does without, so a dropped control is never a silent one. */
function controlsLeftOut(given: string[], used: string[]): { severity: 'informational'; message: string }[] {
  const left = given.filter((name) => !used.includes(name));
  if (left.length === 0) return [];
  const list = left.map((n) => `'${n}'`).join(', ');
  return [{
    severity: 'informational',
    message: `The counterfactual leaves out the control column${left.length > 1 ? 's' : ''} ${list}: a control is left out when it is constant before the event, when the pre-period is too short for that many controls, or when it does not improve the fit before the event enough to earn its parameter (AICc).`,
  }];
}
