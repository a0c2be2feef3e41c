/**
 * A forecast whose intervals have no width: the periods it was fitted on hold one value throughout (a
 * constant series), so the model saw no variation and forecasts none. A band of zero width reads as
 * certainty; the session says it is the history's, not the future's, rather than leave the band to
 * speak for itself.
 */
import type { Message } from '../../store/schema.js';
import type { ResultRow } from './forecast-compute-contract.js';

/** Relative difference below which a quantile counts as the mean (rounding of a zero-variance fit). */
const SAME = 1e-9;

export function flatBandMessages(out: { data: ResultRow[]; intervals: Record<string, ResultRow[]> }, target: string): Message[] {
  const bands = Object.values(out.intervals);
  if (out.data.length === 0 || bands.length === 0) return [];
  const flat = bands.every((rows) => rows.every((row, i) => {
    const q = Number(row[target]);
    const mean = Number(out.data[i]?.[target]);
    return Math.abs(q - mean) <= SAME * Math.max(1, Math.abs(mean));
  }));
  if (!flat) return [];
  return [{
    severity: 'warning',
    message: `The forecast's intervals have no width: '${target}' has the same value in every period the forecast was fitted on, so the model saw no variation to carry forward. The intervals do not say the future is certain, only that the history never moved; judge how far it could move from what you know of the series.`,
  }];
}
