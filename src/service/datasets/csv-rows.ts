import type { Readable } from 'node:stream';
import { TooLargeError, ValidationError } from '../errors.js';
import { CsvParser, CsvSyntaxError, MAX_LINE_CHARS } from './csv-parser.js';
import { decodeWindows1252 } from './windows-1252.js';
import { checkColumns, type ColumnLimits } from './column-limits.js';
import { refuseBinaryFiles } from './binary-files.js';
import { PointGroups, readDecimalCommaLocale, sniffLayout, type CsvDialect, type CsvEncoding, type CsvLayout } from './csv-dialect.js';

/** Rows of a CSV upload in header order, values as sent ('' for an empty cell) but for decimal commas (see readDecimalCommaLocale). */
export interface CsvRowBatch {
  header: readonly string[];
  rows: string[][];
  dialect: CsvDialect;
}

/** Rows per batch: small, so that parsed values are garbage before the next young-generation collection. */
export const CSV_BATCH_ROWS = 1_000;

// A first line of only numbers and dates is data, not names (as the original service read it).
const DATA_LIKE = /^[\d\s.:/+-]+$/;

/**
 * Streams CSV into positional row batches without holding the body. The header line names the
 * columns (a first line of only numbers/dates is data, and the columns are named column1..N);
 * a malformed line (ragged, unclosed quote) is a 400 naming the line, a file that starts like a
 * spreadsheet, image or archive a 400 saying so (binary-files.ts).
 */
export async function* csvRowBatches(input: Readable, opts: { maxBytes: number; batchRows?: number; columns?: ColumnLimits & { known?: readonly string[] } }): AsyncGenerator<CsvRowBatch> {
  const batchRows = opts.batchRows ?? CSV_BATCH_ROWS;
  // UTF-8, fatal: a byte that is not UTF-8 is not replaced by U+FFFD (Excel's "CSV (Comma delimited)"
  // writes Windows-1252, whose "café" was stored as "caf\uFFFD" without a word). A file whose first
  // such byte comes before any other byte outside ASCII is read as Windows-1252 from there (the bytes
  // before it read the same in both); one that had valid UTF-8 before it is refused.
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  let encoding: CsvEncoding = 'utf-8';
  // While every character so far is ASCII: the bytes taken and characters given (their difference is
  // the start of a character the decoder holds back), and the last bytes taken, which hold that start.
  let asciiSoFar = true;
  let bytesIn = 0;
  let charsOut = 0;
  let tail: Uint8Array = new Uint8Array(0);
  const decode = (chunk: Buffer | undefined, from: number, to: number): string => {
    if (encoding === 'windows-1252') return chunk ? decodeWindows1252(chunk) : '';
    try {
      const text = chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
      if (asciiSoFar && NON_ASCII.test(text)) asciiSoFar = false;
      else if (asciiSoFar && chunk) {
        bytesIn += chunk.length;
        charsOut += text.length;
        tail = lastBytes(tail, chunk, 3);
      }
      return text;
    } catch {
      if (!asciiSoFar) {
        throw ValidationError.of('data', `The CSV is not UTF-8 text: bytes ${from}–${to} hold a byte sequence that is not UTF-8, after others that are, as in a file pieced together from files in two encodings. Save it as UTF-8 (in Excel: "CSV UTF-8").`);
      }
      encoding = 'windows-1252';
      const held = tail.subarray(tail.length - (bytesIn - charsOut));
      return decodeWindows1252(chunk ? Buffer.concat([held, chunk]) : held);
    }
  };
  let header: string[] | undefined;
  let rows: string[][] = [];
  let bytes = 0;
  let batchesYielded = 0;
  // The parser is made once the first line, which decides the dialect, is complete; text before then waits in `head`.
  let parser: CsvParser | undefined;
  let layout: CsvLayout = { separator: ',', decimalComma: false };
  const pointGroups = new PointGroups();
  // Searched chunk by chunk (joined once): searching the whole head again for each chunk would be quadratic in a long first line.
  const head: string[] = [];
  let headChars = 0;
  const feed = (text: string, atEnd: boolean) => {
    if (!parser) {
      head.push(text);
      headChars += text.length;
      if (text.indexOf('\n') < 0 && !atEnd) {
        if (headChars > MAX_LINE_CHARS) throw new CsvSyntaxError(`the line is longer than the limit of ${MAX_LINE_CHARS} characters (is the file CSV, with line breaks?)`, 1);
        return;
      }
      text = head.join('');
      head.length = 0;
      const end = text.indexOf('\n');
      layout = sniffLayout(end < 0 ? text : text.slice(0, end));
      parser = new CsvParser(layout.separator);
    }
    parser.push(text, rows);
    if (atEnd) parser.end(rows);
  };
  const takeHeader = () => {
    if (header || rows.length === 0) return;
    // The width first: everything after it (even finding a name given twice) is work per column.
    if (opts.columns && rows[0]!.length > opts.columns.maxColumns) checkColumns(rows[0]!.map((_, i) => positionalName(i)), opts.columns);
    const names = headerNames(rows[0]!);
    if (names) rows.shift();
    header = names ?? rows[0]!.map((_, i) => positionalName(i));
    if (opts.columns) checkColumns(header, opts.columns, opts.columns.known);
  };
  const batch = (): CsvRowBatch => {
    if (!layout.decimalComma) return { header: header!, rows, dialect: { ...layout, encoding } };
    readDecimalCommaLocale(rows, pointGroups);
    return { header: header!, rows, dialect: { ...layout, encoding, ambiguousPoints: pointGroups.ambiguous(header!) } };
  };
  try {
    for await (const chunk of refuseBinaryFiles(input as AsyncIterable<Buffer>)) {
      bytes += chunk.length;
      if (bytes > opts.maxBytes) {
        const tooLarge = new TooLargeError(`The CSV upload is larger than the limit of ${opts.maxBytes} bytes`, { limitBytes: opts.maxBytes });
        input.destroy(tooLarge);
        throw tooLarge;
      }
      feed(decode(chunk, bytes - chunk.length, bytes), false);
      takeHeader();
      if (rows.length >= batchRows) {
        batchesYielded++;
        yield batch();
        rows = [];
      }
    }
    feed(decode(undefined, bytes, bytes), true);
  } catch (e) {
    if (e instanceof TooLargeError || e instanceof ValidationError) throw e;
    // Syntax errors name their line (CsvSyntaxError); a failing stream (a broken download) is a 400 too.
    throw ValidationError.of('data', `The CSV could not be read: ${(e as Error).message ?? String(e)}`);
  }
  takeHeader();
  // A header without rows still comes out once, so its reader learns the columns.
  if (rows.length > 0 || (header && batchesYielded === 0)) yield batch();
}

const NON_ASCII = /[^\x00-\x7f]/;

/** The last `n` bytes of `before` followed by `chunk`. */
function lastBytes(before: Uint8Array, chunk: Uint8Array, n: number): Uint8Array {
  if (chunk.length >= n) return chunk.slice(chunk.length - n);
  const joined = new Uint8Array(before.length + chunk.length);
  joined.set(before);
  joined.set(chunk, before.length);
  return joined.slice(Math.max(0, joined.length - n));
}

/**
 * Column names from the first row; undefined when the first row is data. A column the header leaves
 * unnamed is named by its position, as a file without a header names all of them (column1..N):
 * spreadsheets export empty columns at their right edge as ',,' (pandas reads them as 'Unnamed: 2').
 * Those that also hold no value are left out of the data set's columns (ingest.ts).
 */
function headerNames(first: string[]): string[] | undefined {
  if (first.every((c) => c.trim() !== '' && DATA_LIKE.test(c))) return undefined;
  const names = first.map((c, i) => c.trim() || positionalName(i));
  const seen = new Set<string>();
  const dup = names.find((h) => seen.size === seen.add(h).size);
  if (dup !== undefined) throw ValidationError.of('data', `the CSV header names column '${dup}' twice`);
  // Rows and column maps are plain objects keyed by name, where `__proto__` sets the prototype instead
  // of adding a field: the column vanished without a word. A JSON body with that key is refused alike.
  if (names.includes('__proto__')) throw ValidationError.of('data', "the CSV header names a column '__proto__', a name Sibyl does not accept: rename it");
  return names;
}

/** The name of the column at `index` (from 0) when the CSV does not give one. */
export function positionalName(index: number): string {
  return `column${index + 1}`;
}

/** The position (from 1) a name of positionalName's form gives, else undefined (such a name may also be one a header gave). */
export function positionOfName(name: string): number | undefined {
  const m = /^column(\d+)$/.exec(name);
  return m ? Number(m[1]) : undefined;
}
