/**
 * Numbers that stand for "no value": weather stations write -9999 for a reading they did not take,
 * surveys 99 or 999 for "no answer", registries -1 for "unknown". Stored as numbers, such a code is a
 * value to every statistic, model and forecast of the column (a -9999 among temperatures of -20..40
 * drags the mean, and a forecast fitted through it plunges), and nothing says so. A code is told apart
 * by its shape and place: the column's smallest or largest value, repeated, far from all the others,
 * and written as codes are (all nines, or negative where the other values never are).
 */
import { numberInWords } from './wording.js';

/** The smallest and largest values of a column of numbers, how often each, and the next ones inward. */
export interface Extremes {
  low: number;
  lowCount: number;
  /** The smallest value above `low` (Infinity: none). */
  nextLow: number;
  high: number;
  highCount: number;
  /** The largest value below `high` (−Infinity: none). */
  nextHigh: number;
  /** Values seen. */
  count: number;
}

/** Extremes tallied value by value (a profile's fields: plain data, so they cross threads as they are). */
export class ExtremeTally implements Extremes {
  low = Infinity;
  lowCount = 0;
  nextLow = Infinity;
  high = -Infinity;
  highCount = 0;
  nextHigh = -Infinity;
  count = 0;

  add(x: number): void {
    this.count++;
    if (x < this.low) {
      this.nextLow = this.low;
      this.low = x;
      this.lowCount = 1;
    } else if (x === this.low) this.lowCount++;
    else if (x < this.nextLow) this.nextLow = x;
    if (x > this.high) {
      this.nextHigh = this.high;
      this.high = x;
      this.highCount = 1;
    } else if (x === this.high) this.highCount++;
    else if (x > this.nextHigh) this.nextHigh = x;
  }

  /** Every finite value of a loaded column (NaN is missing). */
  static of(values: ArrayLike<number>): ExtremeTally {
    const t = new ExtremeTally();
    for (let i = 0; i < values.length; i++) {
      const x = values[i]!;
      if (Number.isFinite(x)) t.add(x);
    }
    return t;
  }
}

export interface MissingCode {
  value: number;
  /** Rows holding it. */
  count: number;
  /** Rows with a number in all (the code's included). */
  present: number;
  /** The range of the other values. */
  othersLow: number;
  othersHigh: number;
}

/** A code repeats: one far value is an outlier, not a convention. */
const MIN_REPEATS = 3;
/** And the other values are enough to say where the column's values lie. */
const MIN_OTHERS = 10;

/** 9, 99, 999, … and their negatives: the codes data sources write. */
function allNines(x: number): boolean {
  return Number.isInteger(x) && /^-?9+$/.test(String(x));
}

/**
 * The column's code for a missing value, if its extremes show one: its smallest value, repeated, all
 * nines or negative where every other value is ≥ 0, and further below the other values than their
 * whole range; or its largest value, repeated, all nines, as far above them. A column's true extremes
 * are rarely repeated that far out (the gap to the rest wider than the rest), so -1 among day counts of
 * 1..871 is a value, and -9999 among temperatures, or 999 among ages, a code.
 */
export function missingCode(t: Extremes): MissingCode | undefined {
  if (t.low === t.high) return undefined;
  const lowLooks = t.lowCount >= MIN_REPEATS && (allNines(t.low) || (t.low < 0 && t.nextLow >= 0));
  const highLooks = t.highCount >= MIN_REPEATS && t.high > 0 && allNines(t.high);
  // The others' range leaves out both extremes when both look like codes (-99 and 999 in one column).
  const othersLow = lowLooks ? t.nextLow : t.low;
  const othersHigh = highLooks ? t.nextHigh : t.high;
  const span = othersHigh - othersLow;
  const lowIsCode = lowLooks && othersLow - t.low > span;
  const highIsCode = highLooks && t.high - othersHigh > span;
  const others = t.count - (lowIsCode ? t.lowCount : 0) - (highIsCode ? t.highCount : 0);
  if (others < MIN_OTHERS) return undefined;
  const range = { othersLow: lowIsCode ? othersLow : t.low, othersHigh: highIsCode ? othersHigh : t.high };
  if (lowIsCode) return { value: t.low, count: t.lowCount, present: t.count, ...range };
  if (highIsCode) return { value: t.high, count: t.highCount, present: t.count, ...range };
  return undefined;
}

/** What a code means for the column, and what to send instead. */
export function missingCodeMessage(column: string, code: MissingCode, use: 'upload' | 'session'): string {
  const where = `Column '${column}' holds ${numberInWords(code.value)} in ${code.count} of ${code.present} rows, far from its other values ` +
    `(${numberInWords(code.othersLow)} to ${numberInWords(code.othersHigh)}), as data sources write a code for a missing value.`;
  const marker = `name it among the data set's markers for a missing value (PUT the data set with {"missingValues": ["${code.value}"]})`;
  return use === 'upload'
    ? `${where} It is stored as a number, and statistics, models and forecasts of the column will take it for one. If it marks missing values, ${marker}, or send those cells empty.`
    : `${where} This session took it for a number, as it is stored. If it marks missing values, the results are skewed by it: ${marker}, and run the session again.`;
}
