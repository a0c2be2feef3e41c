/**
 * Streaming profiles of uploaded columns, the evidence for metadata inference. Uploads may have
 * millions of rows, so a profile is a handful of flags and counters per column; the only growing
 * state is a capped set of date values for the uniqueness check (see DATE_SET_CAP).
 */
import type { DataType } from './columns.js';
import { isMissingCell, LOGICAL_WORDS, MISSING_MARKERS, numberNotation, decimalValue } from './cells.js';
import type { MissingValues } from './missing-values.js';
import { ExtremeTally, type Extremes } from './missing-codes.js';
import { parseDate } from './dates.js';
import { ProseTally, type ProseEvidence } from './prose.js';

export interface ColumnProfile {
  /** Type suggested by the values alone; 'string' when every value is missing. */
  dataType: DataType;
  present: number;
  missing: number;
  /** Integer column whose values are all 0 or 1: numeric, but imputed and aggregated by mode. */
  zeroOne: boolean;
  /** Date column with no missing and no repeated value: a timestamp candidate. */
  uniqueDates: boolean;
  /** A date column's count of different dates, when it holds no more than DATE_SET_CAP of them. */
  distinctDates?: number;
  /**
   * A text column whose every value is a date written day first ('13/01/2017', '13.01.2017'), at
   * least one with a day past 12: read month first (en-US, as the original service did) some are
   * no date, so the column is text, and the upload says why.
   */
  dayFirstDates?: boolean;
  /**
   * A date column read month first whose every value shares its first number while the second varies
   * ('01/01/1991', '01/04/1991', '01/07/1991': a quarterly series dated on the 1st, written day first):
   * month first, every date falls on a day 1–12 of one month. `first` is that shared number; `example` a cell.
   */
  dayFirstLikely?: { first: number; example: string };
  /** A column of whole numbers rising from row to row, none missing, as row numbers or row names are. */
  risingWholeNumbers?: boolean;
  /** A column of numbers: its extremes (missing-codes.ts: a code for a missing value among them). */
  extremes?: Extremes;
  /**
   * A column of numbers with a few cells of words ('unknown', 'refused'): the words and their cells,
   * which count as missing (NUMBER_WORDS). Absent when every present cell is a number.
   */
  missingWords?: { word: string; count: number }[];
  /** A column of words read as text (dataType 'text', prose.ts): the evidence, for the upload's message. */
  prose?: ProseEvidence;
}

/**
 * A column stays one of numbers when its other cells are at most this many different words, in at most
 * 1 in NUMBER_WORDS_SHARE of its present cells, among at least NUMBER_WORDS_MIN_NUMBERS numbers: a
 * survey's horsepower with 'unknown' in 5 of 397 rows is horsepower, not 93 categories; a column where
 * words are common or varied stays text.
 */
const NUMBER_WORDS = 3;
const NUMBER_WORDS_SHARE = 20;
const NUMBER_WORDS_MIN_NUMBERS = 20;
/**
 * Word cells after which a column whose words outnumber its numbers is text without waiting for the
 * end: a column of two or three levels ('USA', 'Europe', 'Japan') otherwise kept the word count going,
 * and a number parse, for every cell (4–7× the profile's time on such a column).
 */
const WORDS_BEFORE_TEXT = 64;

/** d/m/y or d.m.y or d-m-y, a time after it allowed; the day is checked separately (> 12 somewhere). */
const DAY_FIRST = /^(\d{1,2})[/.-](\d{1,2})[/.-](?:\d{4}|\d{2})(?:[ T]\d{1,2}:\d{2}(?::\d{2})?)?$/;

/**
 * Exact duplicate detection for date columns up to this many values. Past it the set is dropped
 * and a column counts as unique only if its values were strictly increasing or strictly
 * decreasing from the first row, which holds for the sorted series clients upload; an unsorted
 * column of more than DATE_SET_CAP dates is conservatively treated as not unique.
 */
export const DATE_SET_CAP = 100_000;

// The longest logical word ('false'): longer values are not logical without lower-casing them.
const LONGEST_LOGICAL = 5;

export class ColumnProfiler {
  private present = 0;
  private missing = 0;
  private numeric = true;
  private integer = true;
  private zeroOne = true;
  private logical = true;
  private sawLogicalWord = false;
  private date = true;
  private dateSet: Set<number> | null = new Set();
  private dateRepeated = false;
  private increasing = true;
  private decreasing = true;
  private lastDate = NaN;
  private dayFirst = true;
  private dayPast12 = false;
  /** Bit n set: some d/m/y cell's first (second) number is n. */
  private firstNumbers = 0;
  private secondNumbers = 0;
  private dayFirstExample = '';
  private exampleAlike = false;
  private rising = true;
  private lastWhole = -Infinity;
  /** The currency symbol of the column's numbers, '' until one is seen. */
  private currency = '';
  /** Whether the column's numbers carry a percent sign, once one is seen. */
  private percent: boolean | undefined;
  private readonly extremes = new ExtremeTally();
  /** Cells of a numeric column that are no number, by word (null: too many different ones). */
  private words: Map<string, number> | null = new Map();
  private wordCells = 0;
  private readonly prose = new ProseTally();

  /** One cell: null, undefined and blank strings are missing; JSON numbers and booleans are typed. */
  add(value: unknown): void {
    if (typeof value === 'string') {
      this.addText(value);
      return;
    }
    if (isMissingCell(value)) {
      this.missing++;
      this.rising = false;
      return;
    }
    this.present++;
    this.dayFirst = false;
    if (typeof value === 'number') this.addNumber(value);
    else if (typeof value === 'boolean') this.addBoolean(value);
    else this.numeric = this.logical = this.date = false;
  }

  addMissing(count: number): void {
    this.missing += count;
    if (count > 0) this.rising = false;
  }

  result(): ColumnProfile {
    const base = { present: this.present, missing: this.missing, zeroOne: false, uniqueDates: false };
    if (this.present === 0) return { ...base, dataType: 'string' };
    const wordCells = this.words ? this.wordCells : 0;
    const numbers = this.present - wordCells;
    if (this.numeric && (wordCells === 0 || (numbers >= NUMBER_WORDS_MIN_NUMBERS && wordCells * NUMBER_WORDS_SHARE <= this.present))) {
      if (wordCells > 0) {
        base.present = numbers;
        base.missing += wordCells;
      }
      const missingWords = wordCells > 0 ? { missingWords: [...this.words!].map(([word, count]) => ({ word, count })) } : {};
      const rising = this.integer && this.rising && this.present >= 2 ? { risingWholeNumbers: true } : {};
      const extremes = { ...this.extremes };
      return { ...base, dataType: this.integer ? 'numeric' : 'numericMeasure', zeroOne: this.integer && this.zeroOne, ...rising, extremes, ...missingWords };
    }
    if (this.logical && this.sawLogicalWord) return { ...base, dataType: 'logical' };
    if (this.date) {
      const distinct = !this.dateRepeated && (this.dateSet !== null || this.increasing || this.decreasing);
      const counted = this.dateSet === null ? {} : { distinctDates: this.dateSet.size };
      const oneFirst = this.dayFirst && !this.dayPast12 && this.present >= 3 && oneBit(this.firstNumbers) && !oneBit(this.secondNumbers) && this.secondNumbers !== 0;
      const likely = oneFirst ? { dayFirstLikely: { first: 31 - Math.clz32(this.firstNumbers), example: this.dayFirstExample } } : {};
      return { ...base, dataType: 'date', uniqueDates: distinct && this.missing === 0, ...counted, ...likely };
    }
    if (this.dayFirst && this.dayPast12) return { ...base, dataType: 'string', dayFirstDates: true };
    const prose = this.prose.evidence();
    return prose ? { ...base, dataType: 'text', prose } : { ...base, dataType: 'string' };
  }

  private addNumber(n: number): void {
    this.date = false;
    if (!Number.isFinite(n)) {
      this.numeric = this.logical = false;
      return;
    }
    if (!Number.isInteger(n)) this.integer = false;
    if (n !== 0 && n !== 1) this.zeroOne = this.logical = false;
    this.extremes.add(n);
    this.noteRising(n);
  }

  /** Only while the column has risen so far: most columns stop at their second or third value. */
  private noteRising(x: number): void {
    if (!this.rising) return;
    if (Number.isInteger(x) && x > this.lastWhole) this.lastWhole = x;
    else this.rising = false;
  }

  private addBoolean(b: boolean): void {
    this.numeric = this.date = false;
    this.noteLogical(String(b));
  }

  /** A text cell; blank is missing. Trimming is skipped when both ends are visible ASCII (the usual case). */
  private addText(raw: string): void {
    const first = raw.charCodeAt(0);
    const last = raw.charCodeAt(raw.length - 1);
    const s = first > 32 && first < 127 && last > 32 && last < 127 ? raw : raw.trim();
    if (s === '' || MISSING_MARKERS.has(s)) {
      this.missing++;
      this.rising = false;
      return;
    }
    this.present++;
    if (this.numeric) this.addNumberText(s);
    if (this.logical) this.noteLogical(s);
    if (this.date) this.addDateCandidate(s);
    if (this.dayFirst) this.noteDayFirst(s);
    if (!this.date) this.prose.add(s);
  }

  private noteDayFirst(s: string): void {
    const m = DAY_FIRST.exec(s);
    const day = m ? Number(m[1]) : 0;
    const month = m ? Number(m[2]) : 0;
    if (day < 1 || day > 31 || month < 1 || month > 12) this.dayFirst = false;
    else if (day > 12) this.dayPast12 = true;
    else {
      this.firstNumbers |= 1 << day;
      this.secondNumbers |= 1 << month;
      // An example whose two numbers differ shows the reading best.
      if (!this.dayFirstExample || (day !== month && this.exampleAlike)) {
        this.dayFirstExample = s;
        this.exampleAlike = day === month;
      }
    }
  }

  // parseNumberCell's rule (numberNotation, finite), with the notation telling integers apart; a
  // second currency symbol, or numbers with and without a percent sign, make the column text.
  private addNumberText(s: string): void {
    const n = numberNotation(s);
    if (!n) {
      this.noteWord(s);
      return;
    }
    if ((n.currency !== '' && this.currency !== '' && n.currency !== this.currency) || (this.percent !== undefined && this.percent !== n.percent)) {
      this.numeric = false;
      return;
    }
    if (n.currency) this.currency = n.currency;
    this.percent = n.percent;
    if (n.form !== 1) this.integer = false;
    // Past 15 digits decimalValue drops digits, which whole numbers telling rows apart need.
    const x = decimalValue(n.digits, n.form);
    if (this.rising) this.noteRising(n.form === 1 && !n.currency && !n.percent ? (n.digits.length > 15 ? Number(n.digits) : x) : NaN);
    if (!Number.isFinite(x)) {
      this.numeric = false;
      return;
    }
    if (x !== 0 && x !== 1) this.zeroOne = false;
    this.extremes.add(x);
  }

  /** A cell of a so far numeric column that is no number: one of its few words, or the end of its numbers. */
  private noteWord(s: string): void {
    this.rising = false;
    const words = this.words;
    // Words outnumbering the numbers this far in: the numbers would have to outnumber them 19 to 1 later.
    const text = !words || (!words.has(s) && words.size >= NUMBER_WORDS) || (++this.wordCells >= WORDS_BEFORE_TEXT && this.wordCells * 2 > this.present);
    if (text) {
      this.words = null;
      this.numeric = false;
    } else words.set(s, (words.get(s) ?? 0) + 1);
  }

  // 1/0 also count as logical, but a column of only 0/1 is numeric (the spec's 0/1 label is numeric).
  private noteLogical(s: string): void {
    if (s.length > LONGEST_LOGICAL) {
      this.logical = false;
      return;
    }
    const word = s.toLowerCase();
    if (LOGICAL_WORDS.has(word)) this.sawLogicalWord = true;
    else if (word !== '0' && word !== '1') this.logical = false;
  }

  private addDateCandidate(s: string): void {
    const t = parseDate(s);
    if (t === null) {
      this.date = false;
      this.dateSet = null;
      return;
    }
    if (t <= this.lastDate) this.increasing = false;
    if (t >= this.lastDate) this.decreasing = false;
    this.lastDate = t;
    if (this.dateSet === null) return;
    if (this.dateSet.has(t)) this.dateRepeated = true;
    else if (this.dateSet.size >= DATE_SET_CAP) this.dateSet = null;
    else this.dateSet.add(t);
  }
}

/**
 * Profiles of a whole upload, fed record by record (JSON) or row by row (CSV, positional in
 * header order). A column first seen in a later JSON record counts as missing in earlier ones.
 */
export class TableProfiler {
  private readonly columns = new Map<string, ColumnProfiler>();
  /** Profilers in `addRow` positions, and those of known columns rows do not have. */
  private readonly positional: ColumnProfiler[];
  private readonly absent: ColumnProfiler[];
  private rows = 0;

  /**
   * `columns` are known in advance (profile order); `rowHeader` is the layout `addRow` values follow;
   * cells reading one of `missingValues` (the data set's own markers) are missing.
   */
  constructor(columns: readonly string[] = [], rowHeader: readonly string[] = columns, private readonly missingValues?: MissingValues) {
    if (missingValues?.size === 0) this.missingValues = undefined;
    for (const name of [...columns, ...rowHeader]) this.column(name);
    this.positional = rowHeader.map((name) => this.column(name));
    const inRows = new Set(rowHeader);
    this.absent = columns.filter((name) => !inRows.has(name)).map((name) => this.column(name));
  }

  addRecord(record: Record<string, unknown>): void {
    const markers = this.missingValues;
    for (const [name, value] of Object.entries(record)) this.column(name).add(markers?.has(value) ? undefined : value);
    for (const [name, profiler] of this.columns) {
      if (!Object.hasOwn(record, name)) profiler.add(undefined);
    }
    this.rows++;
  }

  addRow(values: readonly unknown[]): void {
    const positional = this.positional;
    const markers = this.missingValues;
    if (markers) for (let i = 0; i < positional.length; i++) positional[i]!.add(markers.has(values[i]) ? undefined : values[i]);
    else for (let i = 0; i < positional.length; i++) positional[i]!.add(values[i]);
    for (const profiler of this.absent) profiler.addMissing(1);
    this.rows++;
  }

  /** Profiles in column order (header first, then columns in order of first appearance). */
  profiles(): Record<string, ColumnProfile> {
    const out: Record<string, ColumnProfile> = {};
    for (const [name, profiler] of this.columns) out[name] = profiler.result();
    return out;
  }

  private column(name: string): ColumnProfiler {
    let profiler = this.columns.get(name);
    if (!profiler) {
      profiler = new ColumnProfiler();
      profiler.addMissing(this.rows);
      this.columns.set(name, profiler);
    }
    return profiler;
  }
}

/** Exactly one bit set. */
function oneBit(x: number): boolean {
  return x !== 0 && (x & (x - 1)) === 0;
}
