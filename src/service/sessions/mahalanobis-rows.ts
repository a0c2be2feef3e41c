/**
 * Anomaly-score rows with `mahalanobis_distance` added: the distance over the columns that are
 * numeric in every row (text cells as stored), computed when asked since it is a cheap diagnostic.
 */
import { parseNumberCell } from '../../domain/cells.js';
import { mahalanobisDistances } from '../../ml/metrics/mahalanobis.js';

export function withMahalanobisDistances(rows: Record<string, string>[]): Record<string, string>[] {
  if (rows.length === 0) return [];
  const names = Object.keys(rows[0]!).filter((c) => c !== 'anomaly' && rows.every((r) => Number.isFinite(parseNumberCell(r[c]))));
  const distances = mahalanobisDistances(names.map((c) => Float64Array.from(rows, (r) => parseNumberCell(r[c]))));
  return rows.map((r, i) => ({ ...r, mahalanobis_distance: String(distances[i]) }));
}
