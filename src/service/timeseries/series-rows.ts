/**
 * A data set's rows as the columnar input of the series computations: one timestamp per row, the
 * target (NaN where a row has none, e.g. future rows that only carry feature values) and the
 * features, each with its aggregation and imputation.
 */
import { MissingValues } from '../../domain/missing-values.js';
import { defaultStrategies, type ColumnMap } from '../../domain/columns.js';
import { isMissingCell, parseLogicalCell, parseNumberCell } from '../../domain/cells.js';
import { parseTimestamp, writtenOffsetMs } from '../../domain/dates.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import type { Services } from '../services.js';
import { weekStartOf, type Aggregation, type Imputation, type Interval, type Weekday } from '../../ml/timeseries/prepare.js';
import type { SeriesColumns } from './series-columns.js';
import { ColumnarLoader } from '../datasets/columnar-loader.js';
import { placedMs } from './written-offsets.js';
import { cellText, type LoadedColumn } from '../../ml/loaded-columns.js';

export interface SeriesColumnData {
  name: string;
  /** One value per row; NaN = the row has no value (a logical column's empty cell is 0). */
  values: Float64Array;
  logical: boolean;
  aggregation: Aggregation;
  imputation: Imputation;
  /**
   * The imputation is not the data type's default, so someone chose it: blank target cells then take
   * it. Otherwise a blank target cell is missing (target-gaps.ts), while periods with no row at all
   * still take the imputation, as the original service filled them.
   */
  imputationDeclared?: boolean;
}

/** Structured-cloneable input shared by the forecast and impact computations. */
export interface SeriesInput {
  interval: Interval;
  timestampColumn: string;
  /** Epoch ms per row; NaN for a row whose timestamp is not a date (ignored). */
  timestamps: Float64Array;
  target: SeriesColumnData;
  features: SeriesColumnData[];
  /** The day weekly periods start on: the weekday of most target values' dates, else Monday (prepare.ts weekStartOf). */
  weekStart?: Weekday;
  /** The UTC offsets other than 0 that timestamps are written with (ms, ascending); `timestamps` then hold the written clock unless the interval is an hour. */
  writtenOffsets?: number[];
  /** Clock hours (ms, as written) skipped when daylight saving time began, missing rather than imputed (clock-changes.ts). */
  clockSkipped?: number[];
  /** Weekdays a daily series never has (getUTCDay numbers): missing rather than imputed, and not forecast (closed-weekdays.ts). */
  closedWeekdays?: number[];
}

/**
 * Rows go through the columnar loader (no object per row): numbers into typed arrays, timestamps
 * and logical cells dictionary-encoded and each distinct text parsed once. `missingValues`: a session's
 * own markers for a missing value, read as missing beside the data set's.
 */
export async function loadSeries(services: Services, dataset: DatasetRecord, spec: Pick<SeriesColumns, 'columns' | 'target' | 'timestamp' | 'features'>, interval: Interval, missingValues: readonly string[] = []): Promise<SeriesInput> {
  const names = [spec.target, ...spec.features];
  const logical = names.map((n) => spec.columns[n]!.dataType === 'logical');
  const loader = new ColumnarLoader([
    { name: spec.timestamp, numeric: false },
    ...names.map((name, j) => ({ name, numeric: !logical[j] })),
  ].filter((c, i, all) => all.findIndex((d) => d.name === c.name) === i), dataset.rowCount, new MissingValues([...dataset.missingValues, ...missingValues]));
  for await (const texts of services.datasets.rowTexts(dataset)) loader.add(texts);
  const loaded = loader.finish();
  const column = (j: number): SeriesColumnData => ({
    name: names[j]!,
    values: seriesValues(loaded[names[j]!]!, logical[j]!, loader.rowCount),
    logical: logical[j]!,
    ...strategies(spec.columns, names[j]!),
  });
  // By day and coarser, a row counts in the period of its date as written: 2008-07-01T00:00:00+02:00
  // is July to its writer, though 30 June in UTC (written-offsets.ts).
  const offsets = new Set<number>();
  const placed = (t: string) => {
    const ms = parseTimestamp(t);
    if (ms === null) return NaN;
    const offset = writtenOffsetMs(t);
    if (offset !== 0) offsets.add(offset);
    return placedMs(ms, offset, interval);
  };
  const timestamps = mapLevels(loaded[spec.timestamp]!, loader.rowCount, (t) => (isMissingCell(t) ? NaN : placed(t)), NaN);
  const target = column(0);
  return {
    interval,
    timestampColumn: spec.timestamp,
    timestamps,
    target,
    features: spec.features.map((_, j) => column(j + 1)),
    weekStart: weekStartOf(timestamps.filter((_, i) => Number.isFinite(target.values[i]))),
    ...(offsets.size ? { writtenOffsets: [...offsets].sort((a, b) => a - b) } : {}),
  };
}

/** A column's values as the series computations read them (parseNumberCell / parseLogicalCell semantics). */
function seriesValues(col: LoadedColumn, logical: boolean, rows: number): Float64Array {
  if (logical || col.kind === 'dict') return mapLevels(col, rows, (t) => cellValue(t, logical), cellValue('', logical));
  // Canonical number texts (String(x) gives them back) parse alike; every other stored text is re-read.
  const out = Float64Array.from(col.values);
  for (const [row, text] of col.texts) out[row] = parseNumberCell(text);
  return out;
}

/** Each distinct text of a column parsed once, spread over its rows (`missing` where the cell is empty or absent). */
function mapLevels(col: LoadedColumn, rows: number, parse: (text: string) => number, missing: number): Float64Array {
  const out = new Float64Array(rows);
  if (col.kind === 'number') {
    for (let i = 0; i < rows; i++) { const t = cellText(col, i); out[i] = t === '' ? missing : parse(t); }
    return out;
  }
  const parsed = col.levels.map(parse);
  for (let i = 0; i < rows; i++) { const c = col.codes[i]!; out[i] = c < 0 ? missing : parsed[c]!; }
  return out;
}

function cellValue(cell: unknown, logical: boolean): number {
  if (!logical) return parseNumberCell(cell);
  const flag = parseLogicalCell(cell);
  return flag === null ? NaN : flag ? 1 : 0;
}

function strategies(columns: ColumnMap, name: string): { aggregation: Aggregation; imputation: Imputation; imputationDeclared: boolean } {
  const c = columns[name]!;
  const imputationDeclared = c.imputation != null && c.imputation !== defaultStrategies(c.dataType).imputation;
  return { aggregation: c.aggregation ?? 'sum', imputation: c.imputation ?? 'zeroes', imputationDeclared };
}

/** Buffers to transfer to a worker thread (the arrays are not used again on this side). */
export function seriesBuffers(s: SeriesInput): ArrayBuffer[] {
  return [s.timestamps, s.target.values, ...s.features.map((f) => f.values)].map((a) => a.buffer as ArrayBuffer);
}

export interface SeriesExtent {
  /** First and last timestamp with a target value (NaN when none). */
  firstTarget: number;
  lastTarget: number;
  /** Last timestamp of any row (rows for future dates may carry only feature values). */
  lastRow: number;
  /** Per feature, the last timestamp of a row with a value (logical: any row, an empty cell being FALSE). */
  lastFeature: number[];
}

export function seriesExtent(s: SeriesInput): SeriesExtent {
  let firstTarget = Infinity;
  let lastTarget = -Infinity;
  let lastRow = -Infinity;
  const lastFeature = s.features.map(() => -Infinity);
  for (let i = 0; i < s.timestamps.length; i++) {
    const t = s.timestamps[i]!;
    if (!Number.isFinite(t)) continue;
    lastRow = Math.max(lastRow, t);
    if (Number.isFinite(s.target.values[i])) {
      firstTarget = Math.min(firstTarget, t);
      lastTarget = Math.max(lastTarget, t);
    }
    s.features.forEach((f, j) => {
      if (Number.isFinite(f.values[i]) && t > lastFeature[j]!) lastFeature[j] = t;
    });
  }
  return {
    firstTarget: Number.isFinite(firstTarget) ? firstTarget : NaN,
    lastTarget: Number.isFinite(lastTarget) ? lastTarget : NaN,
    lastRow,
    lastFeature,
  };
}
