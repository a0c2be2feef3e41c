import type { Readable } from 'node:stream';
import { ValidationError } from '../errors.js';
import { csvRowBatches, type CsvRowBatch } from './csv-rows.js';

/** An upload's records, in batches, values as sent (strings from CSV; numbers, strings, booleans, null from JSON). */
export type RecordBatches = AsyncIterable<Record<string, unknown>[]>;

const BATCH = 10000;

/**
 * A CSV upload. Ingest reads it as positional row batches (header once, a string[] per row: no
 * object per row); anything else iterates it as record batches, where empty cells are missing
 * values and are left out of the record.
 */
export class CsvRecords implements AsyncIterable<Record<string, unknown>[]> {
  constructor(readonly input: Readable, readonly opts: { maxBytes: number }) {}

  rowBatches(): AsyncGenerator<CsvRowBatch> {
    return csvRowBatches(this.input, this.opts);
  }

  async *[Symbol.asyncIterator](): AsyncIterator<Record<string, unknown>[]> {
    for await (const { header, rows } of this.rowBatches()) {
      yield rows.map((row) => {
        const rec: Record<string, unknown> = {};
        for (let j = 0; j < header.length; j++) if (row[j] !== '') rec[header[j]!] = row[j];
        return rec;
      });
    }
  }
}

/** Streams CSV without holding the body; see `csvRowBatches` for how the header and errors are read. */
export function csvRecords(input: Readable, opts: { maxBytes: number }): RecordBatches {
  return new CsvRecords(input, opts);
}

/** JSON records already parsed by the HTTP layer, in batches. */
export async function* jsonRecords(records: unknown[]): RecordBatches {
  for (let i = 0; i < records.length; i += BATCH) {
    const batch = records.slice(i, i + BATCH);
    batch.forEach((r, j) => {
      if (typeof r !== 'object' || r === null || Array.isArray(r)) throw ValidationError.of('data', `record ${i + j} is not an object`);
    });
    yield batch as Record<string, unknown>[];
  }
}
