/**
 * Feature columns that number the rows: a different whole number in every row, rising (or falling)
 * with the rows' order, as an ID or a row counter does. In a file ordered by its target such a column
 * gives the label away: a test row sits between training rows of the same class or size, so the
 * holdout metrics reward a model that leans on it, while a new row's number lies beyond them all.
 */
import { readNumberCell } from '../domain/cells.js';
import { isFeatureColumn, type ColumnSpec, type RawColumns, type RawValue } from './encode.js';

/** Shorter tables are left alone: a handful of rows is ordered by chance. */
const MIN_ROWS = 20;

/** The feature columns whose values over `rows` (in order) are whole numbers, all different, strictly monotone. */
export function rowNumberColumns(values: RawColumns, specs: readonly ColumnSpec[], rows: readonly number[]): string[] {
  if (rows.length < MIN_ROWS) return [];
  return specs
    .filter((s) => isFeatureColumn(s) && (s.dataType === 'numeric' || s.dataType === 'numericMeasure') && values[s.name])
    .filter((s) => numbersRows(values[s.name]!, rows))
    .map((s) => s.name);
}

function numbersRows(column: ArrayLike<RawValue>, rows: readonly number[]): boolean {
  let previous = NaN;
  let direction = 0;
  for (const r of rows) {
    const v = column[r];
    const x = typeof v === 'number' ? v : v === null || v === undefined || v === '' ? NaN : readNumberCell(v);
    if (!Number.isInteger(x)) return false;
    if (!Number.isNaN(previous)) {
      const step = Math.sign(x - previous);
      if (step === 0 || (direction !== 0 && step !== direction)) return false;
      direction = step;
    }
    previous = x;
  }
  return true;
}
