/**
 * Daily series the data never has on one or two weekdays: a market's closing prices (Monday to Friday),
 * an office's calls. Those days are no days of the series, yet the day grid took them as gaps and
 * filled them with the target's imputation: Google's closing price, about 800 in its last weeks, got
 * the series' mean, 599, every Saturday and Sunday, the backtest then chose a seasonal naive forecast,
 * and the forecast gave 599 for the weekend days it listed.
 *
 * Unless the target's imputation was declared (someone asked for those days to be filled), such days
 * are missing, as a blank cell is (series-grid.ts: interpolated for a forecast's fit, left out of its
 * metrics, of an impact analysis's fit and of its effect), and a forecast lists no rows for them. The
 * session says which weekdays and why.
 */
import type { Message } from '../../store/schema.js';
import { listInWords } from '../../domain/wording.js';
import type { Interval } from '../../ml/timeseries/prepare.js';
import type { SeriesInput } from './series-rows.js';

const WEEKDAYS = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
/** Weeks of data before a weekday without rows says something about the data rather than chance. */
const MIN_WEEKS = 4;
const DAY_MS = 86_400_000;

/** The weekdays (getUTCDay numbers) without a target value in a daily series of several weeks; none when every day has some. */
export function closedWeekdays(series: SeriesInput, interval: Interval): number[] {
  if (interval !== 'day' || series.target.imputationDeclared) return [];
  const counts = new Array<number>(7).fill(0);
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < series.timestamps.length; i++) {
    const t = series.timestamps[i]!;
    if (!Number.isFinite(t) || !Number.isFinite(series.target.values[i])) continue;
    counts[new Date(t).getUTCDay()]!++;
    first = Math.min(first, t);
    last = Math.max(last, t);
  }
  if (!((last - first) / DAY_MS >= 7 * MIN_WEEKS)) return [];
  const closed = counts.flatMap((n, day) => (n === 0 ? [day] : []));
  // A weekend: one day, or two days side by side (Saturday and Sunday, Friday and Saturday).
  const weekend = closed.length === 1 || (closed.length === 2 && ((closed[1]! - closed[0]!) === 1 || (closed[0] === 0 && closed[1] === 6)));
  return weekend ? closed : [];
}

/** Whether a period start (a day) falls on one of the closed weekdays. */
export function onClosedWeekday(ms: number, closed: readonly number[] | undefined): boolean {
  return !!closed?.length && closed.includes(new Date(ms).getUTCDay());
}

export function closedWeekdayMessages(closed: readonly number[], series: SeriesInput): Message[] {
  if (!closed.length) return [];
  const days = listInWords(closed.map((d) => `${WEEKDAYS[d]}s`));
  return [{
    severity: 'informational',
    message: `'${series.target.name}' has no value on any of its ${days}, as a market or an office that is closed those days: they are left out of the series rather than filled with the column's imputation (${series.target.imputation}). A forecast lists no ${days} and learns from the other days (the days between them interpolated for the fit), an impact analysis leaves them out of its fit and of the effect. If those days should count with a value, declare the target's imputation (zeroes for a shop's sales on days it is closed) in the session's or the data set's columns metadata.`,
  }];
}
