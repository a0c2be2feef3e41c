/** Dates as the API writes them ("2008-06-01T00:00:00.0000000Z", "1983-02-01", offsets) → epoch ms. */
export function parseTime(s: string | undefined): number {
  if (!s) return NaN;
  // Seven fractional digits (the original service's .NET format) are more than Date.parse promises to read.
  const trimmed = s.replace(/(\.\d{3})\d+/, '$1');
  return Date.parse(/^\d{4}-\d{2}-\d{2}$/.test(trimmed) ? `${trimmed}T00:00:00Z` : trimmed);
}
