import { Worker } from 'node:worker_threads';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Readable } from 'node:stream';
import type { ColumnProfile } from '../../domain/profile.js';
import { ServiceError, TooLargeError, ValidationError } from '../errors.js';
import { csvRowBatches } from './csv-rows.js';
import type { CsvDialect } from './csv-dialect.js';
import type { CsvRecords } from './record-sources.js';
import type { CopyFormat } from '../../store/sql-pool.js';
import { RowEncoder, type EncodedBatch, type RowEncoderOptions } from './row-encoder.js';

export interface CsvThreadData {
  options: RowEncoderOptions;
  batchRows: number;
  maxBytes: number;
}
export type ToCsvThread = { kind: 'chunk'; bytes: Uint8Array } | { kind: 'end' };
export type FromCsvThread =
  | { kind: 'taken' }
  | { kind: 'batch'; bytes: Uint8Array; format: CopyFormat; rows: number; dataBytes: number }
  | ({ kind: 'done' } & EncodedCsv)
  | { kind: 'error'; error: SerialisedError };

/** A batch ready for COPY: binary format (CSV) or text as a string (JSON records). */
export type StoredBatch = EncodedBatch;

/** What encoding a CSV upload learnt: its columns' profiles and the dialect it was written in. */
export interface EncodedCsv {
  profiles: Record<string, ColumnProfile>;
  dialect: CsvDialect;
}

/** Request chunks handed to the thread and not yet taken by its parser: bounds memory, not speed. */
const CHUNKS_AHEAD = 32;
/** Rows of the first batch, which the database waits for (the parser's first chunk holds about this many). */
const FIRST_BATCH_ROWS = 500;
/** Encoded batches waiting for the database: the parser runs this far ahead of the COPYs. */
const BATCHES_AHEAD = 2;

const WORKER_FILE = fileURLToPath(new URL('./csv-ingest-worker.js', import.meta.url));

/**
 * Parses, profiles and encodes a CSV upload in its own thread while `store` copies the previous
 * batch into the database: the two run on two cores, and the event loop only moves bytes. Under
 * tsx (no compiled worker) the same work runs in this thread. Returns the columns' profiles and the file's dialect.
 */
export async function encodeCsvInThread(
  records: CsvRecords, options: RowEncoderOptions, batchRows: number, store: (b: StoredBatch) => Promise<void>,
): Promise<EncodedCsv> {
  if (!existsSync(WORKER_FILE)) {
    return encodeCsv(records.input, options, batchRows, records.opts.maxBytes, async (b) => store(b));
  }
  const worker = new Worker(WORKER_FILE, { workerData: { options, batchRows, maxBytes: records.opts.maxBytes } satisfies CsvThreadData });
  const input = records.input;
  const batches: StoredBatch[] = [];
  let untaken = 0;
  let outcome: EncodedCsv | { error: Error } | undefined;
  const waiting: (() => void)[] = [];
  const notify = () => { for (const w of waiting.splice(0)) w(); };
  const until = async (ready: () => boolean) => { while (!ready()) await new Promise<void>((r) => waiting.push(r)); };
  worker.on('message', (m: FromCsvThread) => {
    if (m.kind === 'taken') untaken--;
    else if (m.kind === 'batch') batches.push({ data: m.bytes, format: m.format, rows: m.rows, dataBytes: m.dataBytes });
    else if (m.kind === 'done') outcome ??= { profiles: m.profiles, dialect: m.dialect };
    else outcome ??= { error: restoreError(m.error) };
    notify();
  });
  worker.on('error', (e) => { outcome ??= { error: e }; notify(); });
  worker.on('exit', (code) => { outcome ??= { error: new Error(`the ingest thread stopped (exit code ${code})`) }; notify(); });

  const pump = (async () => {
    try {
      for await (const chunk of input as AsyncIterable<Buffer>) {
        if (outcome) break;
        const bytes = new Uint8Array(chunk.length);
        bytes.set(chunk);
        untaken++;
        worker.postMessage({ kind: 'chunk', bytes } satisfies ToCsvThread, [bytes.buffer]);
        await until(() => outcome !== undefined || (untaken < CHUNKS_AHEAD && batches.length < BATCHES_AHEAD));
      }
      worker.postMessage({ kind: 'end' } satisfies ToCsvThread);
    } catch (e) {
      outcome ??= { error: ValidationError.of('data', `The CSV could not be read: ${(e as Error).message ?? String(e)}`) };
      notify();
    }
  })();

  try {
    for (;;) {
      const batch = batches.shift();
      if (batch) {
        notify();
        await store(batch);
        continue;
      }
      if (outcome) break;
      await until(() => batches.length > 0 || outcome !== undefined);
    }
    if ('error' in outcome) {
      if (outcome.error instanceof TooLargeError) input.destroy(outcome.error);
      throw outcome.error;
    }
    return outcome;
  } catch (e) {
    outcome ??= { error: e as Error };
    throw e;
  } finally {
    notify();
    await worker.terminate();
    // The pump stops at its next chunk; a client still sending is not waited for.
    void pump;
  }
}

/** The work itself, wherever it runs: CSV → row batches → COPY text, profiling every column. */
export async function encodeCsv(
  input: Readable, options: RowEncoderOptions, batchRows: number, maxBytes: number, emit: (b: EncodedBatch) => void | Promise<void>,
): Promise<EncodedCsv> {
  const encoder = new RowEncoder(options);
  let pending: string[][] = [];
  let header: readonly string[] | undefined;
  let dialect: CsvDialect = { separator: ',', decimalComma: false, encoding: 'utf-8' };
  // A small first batch: the database starts (and warms up) while the next ones are parsed.
  let emitAt = Math.min(batchRows, FIRST_BATCH_ROWS);
  let rowsSeen = 0;
  const columns = options.columnLimits && { ...options.columnLimits, known: options.knownColumns };
  for await (const batch of csvRowBatches(input, { maxBytes, columns })) {
    header = batch.header;
    dialect = batch.dialect;
    for (const row of batch.rows) pending.push(row);
    rowsSeen += batch.rows.length;
    if (pending.length >= emitAt) {
      await emit(encoder.csvBatch(header, pending));
      pending = [];
      emitAt = batchRows;
    }
  }
  if (pending.length > 0) await emit(encoder.csvBatch(header!, pending));
  // Nothing to store: said, and nothing is made (a data set of no columns, or of a header's columns
  // typed before any value was seen, would keep those types when rows came).
  if (header === undefined) throw new ValidationError({ data: ['The CSV is empty: it has no header line and no rows.'] }, 'No data was sent', 'NoData');
  if (rowsSeen === 0) {
    throw new ValidationError({ data: [`The CSV holds a header line (${header.join(', ')}) and no rows: send the rows with it. To make an empty data set with a key, PUT its columns as JSON ({"columns": {"id": {"role": "key"}}}).`] }, 'No data was sent', 'NoData');
  }
  return { profiles: encoder.profiles(), dialect };
}

interface SerialisedError {
  kind?: ServiceError['kind'];
  message: string;
  errorType?: string;
  details?: Record<string, unknown>;
}

export function serialiseError(e: unknown): SerialisedError {
  if (e instanceof ServiceError) return { kind: e.kind, message: e.message, errorType: e.errorType, details: e.details };
  return { message: e instanceof Error ? e.message : String(e) };
}

function restoreError(s: SerialisedError): Error {
  if (s.kind === 'tooLarge') return new TooLargeError(s.message, s.details);
  if (s.kind === 'validation') return new ValidationError((s.details ?? {}) as Record<string, string[]>, s.message, s.errorType);
  return new Error(s.message);
}
