/**
 * Puts a SeriesInput on its regular period grid (pure; runs inside the compute workers). The grid
 * spans every row, so feature values uploaded for future dates line up after the target's end.
 */
import { formatOffset, formatStoredTimestamp } from '../../domain/dates.js';
import { addPeriods, MONDAY, periodsBetween, prepareSeries, type Interval, type Weekday } from '../../ml/timeseries/prepare.js';
import { interpolateMissing } from '../../ml/timeseries/interpolate.js';
import { onClosedWeekday } from './closed-weekdays.js';
import type { SeriesColumnData, SeriesInput } from './series-rows.js';

export interface SeriesGrid {
  interval: Interval;
  /** The day weekly periods start on (the data's own weekday). */
  weekStart: Weekday;
  /** Period starts, first row's period to last row's period. */
  periods: Float64Array;
  /** Target per period (imputed where a period had no value). */
  target: Float64Array;
  /** 1 where the target's period had no value and took the imputed one (`targetFill`). */
  targetFilled: Uint8Array;
  targetFill: number;
  /** 1 where the target's period had rows but every target cell in them was blank (a subset of targetFilled). */
  targetBlank: Uint8Array;
  /**
   * 1 at a period the data's clock or calendar does not have (an hour skipped when daylight saving time
   * began, clock-changes.ts; a weekday the data never has, closed-weekdays.ts): missing as a blank cell
   * is, and said by its own message rather than as a gap.
   */
  absent: Uint8Array;
  features: Float64Array[];
  /** Grid indices of the first and last periods with an observed target value. */
  firstTarget: number;
  lastTarget: number;
}

export function toGrid(s: SeriesInput): SeriesGrid {
  const weekStart = s.weekStart ?? MONDAY;
  const prepared = prepareSeries(s.timestamps, [s.target, ...s.features], s.interval, weekStart);
  const periods = prepared.timestamps;
  let first = Infinity;
  let last = -Infinity;
  for (let i = 0; i < s.timestamps.length; i++) {
    if (Number.isFinite(s.timestamps[i]) && Number.isFinite(s.target.values[i])) {
      first = Math.min(first, s.timestamps[i]!);
      last = Math.max(last, s.timestamps[i]!);
    }
  }
  if (!Number.isFinite(first)) throw new RangeError(`the target column ${s.target.name} has no values`);
  const filled = prepared.columns[0]!.filled;
  const targetBlank = new Uint8Array(periods.length);
  const hasRows = new Uint8Array(periods.length);
  for (let i = 0; i < s.timestamps.length; i++) {
    if (!Number.isFinite(s.timestamps[i])) continue;
    const p = periodsBetween(periods[0]!, s.timestamps[i]!, s.interval, weekStart);
    hasRows[p] = 1;
    if (filled[p]) targetBlank[p] = 1;
  }
  // A skipped hour or a closed day had no row to be blank in, yet nobody could observe it: missing, as a blank row.
  const absent = new Uint8Array(periods.length);
  const missingAt = (p: number) => { if (p >= 0 && p < periods.length && filled[p]) absent[p] = hasRows[p] = targetBlank[p] = 1; };
  for (const t of s.clockSkipped ?? []) missingAt(periodsBetween(periods[0]!, t, s.interval, weekStart));
  if (s.closedWeekdays?.length) periods.forEach((t, p) => { if (onClosedWeekday(t, s.closedWeekdays)) missingAt(p); });
  return {
    interval: s.interval,
    weekStart,
    periods,
    target: prepared.columns[0]!.values,
    targetFilled: prepared.columns[0]!.filled,
    targetFill: prepared.columns[0]!.fill,
    targetBlank,
    absent,
    features: prepared.columns.slice(1).map((c, j) => featureValues(s.features[j]!, c.values, c.filled, hasRows)),
    firstTarget: periodsBetween(periods[0]!, first, s.interval, weekStart),
    lastTarget: periodsBetween(periods[0]!, last, s.interval, weekStart),
  };
}

/**
 * A feature's values per period. A numeric feature's blank cells (its period has rows, none with a
 * value) are interpolated from the periods beside it (feature-blanks.ts says which) rather than given
 * the default imputation, zero: a control such as traffic volume at 0 for one month moved an impact
 * analysis' counterfactual by a tenth that month. A declared imputation, a logical column (blank is
 * FALSE) and periods without any row keep the imputation, as the target's do.
 */
function featureValues(f: SeriesColumnData, values: Float64Array, filled: Uint8Array, hasRows: Uint8Array): Float64Array {
  if (f.logical || f.imputationDeclared) return values;
  let blank = false;
  const y = values.map((v, p) => (filled[p] && hasRows[p] ? ((blank = true), NaN) : v));
  return blank && y.some(Number.isFinite) ? interpolateMissing(y) : values;
}

/** Grid index of the period holding `ms` (may lie outside the grid). */
export function indexOf(g: SeriesGrid, ms: number): number {
  return periodsBetween(g.periods[0]!, ms, g.interval, g.weekStart);
}

/** Result timestamps as the service writes stored dates: 2017-04-01T00:00:00.0000000Z. */
export function periodLabel(g: SeriesGrid, index: number): string {
  return formatStoredTimestamp(addPeriods(g.periods[0]!, g.interval, index));
}

/** A period named by its start: 2017-04-01, or 2017-04-01 13:00 for hourly series. */
export function periodName(g: SeriesGrid, index: number): string {
  const text = formatOffset(addPeriods(g.periods[0]!, g.interval, index));
  return g.interval === 'hour' ? `${text.slice(0, 10)} ${text.slice(11, 16)}` : text.slice(0, 10);
}

/** The timestamps of the rows that have both a date and a target value, in row order: the data's own spacing. */
export function targetTimes(s: SeriesInput): number[] {
  const times: number[] = [];
  for (let i = 0; i < s.timestamps.length; i++) {
    if (Number.isFinite(s.timestamps[i]) && Number.isFinite(s.target.values[i])) times.push(s.timestamps[i]!);
  }
  return times;
}
