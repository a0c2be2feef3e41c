/**
 * Says when a forecast or impact analysis filled periods that had no target value. The series is
 * aggregated to the result interval and its empty periods take the column's imputation, zeroes by
 * default for numeric columns, as the original service did (compat-notes §6); a day missing from a
 * sales file then counts as a day without sales, and nothing told the sender.
 */
import type { Message } from '../../store/schema.js';
import { listInWords } from '../../domain/wording.js';
import type { Imputation, Interval } from '../../ml/timeseries/prepare.js';
import { periodName, type SeriesGrid } from './series-grid.js';

/** Periods without a target value that a computation used, as the imputation filled them. */
export interface TargetGaps {
  /** How many periods of the range were filled, and of how many. */
  filled: number;
  of: number;
  /** The first few filled periods, named by their start (a date; with the hour for hourly series). */
  first: string[];
  /** The value they took, and by which imputation. */
  fill: number;
  imputation: Imputation;
  /** Of the filled periods, those inside an impact analysis's event window. */
  inWindow?: number;
}

/** Filled periods named in a message. */
const NAMED_GAPS = 3;

/**
 * The target's filled periods among grid indices from…to (inclusive), and of them those from
 * `windowFrom` on (an impact analysis's event window, which runs to `to`); null when every one was observed.
 */
export function targetGaps(g: SeriesGrid, from: number, to: number, imputation: Imputation, windowFrom?: number): TargetGaps | null {
  let filled = 0;
  let inWindow = 0;
  const first: string[] = [];
  for (let i = from; i <= to; i++) {
    if (!g.targetFilled[i]) continue;
    filled++;
    if (windowFrom !== undefined && i >= windowFrom) inWindow++;
    if (first.length < NAMED_GAPS) first.push(periodName(g, i));
  }
  if (filled === 0) return null;
  return { filled, of: to - from + 1, first, fill: g.targetFill, imputation, ...(windowFrom === undefined ? {} : { inWindow }) };
}

export function targetGapsMessages(gaps: TargetGaps | null, target: string, interval: Interval): Message[] {
  if (!gaps) return [];
  const periods = (n: number) => `${n} ${interval}${n === 1 ? '' : 's'}`;
  const named = gaps.first.length < gaps.filled ? `${gaps.first.join(', ')}, …` : listInWords(gaps.first);
  const zeroes = gaps.imputation === 'zeroes';
  const how = zeroes
    ? 'with 0, as the column\'s imputation is zeroes (the default for numeric columns)'
    : `with ${Number(gaps.fill.toPrecision(6))}, by the column's imputation (${gaps.imputation})`;
  const window = gaps.inWindow
    ? ` ${gaps.inWindow === gaps.filled ? (gaps.filled === 1 ? 'It lies' : 'They all lie') : `${gaps.inWindow} of them ${gaps.inWindow === 1 ? 'lies' : 'lie'}`} in the event window, where a filled value counts as observed and moves the effect.`
    : '';
  const fix = zeroes
    ? ` If those ${interval}s were not zero, upload their values, or set the target's imputation to mean, median, mode, min or max in the session's or the data set's columns metadata.`
    : '';
  return [{
    severity: zeroes || gaps.inWindow ? 'warning' : 'informational',
    message: `The target '${target}' has no value for ${periods(gaps.filled)} of the ${periods(gaps.of)} analysed (${named}): they were filled ${how}.${window}${fix}`,
  }];
}
