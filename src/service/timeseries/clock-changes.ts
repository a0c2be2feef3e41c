/**
 * Hourly series written in local clock time without a UTC offset (2021-10-31T02:00:00): when daylight
 * saving time ends the clock repeats an hour, so that hour holds the rows of two real hours, and when
 * it begins the clock skips an hour, which then has no row. Summed into hours as they are written, the
 * repeated hour counted double (an hourly count of 64 then 138 then 74, which an impact analysis took
 * for an effect at p = 0.0002) and the skipped hour took the column's imputation, 0 by default.
 *
 * Times without an offset cannot say which real hour each row was, so the series stays on the clock:
 * a repeated hour's rows count as one hour (a summed column adds them scaled to the hour's usual number
 * of rows, the mean of two rows for one row an hour; other aggregations already give an hour's value),
 * and a skipped hour is missing, as a blank target cell is (interpolated by a forecast, skipped by an
 * impact model), not filled. The session names each such hour and what was done.
 *
 * Only what daylight saving time does is read this way: a lone doubled or empty hour between 23:00 and
 * 03:59 in March, April, September, October or November (both hemispheres' changes), at most one of
 * each kind in a calendar year, in a series whose other hours hold their usual number of rows. Anything
 * else (a logger that repeated an hour in January, a patchy sensor) keeps the usual aggregation and
 * imputation, which the session's other messages describe.
 */
import type { Message } from '../../store/schema.js';
import { formatOffset } from '../../domain/dates.js';
import { listInWords } from '../../domain/wording.js';
import type { Interval } from '../../ml/timeseries/prepare.js';
import type { SeriesInput } from './series-rows.js';

const HOUR_MS = 3_600_000;
/** Clock hours at which daylight saving time starts or ends somewhere (Brazil and Chile at midnight, Europe at 02:00 or 03:00). */
const CHANGE_HOURS = new Set([23, 0, 1, 2, 3]);
/** Months of the changes: March–April and September–November, north and south of the equator. */
const CHANGE_MONTHS = new Set([2, 3, 8, 9, 10]);

export interface RepeatedHour {
  /** Start of the clock hour (ms, as written). */
  hour: number;
  rows: number;
  /** Rows an hour of the series usually holds. */
  usual: number;
}

export interface ClockChanges {
  repeated: RepeatedHour[];
  /** Starts of the clock hours with no row. */
  skipped: number[];
}

/** The hours a change of daylight saving time repeated or skipped; null when none (or when times carry their offset). */
export function clockChanges(series: SeriesInput, interval: Interval): ClockChanges | null {
  if (interval !== 'hour' || series.writtenOffsets?.length) return null;
  const counts = new Map<number, number>();
  for (const t of series.timestamps) {
    if (Number.isFinite(t)) counts.set(Math.floor(t / HOUR_MS), (counts.get(Math.floor(t / HOUR_MS)) ?? 0) + 1);
  }
  if (counts.size < 48) return null;
  const sorted = [...counts.values()].sort((a, b) => a - b);
  const usual = sorted[Math.floor(sorted.length / 2)]!;
  const regular = (h: number) => counts.get(h) === usual;
  const atChange = (h: number) => {
    const d = new Date(h * HOUR_MS);
    return CHANGE_HOURS.has(d.getUTCHours()) && CHANGE_MONTHS.has(d.getUTCMonth());
  };
  const repeated: RepeatedHour[] = [];
  const skipped: number[] = [];
  const first = Math.min(...counts.keys());
  const last = Math.max(...counts.keys());
  for (let h = first + 1; h < last; h++) {
    if (!atChange(h) || !regular(h - 1) || !regular(h + 1)) continue;
    const n = counts.get(h) ?? 0;
    if (n === 0) skipped.push(h * HOUR_MS);
    else if (n === 2 * usual) repeated.push({ hour: h * HOUR_MS, rows: n, usual });
  }
  const onePerYear = <T>(xs: T[], at: (x: T) => number) => xs.filter((x) => xs.filter((y) => year(at(y)) === year(at(x))).length === 1);
  const changes = { repeated: onePerYear(repeated, (r) => r.hour), skipped: onePerYear(skipped, (t) => t) };
  return changes.repeated.length || changes.skipped.length ? changes : null;
}

const year = (ms: number) => new Date(ms).getUTCFullYear();

/**
 * The series as the computations read it across the changes: the rows of a repeated hour scaled to the
 * hour's usual number of rows in each summed column, and the skipped hours handed on as missing
 * (series-grid.ts). Changes the series' arrays in place.
 */
export function readAcrossClockChanges(series: SeriesInput, changes: ClockChanges | null): SeriesInput {
  if (!changes) return series;
  const summed = [series.target, ...series.features].filter((c) => !c.logical && c.aggregation === 'sum');
  for (const r of changes.repeated) {
    for (let i = 0; i < series.timestamps.length; i++) {
      if (Math.floor(series.timestamps[i]! / HOUR_MS) * HOUR_MS !== r.hour) continue;
      for (const c of summed) c.values[i] = c.values[i]! * (r.usual / r.rows);
    }
  }
  return changes.skipped.length ? { ...series, clockSkipped: changes.skipped } : series;
}

const hourName = (ms: number) => formatOffset(ms).slice(0, 16).replace('T', ' ');

export function clockChangeMessages(changes: ClockChanges | null, series: SeriesInput): Message[] {
  if (!changes) return [];
  const column = series.timestampColumn;
  const offsetHint = 'To place rows by their real time instead, send the times with their offset from UTC (2021-10-31T02:00:00+02:00 and 2021-10-31T02:00:00+01:00 for the two hours of a repeated 02:00).';
  const messages: Message[] = [];
  if (changes.repeated.length) {
    const target = series.target;
    const how = target.aggregation === 'sum' && !target.logical
      ? `summed columns add them as one hour (their sum times ${changes.repeated[0]!.usual} / ${changes.repeated[0]!.rows}${changes.repeated[0]!.usual === 1 ? ', their mean' : ''}), not as two`
      : `each column combines them by its aggregation ('${target.name}': ${target.aggregation}), which gives one hour's value`;
    const hours = changes.repeated.map((r) => `${hourName(r.hour)} (${r.rows} rows, where an hour has ${r.usual})`);
    messages.push({
      severity: 'warning',
      message: `'${column}' repeats the hour ${listInWords(hours)}: times written in local clock time do so when daylight saving time ends, so the rows were read as two real hours sharing one clock hour. The series stays on the clock, and ${how}. ${offsetHint}`,
    });
  }
  if (changes.skipped.length) {
    const declared = series.target.imputationDeclared;
    const how = declared
      ? `takes the target's declared imputation (${series.target.imputation})`
      : `is missing, as a blank cell is, rather than filled with the column's imputation (${series.target.imputation}): a forecast interpolates it from the hours beside it, an impact analysis leaves it out of its fit and of the effect`;
    messages.push({
      severity: 'informational',
      message: `'${column}' has no row for ${listInWords(changes.skipped.map(hourName))}, between hours that have theirs: times written in local clock time skip that hour when daylight saving time begins. On the clock the hour ${how}. ${offsetHint}`,
    });
  }
  return messages;
}
