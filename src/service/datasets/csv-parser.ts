/**
 * Streaming CSV (RFC 4180) into positional rows. Text is pushed chunk by chunk and a record may
 * be split anywhere, even between CR and LF or inside a doubled quote; only the unfinished
 * record is kept between chunks. Semantics follow what uploads were parsed with before
 * (csv-parse with bom, skip_empty_lines, relax_quotes): a quote inside an unquoted value is a
 * literal character, empty lines are skipped, a line ends at LF, CRLF or a lone CR, and every
 * record must have as many values as the first one. Stricter than before: text after a closing
 * quote ("a"b) is an error naming the line rather than a literal value.
 *
 * Most lines have no quotes: they are cut with indexOf + split, which is several times faster
 * than a character loop; the character state machine runs only for records that need it.
 *
 * The work is linear in the input however long a line is: a chunk without a line break is only
 * remembered (joined once, when its line ends), and each search of a chunk starts where the last
 * one stopped. A line may be at most `maxLineChars` long (MAX_LINE_CHARS by default): one line is
 * held whole, so an endless one would otherwise take all memory before anything could be said.
 */

/** A malformed CSV; `line` is the 1-based physical line where the offending record starts. */
export class CsvSyntaxError extends Error {
  constructor(reason: string, readonly line: number) {
    super(`line ${line}: ${reason}`);
  }
}

const LF = 10;
const CR = 13;
const QUOTE = 34;
const BOM = 0xfeff;

/** Longest line (or quoted record) by default, in characters: far beyond any real row, small enough to hold. */
export const MAX_LINE_CHARS = 32 * 1024 * 1024;

const enum State { FieldStart, Unquoted, Quoted, QuoteInQuoted }

/** What separates the values of a record: a comma (RFC 4180), or a semicolon or tab in other dialects (csv-rows.ts). */
export type CsvSeparator = ',' | ';' | '\t';

const SEPARATOR_NAMES: Record<CsvSeparator, string> = { ',': 'a comma', ';': 'a semicolon', '\t': 'a tab' };

export class CsvParser {
  private readonly separatorCode: number;
  /** Values per record, fixed by the first record (-1 before it). */
  private width = -1;
  /** Unconsumed text, the start of a line whose end has not come yet, in the pieces it came in (joined once it ends). */
  private pending: string[] = [];
  private pendingChars = 0;
  /** Characters of the state machine's record in progress that came in earlier chunks. */
  private carriedChars = 0;
  /** Physical line number where the next record starts. */
  private line = 1;
  private started = false;
  /** The previous chunk ended a record on CR: a leading LF belongs to it. */
  private skipLf = false;
  /** Record in progress in the state machine (null: none). */
  private fields: string[] | null = null;
  private field = '';
  private state = State.FieldStart;
  private recordLine = 0;
  private recordQuoted = false;
  /** Inside quotes, the last character was a CR (already counted as a line break). */
  private quotedCr = false;

  constructor(private readonly separator: CsvSeparator = ',', private readonly maxLineChars = MAX_LINE_CHARS) {
    this.separatorCode = separator.charCodeAt(0);
  }

  /** Parses a chunk of text; appends completed records to `out`. */
  push(text: string, out: string[][]): void {
    // No stored text can hold a NUL (PostgreSQL refuses it): the upload is refused, naming the line.
    // (Pending text holds no line break, so the line is counted in this chunk alone.)
    if (text.includes('\0')) {
      const before = text.slice(0, text.indexOf('\0'));
      throw new CsvSyntaxError('a NUL character (\\0) is not allowed in CSV', this.line + (before.match(/\n/g)?.length ?? 0));
    }
    if (!this.started && text.length > 0) {
      this.started = true;
      if (text.charCodeAt(0) === BOM) text = text.slice(1);
    }
    // The fast path's line goes on: keep the piece rather than joining and searching the whole line again.
    if (this.fields === null && text.indexOf('\n') === -1 && text.indexOf('\r') === -1) {
      this.hold(text);
      return;
    }
    this.parse(this.takePending(text), false, out);
  }

  /** The input is complete: the last record needs no line break, but an open quote is an error. */
  end(out: string[][]): void {
    this.parse(this.takePending(''), true, out);
    if (this.fields !== null) {
      if (this.state === State.Quoted) throw new CsvSyntaxError('a quoted value is not closed', this.recordLine);
      this.endField();
      this.endRecord(out);
    }
  }

  private parse(s: string, final: boolean, out: string[][]): void {
    const len = s.length;
    let pos = 0;
    // Next LF, '"' and CR at or after pos (-1: none), found lazily so each is searched for once per stretch
    // (searching again from every line start would be quadratic in a text of many lines without one of them).
    let lfAt = -2;
    let quoteAt = -2;
    let crAt = -2;
    while (pos < len) {
      if (this.fields !== null) { pos = this.machine(s, pos, out); continue; }
      if (this.skipLf) {
        this.skipLf = false;
        if (s.charCodeAt(pos) === LF) { pos++; continue; }
      }
      if (lfAt !== -1 && lfAt < pos) lfAt = s.indexOf('\n', pos);
      if (crAt !== -1 && crAt < pos) crAt = s.indexOf('\r', pos);
      let next = lfAt;
      let simple = true;
      if (next === -1) {
        // The rest of a line: wait for its end, unless this is the last text or a lone CR may end it.
        if (final) next = len;
        else if (crAt === -1) break;
        else simple = false;
      }
      let end = next;
      if (simple) {
        if (end > pos && s.charCodeAt(end - 1) === CR) end--;
        if (quoteAt !== -1 && quoteAt < pos) quoteAt = s.indexOf('"', pos);
        simple = (quoteAt === -1 || quoteAt >= end) && (crAt === -1 || crAt >= end);
      }
      if (simple) {
        if (end - pos > this.maxLineChars) throw this.tooLong(this.line);
        if (end > pos) this.emit(s.slice(pos, end).split(this.separator), this.line, out);
        this.line++;
        pos = next + 1;
        continue;
      }
      this.fields = [];
      this.field = '';
      this.recordQuoted = false;
      this.state = State.FieldStart;
      this.recordLine = this.line;
      this.carriedChars = 0;
      pos = this.machine(s, pos, out);
    }
    if (pos < len) this.hold(s.slice(pos));
  }

  /** Keeps the start of a line until its end comes. */
  private hold(text: string): void {
    if (text.length === 0) return;
    this.pending.push(text);
    this.pendingChars += text.length;
    if (this.pendingChars > this.maxLineChars) throw this.tooLong(this.line);
  }

  /** The pending start of a line joined with the new text (once per line end, so linear overall). */
  private takePending(text: string): string {
    if (this.pending.length === 0) return text;
    const whole = this.pending.join('') + text;
    this.pending = [];
    this.pendingChars = 0;
    return whole;
  }

  private tooLong(line: number): CsvSyntaxError {
    return new CsvSyntaxError(`the line is longer than the limit of ${this.maxLineChars} characters (is the file CSV, with line breaks?)`, line);
  }

  /** Character by character through one record; returns where it stopped (record end or text end). */
  private machine(s: string, pos: number, out: string[][]): number {
    const len = s.length;
    let i = pos;
    let from = i; // start of the current field's text not yet copied into this.field
    while (i < len) {
      const c = s.charCodeAt(i);
      switch (this.state) {
        case State.FieldStart:
          if (c === QUOTE) {
            this.state = State.Quoted;
            this.recordQuoted = true;
            this.quotedCr = false;
            from = ++i;
          } else {
            this.state = State.Unquoted;
            from = i;
          }
          break;
        case State.Unquoted:
          if (c === this.separatorCode) {
            this.field += s.slice(from, i);
            this.endField();
            from = ++i;
          } else if (c === LF || c === CR) {
            this.field += s.slice(from, i);
            this.checkLength(i - pos);
            return this.lineEnd(c, i, out);
          } else i++;
          break;
        case State.Quoted:
          if (c === QUOTE) {
            this.field += s.slice(from, i);
            this.state = State.QuoteInQuoted;
            i++;
          } else {
            if (c === CR || (c === LF && !this.quotedCr)) this.line++;
            this.quotedCr = c === CR;
            i++;
          }
          break;
        case State.QuoteInQuoted:
          if (c === QUOTE) {
            this.field += '"';
            this.state = State.Quoted;
            this.quotedCr = false;
            from = ++i;
          } else if (c === this.separatorCode) {
            this.endField();
            from = ++i;
          } else if (c === LF || c === CR) {
            this.checkLength(i - pos);
            return this.lineEnd(c, i, out);
          } else {
            throw new CsvSyntaxError(`a closing quote is followed by '${s[i]}' instead of ${SEPARATOR_NAMES[this.separator]} or the end of the line`, this.recordLine);
          }
          break;
      }
    }
    if (this.state === State.Unquoted || this.state === State.Quoted) this.field += s.slice(from, len);
    // The record goes on into the next chunk (an unclosed quote can hold all the rest of the file).
    this.checkLength(len - pos);
    this.carriedChars += len - pos;
    return len;
  }

  /** The state machine's record, `chars` of it in this chunk, is within the limit. */
  private checkLength(chars: number): void {
    if (this.carriedChars + chars > this.maxLineChars) throw this.tooLong(this.recordLine);
  }

  private lineEnd(c: number, i: number, out: string[][]): number {
    this.endField();
    this.endRecord(out);
    this.line++;
    if (c === CR) this.skipLf = true;
    return i + 1;
  }

  private endField(): void {
    this.fields!.push(this.field);
    this.field = '';
    this.state = State.FieldStart;
  }

  private endRecord(out: string[][]): void {
    const row = this.fields!;
    this.fields = null;
    // A line with nothing on it (the machine sees one for a lone CR) is skipped, like in the fast path;
    // a line of just "" is a record with one empty value.
    const blank = row.length === 1 && row[0] === '' && !this.recordQuoted;
    if (!blank) this.emit(row, this.recordLine, out);
  }

  private emit(row: string[], line: number, out: string[][]): void {
    if (this.width < 0) this.width = row.length;
    else if (row.length !== this.width) {
      // One value on the first line and more below: a title or note above the header, as reports exported from a spreadsheet begin.
      const title = this.width === 1 && row.length > 1 ? ' (a title or note above the header? The first line must name the columns)' : '';
      throw new CsvSyntaxError(`${row.length} ${row.length === 1 ? 'value' : 'values'} where the first line has ${this.width}${title}`, line);
    }
    out.push(row);
  }
}
