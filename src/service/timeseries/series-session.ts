/**
 * What forecast and impact sessions share: the request as the route read it, the data source
 * lookup, the date-range error of the original service, and the session's series for its runner.
 */
import { sessionMissingValues } from '../../domain/missing-values.js';
import type { ColumnMap } from '../../domain/columns.js';
import { parseDate, type WrittenDate } from '../../domain/dates.js';
import type { ResultInterval } from '../../domain/intervals.js';
import { periodsBetween, type Weekday } from '../../ml/timeseries/prepare.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import type { SessionRecord } from '../../store/sessions-store.js';
import { NotFoundError, ValidationError } from '../errors.js';
import { SessionDataError } from '../sessions/session-runner.js';
import type { Services } from '../services.js';
import { isNumericColumn, resolveSeriesColumns } from './series-columns.js';
import { loadSeries, seriesExtent, type SeriesInput } from './series-rows.js';
import { dataSpacing, sessionInterval } from './data-spacing.js';
import { offWeekdayMessages } from './off-weekday-rows.js';
import { requestOffsetMessages, writtenOffsetMessages } from './written-offsets.js';
import { clockChangeMessages, clockChanges, readAcrossClockChanges } from './clock-changes.js';
import { closedWeekdayMessages, closedWeekdays } from './closed-weekdays.js';

export interface SeriesSessionRequest {
  dataSourceName: string;
  targetColumn?: string;
  /** As written (undefined when not sent): placed in the series by the interval in effect (written-offsets.ts `placedRequestDate`). */
  start?: WrittenDate;
  end?: WrittenDate;
  /** Undefined when not sent: the session then follows the data's spacing (data-spacing.ts). */
  interval?: ResultInterval;
  callbackUrl?: string;
  name?: string;
  /** The request's `columns`, as sent. */
  columns: unknown;
  /** The session's own markers for a missing value, beside its data set's (domain/missing-values.ts). */
  missingValues?: string[];
}

/** `Day`: the result interval as the spec echoes it. */
export function capitalised(interval: ResultInterval): string {
  return interval.charAt(0).toUpperCase() + interval.slice(1);
}

export async function findDataSource(services: Services, accountId: string, name: string): Promise<DatasetRecord> {
  try {
    return await services.datasets.getSource(accountId, name);
  } catch (e) {
    if (e instanceof NotFoundError) throw new NotFoundError('dataSource', name);
    throw e;
  }
}

/** 400 InvalidDateRange, the original service's error for dates outside what the data allows. */
export function invalidDateRange(message: string, details: Record<string, string[]>): ValidationError {
  return new ValidationError(details, message, 'InvalidDateRange');
}

/** Features (of `features`) whose values stop before the period of `untilMs`: 400, naming each. */
export function requireFeatureValues(features: string[], lastFeature: number[], untilMs: number, interval: ResultInterval, what: string, weekStart?: Weekday): void {
  const short: Record<string, string[]> = {};
  features.forEach((name, j) => {
    const last = lastFeature[j]!;
    if (!Number.isFinite(last) || periodsBetween(last, untilMs, interval, weekStart) > 0) {
      short[name] = [`feature '${name}' needs values over the whole ${what}; the data set has none after ${Number.isFinite(last) ? new Date(last).toISOString() : 'the start'} (upload them, or set its role to none)`];
    }
  });
  if (Object.keys(short).length) throw new ValidationError(short, `Feature values are missing for the ${what}`);
}

/**
 * What creating a forecast or an impact session starts from: the data source, the session's columns,
 * the extent of its series (a target with no value at all is a 400), and the result interval in effect
 * with the messages choosing it (data-spacing.ts).
 */
export async function requestedSeries(services: Services, accountId: string, r: SeriesSessionRequest) {
  const dataset = await findDataSource(services, accountId, r.dataSourceName);
  const cols = resolveSeriesColumns(dataset, r.columns, r.targetColumn);
  // Without an interval the session works by day or coarser (data-spacing.ts), which read timestamps alike (series-rows.ts).
  const series = await loadSeries(services, dataset, cols, r.interval ?? 'day', r.missingValues);
  const extent = seriesExtent(series);
  if (!Number.isFinite(extent.lastRow) && dataset.rowCount > 0) {
    throw ValidationError.of(cols.timestamp, `column '${cols.timestamp}' holds no date Sibyl reads: write its dates as ISO 8601 (2017-01-13, 2017-01-13T08:30:00Z), month first (01/13/2017), or as months, quarters or years (Jan 2017, 2017Q1, 2017)`);
  }
  if (!Number.isFinite(extent.lastTarget)) throw ValidationError.of(cols.target, `column '${cols.target}' has no values in data set '${dataset.name}'`);
  const { interval, messages } = sessionInterval(r.interval, dataSpacing(series), { dataset: dataset.name, target: cols.target, imputation: series.target.imputation, aggregation: series.target.aggregation });
  const closed = closedWeekdays(series, interval);
  return {
    dataset, cols, extent, interval, weekStart: series.weekStart, closedWeekdays: closed,
    messages: [
      ...messages, ...writtenOffsetMessages(series, interval), ...requestOffsetMessages({ startDate: r.start, endDate: r.end }, interval),
      ...clockChangeMessages(clockChanges(series, interval), series), ...closedWeekdayMessages(closed, series), ...offWeekdayMessages(series, interval),
    ],
  };
}

/** A session's own series (its columns as stored on the session), for its runner. */
export async function sessionSeries(services: Services, s: SessionRecord): Promise<{ series: SeriesInput; start: number; end: number }> {
  const dataset = await services.datasets.getSource(s.accountId, s.datasetName);
  const columns = s.columns as ColumnMap;
  const timestamp = Object.keys(columns).find((n) => columns[n]!.role === 'timestamp');
  const target = s.targetColumn;
  if (!timestamp || !target || !(target in dataset.columns)) throw new SessionDataError(`the columns of data set ${s.datasetName} changed since the session was requested`);
  const features = Object.keys(columns).filter((n) => columns[n]!.role === 'feature' && (isNumericColumn(columns[n]!) || columns[n]!.dataType === 'logical') && n in dataset.columns);
  const interval = String(s.request.resultInterval ?? 'day').toLowerCase() as ResultInterval;
  const loaded = await loadSeries(services, dataset, { columns, target, timestamp, features }, interval, sessionMissingValues(s.request));
  const closed = closedWeekdays(loaded, interval);
  const series = { ...readAcrossClockChanges(loaded, clockChanges(loaded, interval)), ...(closed.length ? { closedWeekdays: closed } : {}) };
  return { series, start: parseDate(String(s.request.startDate)) ?? NaN, end: parseDate(String(s.request.endDate)) ?? NaN };
}
