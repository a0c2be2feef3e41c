import type { Readable } from 'node:stream';
import { TooLargeError, ValidationError } from '../errors.js';
import { CsvParser } from './csv-parser.js';

/** Rows of a CSV upload in header order, values as sent ('' for an empty cell). */
export interface CsvRowBatch {
  header: readonly string[];
  rows: string[][];
}

/** Rows per batch: small, so that parsed values are garbage before the next young-generation collection. */
export const CSV_BATCH_ROWS = 1_000;

// A first line of only numbers and dates is data, not names (as the original service read it).
const DATA_LIKE = /^[\d\s.:/+-]+$/;

/**
 * Streams CSV into positional row batches without holding the body. The header line names the
 * columns (a first line of only numbers/dates is data, and the columns are named column1..N);
 * a malformed line (ragged, unclosed quote) is a 400 naming the line.
 */
export async function* csvRowBatches(input: Readable, opts: { maxBytes: number; batchRows?: number }): AsyncGenerator<CsvRowBatch> {
  const batchRows = opts.batchRows ?? CSV_BATCH_ROWS;
  const parser = new CsvParser();
  // Fatal: a byte that is not UTF-8 is refused, not replaced by U+FFFD (Excel's "CSV (Comma
  // delimited)" writes Windows-1252, whose "café" was stored as "caf\uFFFD" without a word).
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });
  const decode = (chunk: Buffer | undefined, from: number, to: number) => {
    try {
      return chunk ? decoder.decode(chunk, { stream: true }) : decoder.decode();
    } catch {
      throw ValidationError.of('data', `The CSV is not UTF-8 text: bytes ${from}–${to} hold a byte sequence that is not UTF-8, as in a file saved in another encoding (Excel's "CSV (Comma delimited)" writes Windows-1252). Save it as UTF-8 (in Excel: "CSV UTF-8 (Comma delimited)").`);
    }
  };
  let header: string[] | undefined;
  let rows: string[][] = [];
  let bytes = 0;
  let firstLine: string | undefined = '';
  const sniff = (text: string, atEnd: boolean) => {
    if (firstLine === undefined) return;
    firstLine += text;
    const end = firstLine.indexOf('\n');
    if (end < 0 && !atEnd) return;
    refuseOtherSeparators(end < 0 ? firstLine : firstLine.slice(0, end));
    firstLine = undefined;
  };
  const takeHeader = () => {
    if (header || rows.length === 0) return;
    const names = headerNames(rows[0]!);
    if (names) rows.shift();
    header = names ?? rows[0]!.map((_, i) => positionalName(i));
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > opts.maxBytes) {
        const tooLarge = new TooLargeError(`The CSV upload is larger than the limit of ${opts.maxBytes} bytes`, { limitBytes: opts.maxBytes });
        input.destroy(tooLarge);
        throw tooLarge;
      }
      const text = decode(chunk, bytes - chunk.length, bytes);
      sniff(text, false);
      parser.push(text, rows);
      takeHeader();
      if (rows.length >= batchRows) {
        yield { header: header!, rows };
        rows = [];
      }
    }
    const rest = decode(undefined, bytes, bytes);
    sniff(rest, true);
    parser.push(rest, rows);
    parser.end(rows);
  } catch (e) {
    if (e instanceof TooLargeError || e instanceof ValidationError) throw e;
    // Syntax errors name their line (CsvSyntaxError); a failing stream (a broken download) is a 400 too.
    throw ValidationError.of('data', `The CSV could not be read: ${(e as Error).message ?? String(e)}`);
  }
  takeHeader();
  if (rows.length > 0) yield { header: header!, rows };
}

/**
 * A first line without a comma but with semicolons or tabs is a file of another dialect (European
 * Excel exports use ';' and decimal commas): read as CSV it became one column named "a\tb", or a
 * ragged-line error about line 2. Refused, saying what to send instead.
 */
function refuseOtherSeparators(line: string): void {
  if (line.includes(',')) return;
  for (const [separator, name] of [[';', 'semicolons'], ['\t', 'tabs']] as const) {
    const count = line.split(separator).length - 1;
    if (count === 0) continue;
    throw ValidationError.of('data', `The first line has no commas but ${count} ${count === 1 ? name.slice(0, -1) : name}: Sibyl reads comma-separated values (RFC 4180), with '.' as the decimal point. Save the file as comma-separated CSV (in Excel: "CSV UTF-8 (Comma delimited)"), or send the rows as JSON.`);
  }
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
  const dup = names.find((h, i) => names.indexOf(h) !== i);
  if (dup !== undefined) throw ValidationError.of('data', `the CSV header names column '${dup}' twice`);
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
