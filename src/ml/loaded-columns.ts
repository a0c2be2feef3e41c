/**
 * A data set's columns as loaded for training: numbers in typed arrays, everything else
 * dictionary-encoded (codes into a list of distinct values), built row by row without keeping
 * rows. Memory is 8 bytes (numbers) or 4 bytes (codes) per cell plus the distinct values, and it
 * moves between threads without copying (transfer the arrays' buffers).
 */
import { readNumberCell } from '../domain/cells.js';

export interface NumberColumn {
  kind: 'number';
  /** NaN where missing or not a number. */
  values: Float64Array;
  /** The stored text wherever String(value) would not give it back ("1.50", "abc"). */
  texts: Map<number, string>;
}

export interface DictColumn {
  kind: 'dict';
  /** Index into levels; -1 where missing (empty or absent). */
  codes: Int32Array;
  /** Distinct stored values in order of first appearance. */
  levels: string[];
}

export type LoadedColumn = NumberColumn | DictColumn;
export type LoadedColumns = Record<string, LoadedColumn>;

/** The stored text of row i ('' where missing). */
export function cellText(col: LoadedColumn, i: number): string {
  if (col.kind === 'dict') {
    const c = col.codes[i]!;
    return c < 0 ? '' : col.levels[c]!;
  }
  const t = col.texts.get(i);
  if (t !== undefined) return t;
  const v = col.values[i]!;
  return Number.isNaN(v) ? '' : String(v);
}

/**
 * The column as the encoder reads it (encode.ts): numbers as they are, dictionary values as
 * strings. The strings are the levels themselves, shared, so this costs one pointer per row.
 */
export function columnValues(col: LoadedColumn): ArrayLike<string | number> {
  if (col.kind === 'number') return col.values;
  const out: string[] = new Array(col.codes.length);
  const { codes, levels } = col;
  for (let i = 0; i < codes.length; i++) out[i] = codes[i]! < 0 ? '' : levels[codes[i]!]!;
  return out;
}

/** The buffers to transfer when handing the columns to another thread. */
export function columnBuffers(cols: LoadedColumns): ArrayBuffer[] {
  return Object.values(cols).map((c) => (c.kind === 'number' ? c.values.buffer : c.codes.buffer) as ArrayBuffer);
}

/** Bytes held by the columns (typed arrays and distinct values), for memory reports. */
export function columnBytes(cols: LoadedColumns): number {
  let bytes = 0;
  for (const c of Object.values(cols)) {
    if (c.kind === 'number') bytes += c.values.byteLength + c.texts.size * 48;
    else bytes += c.codes.byteLength + c.levels.reduce((a, l) => a + 40 + 2 * l.length, 0);
  }
  return bytes;
}

/** Builds one column row by row; `capacity` is a hint (it grows past it). */
export abstract class ColumnBuilder {
  protected n = 0;
  abstract set(row: number, raw: string): void;
  abstract finish(rows: number): LoadedColumn;
}

export class NumberColumnBuilder extends ColumnBuilder {
  private values: Float64Array;
  private readonly texts = new Map<number, string>();

  constructor(capacity: number) {
    super();
    this.values = new Float64Array(Math.max(16, capacity)).fill(NaN);
  }

  set(row: number, raw: string): void {
    if (row >= this.values.length) this.values = grow(this.values, row, NaN);
    if (raw === '') return;
    const x = readNumberCell(raw);
    if (Number.isFinite(x)) {
      this.values[row] = x;
      // String(x) per cell was most of a big load's time; most stored numbers are provably canonical.
      if (!isShortestDecimal(raw) && String(x) !== raw) this.texts.set(row, raw);
    } else {
      this.texts.set(row, raw);
    }
  }

  finish(rows: number): NumberColumn {
    if (rows > this.values.length) this.values = grow(this.values, rows - 1, NaN);
    return { kind: 'number', values: this.values.subarray(0, rows), texts: this.texts };
  }
}

export class DictColumnBuilder extends ColumnBuilder {
  private codes: Int32Array;
  private readonly index = new Map<string, number>();
  private readonly levels: string[] = [];

  constructor(capacity: number) {
    super();
    this.codes = new Int32Array(Math.max(16, capacity)).fill(-1);
  }

  set(row: number, raw: string): void {
    if (row >= this.codes.length) this.codes = grow(this.codes, row, -1);
    if (raw === '') return;
    let code = this.index.get(raw);
    if (code === undefined) {
      code = this.levels.length;
      this.levels.push(raw);
      this.index.set(raw, code);
    }
    this.codes[row] = code;
  }

  finish(rows: number): DictColumn {
    if (rows > this.codes.length) this.codes = grow(this.codes, rows - 1, -1);
    return { kind: 'dict', codes: this.codes.subarray(0, rows), levels: this.levels };
  }
}

function grow<T extends Float64Array | Int32Array>(a: T, atLeast: number, fill: number): T {
  const b = new (a.constructor as new (n: number) => T)(Math.max(atLeast + 1, Math.ceil(a.length * 1.5)));
  b.set(a);
  b.fill(fill, a.length);
  return b;
}

const ZERO = 48, NINE = 57, MINUS = 45, DOT = 46;

/**
 * True when `raw` is certainly what String(Number(raw)) gives back, judged from its characters alone:
 * an optional '-', an integer part without leading zeros, an optional fraction not ending in 0, at
 * most 15 significant digits (so the decimal is the shortest that round-trips to its double, and no
 * other such decimal maps to the same double) and a size String writes without an exponent. False
 * says nothing (the caller then compares with String).
 */
export function isShortestDecimal(raw: string): boolean {
  const n = raw.length;
  let i = raw.charCodeAt(0) === MINUS ? 1 : 0;
  const intStart = i;
  while (i < n && raw.charCodeAt(i) >= ZERO && raw.charCodeAt(i) <= NINE) i++;
  const intDigits = i - intStart;
  if (intDigits === 0 || (intDigits > 1 && raw.charCodeAt(intStart) === ZERO)) return false;
  const zeroInt = intDigits === 1 && raw.charCodeAt(intStart) === ZERO;
  if (i === n) return !(zeroInt && intStart === 1) && intDigits <= 15; // "-0" is written "0"
  if (raw.charCodeAt(i) !== DOT) return false;
  const fracStart = ++i;
  while (i < n && raw.charCodeAt(i) >= ZERO && raw.charCodeAt(i) <= NINE) i++;
  if (i !== n || i === fracStart || raw.charCodeAt(n - 1) === ZERO) return false;
  let leadingZeros = 0;
  if (zeroInt) while (raw.charCodeAt(fracStart + leadingZeros) === ZERO) leadingZeros++;
  // Below 1e-6 String switches to exponent form ("1e-7").
  if (zeroInt && leadingZeros >= 6) return false;
  const significant = (zeroInt ? 0 : intDigits) + (n - fracStart) - leadingZeros;
  return significant <= 15;
}
