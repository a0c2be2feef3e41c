/**
 * Rows of a weekly series dated on another weekday than the series' own (prepare.ts `weekStartOf`):
 * each is counted in the week it falls in, which is right for a report keyed a few days late and
 * wrong for a date keyed in the wrong week, so the session names them for the user to check.
 */
import type { Message } from '../../store/schema.js';
import { formatOffset } from '../../domain/dates.js';
import { listInWords } from '../../domain/wording.js';
import { periodStart, type Interval, type Weekday } from '../../ml/timeseries/prepare.js';
import type { SeriesInput } from './series-rows.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Rows named one by one; past this the message gives their number and the first ones. */
const NAMED = 5;

const day = (ms: number) => formatOffset(ms).slice(0, 10);

export function offWeekdayMessages(series: SeriesInput, interval: Interval): Message[] {
  if (interval !== 'week' || series.weekStart === undefined) return [];
  const weekStart = series.weekStart;
  const onOwnDay = new Set<number>();
  const off: number[] = [];
  let ownDayRows = 0;
  for (let i = 0; i < series.timestamps.length; i++) {
    const t = series.timestamps[i]!;
    if (!Number.isFinite(t) || !Number.isFinite(series.target.values[i])) continue;
    if (new Date(t).getUTCDay() !== weekStart) off.push(t);
    else { ownDayRows++; onOwnDay.add(periodStart(t, 'week', weekStart)); }
  }
  // Dates spread over the week (daily data summed into weeks) have no weekday of their own to be off.
  if (off.length === 0 || off.length >= ownDayRows) return [];
  off.sort((a, b) => a - b);
  const own = WEEKDAYS[weekStart]!;
  const named = off.slice(0, NAMED).map((t) => {
    const week = periodStart(t, 'week', weekStart);
    const shared = onOwnDay.has(week) ? `, together with that week's own row (combined by the target's aggregation, ${series.target.aggregation})` : '';
    return `${day(t)} (a ${WEEKDAYS[new Date(t).getUTCDay()]}) counts in the week of ${own} ${day(week)}${shared}`;
  });
  const more = off.length > NAMED ? `; ${off.length - NAMED} more such rows follow` : '';
  return [{
    severity: 'warning',
    message: `The rows of '${series.target.name}' are dated on ${own}s, and weeks start on ${own}s, but ${off.length === 1 ? 'one row is' : `${off.length} rows are`} dated on another day: ` +
      `${listInWords(named)}${more}. If ${off.length === 1 ? 'that date was' : 'those dates were'} meant for another week, correct ${off.length === 1 ? 'it' : 'them'} in the data set and run the session again.`,
  }];
}
