import type { MissingValues } from '../../domain/missing-values.js';

/** Where a scanned cell goes: called in increasing row order, never for a cell absent from its row, null or a marker. */
export interface CellSink {
  set(row: number, raw: string): void;
}

/**
 * Stored rows (JSON text: an object of string values) → the cells of the columns asked, without
 * making an object per row: each row's text is scanned once, its values handed straight to the
 * columns' sinks. Rows as the service writes them (`{"a":"1","b":"x"}`, or jsonb's `{"a": "1"}`
 * after a merge) take the fast path; anything else (escapes in names or values, non-string values)
 * is parsed with JSON.parse, so the result never depends on the path.
 */
export class RowTextScanner {
  private readonly byName = new Map<string, number>();
  /** Name and column index (-1: not asked) seen at each field position of the previous row: rows usually repeat them. */
  private readonly expected: number[] = [];
  private readonly expectedNames: string[] = [];
  private rows = 0;
  private readonly markers: MissingValues | undefined;

  /** `sinks[i]` receives the cells of `names[i]`; `missingValues`: the data set's markers for a missing value, never handed on. */
  constructor(names: readonly string[], private readonly sinks: readonly CellSink[], missingValues?: MissingValues) {
    if (missingValues && missingValues.size > 0) this.markers = missingValues;
    names.forEach((n, i) => this.byName.set(n, i));
  }

  get rowCount(): number {
    return this.rows;
  }

  add(texts: readonly string[]): void {
    for (const text of texts) {
      if (!this.scan(text, this.rows)) this.fromObject(JSON.parse(text) as Record<string, unknown>, this.rows);
      this.rows++;
    }
  }

  private fromObject(rec: Record<string, unknown>, row: number): void {
    for (const [k, v] of Object.entries(rec)) {
      const j = this.byName.get(k);
      if (j !== undefined && v !== null && v !== undefined && !this.markers?.has(v)) this.sinks[j]!.set(row, String(v));
    }
  }

  /** The fast path; false (having set nothing) when the row needs JSON.parse. */
  private scan(s: string, row: number): boolean {
    const n = s.length;
    let i = skipSpace(s, 0);
    if (s.charCodeAt(i) !== LBRACE) return false;
    i = skipSpace(s, i + 1);
    if (s.charCodeAt(i) === RBRACE) return true;
    const found: number[] = [];
    const values: string[] = [];
    for (let field = 0; ; field++) {
      if (s.charCodeAt(i) !== QUOTE) return false;
      // Name: matched against the column expected here without slicing it, else looked up.
      const nameStart = i + 1;
      const nameEnd = s.indexOf('"', nameStart);
      if (nameEnd < 0) return false;
      let column = this.expected[field];
      if (column === undefined || !matches(s, nameStart, nameEnd, this.expectedNames[field]!)) {
        const name = s.slice(nameStart, nameEnd);
        if (name.indexOf('\\') >= 0) return false;
        column = this.byName.get(name) ?? -1;
        this.expected[field] = column;
        this.expectedNames[field] = name;
      }
      i = skipSpace(s, nameEnd + 1);
      if (s.charCodeAt(i) !== COLON) return false;
      i = skipSpace(s, i + 1);
      if (s.charCodeAt(i) !== QUOTE) return false;
      const valueStart = i + 1;
      const valueEnd = s.indexOf('"', valueStart);
      if (valueEnd < 0) return false;
      const value = s.slice(valueStart, valueEnd);
      if (value.indexOf('\\') >= 0) return false;
      if (column >= 0) { found.push(column); values.push(value); }
      i = skipSpace(s, valueEnd + 1);
      const c = s.charCodeAt(i);
      if (c === RBRACE) break;
      if (c !== COMMA) return false;
      i = skipSpace(s, i + 1);
      if (i >= n) return false;
    }
    const markers = this.markers;
    for (let k = 0; k < found.length; k++) if (markers === undefined || !markers.has(values[k])) this.sinks[found[k]!]!.set(row, values[k]!);
    return true;
  }
}

const LBRACE = 123, RBRACE = 125, QUOTE = 34, COLON = 58, COMMA = 44;

function skipSpace(s: string, i: number): number {
  while (i < s.length) {
    const c = s.charCodeAt(i);
    if (c !== 32 && c !== 9 && c !== 10 && c !== 13) break;
    i++;
  }
  return i;
}

function matches(s: string, start: number, end: number, name: string): boolean {
  return end - start === name.length && s.startsWith(name, start);
}
