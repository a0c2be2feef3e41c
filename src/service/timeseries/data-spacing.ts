/**
 * The spacing of a series' own rows, and the result interval a session may use on them. Data written
 * one value per month (or week, or quarter) and analysed by day would have 29 of every 30 days filled
 * with the target's imputation: the spec's default interval is a day, so a client that leaves it out
 * of a monthly series got a daily forecast of the fill (a10: 5,977 of 6,181 days filled, ~11 a day for
 * a series of ~10–30 a month) with an informational note. So: an interval left out follows the data
 * when the data is a regular grid coarser than a day, and one asked for that is finer than that grid
 * is a 400 naming the intervals that fit. Irregular data (events at random times, which the
 * aggregation counts and empty periods rightly hold none of) keeps any interval.
 */
import type { Message } from '../../store/schema.js';
import { INTERVALS, TYPICAL_LENGTH_MS as INTERVAL_MS, type Aggregation, type Imputation, type Interval } from '../../ml/timeseries/prepare.js';
import { lowerMedian } from '../../ml/core/statistics.js';
import { ValidationError } from '../errors.js';
import { listInWords } from '../../domain/wording.js';
import type { SeriesInput } from './series-rows.js';
import { targetTimes } from './series-grid.js';

/** A gap counts as the grid's step within this factor of the median gap. */
const NEAR = 1.15;
/** Share of gaps that must be the grid's step for the rows to form a grid. */
const GRID_SHARE = 2 / 3;
/** An interval is finer than the data when the data's step is more than this many of its periods. */
const FINER = 1.5;

export interface DataSpacing {
  /** The median gap between consecutive distinct timestamps of rows with a target value, or the length of the spacing it names (a month: 30.44 days). */
  ms: number;
  /** 'month', 'quarter', … or 'N days' / 'N hours'. */
  label: string;
  /** Rows with a target value per distinct timestamp: 1 for one series, 4 for four series stacked in one table. */
  valuesPerTime: number;
}

/** The step of the target's rows when most gaps equal it (a grid); undefined for irregular rows or fewer than four. */
export function dataSpacing(series: SeriesInput): DataSpacing | undefined {
  const times = targetTimes(series).sort((a, b) => a - b);
  const gaps: number[] = [];
  for (let i = 1; i < times.length; i++) if (times[i]! > times[i - 1]!) gaps.push(times[i]! - times[i - 1]!);
  if (gaps.length < 3) return undefined;
  const valuesPerTime = times.length / (gaps.length + 1);
  const median = lowerMedian(gaps);
  const onStep = gaps.filter((g) => g <= median * NEAR && g >= median / NEAR).length;
  if (onStep < GRID_SHARE * gaps.length) return undefined;
  // Each interval's length is within NEAR of its periods' (months of 28–31 days, quarters of 90–92).
  const named = INTERVALS.find((i) => median <= INTERVAL_MS[i] * NEAR && median >= INTERVAL_MS[i] / NEAR);
  if (named) return { ms: INTERVAL_MS[named], label: named, valuesPerTime };
  return { ms: median, label: median >= INTERVAL_MS.day ? `${Math.round(median / INTERVAL_MS.day)} days` : `${Math.round(median / INTERVAL_MS.hour)} hours`, valuesPerTime };
}

function finerThan(interval: Interval, spacing: DataSpacing): boolean {
  return INTERVAL_MS[interval] * FINER < spacing.ms;
}

/** The intervals a grid of this spacing fills, finest first. */
function fittingIntervals(spacing: DataSpacing): Interval[] {
  return INTERVALS.filter((i) => !finerThan(i, spacing));
}

const perLabel = (label: string) => (/^\d/.test(label) ? `every ${label}` : `per ${label}`);

/** 'one value', or '4 values' for rows that share their timestamps (several series in one table). */
function valuesWord(spacing: DataSpacing): string {
  const n = spacing.valuesPerTime;
  if (n < 1.05) return 'one value';
  return Math.abs(n - Math.round(n)) < 0.05 ? `${Math.round(n)} values` : `about ${Math.round(n * 10) / 10} values`;
}

/**
 * Rows that share their timestamps (several series stacked in one table, a region or a product
 * beside the date) are combined period by period by the target's aggregation: said, since a
 * forecast of their mean or sum is not a forecast of each.
 */
function sharedTimestampMessages(spacing: DataSpacing | undefined, about: { dataset: string; target: string; aggregation: Aggregation }): Message[] {
  if (!spacing || spacing.valuesPerTime < 1.05) return [];
  return [{
    severity: 'informational',
    message: `Rows of data set '${about.dataset}' share their timestamps (${valuesWord(spacing)} of '${about.target}' per timestamp): each period combines them by the target's aggregation, ${about.aggregation}. ` +
      `If they are several series, one per value of another column, a session on one of them needs a data set of its own.`,
  }];
}

/**
 * The session's interval: the one asked for, unless it is finer than the data's grid (400); when none
 * was asked for, the spec's day, or the finest interval the grid fills when it is coarser than a day
 * (with a message saying so).
 */
export function sessionInterval(asked: Interval | undefined, spacing: DataSpacing | undefined, about: { dataset: string; target: string; imputation: Imputation; aggregation: Aggregation }): { interval: Interval; messages: Message[] } {
  if (asked !== undefined) {
    if (spacing && finerThan(asked, spacing)) {
      const periods = Math.round(spacing.ms / INTERVAL_MS[asked]);
      throw ValidationError.of('resultInterval',
        `Data set '${about.dataset}' holds ${valuesWord(spacing)} of '${about.target}' ${perLabel(spacing.label)}: by ${asked}, ${periods - 1} of every ${periods} ${asked}s would be filled with the target's imputation (${about.imputation}) and analysed as data. ` +
        `Ask for resultInterval ${listInWords(fittingIntervals(spacing), 'or')}.`);
    }
    return { interval: asked, messages: sharedTimestampMessages(spacing, about) };
  }
  if (!spacing || !finerThan('day', spacing)) return { interval: 'day', messages: sharedTimestampMessages(spacing, about) };
  const interval = fittingIntervals(spacing)[0]!;
  return {
    interval,
    messages: [{
      severity: 'informational',
      message: `No resultInterval was given: the data holds ${valuesWord(spacing)} of '${about.target}' ${perLabel(spacing.label)}, so the session works by ${interval}${spacing.label === interval ? '' : `, the finest interval that spacing fills (Sibyl works by hour, day, week, month, quarter or year)`}, not by day, the default, which would fill most days with the target's imputation.`,
    }, ...sharedTimestampMessages(spacing, about)],
  };
}
