/**
 * Says when a forecast or impact analysis filled periods that had no target value. The series is
 * aggregated to the result interval and its empty periods take the column's imputation, zeroes by
 * default for numeric columns, as the original service did (compat-notes §6); a day missing from a
 * sales file then counts as a day without sales, and nothing told the sender.
 *
 * A blank target cell in a row the sender did send is another matter: the value is unknown, not
 * zero and not the column's mean (which on a trending series is a value nobody observed, and was
 * then listed as an outlier's `:actual`). Unless the target's imputation was chosen (not the type's
 * default), such periods are missing: a forecast interpolates them (interpolate.ts) and an impact
 * analysis's model skips them before the event and leaves them out of the effect in its window.
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
  /** Periods whose target cells were blank, treated as missing rather than filled (none when the imputation was declared). */
  missing?: { count: number; first: string[]; inWindow?: number };
}

/**
 * The target over grid indices from…to (inclusive), NaN at the periods whose target cells were
 * blank unless its imputation was declared (then they keep the filled value).
 */
export function targetSeries(g: SeriesGrid, from: number, to: number, imputationDeclared: boolean | undefined): Float64Array {
  const y = g.target.slice(from, to + 1);
  if (!imputationDeclared) for (let i = from; i <= to; i++) if (g.targetBlank[i]) y[i - from] = NaN;
  return y;
}

/** Filled periods named in a message. */
const NAMED_GAPS = 3;

/**
 * The target's filled periods among grid indices from…to (inclusive), and of them those from
 * `windowFrom` on (an impact analysis's event window, which runs to `to`); null when every one was observed.
 */
export function targetGaps(g: SeriesGrid, from: number, to: number, imputation: Imputation, windowFrom?: number, imputationDeclared?: boolean): TargetGaps | null {
  let filled = 0;
  let inWindow = 0;
  const first: string[] = [];
  const missing = { count: 0, first: [] as string[], inWindow: 0 };
  for (let i = from; i <= to; i++) {
    if (!g.targetFilled[i] || g.absent[i]) continue;
    const counts = g.targetBlank[i] && !imputationDeclared ? missing : null;
    if (counts) counts.count++;
    else filled++;
    if (windowFrom !== undefined && i >= windowFrom) {
      if (counts) counts.inWindow++;
      else inWindow++;
    }
    const names = counts ? counts.first : first;
    if (names.length < NAMED_GAPS) names.push(periodName(g, i));
  }
  if (filled === 0 && missing.count === 0) return null;
  const windowed = windowFrom !== undefined;
  return {
    filled, of: to - from + 1, first, fill: g.targetFill, imputation,
    ...(windowed ? { inWindow } : {}),
    ...(missing.count > 0 ? { missing: { count: missing.count, first: missing.first, ...(windowed ? { inWindow: missing.inWindow } : {}) } } : {}),
  };
}

export function targetGapsMessages(gaps: TargetGaps | null, target: string, interval: Interval): Message[] {
  if (!gaps) return [];
  return [...filledMessages(gaps, target, interval), ...missingMessages(gaps, target, interval)];
}

function missingMessages(gaps: TargetGaps, target: string, interval: Interval): Message[] {
  const m = gaps.missing;
  if (!m) return [];
  const periods = (n: number) => `${n} ${interval}${n === 1 ? '' : 's'}`;
  const named = m.first.length < m.count ? `${m.first.join(', ')}, …` : listInWords(m.first);
  const impact = m.inWindow !== undefined;
  const how = impact
    ? `the model skips them before the event${m.inWindow ? `, and the ${periods(m.inWindow)} of them in the event window ${m.inWindow === 1 ? 'is' : 'are'} left out of the effect, with no observed value to compare` : ''}`
    : 'they were interpolated from the periods around them (with the seasonal pattern) for the fit, and are not listed as outliers';
  return [{
    severity: impact && m.inWindow ? 'warning' : 'informational',
    message: `The target '${target}' has a blank cell for ${periods(m.count)} of the ${periods(gaps.of)} analysed (${named}): they are treated as missing, not filled with the column's imputation (${gaps.imputation}); ${how}. To fill them with a value instead, declare the target's imputation in the session's or the data set's columns metadata.`,
  }];
}

function filledMessages(gaps: TargetGaps, target: string, interval: Interval): Message[] {
  if (gaps.filled === 0) return [];
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
