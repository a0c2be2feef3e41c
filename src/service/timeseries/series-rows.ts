/**
 * A data set's rows as the columnar input of the series computations: one timestamp per row, the
 * target (NaN where a row has none, e.g. future rows that only carry feature values) and the
 * features, each with its aggregation and imputation.
 */
import type { ColumnMap } from '../../domain/columns.js';
import { isMissingCell, parseLogicalCell, parseNumberCell } from '../../domain/cells.js';
import { parseDate } from '../../domain/dates.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import type { Services } from '../services.js';
import type { Aggregation, Imputation, Interval } from '../../ml/timeseries/prepare.js';
import type { SeriesColumns } from './series-columns.js';

export interface SeriesColumnData {
  name: string;
  /** One value per row; NaN = the row has no value (a logical column's empty cell is 0). */
  values: Float64Array;
  logical: boolean;
  aggregation: Aggregation;
  imputation: Imputation;
}

/** Structured-cloneable input shared by the forecast and impact computations. */
export interface SeriesInput {
  interval: Interval;
  timestampColumn: string;
  /** Epoch ms per row; NaN for a row whose timestamp is not a date (ignored). */
  timestamps: Float64Array;
  target: SeriesColumnData;
  features: SeriesColumnData[];
}

export async function loadSeries(services: Services, dataset: DatasetRecord, spec: Pick<SeriesColumns, 'columns' | 'target' | 'timestamp' | 'features'>, interval: Interval): Promise<SeriesInput> {
  const names = [spec.target, ...spec.features];
  const timestamps: number[] = [];
  const values: number[][] = names.map(() => []);
  const logical = names.map((n) => spec.columns[n]!.dataType === 'logical');
  for await (const batch of services.datasets.iterateRows(dataset)) {
    for (const row of batch) {
      const ts = row[spec.timestamp];
      timestamps.push(isMissingCell(ts) ? NaN : parseDate(String(ts)) ?? NaN);
      names.forEach((n, j) => values[j]!.push(cellValue(row[n], logical[j]!)));
    }
  }
  const column = (j: number): SeriesColumnData => ({
    name: names[j]!,
    values: Float64Array.from(values[j]!),
    logical: logical[j]!,
    ...strategies(spec.columns, names[j]!),
  });
  return {
    interval,
    timestampColumn: spec.timestamp,
    timestamps: Float64Array.from(timestamps),
    target: column(0),
    features: spec.features.map((_, j) => column(j + 1)),
  };
}

function cellValue(cell: unknown, logical: boolean): number {
  if (!logical) return parseNumberCell(cell);
  const flag = parseLogicalCell(cell);
  return flag === null ? NaN : flag ? 1 : 0;
}

function strategies(columns: ColumnMap, name: string): { aggregation: Aggregation; imputation: Imputation } {
  const c = columns[name]!;
  return { aggregation: c.aggregation ?? 'sum', imputation: c.imputation ?? 'zeroes' };
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
