/**
 * Summary statistics of one column (`GET /v1/data/<name>/stats`, the original's May 2018 shape):
 * counts of values, missing cells and cells that do not fit a numeric or date column; min, max, mean,
 * median (the lower middle value for an even count, as the original's docs define it), mode,
 * population variance and standard deviation of the numbers (a date column's min, max and median by time,
 * written as stored); and a distribution: ten equal-width
 * ranges for numbers, the twenty most frequent values otherwise. Numbers stay exact for any data
 * set size that fits in memory; distinct values are counted exactly.
 */
import { isMissingCell, isMissingOrMarker, parseNumberCell } from './cells.js';
import { ColumnProfiler } from './profile.js';
import { isNumericType } from './columns.js';
import { parseDate } from './dates.js';

export interface ColumnStats {
  totalCount: number;
  missingCount: number;
  errorCount: number;
  distinctCount: number;
  suggestedType: string;
  min: number | string | null;
  max: number | string | null;
  mean: number | null;
  median: number | string | null;
  mode: string | null;
  stddev: number | null;
  variance: number | null;
  distribution: ({ min: number; max: number; count: number } | { value: string; count: number })[];
}

export function columnStats(values: readonly string[], dataType: string): ColumnStats {
  const counts = new Map<string, number>();
  const numbers: number[] = [];
  const profiler = new ColumnProfiler();
  let missing = 0;
  let errors = 0;
  const numeric = isNumericType(dataType);
  const typed = dataType !== 'string' && dataType !== 'text';
  // Dates by time, not as text ('12/31/2016' is not after '01/05/2017'): each present cell with its instant.
  const dates: { t: number; v: string }[] | null = dataType === 'date' ? [] : null;
  for (const v of values) {
    profiler.add(v);
    // A marker such as NA is a missing number, date or truth value; in a string column it may be a value ('NA', North America).
    if (typed ? isMissingOrMarker(v) : isMissingCell(v)) { missing++; continue; }
    counts.set(v, (counts.get(v) ?? 0) + 1);
    if (numeric) {
      const x = parseNumberCell(v);
      if (Number.isFinite(x)) numbers.push(x);
      else errors++;
    } else if (dates) {
      const t = parseDate(v.trim());
      if (t === null) errors++;
      else dates.push({ t, v });
    }
  }
  let mode: string | null = null;
  let best = 0;
  for (const [v, c] of counts) if (c > best || (c === best && mode !== null && v < mode)) { mode = v; best = c; }
  const base = {
    totalCount: values.length, missingCount: missing, errorCount: errors, distinctCount: counts.size,
    suggestedType: profiler.result().dataType, mode,
  };
  if (dates && dates.length > 0) {
    dates.sort((a, b) => a.t - b.t);
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
    return {
      ...base, min: dates[0]!.v, max: dates[dates.length - 1]!.v, mean: null, median: dates[Math.floor((dates.length - 1) / 2)]!.v,
      stddev: null, variance: null, distribution: top.map(([value, count]) => ({ value, count })),
    };
  }
  if (!numeric || numbers.length === 0) {
    const sorted = [...counts.keys()].sort();
    const top = [...counts.entries()].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1)).slice(0, 20);
    return {
      ...base, min: sorted[0] ?? null, max: sorted[sorted.length - 1] ?? null, mean: null,
      median: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null,
      stddev: null, variance: null, distribution: top.map(([value, count]) => ({ value, count })),
    };
  }
  numbers.sort((a, b) => a - b);
  const n = numbers.length;
  let sum = 0;
  for (const x of numbers) sum += x;
  const mean = sum / n;
  let ss = 0;
  for (const x of numbers) ss += (x - mean) ** 2;
  const variance = ss / n;
  const lo = numbers[0]!;
  const hi = numbers[n - 1]!;
  const bins = lo === hi ? 1 : 10;
  const width = (hi - lo) / bins;
  const distribution = Array.from({ length: bins }, (_, i) => ({ min: lo + i * width, max: i === bins - 1 ? hi : lo + (i + 1) * width, count: 0 }));
  for (const x of numbers) distribution[bins === 1 ? 0 : Math.min(bins - 1, Math.floor((x - lo) / width))]!.count++;
  return {
    ...base, min: lo, max: hi, mean, median: numbers[Math.floor((n - 1) / 2)]!,
    stddev: Math.sqrt(variance), variance, distribution,
  };
}
