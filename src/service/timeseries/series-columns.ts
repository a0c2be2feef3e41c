/**
 * The columns a forecast or impact session works with: the data set's metadata overridden by the
 * request's, checked against the data set (spec: "column metadata that does not fit the DataSet
 * yields a 400 error").
 */
import { columnNamed, isNumericType, normalizeColumnMap, type ColumnMap, type ColumnMetadata } from '../../domain/columns.js';
import { mergeColumns } from '../../domain/infer.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import { ValidationError } from '../errors.js';
import { didYouMean } from '../../domain/similar-names.js';
import { isYearName } from '../../domain/dates.js';

export interface SeriesColumns {
  /** Metadata in effect for the session (echoed on the session resource). */
  columns: ColumnMap;
  target: string;
  timestamp: string;
  /** Numeric or logical columns with role feature: regressors of a forecast, controls of an impact analysis. */
  features: string[];
}

export function isNumericColumn(c: ColumnMetadata): boolean {
  return isNumericType(c.dataType);
}

/** Features a series model can use: numbers, and logical flags (TRUE = 1, empty = 0). */
function isUsableFeature(c: ColumnMetadata): boolean {
  return isNumericColumn(c) || c.dataType === 'logical';
}

export function resolveSeriesColumns(dataset: DatasetRecord, requestedColumns: unknown, requestedTarget: string | undefined): SeriesColumns {
  const { columns: patch, errors } = normalizeColumnMap(requestedColumns);
  const stored = dataset.columns as ColumnMap;
  const targetParam = requestedTarget === undefined ? undefined : columnNamed(stored, requestedTarget) ?? requestedTarget;
  for (const name of Object.keys(patch)) {
    if (!(name in stored)) (errors[name] ??= []).push(`column '${name}' is not in data set '${dataset.name}'.${didYouMean(name, Object.keys(stored))}`);
  }
  if (targetParam !== undefined && !(targetParam in stored)) {
    throw ValidationError.of('targetColumn', `column '${targetParam}' is not in data set '${dataset.name}'.${didYouMean(targetParam, Object.keys(stored))}`);
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, 'The column metadata does not fit the data set');

  // A session has one target: a request that names several (or one beside targetColumn) would have one silently dropped.
  const requestedTargets = Object.keys(patch).filter((n) => patch[n]!.role === 'target' && n !== targetParam);
  if (requestedTargets.length > (targetParam === undefined ? 1 : 0)) {
    const named = [...(targetParam === undefined ? [] : [`targetColumn '${targetParam}'`]), ...requestedTargets.map((n) => `'${n}'`)];
    throw new ValidationError({ columns: [`a session forecasts or analyses one target, and the request names ${named.length}: ${named.join(', ')}. Keep role target on one of them (or name it in targetColumn) and give the others role feature or none; for several targets, create one session each`] }, 'The column metadata does not fit the data set');
  }
  const merged = mergeColumns(stored, undefined, patch);
  const target = targetParam
    ?? Object.keys(patch).find((n) => patch[n]!.role === 'target')
    ?? Object.keys(merged).find((n) => merged[n]!.role === 'target');
  if (target === undefined) throw ValidationError.of('targetColumn', 'targetColumn is required (or a column with role target in columns)');
  // One target per session: other target roles of the data set do not apply here.
  for (const [name, c] of Object.entries(merged)) {
    if (name === target) c.role = 'target';
    else if (c.role === 'target') c.role = 'none';
  }
  if (!isNumericColumn(merged[target]!)) {
    throw new ValidationError({ [target]: [`the target column must be numeric, not ${merged[target]!.dataType}`] }, 'The column metadata does not fit the data set');
  }

  const timestamps = Object.keys(merged).filter((n) => merged[n]!.role === 'timestamp');
  const timestamp = timestamps[0] ?? (dataset.identityKind === 'timestamp' ? dataset.identityColumn ?? undefined : undefined);
  if (timestamp === undefined || timestamps.length > 1) {
    const why = timestamp === undefined ? noTimestamp(dataset.name, merged) : `only one column can have role timestamp, not ${timestamps.join(', ')}`;
    throw new ValidationError({ columns: [why] }, 'The column metadata does not fit the data set');
  }
  merged[timestamp]!.role = 'timestamp';
  if (merged[timestamp]!.dataType !== 'date') {
    throw new ValidationError({ [timestamp]: [`the timestamp column must have dataType date, not ${merged[timestamp]!.dataType}`] }, 'The column metadata does not fit the data set');
  }

  const featureNames = Object.keys(merged).filter((n) => merged[n]!.role === 'feature');
  // Features the request itself declared: their problems are the caller's to fix, so they are errors.
  const declaredFeatures = featureNames.filter((n) => patch[n]?.role === 'feature' || patch[n]?.dataType !== undefined);
  const unusable = declaredFeatures.filter((n) => !isUsableFeature(merged[n]!));
  if (unusable.length) {
    throw new ValidationError(Object.fromEntries(unusable.map((n) => [n, [`a feature of a time series must be numeric or logical, not ${merged[n]!.dataType}`]])), 'The column metadata does not fit the data set');
  }
  // Text-like features of the stored metadata have no meaning for a series model: they are left out.
  const features = featureNames.filter((n) => isUsableFeature(merged[n]!));
  return { columns: merged, target, timestamp, features };
}

/** Why a session has no timestamp, and which of the data set's date columns could be one. */
function noTimestamp(dataset: string, columns: ColumnMap): string {
  const dates = Object.keys(columns).filter((n) => columns[n]!.dataType === 'date');
  const why = `data set '${dataset}' has no timestamp column`;
  if (dates.length === 0) {
    const years = Object.keys(columns).filter((n) => isYearName(n) && isNumericColumn(columns[n]!));
    if (years.length === 0) return `${why} (no column holds dates)`;
    return `${why}: if its column '${years[0]}' holds years, give it role timestamp in the session's columns (each year is read as 1 January)`;
  }
  const which = dates.length === 1 ? `its date column '${dates[0]}'` : `one of its date columns (${dates.map((n) => `'${n}'`).join(', ')})`;
  return `${why}: give ${which} role timestamp in the session's columns; rows that share a period are then combined with each column's aggregation`;
}
