/**
 * One numeric column against the timestamp, from rows as the API returns them (text cells), for the
 * data set page's line chart.
 */
import { parseTime } from './time.js';

export interface SeriesOverTime {
  /** [epoch ms, value], by time; rows sharing a time are one point, their mean. */
  points: [number, number][];
  /** Rows left out: no readable time, or no number (missing, a missing-value marker, text). */
  skipped: number;
  /** Points that stand for more than one row. */
  merged: number;
}

/**
 * A number as the stored cell writes it. The server reads more forms than this (src/domain/cells.ts);
 * these are the ones a stored number keeps: thousands separators, a currency sign, a percent sign,
 * a negative in parentheses. A picture may miss an odd cell; the statistics come from the server.
 */
export function readNumber(cell: string | undefined): number {
  if (cell === undefined) return NaN;
  let s = cell.trim();
  if (s === '') return NaN;
  let sign = 1;
  if (/^\(.*\)$/.test(s)) { sign = -1; s = s.slice(1, -1); }
  s = s.replace(/^([-+−]?)[$€£¥]/, '$1').replace(/%$/, '').replace(/,/g, '').replace('−', '-');
  // Number('') and Number('0x1f') read as numbers; neither is a number cell.
  if (s === '' || /^[-+]?0[xbo]/i.test(s)) return NaN;
  return sign * Number(s);
}

export function seriesOverTime(rows: readonly Record<string, string>[], timeColumn: string, valueColumn: string, missingMarkers: readonly string[] = []): SeriesOverTime {
  const markers = new Set(missingMarkers);
  const byTime = new Map<number, { sum: number; n: number }>();
  let skipped = 0;
  for (const r of rows) {
    const t = parseTime(r[timeColumn]);
    const cell = r[valueColumn];
    const v = cell !== undefined && markers.has(cell.trim()) ? NaN : readNumber(cell);
    if (!Number.isFinite(t) || !Number.isFinite(v)) { skipped++; continue; }
    const at = byTime.get(t);
    if (at) { at.sum += v; at.n++; } else byTime.set(t, { sum: v, n: 1 });
  }
  const points = [...byTime.entries()].sort((a, b) => a[0] - b[0]).map(([t, s]): [number, number] => [t, s.sum / s.n]);
  let merged = 0;
  for (const s of byTime.values()) if (s.n > 1) merged++;
  return { points, skipped, merged };
}
