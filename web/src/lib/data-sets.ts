/**
 * Whether forecasts and impact analyses can run on a data set: it is a time series, or its metadata
 * names a timestamp (a date column whose dates repeat, or a column of years, given that role later:
 * the rows keep no identity, and sessions combine the rows of each period).
 */
export function hasTimestamp(d: { isTimeSeries: boolean; columns: Record<string, { role: string | null }> }): boolean {
  return d.isTimeSeries || Object.values(d.columns).some((c) => c.role === 'timestamp');
}
