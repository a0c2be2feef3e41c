/**
 * Time-series preparation for forecast and impact sessions: puts irregular, possibly unordered
 * observations on a regular UTC grid of period starts, aggregating each column into its period and
 * filling empty periods with the column's imputation (compat-notes §6: aggregate first, then impute;
 * gaps get zeros by default).
 *
 * All calendar arithmetic is UTC. Weeks start at 00:00 UTC on the data's own weekday when most
 * observations fall on one (`weekStartOf`: a weekly series dated on Sundays continues on Sundays),
 * else on Monday (ISO 8601).
 */
import { parseLogicalCell } from '../../domain/cells.js';
import { lowerMedian } from '../core/statistics.js';

export type Interval = 'hour' | 'day' | 'week' | 'month' | 'quarter' | 'year';
export type Aggregation = 'sum' | 'mean' | 'median' | 'mode' | 'min' | 'max';
export type Imputation = 'zeroes' | 'mean' | 'median' | 'mode' | 'min' | 'max';

export const INTERVALS: readonly Interval[] = ['hour', 'day', 'week', 'month', 'quarter', 'year'];

const HOUR_MS = 3_600_000;
const DAY_MS = 24 * HOUR_MS;
const WEEK_MS = 7 * DAY_MS;
/** The average length of each interval's periods (calendar months, quarters and years vary). */
export const TYPICAL_LENGTH_MS: Readonly<Record<Interval, number>> = {
  hour: HOUR_MS, day: DAY_MS, week: WEEK_MS, month: 30.44 * DAY_MS, quarter: 91.31 * DAY_MS, year: 365.25 * DAY_MS,
};
/** Calendar intervals in months. */
const MONTHS_IN = { month: 1, quarter: 3, year: 12 } as const;
/** The day weeks start on, as Date.getUTCDay numbers it: 0 Sunday, 1 Monday … 6 Saturday. */
export type Weekday = number;
export const MONDAY: Weekday = 1;
/** 1970-01-04 was a Sunday: the weeks starting on weekday d start on this epoch plus d days plus whole weeks. */
const FIRST_SUNDAY_MS = 3 * DAY_MS;

/**
 * The weekday most finite times fall on (UTC) when more than half do, else Monday (none, or dates
 * spread over the week as daily data is). A weekly series dated on Sundays with one row keyed on a
 * Wednesday stays on Sundays, the odd row counted in the week it falls in
 * (service/timeseries/off-weekday-rows.ts names it).
 */
export function weekStartOf(times: ArrayLike<number>): Weekday {
  const counts = new Array<number>(7).fill(0);
  let n = 0;
  for (let i = 0; i < times.length; i++) {
    if (!Number.isFinite(times[i])) continue;
    counts[new Date(times[i]!).getUTCDay()]!++;
    n++;
  }
  const most = counts.indexOf(Math.max(...counts));
  return n > 0 && counts[most]! * 2 > n ? most : MONDAY;
}

/** Start (epoch ms, UTC) of the period containing `ms`; weeks start on `weekStart`. */
export function periodStart(ms: number, interval: Interval, weekStart: Weekday = MONDAY): number {
  switch (interval) {
    case 'hour':
      return Math.floor(ms / HOUR_MS) * HOUR_MS;
    case 'day':
      return Math.floor(ms / DAY_MS) * DAY_MS;
    case 'week': {
      const epoch = FIRST_SUNDAY_MS + weekStart * DAY_MS;
      return epoch + Math.floor((ms - epoch) / WEEK_MS) * WEEK_MS;
    }
    case 'month': {
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1);
    }
    case 'quarter': {
      const d = new Date(ms);
      return Date.UTC(d.getUTCFullYear(), d.getUTCMonth() - (d.getUTCMonth() % 3), 1);
    }
    case 'year':
      return Date.UTC(new Date(ms).getUTCFullYear(), 0, 1);
  }
}

/**
 * `ms` moved by `n` periods. Months and years move on the calendar and keep the time of day; a day of
 * month that does not exist in the target month is clamped to its last day (Jan 31 + 1 month = Feb 28
 * or 29), as calendar libraries do.
 */
export function addPeriods(ms: number, interval: Interval, n: number): number {
  if (!Number.isInteger(n)) throw new RangeError(`addPeriods: n must be an integer, got ${n}`);
  switch (interval) {
    case 'hour':
      return ms + n * HOUR_MS;
    case 'day':
      return ms + n * DAY_MS;
    case 'week':
      return ms + n * WEEK_MS;
    case 'month':
    case 'quarter':
    case 'year': {
      const d = new Date(ms);
      const months = d.getUTCMonth() + n * MONTHS_IN[interval];
      const year = d.getUTCFullYear() + Math.floor(months / 12);
      const month = ((months % 12) + 12) % 12;
      const day = Math.min(d.getUTCDate(), daysInMonth(year, month));
      return Date.UTC(year, month, day) + (ms - Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), d.getUTCDate()));
    }
  }
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month + 1, 0)).getUTCDate();
}

/** Signed number of period boundaries from the period of `a` to the period of `b` (weeks starting on `weekStart`). */
export function periodsBetween(a: number, b: number, interval: Interval, weekStart: Weekday = MONDAY): number {
  const pa = periodStart(a, interval, weekStart);
  const pb = periodStart(b, interval, weekStart);
  switch (interval) {
    case 'hour':
      return Math.round((pb - pa) / HOUR_MS);
    case 'day':
      return Math.round((pb - pa) / DAY_MS);
    case 'week':
      return Math.round((pb - pa) / WEEK_MS);
    case 'month':
    case 'quarter': {
      const da = new Date(pa);
      const db = new Date(pb);
      return ((db.getUTCFullYear() - da.getUTCFullYear()) * 12 + db.getUTCMonth() - da.getUTCMonth()) / MONTHS_IN[interval];
    }
    case 'year':
      return new Date(pb).getUTCFullYear() - new Date(pa).getUTCFullYear();
  }
}

export interface SeasonalPeriods {
  /** The dominant cycle length in periods (1 = none). */
  main: number;
  /** Further cycles worth modelling, only those the series covers at least twice. */
  extra: number[];
}

/**
 * Seasonal cycles of an interval: hours 24 (day) and 168 (week); days 7 and 365 (the year,
 * 365.25 rounded); weeks 52; months 12; years none. An extra cycle is listed only when `nPoints`
 * covers it twice (default: assume a long series).
 */
export function seasonalPeriods(interval: Interval, nPoints = Infinity): SeasonalPeriods {
  const table: Record<Interval, [number, number[]]> = {
    hour: [24, [168]],
    day: [7, [365]],
    week: [52, []],
    month: [12, []],
    quarter: [4, []],
    year: [1, []],
  };
  const [main, extra] = table[interval];
  return { main, extra: extra.filter((p) => nPoints >= 2 * p) };
}

/**
 * The interval whose length is closest to the median spacing of the timestamps (for data whose
 * interval is not declared, e.g. benchmark files). Needs at least two distinct timestamps.
 */
export function inferInterval(timestamps: ArrayLike<number>): Interval {
  const sorted = Float64Array.from(timestamps).filter(Number.isFinite).sort();
  const gaps: number[] = [];
  for (let i = 1; i < sorted.length; i++) if (sorted[i] > sorted[i - 1]) gaps.push(sorted[i] - sorted[i - 1]);
  if (gaps.length === 0) throw new RangeError('inferInterval: need at least two distinct timestamps');
  const median = lowerMedian(gaps);
  let best: Interval = 'hour';
  for (const i of INTERVALS) if (Math.abs(Math.log(median / TYPICAL_LENGTH_MS[i])) < Math.abs(Math.log(median / TYPICAL_LENGTH_MS[best]))) best = i;
  return best;
}

/** A logical cell as 1 (TRUE) or 0: FALSE, the empty cell and anything that is no truth value. */
export function parseLogical(cell: string | boolean | null | undefined): number {
  return parseLogicalCell(cell) === true ? 1 : 0;
}

export interface SeriesColumnInput {
  name: string;
  values: ArrayLike<number>; // NaN = missing
  /** Logical columns: a missing cell means FALSE (0), TRUE is 1. */
  logical?: boolean;
  aggregation?: Aggregation; // default 'sum'
  imputation?: Imputation; // default 'zeroes'
}

export interface PreparedColumn {
  name: string;
  values: Float64Array; // one value per period, no NaN
  /** How many periods had no observation and were imputed. */
  imputed: number;
  /** 1 where the period had no observation and took the imputed value (one per period). */
  filled: Uint8Array;
  /** The imputed value. */
  fill: number;
}

export interface PreparedSeries {
  interval: Interval;
  /** Period starts (epoch ms, UTC), consecutive, first to last observed period. */
  timestamps: Float64Array;
  columns: PreparedColumn[];
}

/** Regular, gap-free series from timestamped rows; rows with a non-finite timestamp are ignored. */
export function prepareSeries(
  timestamps: ArrayLike<number>,
  columns: readonly SeriesColumnInput[],
  interval: Interval,
  weekStart: Weekday = MONDAY,
): PreparedSeries {
  for (const c of columns) {
    if (c.values.length !== timestamps.length) {
      throw new RangeError(`column ${c.name}: ${c.values.length} values for ${timestamps.length} timestamps`);
    }
  }
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < timestamps.length; i++) {
    const t = timestamps[i];
    if (!Number.isFinite(t)) continue;
    if (t < first) first = t;
    if (t > last) last = t;
  }
  if (first === Infinity) return { interval, timestamps: new Float64Array(0), columns: columns.map(emptyColumn) };

  const start = periodStart(first, interval, weekStart);
  const nPeriods = periodsBetween(start, last, interval, weekStart) + 1;
  const grid = new Float64Array(nPeriods);
  for (let p = 0; p < nPeriods; p++) grid[p] = addPeriods(start, interval, p);
  const periodOfRow = new Int32Array(timestamps.length).fill(-1);
  for (let i = 0; i < timestamps.length; i++) {
    if (Number.isFinite(timestamps[i])) periodOfRow[i] = periodsBetween(start, timestamps[i], interval, weekStart);
  }
  return { interval, timestamps: grid, columns: columns.map((c) => prepareColumn(c, periodOfRow, nPeriods)) };
}

function emptyColumn(c: SeriesColumnInput): PreparedColumn {
  return { name: c.name, values: new Float64Array(0), imputed: 0, filled: new Uint8Array(0), fill: 0 };
}

function prepareColumn(c: SeriesColumnInput, periodOfRow: Int32Array, nPeriods: number): PreparedColumn {
  const buckets: number[][] = Array.from({ length: nPeriods }, () => []);
  for (let i = 0; i < periodOfRow.length; i++) {
    const p = periodOfRow[i];
    if (p < 0) continue;
    const v = c.values[i];
    if (Number.isFinite(v)) buckets[p].push(v);
    else if (c.logical) buckets[p].push(0);
  }
  const aggregate = AGGREGATORS[c.aggregation ?? 'sum'];
  const values = new Float64Array(nPeriods);
  const observed: number[] = [];
  for (let p = 0; p < nPeriods; p++) {
    values[p] = buckets[p].length ? aggregate(buckets[p]) : NaN;
    if (!Number.isNaN(values[p])) observed.push(values[p]);
  }
  const fill = observed.length ? IMPUTERS[c.imputation ?? 'zeroes'](observed) : 0;
  const filled = new Uint8Array(nPeriods);
  let imputed = 0;
  for (let p = 0; p < nPeriods; p++) {
    if (Number.isNaN(values[p])) {
      values[p] = fill;
      filled[p] = 1;
      imputed++;
    }
  }
  return { name: c.name, values, imputed, filled, fill };
}

function sum(xs: number[]): number {
  let s = 0;
  for (const x of xs) s += x;
  return s;
}

/** Lower middle value for an even count, the convention the compat notes record for the service. */
const median = lowerMedian;

/** Most frequent value; ties go to the smallest, so the result does not depend on row order. */
function mode(xs: number[]): number {
  const counts = new Map<number, number>();
  for (const x of xs) counts.set(x, (counts.get(x) ?? 0) + 1);
  let best = NaN;
  let bestCount = 0;
  for (const [x, n] of counts) {
    if (n > bestCount || (n === bestCount && x < best)) {
      best = x;
      bestCount = n;
    }
  }
  return best;
}

const AGGREGATORS: Record<Aggregation, (xs: number[]) => number> = {
  sum,
  mean: (xs) => sum(xs) / xs.length,
  median,
  mode,
  min: (xs) => xs.reduce((a, b) => Math.min(a, b)),
  max: (xs) => xs.reduce((a, b) => Math.max(a, b)),
};

const IMPUTERS: Record<Imputation, (observed: number[]) => number> = {
  zeroes: () => 0,
  mean: AGGREGATORS.mean,
  median,
  mode,
  min: AGGREGATORS.min,
  max: AGGREGATORS.max,
};
