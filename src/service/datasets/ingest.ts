import type { Db } from '../../store/db.js';
import type { DatasetRecord } from '../../store/datasets-store.js';
import type { Message } from '../../store/schema.js';
import { DatasetsStore } from '../../store/datasets-store.js';
import { DatasetRowsStore } from '../../store/dataset-rows-store.js';
import type { ColumnMap, ColumnPatchMap } from '../../domain/columns.js';
import type { ColumnProfile } from '../../domain/profile.js';
import { findIdentity, inferColumns, mergeColumns, type Identity } from '../../domain/infer.js';
import { parseDate } from '../../domain/dates.js';
import { ValidationError } from '../errors.js';
import { CsvRecords, type RecordBatches } from './record-sources.js';
import type { CsvDialect } from './csv-dialect.js';
import { RowEncoder } from './row-encoder.js';
import { DatasetWriter, DEFAULT_WRITER_LEASE_MS } from './dataset-writer.js';
import { encodeCsvInThread, type StoredBatch } from './csv-ingest-thread.js';
import { dayFirstMessages, dialectMessages, emptyPositionalColumns, repeatedIdentityMessages, rowNameColumns, rowNameMessages, unnamedMessages, untimedDateMessages, yearColumnMessages, missingCodeMessages, numberWordsMessages, proseMessages, dayFirstLikelyMessages } from './upload-columns.js';
import { copyOrMerge } from './segment-builder.js';
import { MISSING_MARKERS } from '../../domain/cells.js';
import { listInWords } from '../../domain/wording.js';
import { checkColumns, ColumnCounter, DEFAULT_COLUMN_LIMITS, type ColumnLimits } from './column-limits.js';

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
  /** The data set's markers for a missing value, when the request sets them (replacing any stored). */
  missingValues?: string[];
  columnLimits?: ColumnLimits;
}

export interface IngestResult {
  created: boolean;
  dataset: DatasetRecord;
  rowsReceived: number;
  /**
   * What the upload's reading of the values wants the sender to know (dates written day first). An
   * upload that sent rows keeps them on the data set, replacing the previous upload's: they say how
   * these rows were read, and an earlier upload's counts (rows dropped, columns left out) would mislead.
   */
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
  const limits = req.columnLimits ?? DEFAULT_COLUMN_LIMITS;
  // Before any row is read: the declared columns, then each upload's own as it is read (CSV: its header).
  checkColumns(Object.keys(req.requestedColumns), limits, Object.keys(stored));
  const declared = mergeColumns({}, stored, req.requestedColumns);
  const identity: Identity | undefined = dataset.rowCount > 0 ? storedIdentity(dataset) : definiteIdentity(findIdentity(declared));
  if (req.records && identity?.kind === 'none') refuseLateIdentity(dataset, req.requestedColumns);
  const staged = identity !== undefined && identity.kind !== 'none';
  const table = staged ? 'upload_staging' : 'dataset_rows';

  let segment: number | undefined;
  let rowsReceived = 0;
  let dataBytes = 0;
  let profiles: Record<string, ColumnProfile> = {};
  let dialect: CsvDialect | undefined;
  if (req.records) {
    segment = await rowsStore.createSegment(dataset.id, writer.id);
    const options = { segment, knownColumns: Object.keys(stored), identity, missingValues: req.missingValues ?? dataset.missingValues, columnLimits: limits };
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
        profiles = await encodeRecords(req.records, new RowEncoder(options), store, new ColumnCounter(limits, Object.keys(stored)));
      }
    } finally {
      // Nothing is published or abandoned while a COPY still runs.
      await inFlight?.catch(() => {});
    }
    await inFlight;
  } else if (created && Object.keys(req.requestedColumns).length === 0 && req.missingValues === undefined) {
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
  const messages = [...dialectMessages(dialect), ...unnamedMessages(unnamed), ...rowNameMessages(rowNames, profiles), ...dayFirstMessages(profiles, columns), ...dayFirstLikelyMessages(profiles, columns), ...proseMessages(profiles, columns), ...untimedDateMessages(profiles, columns), ...yearColumnMessages(profiles, columns), ...missingCodeMessages(profiles, columns), ...numberWordsMessages(profiles, columns)];
  const finalIdentity = identity ?? findIdentity(columns);
  const identityColumn = finalIdentity.kind === 'none' ? null : finalIdentity.column;
  const datasets = new DatasetsStore(db);
  messages.push(...missingValuesMessages(req.missingValues, dataset.missingValues, dataset.rowCount));
  const meta = { columns, identityKind: finalIdentity.kind, identityColumn, missingValues: req.missingValues };
  writer.check();
  if (segment === undefined) {
    // Metadata only: no rows change, and the messages of the upload that sent them stay theirs.
    const record = await datasets.publish(dataset.id, writer.id, { ...meta, segment: undefined, mode: 'append', rowCount: 0, dataBytes: 0 });
    return { created, rowsReceived, dataset: record, messages };
  }
  if (staged) {
    // The new version of the data set: its current rows, with the upload merged in by identity.
    const built = await copyOrMerge(db.bulk(), writer, { dataset: dataset.id, into: await rowsStore.createSegment(dataset.id, writer.id), mergeStaged: segment });
    messages.push(...repeatedIdentityMessages(identity, rowsReceived, built.identitiesMerged));
    const record = await datasets.publish(dataset.id, writer.id, { ...meta, uploadMessages: messages, segment: built.segment, mode: 'replace', rowCount: built.rowCount, dataBytes: built.dataBytes });
    if (built.rowCount >= ANALYZE_ROWS) await rowsStore.analyze();
    return { created, rowsReceived, dataset: record, messages };
  }
  if (!identity && finalIdentity.kind === 'timestamp') {
    // First upload whose timestamp was only inferred (unique dates) after seeing all rows: assign it now.
    // Keys are never inferred, so a key identity was always known before the rows were read.
    await rowsStore.setIdentities(segment, finalIdentity.column, parseDate);
  }
  const record = await datasets.publish(dataset.id, writer.id, { ...meta, uploadMessages: messages, segment, mode: 'append', rowCount: rowsReceived, dataBytes });
  return { created, rowsReceived, dataset: record, messages };
}

/** JSON records (already in memory), encoded on this thread a COPY_ROWS batch at a time. */
async function encodeRecords(records: RecordBatches, encoder: RowEncoder, store: (b: StoredBatch) => Promise<void>, columns: ColumnCounter): Promise<Record<string, ColumnProfile>> {
  for await (const batch of records) {
    for (const record of batch) for (const name in record) columns.add(name);
    for (let i = 0; i < batch.length; i += COPY_ROWS) await store(encoder.recordBatch(batch.slice(i, i + COPY_ROWS)));
  }
  return encoder.profiles();
}

/**
 * What markers set by this request change. Rows stored before them keep the column types read from
 * them (a type, once stored, is changed only by declaring it), so that is said when there are such rows.
 */
function missingValuesMessages(requested: string[] | undefined, stored: string[], rowsBefore: number): Message[] {
  if (requested === undefined || JSON.stringify(requested) === JSON.stringify(stored)) return [];
  if (requested.length === 0) return [{ severity: 'informational', message: `The data set has no markers for a missing value any more: only empty cells${stored.length ? ` (and ${MISSING_MARKERS_TEXT} in a column of numbers, dates or truth values) are missing; cells reading ${quoteList(stored)} are values again` : ''}.` }];
  const types = rowsBefore > 0 ? ` The types of the columns, read from the ${rowsBefore} rows stored before, are unchanged: declare a column's dataType to change how it is read.` : '';
  return [{ severity: 'informational', message: `Cells reading ${quoteList(requested)} are missing values in every column: in column types, statistics and sessions, which impute them as they do empty cells. The rows keep them as sent.${types}` }];
}

function quoteList(markers: readonly string[]): string {
  return listInWords(markers.map((m) => `'${m}'`), 'or');
}

const MISSING_MARKERS_TEXT = [...MISSING_MARKERS].join(' ');

function storedIdentity(d: DatasetRecord): Identity {
  return d.identityKind === 'none' || !d.identityColumn ? { kind: 'none' } : { kind: d.identityKind, column: d.identityColumn };
}

/** A declared key or timestamp decides identity before any row is read; otherwise it may still be inferred. */
function definiteIdentity(i: Identity): Identity | undefined {
  return i.kind === 'none' ? undefined : i;
}

/**
 * Rows sent to a data set whose rows have no identity, with a timestamp or key declared: they would be
 * appended beside the stored rows (identity is set by the first upload: "keys cannot be added later"),
 * duplicating a series its sender meant to replace. Refused before a row is read, saying what works.
 */
function refuseLateIdentity(dataset: DatasetRecord, requested: ColumnPatchMap): void {
  const declared = Object.entries(requested).find(([, c]) => c.role === 'timestamp' || c.role === 'key');
  if (!declared) return;
  const [column, { role }] = declared;
  const how = role === 'timestamp' ? ` (timestampColumn=${column})` : '';
  throw new ValidationError({
    [column]: [`data set '${dataset.name}' holds ${dataset.rowCount} rows without a ${role}: a ${role} is set by a data set's first upload, so these rows would be appended beside the stored ones, not matched to them by '${column}'. To have one row per ${role}, delete the data set and upload its rows again with '${column}' as its ${role}${how}.`],
  }, `A ${role} cannot be added to a data set that already holds rows`, 'InvalidColumnMetadata');
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
