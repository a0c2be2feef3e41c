import type { Readable } from 'node:stream';
import { parse } from 'csv-parse';
import { TooLargeError, ValidationError } from '../errors.js';

/** An upload's records, in batches, values as sent (strings from CSV; numbers, strings, booleans, null from JSON). */
export type RecordBatches = AsyncIterable<Record<string, unknown>[]>;

const BATCH = 10000;

/**
 * Streams CSV into record batches without holding the body: the header line names the columns
 * (a first line of only numbers/dates is data, and the columns are named column1..N, as the
 * original service did); empty cells are missing values and are left out of the record.
 */
export async function* csvRecords(input: Readable, opts: { maxBytes: number }): RecordBatches {
  let bytes = 0;
  const counted = input.on('data', (chunk: Buffer) => {
    bytes += chunk.length;
    if (bytes > opts.maxBytes) input.destroy(new TooLargeError(`The CSV upload is larger than the limit of ${opts.maxBytes} bytes`, { limitBytes: opts.maxBytes }));
  });
  const parser = counted.pipe(parse({ bom: true, relax_column_count: false, skip_empty_lines: true, relax_quotes: true }));
  input.on('error', (e) => parser.destroy(e));
  let header: string[] | undefined;
  let batch: Record<string, unknown>[] = [];
  let line = 0;
  try {
    for await (const row of parser as AsyncIterable<string[]>) {
      line++;
      if (!header) {
        if (row.every((c) => c.trim() !== '' && /^[\d\s.:/+-]+$/.test(c))) {
          header = row.map((_, i) => `column${i + 1}`);
        } else {
          header = row.map((c) => c.trim());
          const dup = header.find((h, i) => header!.indexOf(h) !== i);
          if (dup !== undefined) throw ValidationError.of('data', `the CSV header names column '${dup}' twice`);
          if (header.some((h) => h === '')) throw ValidationError.of('data', 'the CSV header has an empty column name');
          continue;
        }
      }
      const rec: Record<string, unknown> = {};
      for (let j = 0; j < header.length; j++) {
        const v = row[j];
        if (v !== undefined && v !== '') rec[header[j]!] = v;
      }
      batch.push(rec);
      if (batch.length >= BATCH) { yield batch; batch = []; }
    }
  } catch (e) {
    if (e instanceof TooLargeError || e instanceof ValidationError) throw e;
    const msg = (e as Error).message ?? String(e);
    throw ValidationError.of('data', `The CSV could not be read near line ${line + 1}: ${msg}`);
  }
  if (batch.length) yield batch;
}

/** JSON records already parsed by the HTTP layer, batched like CSV. */
export async function* jsonRecords(records: unknown[]): RecordBatches {
  for (let i = 0; i < records.length; i += BATCH) {
    const batch = records.slice(i, i + BATCH);
    batch.forEach((r, j) => {
      if (typeof r !== 'object' || r === null || Array.isArray(r)) throw ValidationError.of('data', `record ${i + j} is not an object`);
    });
    yield batch as Record<string, unknown>[];
  }
}
