/**
 * Timestamps written with a UTC offset (2008-07-01T00:00:00+02:00, as spreadsheets and pandas export
 * local times): by day and coarser each row counts in the period of its date as written, not of its
 * UTC date, which for a month written as local midnight east of Greenwich is the month before
 * (series-rows.ts). Said, since the result dates are those written dates, without the offset.
 */
import type { Message } from '../../store/schema.js';
import { listInWords } from '../../domain/wording.js';
import type { Interval } from '../../ml/timeseries/prepare.js';
import type { SeriesInput } from './series-rows.js';
import type { WrittenDate } from '../../domain/dates.js';

/**
 * Where a date written with a UTC offset falls in a series: by hour at its UTC instant (daylight
 * saving then leaves no hour missing or doubled), by day and coarser on its clock as written.
 * Rows and the request's startDate/endDate go through this one rule, so a window matches its rows.
 */
export function placedMs(utcMs: number, offsetMs: number, interval: Interval): number {
  return interval === 'hour' ? utcMs : utcMs + offsetMs;
}

/** The request's dates as placed in the series; undefined stays undefined (not sent). */
export function placedRequestDate(d: WrittenDate | undefined, interval: Interval): number | undefined {
  return d === undefined ? undefined : placedMs(d.utcMs, d.offsetMs, interval);
}

/** +02:00, -05:30. */
function offsetText(ms: number): string {
  const minutes = Math.abs(ms) / 60_000;
  return `${ms < 0 ? '-' : '+'}${String(Math.floor(minutes / 60)).padStart(2, '0')}:${String(minutes % 60).padStart(2, '0')}`;
}

export function writtenOffsetMessages(series: SeriesInput, interval: Interval): Message[] {
  const offsets = series.writtenOffsets;
  if (!offsets?.length) return [];
  const written = listInWords(offsets.map(offsetText));
  return [{
    severity: 'informational',
    message: interval === 'hour'
      ? `Timestamps of '${series.timestampColumn}' are written with UTC offsets (${written}): by hour, rows are placed by their UTC time, so a change of daylight saving time leaves no hour missing or doubled, and the result hours are in UTC.`
      : `Timestamps of '${series.timestampColumn}' are written with UTC offsets (${written}): each row counts in the ${interval} of its date as written (2008-07-01T00:00:00+02:00 on 1 July, not on 30 June, its date in UTC), and the result dates are those written dates.`,
  }];
}

/**
 * Says that the request's startDate/endDate were read on their written dates, since the session echoes
 * them without the offset (by hour they keep their instant, which the echo shows in UTC as it is).
 */
export function requestOffsetMessages(request: { startDate?: WrittenDate; endDate?: WrittenDate }, interval: Interval): Message[] {
  if (interval === 'hour') return [];
  const written = Object.entries(request).filter((e): e is [string, WrittenDate] => e[1] !== undefined && e[1].offsetMs !== 0);
  if (written.length === 0) return [];
  const offsets = listInWords([...new Set(written.map(([, d]) => offsetText(d.offsetMs)))]);
  const names = listInWords(written.map(([name]) => name));
  const dates = listInWords(written.map(([, d]) => new Date(placedMs(d.utcMs, d.offsetMs, interval)).toISOString().slice(0, 10)));
  return [{
    severity: 'informational',
    message: `${names} ${written.length === 1 ? 'is' : 'are'} written with a UTC offset (${offsets}): by ${interval} ${written.length === 1 ? 'it counts' : 'they count'} on the date as written (${dates}), as the data's rows do, not on the date in UTC, and the session gives ${written.length === 1 ? 'that date' : 'those dates'} without the offset.`,
  }];
}
