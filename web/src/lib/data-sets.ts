/**
 * Whether forecasts and impact analyses can run on a data set: it is a time series, or its metadata
 * names a timestamp (a date column whose dates repeat, or a column of years, given that role later:
 * the rows keep no identity, and sessions combine the rows of each period).
 */
export function hasTimestamp(d: { isTimeSeries: boolean; columns: Record<string, { role: string | null }> }): boolean {
  return d.isTimeSeries || Object.values(d.columns).some((c) => c.role === 'timestamp');
}

type ColumnsLike = Record<string, { dataType: string; role: string | null }>;

/** The column a data set's rows are timed by, if any. */
export function timestampColumn(columns: ColumnsLike): string | undefined {
  return Object.keys(columns).find((c) => columns[c]!.role === 'timestamp');
}

/** The target first: it is what the user came to predict, so it is the picture they look for first. */
function targetFirst(names: string[], columns: ColumnsLike): string[] {
  return [...names.filter((c) => columns[c]!.role === 'target'), ...names.filter((c) => columns[c]!.role !== 'target')];
}

/** Columns of numbers worth a picture: keys and the timestamp identify rows, their spread means nothing. */
export function numericColumns(columns: ColumnsLike): string[] {
  return targetFirst(Object.keys(columns).filter((c) => (columns[c]!.dataType === 'numeric' || columns[c]!.dataType === 'numericMeasure') && columns[c]!.role !== 'key' && columns[c]!.role !== 'timestamp'), columns);
}

/** Columns of categories (free text has too many values to count usefully). */
export function categoryColumns(columns: ColumnsLike): string[] {
  return targetFirst(Object.keys(columns).filter((c) => (columns[c]!.dataType === 'string' || columns[c]!.dataType === 'logical') && columns[c]!.role !== 'key'), columns);
}
