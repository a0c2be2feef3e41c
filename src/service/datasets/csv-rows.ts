import type { Readable } from 'node:stream';
import { StringDecoder } from 'node:string_decoder';
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
  const decoder = new StringDecoder('utf8');
  let header: string[] | undefined;
  let rows: string[][] = [];
  let bytes = 0;
  const takeHeader = () => {
    if (header || rows.length === 0) return;
    const names = headerNames(rows[0]!);
    if (names) rows.shift();
    header = names ?? rows[0]!.map((_, i) => `column${i + 1}`);
  };
  try {
    for await (const chunk of input as AsyncIterable<Buffer>) {
      bytes += chunk.length;
      if (bytes > opts.maxBytes) {
        const tooLarge = new TooLargeError(`The CSV upload is larger than the limit of ${opts.maxBytes} bytes`, { limitBytes: opts.maxBytes });
        input.destroy(tooLarge);
        throw tooLarge;
      }
      parser.push(decoder.write(chunk), rows);
      takeHeader();
      if (rows.length >= batchRows) {
        yield { header: header!, rows };
        rows = [];
      }
    }
    parser.push(decoder.end(), rows);
    parser.end(rows);
  } catch (e) {
    if (e instanceof TooLargeError || e instanceof ValidationError) throw e;
    // Syntax errors name their line (CsvSyntaxError); a failing stream (a broken download) is a 400 too.
    throw ValidationError.of('data', `The CSV could not be read: ${(e as Error).message ?? String(e)}`);
  }
  takeHeader();
  if (rows.length > 0) yield { header: header!, rows };
}

/** Column names from the first row; undefined when the first row is data. */
function headerNames(first: string[]): string[] | undefined {
  if (first.every((c) => c.trim() !== '' && DATA_LIKE.test(c))) return undefined;
  const names = first.map((c) => c.trim());
  const dup = names.find((h, i) => names.indexOf(h) !== i);
  if (dup !== undefined) throw ValidationError.of('data', `the CSV header names column '${dup}' twice`);
  if (names.some((h) => h === '')) throw ValidationError.of('data', 'the CSV header has an empty column name');
  return names;
}
