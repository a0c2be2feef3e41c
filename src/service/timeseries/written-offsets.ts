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
