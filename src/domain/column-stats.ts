/**
 * Summary statistics of one column (`GET /v1/data/<name>/stats`, the original's May 2018 shape):
 * counts of values, missing cells and cells that do not fit a numeric or date column; min, max, mean,
 * median (the lower middle value for an even count, as the original's docs define it), mode,
 * population variance and standard deviation of the numbers (a date column's min, max and median by time,
 * written as stored); and a distribution: ten equal-width
 * ranges for numbers, the twenty most frequent values otherwise. Numbers stay exact for any data
 * set size; distinct values are counted exactly.
 *
 * Cells are tallied as they stream past (`ColumnStatsTally`): a column of a million cells usually
 * holds far fewer different values, so each different value is read as a number or date once, and
 * the numbers are sorted as (value, count) pairs. The sums still add every cell's number in
 * ascending order, one at a time, so every figure is the one a sort of all the cells gives.
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

/** The figures that depend on how the cells read (numbers, dates or text), in the answer's order. */
type Summary = Pick<ColumnStats, 'min' | 'max' | 'mean' | 'median' | 'stddev' | 'variance' | 'distribution'>;

/** One column's cells, fed in row order; `result()` when all are in. */
export class ColumnStatsTally {
  private readonly profiler = new ColumnProfiler();
  /** Each different present cell → its index in `values` / `counts` (first-seen order). */
  private readonly ids = new Map<string, number>();
  private readonly values: string[] = [];
  private readonly counts: number[] = [];
  private total = 0;
  private missing = 0;
  private readonly numeric: boolean;
  private readonly typed: boolean;
  /** A date column's present cells in row order, as value indices: equal instants are ordered by row. */
  private dateCells: Int32Array | null;
  private dateCellCount = 0;

  constructor(dataType: string) {
    this.numeric = isNumericType(dataType);
    this.typed = dataType !== 'string' && dataType !== 'text';
    this.dateCells = dataType === 'date' ? new Int32Array(1024) : null;
  }

  add(v: string): void {
    this.total++;
    this.profiler.add(v);
    // A marker such as NA is a missing number, date or truth value; in a string column it may be a value ('NA', North America).
    if (this.typed ? isMissingOrMarker(v) : isMissingCell(v)) { this.missing++; return; }
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.values.length;
      this.ids.set(v, id);
      this.values.push(v);
      this.counts.push(1);
    } else {
      this.counts[id]!++;
    }
    if (this.dateCells) {
      if (this.dateCellCount === this.dateCells.length) {
        const grown = new Int32Array(this.dateCells.length * 2);
        grown.set(this.dateCells);
        this.dateCells = grown;
      }
      this.dateCells[this.dateCellCount++] = id;
    }
  }

  result(): ColumnStats {
    const { values, counts } = this;
    let mode: string | null = null;
    let best = 0;
    for (let i = 0; i < values.length; i++) {
      const v = values[i]!, c = counts[i]!;
      if (c > best || (c === best && mode !== null && v < mode)) { mode = v; best = c; }
    }
    const top = () => values.map((value, i) => ({ value, count: counts[i]! }))
      .sort((a, b) => b.count - a.count || (a.value < b.value ? -1 : 1)).slice(0, 20);
    const read = this.dateCells ? this.dateStats(top) : this.numeric ? this.numberStats() : { errors: 0, stats: null };
    return {
      totalCount: this.total, missingCount: this.missing, errorCount: read.errors, distinctCount: values.length,
      suggestedType: this.profiler.result().dataType, mode, ...(read.stats ?? this.textStats(top)),
    };
  }

  /** Min, max and median as text, the most frequent values: a column of strings, or one where no cell read as its type. */
  private textStats(top: () => { value: string; count: number }[]): Summary {
    const sorted = [...this.values].sort();
    return {
      min: sorted[0] ?? null, max: sorted[sorted.length - 1] ?? null, mean: null,
      median: sorted.length ? sorted[Math.floor((sorted.length - 1) / 2)]! : null,
      stddev: null, variance: null, distribution: top(),
    };
  }

  /** Each different value read as a number once; the numbers in ascending order with their cell counts. */
  private numberStats(): { errors: number; stats: Summary | null } {
    const { values, counts } = this;
    const byNumber = new Map<number, number>();
    let errors = 0;
    let n = 0;
    for (let i = 0; i < values.length; i++) {
      const x = parseNumberCell(values[i]!);
      if (!Number.isFinite(x)) { errors += counts[i]!; continue; }
      byNumber.set(x, (byNumber.get(x) ?? 0) + counts[i]!);
      n += counts[i]!;
    }
    if (n === 0) return { errors, stats: null };
    const xs = Float64Array.from(byNumber.keys()).sort();
    const times = Float64Array.from(xs, (x) => byNumber.get(x)!);
    // Summed cell by cell in ascending order, as a sort of every cell's number adds them.
    let sum = 0;
    for (let k = 0; k < xs.length; k++) for (let c = times[k]!, x = xs[k]!; c > 0; c--) sum += x;
    const mean = sum / n;
    let ss = 0;
    for (let k = 0; k < xs.length; k++) for (let c = times[k]!, d = (xs[k]! - mean) ** 2; c > 0; c--) ss += d;
    const variance = ss / n;
    const lo = xs[0]!;
    const hi = xs[xs.length - 1]!;
    const bins = lo === hi ? 1 : 10;
    const width = (hi - lo) / bins;
    const distribution = Array.from({ length: bins }, (_, i) => ({ min: lo + i * width, max: i === bins - 1 ? hi : lo + (i + 1) * width, count: 0 }));
    for (let k = 0; k < xs.length; k++) distribution[bins === 1 ? 0 : Math.min(bins - 1, Math.floor((xs[k]! - lo) / width))]!.count += times[k]!;
    const middle = Math.floor((n - 1) / 2);
    let k = 0;
    for (let seen = times[0]!; seen <= middle; seen += times[k]!) k++;
    return { errors, stats: { min: lo, max: hi, mean, median: xs[k]!, stddev: Math.sqrt(variance), variance, distribution } };
  }

  /**
   * Dates by time, not as text ('12/31/2016' is not after '01/05/2017'). Different spellings of one
   * instant ('2017-01-05', '01/05/2017') are ordered by row, so where the earliest, latest or middle
   * cell falls among several spellings the cells are looked at in row order.
   */
  private dateStats(top: () => { value: string; count: number }[]): { errors: number; stats: Summary | null } {
    const { values, counts } = this;
    const cells = this.dateCells!.subarray(0, this.dateCellCount);
    const instants = new Float64Array(values.length);
    const byInstant = new Map<number, { count: number; spellings: number }>();
    let errors = 0;
    let present = 0;
    for (let i = 0; i < values.length; i++) {
      const t = parseDate(values[i]!.trim());
      instants[i] = t ?? NaN;
      if (t === null) { errors += counts[i]!; continue; }
      const g = byInstant.get(t);
      if (g) { g.count += counts[i]!; g.spellings++; } else byInstant.set(t, { count: counts[i]!, spellings: 1 });
      present += counts[i]!;
    }
    if (present === 0) return { errors, stats: null };
    const order = Float64Array.from(byInstant.keys()).sort();
    // The `offset`-th cell (in row order) among those at instant `t`.
    const cellAt = (t: number, offset: number, fromEnd = false): string => {
      const g = byInstant.get(t)!;
      if (g.spellings === 1) {
        for (let i = 0; i < values.length; i++) if (instants[i] === t) return values[i]!;
      }
      let seen = 0;
      if (fromEnd) {
        for (let r = cells.length - 1; r >= 0; r--) if (instants[cells[r]!] === t) return values[cells[r]!]!;
      }
      for (let r = 0; r < cells.length; r++) if (instants[cells[r]!] === t && seen++ === offset) return values[cells[r]!]!;
      throw new Error('date statistics: a cell counted at an instant was not found');
    };
    const middle = Math.floor((present - 1) / 2);
    let k = 0;
    let before = 0;
    while (before + byInstant.get(order[k]!)!.count <= middle) before += byInstant.get(order[k++]!)!.count;
    return {
      errors,
      stats: {
        min: cellAt(order[0]!, 0), max: cellAt(order[order.length - 1]!, 0, true), mean: null, median: cellAt(order[k]!, middle - before),
        stddev: null, variance: null, distribution: top(),
      },
    };
  }
}
