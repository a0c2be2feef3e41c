import type { Db } from '../../store/db.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import type { Message } from '../../store/schema.js';
import { DatasetsStore } from '../../store/datasets-store.js';
import { DatasetRowsStore } from '../../store/dataset-rows-store.js';
import type { ColumnMap, ColumnPatchMap } from '../../domain/columns.js';
import type { ColumnProfile } from '../../domain/profile.js';
import { findIdentity, inferColumns, mergeColumns, type Identity } from '../../domain/infer.js';
import { parseDate } from '../../domain/dates.js';
import { listInWords } from '../../domain/wording.js';
import { ValidationError } from '../errors.js';
import { CsvRecords, type RecordBatches } from './record-sources.js';
import type { CsvDialect } from './csv-dialect.js';
import { RowEncoder, type EncodedBatch } from './row-encoder.js';
import { DatasetWriter, DEFAULT_WRITER_LEASE_MS } from './dataset-writer.js';
import { encodeCsvInThread, type StoredBatch } from './csv-ingest-thread.js';
import { positionOfName } from './csv-rows.js';
import { copyOrMerge } from './segment-builder.js';

/**
 * Rows per COPY statement. Each is its own short transaction, so a reader waits behind at most
 * one of them; on the embedded store (one connection) that bounds everybody's wait.
 */
export const COPY_ROWS = 5_000;

/** Uploads of at least this many rows refresh the planner's statistics (see DatasetRowsStore.analyze). */
const ANALYZE_ROWS = 10_000;

export interface IngestRequest {
  accountId: string;
  name: string;
  records: RecordBatches | undefined;
  requestedColumns: ColumnPatchMap;
}

export interface IngestResult {
  created: boolean;
  dataset: DatasetRecord;
  rowsReceived: number;
  /** What the upload's reading of the values wants the sender to know (dates written day first). */
  messages: Message[];
}

/**
 * An upload writes its rows into a new segment that no reader sees, in short transactions of
 * COPY_ROWS rows, then publishes it in one short transaction with the metadata worked out from
 * them (inferred < stored < requested). Rows without an identity are appended as they are; rows
 * with one (key or timestamp) are staged, then merged into a fresh copy of the data set. Until
 * the publish, the data set is unchanged; an upload that fails (or a process killed) leaves its
 * segment to be collected (see store/dataset-rows-store.ts).
 */
export async function ingest(db: Db, req: IngestRequest, writerLeaseMs = DEFAULT_WRITER_LEASE_MS): Promise<IngestResult> {
  const writer = await DatasetWriter.claim(db, req.accountId, req.name, writerLeaseMs);
  try {
    const result = await write(db, writer, req);
    writer.stop();
    return result;
  } catch (e) {
    await writer.abandon();
    throw e;
  }
}

async function write(db: Db, writer: DatasetWriter, req: IngestRequest): Promise<IngestResult> {
  const { dataset, created } = writer;
  // The rows go as bulk work: interactive requests take the connection first (see PgLitePool).
  const rowsStore = new DatasetRowsStore(db.bulk());
  const stored = dataset.columns as ColumnMap;
  // Row identity is fixed once a data set holds rows ("keys cannot be added later").
  const declared = mergeColumns({}, stored, req.requestedColumns);
  const identity: Identity | undefined = dataset.rowCount > 0 ? storedIdentity(dataset) : definiteIdentity(findIdentity(declared));
  const staged = identity !== undefined && identity.kind !== 'none';
  const table = staged ? 'upload_staging' : 'dataset_rows';

  let segment: number | undefined;
  let rowsReceived = 0;
  let dataBytes = 0;
  let profiles: Record<string, ColumnProfile> = {};
  let dialect: CsvDialect | undefined;
  if (req.records) {
    segment = await rowsStore.createSegment(dataset.id, writer.id);
    const options = { segment, knownColumns: Object.keys(stored), identity };
    // Two COPYs in flight: a batch's COPY is sent as soon as the one before the previous is done, so
    // the database has the next batch queued when it finishes one instead of waiting for this thread
    // to hear back and send it. On PostgreSQL the two run side by side on two pooled connections (an
    // upload holds two, not one; rows carry their seq, so the order they land in does not matter);
    // on PGlite the pool runs them one after the other, interactive requests still first. Ingesting
    // bench:ingest's 1,000,000 rows in process, builds alternated: PostgreSQL 8.05 → 6.46 s wall
    // (medians of 6, load 6–7) and 3.78 → 3.49 s (of 3, load 3), CPU within a few % (this process and
    // the backends); PGlite 16.5 → 14.3 s at load 6–7 but no clear change at load 3 (3.6–6.1 s either way).
    let inFlight: Promise<void> | undefined;
    const store = async (batch: StoredBatch) => {
      writer.check();
      const copy = rowsStore.copyIn(table, batch.data, batch.format).then(() => {
        rowsReceived += batch.rows;
        dataBytes += batch.dataBytes;
      });
      copy.catch(() => {}); // its failure is thrown by the next store or below
      const previous = inFlight;
      inFlight = copy;
      await previous;
    };
    try {
      if (req.records instanceof CsvRecords) {
        const encoded = await encodeCsvInThread(req.records, options, COPY_ROWS, store);
        profiles = encoded.profiles;
        dialect = encoded.dialect;
      } else {
        profiles = await encodeRecords(req.records, new RowEncoder(options), store);
      }
    } finally {
      // Nothing is published or abandoned while a COPY still runs.
      await inFlight?.catch(() => {});
    }
    await inFlight;
  } else if (created && Object.keys(req.requestedColumns).length === 0) {
    throw new ValidationError({ dataSetName: [`No data was sent for ${req.name}`] }, 'No data was sent', 'NoData');
  }

  // The statistics of the table the rows went into (staged rows: before they are merged).
  if (rowsReceived >= ANALYZE_ROWS) await rowsStore.analyze([table]);
  const unnamed = emptyPositionalColumns(profiles, stored, req.requestedColumns);
  for (const name of unnamed) delete profiles[name];
  const rowNames = req.records instanceof CsvRecords ? rowNameColumns(profiles, stored, req.requestedColumns) : [];
  const rowNameRoles: ColumnPatchMap = Object.fromEntries(rowNames.map((name) => [name, { role: 'none' }]));
  const inferred = inferColumns(profiles, [rowNameRoles, stored as ColumnPatchMap, req.requestedColumns]);
  for (const name of rowNames) inferred[name] = { ...inferred[name]!, role: 'none' };
  const columns = mergeColumns(inferred, stored, req.requestedColumns);
  validateColumns(columns);
  const messages = [...dialectMessages(dialect), ...unnamedMessages(unnamed), ...rowNameMessages(rowNames, profiles), ...dayFirstMessages(profiles, columns)];
  const finalIdentity = identity ?? findIdentity(columns);
  const identityColumn = finalIdentity.kind === 'none' ? null : finalIdentity.column;
  const datasets = new DatasetsStore(db);
  const meta = { columns, identityKind: finalIdentity.kind, identityColumn };
  writer.check();
  if (segment === undefined) {
    // Metadata only: no rows change.
    const record = await datasets.publish(dataset.id, writer.id, { ...meta, segment: undefined, mode: 'append', rowCount: 0, dataBytes: 0 });
    return { created, rowsReceived, dataset: record, messages };
  }
  if (staged) {
    // The new version of the data set: its current rows, with the upload merged in by identity.
    const built = await copyOrMerge(db.bulk(), writer, { dataset: dataset.id, into: await rowsStore.createSegment(dataset.id, writer.id), mergeStaged: segment });
    const record = await datasets.publish(dataset.id, writer.id, { ...meta, segment: built.segment, mode: 'replace', rowCount: built.rowCount, dataBytes: built.dataBytes });
    if (built.rowCount >= ANALYZE_ROWS) await rowsStore.analyze();
    return { created, rowsReceived, dataset: record, messages };
  }
  if (!identity && finalIdentity.kind === 'timestamp') {
    // First upload whose timestamp was only inferred (unique dates) after seeing all rows: assign it now.
    // Keys are never inferred, so a key identity was always known before the rows were read.
    await rowsStore.setIdentities(segment, finalIdentity.column, parseDate);
  }
  const record = await datasets.publish(dataset.id, writer.id, { ...meta, segment, mode: 'append', rowCount: rowsReceived, dataBytes });
  return { created, rowsReceived, dataset: record, messages };
}

/**
 * Columns named by their position (csv-rows positionalName: the header left them unnamed, or there
 * was none) that hold no value in any row and are not yet columns of the data set: the empty columns
 * at a spreadsheet's right edge. They are left out rather than kept as columns without a value.
 */
function emptyPositionalColumns(profiles: Record<string, ColumnProfile>, stored: ColumnMap, requested: ColumnPatchMap): string[] {
  return Object.entries(profiles)
    .filter(([name, p]) => positionOfName(name) !== undefined && p.present === 0 && !(name in stored) && !(name in requested))
    .map(([name]) => name);
}

/** How a CSV not in UTF-8 or not separated by commas was read (csv-rows.ts, csv-dialect.ts), so its sender can check it. */
function dialectMessages(dialect: CsvDialect | undefined): Message[] {
  if (!dialect) return [];
  const messages: string[] = [];
  if (dialect.encoding === 'windows-1252') {
    messages.push('The CSV is not UTF-8 text: it was read as Windows-1252, the encoding Excel\'s "CSV (Comma delimited)" writes on Windows (é, ü, €). If its accented letters look wrong in the data, save the file as "CSV UTF-8" and upload it again.');
  }
  if (dialect.separator === ';') {
    messages.push('The CSV separates its values with semicolons, as Excel writes CSV where the comma is the decimal separator: it was read so, with numbers written with a decimal comma (1,5 · 1.234,5 · 12,5 % · 1.234,00 €) stored as 1.5, 1234.5, 12.5% and €1234.00, and dates written day first (13.01.2017 · 13/01/2017) stored as 2017-01-13.');
  } else if (dialect.separator === '\t') {
    messages.push('The CSV separates its values with tabs: it was read so.');
  }
  const ambiguous = (dialect.ambiguousPoints ?? []).map(({ column, count, example }) => ({
    severity: 'warning' as const,
    message: `Column '${column}' holds ${count} ${count === 1 ? 'value' : 'values'} such as '${example}', with a point before three digits and no decimal comma: read as written, ${example} (the point as a decimal point). In a file with decimal commas such a point usually groups thousands (${example} = ${example.replaceAll('.', '')}): if it does, format the column in Excel without the 1000 separator and upload the file again.`,
  }));
  return [...messages.map((message) => ({ severity: 'informational' as const, message })), ...ambiguous];
}

/**
 * New columns the CSV header left unnamed, beside named ones, holding whole numbers that rise from row
 * to row: the index R's write.csv and pandas' to_csv write as the first column by default (1, 2, 3, …
 * or 0, 1, 2, …). As a feature it numbers the rows, which leaks the target of a file sorted by it and
 * makes the first and last rows easier to isolate (anomaly sessions flag more of them); it gets role
 * none, which the metadata shows and a request may override.
 */
function rowNameColumns(profiles: Record<string, ColumnProfile>, stored: ColumnMap, requested: ColumnPatchMap): string[] {
  const names = Object.keys(profiles);
  if (names.every((n) => positionOfName(n) !== undefined)) return [];
  return names.filter((n) => positionOfName(n) !== undefined && profiles[n]!.risingWholeNumbers && !(n in stored) && requested[n]?.role === undefined);
}

function rowNameMessages(names: string[], profiles: Record<string, ColumnProfile>): Message[] {
  return names.map((name) => ({
    severity: 'informational',
    message: `The CSV's column ${positionOfName(name)} has no name and numbers the rows (${profiles[name]!.present} whole numbers rising from row to row, as R's write.csv and pandas' to_csv write row names and the index): it is kept as '${name}' with role none, so models leave it out. Give it role feature in the columns metadata if its numbers mean more.`,
  }));
}

function unnamedMessages(names: string[]): Message[] {
  if (names.length === 0) return [];
  const positions = names.map((n) => positionOfName(n));
  const which = `column${positions.length === 1 ? '' : 's'} ${listInWords(positions)}`;
  return [{ severity: 'informational', message: `The CSV's ${which} had no name and no value in any row (as empty columns at a spreadsheet's edge): left out.` }];
}

/**
 * A column of dates written day first is text to Sibyl, which reads d/m/y month first as the
 * original service did (en-US); without a word the sender learns it only when a session finds no
 * timestamp. Said for the columns that stayed text.
 */
function dayFirstMessages(profiles: Record<string, ColumnProfile>, columns: ColumnMap): Message[] {
  return Object.entries(profiles)
    .filter(([name, p]) => p.dayFirstDates && columns[name]?.dataType === 'string')
    .map(([name]) => ({
      severity: 'warning',
      message: `Column '${name}' holds dates written day first (as 13/01/2017 for 13 January): Sibyl reads such dates month first, as the original service did, so '${name}' is kept as text, not as dates. Send them as 2017-01-13 (ISO 8601) to use them as dates or as the data set's timestamp.`,
    }));
}

/** JSON records (already in memory), encoded on this thread a COPY_ROWS batch at a time. */
async function encodeRecords(records: RecordBatches, encoder: RowEncoder, store: (b: StoredBatch) => Promise<void>): Promise<Record<string, ColumnProfile>> {
  for await (const batch of records) {
    for (let i = 0; i < batch.length; i += COPY_ROWS) await store(encoder.recordBatch(batch.slice(i, i + COPY_ROWS)));
  }
  return encoder.profiles();
}

function storedIdentity(d: DatasetRecord): Identity {
  return d.identityKind === 'none' || !d.identityColumn ? { kind: 'none' } : { kind: d.identityKind, column: d.identityColumn };
}

/** A declared key or timestamp decides identity before any row is read; otherwise it may still be inferred. */
function definiteIdentity(i: Identity): Identity | undefined {
  return i.kind === 'none' ? undefined : i;
}

/** Metadata that cannot work is refused before it is stored (compat: InvalidColumnMetadata). */
function validateColumns(columns: ColumnMap): void {
  const errors: Record<string, string[]> = {};
  const roles = Object.entries(columns);
  const timestamps = roles.filter(([, c]) => c.role === 'timestamp').map(([n]) => n);
  const keys = roles.filter(([, c]) => c.role === 'key').map(([n]) => n);
  if (timestamps.length > 1) errors[timestamps[1]!] = [`only one column may have role timestamp (also: ${timestamps[0]})`];
  if (keys.length > 1) errors[keys[1]!] = [`only one column may have role key (also: ${keys[0]})`];
  for (const [name, c] of roles) {
    if (c.role === 'timestamp' && c.dataType !== 'date') (errors[name] ??= []).push('Timestamp columns must have data type date');
  }
  if (Object.keys(errors).length) throw new ValidationError(errors, 'One or more columns were supplied with invalid metadata', 'InvalidColumnMetadata');
}
