/**
 * What the data set page's statistics table shows of one column, from `GET /v1/data/<name>/stats`:
 * the numbers' spread when the server read the column as numbers, a date column's range, and the
 * most frequent values of everything else (alphabetical min and max of text say nothing).
 */
import { formatNumber } from './words.js';

export interface StatsOfColumn {
  totalCount: number; missingCount: number; errorCount: number; distinctCount: number;
  min: number | string | null; max: number | string | null; mean: number | null; median: number | string | null;
  stddev: number | null;
  distribution: ({ min: number; max: number; count: number } | { value: string; count: number })[];
}

export interface ColumnSummary {
  kind: 'numbers' | 'dates' | 'values';
  present: number;
  missing: number;
  /** Missing cells as a share of all rows. */
  missingShare: number;
  distinct: number;
  /** Cells of a numeric or date column that are neither missing nor a number (date). */
  unreadable: number;
  min?: string; max?: string; mean?: string; median?: string; sd?: string;
  /** The most frequent values, most first, and how many other distinct values there are. */
  top?: { value: string; count: number }[];
  otherValues?: number;
}

export function summarizeColumn(dataType: string, s: StatsOfColumn, topCount = 3): ColumnSummary {
  const base = {
    present: s.totalCount - s.missingCount, missing: s.missingCount,
    missingShare: s.totalCount > 0 ? s.missingCount / s.totalCount : 0, distinct: s.distinctCount, unreadable: s.errorCount,
  };
  const num = (v: number | string | null) => (typeof v === 'number' ? formatNumber(v) : undefined);
  // The shape of the answer, not the declared type, decides: a numeric column without one readable
  // number comes back counted as text.
  if (typeof s.min === 'number') {
    return { ...base, kind: 'numbers', min: num(s.min), max: num(s.max), mean: num(s.mean), median: num(s.median), sd: num(s.stddev) };
  }
  if (dataType === 'date' && s.min !== null) {
    return { ...base, kind: 'dates', min: String(s.min), max: String(s.max), median: s.median === null ? undefined : String(s.median) };
  }
  const values = s.distribution.filter((d): d is { value: string; count: number } => 'value' in d);
  const top = values.slice(0, topCount);
  return { ...base, kind: 'values', top, otherValues: Math.max(0, s.distinctCount - top.length) };
}
