/**
 * A column's histogram from the bins `GET /v1/data/<name>/stats` gives a numeric column (ten equal
 * ranges over all its rows, or one when every value is the same), in the shape the chart helpers draw.
 */
export interface Histogram { edges: number[]; counts: number[] }

type Entry = { min: number; max: number; count: number } | { value: string; count: number };

/** Undefined when the entries are not ranges (a column the server counted as text: its top values). */
export function histogramFromBins(distribution: readonly Entry[]): Histogram | undefined {
  const bins = distribution.filter((b): b is { min: number; max: number; count: number } => 'min' in b && Number.isFinite(b.min) && Number.isFinite(b.max));
  if (bins.length === 0 || bins.length !== distribution.length) return undefined;
  // One value throughout: a bin of width zero would not draw, so it gets a unit's width around the value.
  if (bins.length === 1 && bins[0]!.min === bins[0]!.max) return { edges: [bins[0]!.min - 0.5, bins[0]!.min + 0.5], counts: [bins[0]!.count] };
  return { edges: [bins[0]!.min, ...bins.map((b) => b.max)], counts: bins.map((b) => b.count) };
}
