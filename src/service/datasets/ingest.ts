import type { Db } from '../../store/db.js';
import { DatasetsStore, type DatasetRecord, type StoredRow } from '../../store/datasets-store.js';
import type { ColumnMap, ColumnPatchMap } from '../../domain/columns.js';
import { TableProfiler } from '../../domain/profile.js';
import { findIdentity, inferColumns, mergeColumns, type Identity } from '../../domain/infer.js';
import { parseDate } from '../../domain/dates.js';
import { ValidationError } from '../errors.js';
import { CsvRecords, type RecordBatches } from './record-sources.js';
import { RowJsonWriter } from './csv-json.js';

/**
 * Rows per COPY (or staging COPY). Small on purpose: a batch's row strings then die in the young
 * generation; 20,000-row loads measured ~25% slower end to end, the per-statement cost being smaller than the GC cost.
 */
const COPY_ROWS = 2_000;

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
}

/**
 * One upload = one transaction: rows are streamed in batches (COPY into the table, or into a
 * staging table and upserted in one statement when rows have an identity), columns are profiled
 * on the way, and the metadata (inferred < stored < requested) is written last. Any failure rolls
 * everything back, so a bad or interrupted upload changes nothing.
 */
export async function ingest(db: Db, req: IngestRequest): Promise<IngestResult> {
  return db.tx(async (tx) => {
    const store = new DatasetsStore(tx);
    let dataset = await store.find(req.accountId, req.name, { forUpdate: true });
    const created = !dataset;
    if (!dataset) dataset = await store.create(req.accountId, req.name);
    const stored = dataset.columns as ColumnMap;
    // Row identity is fixed once a data set holds rows ("keys cannot be added later").
    const declared = mergeColumns({}, stored, req.requestedColumns);
    const identity: Identity | undefined = dataset.rowCount > 0
      ? storedIdentity(dataset)
      : definiteIdentity(findIdentity(declared));

    let profiler = new TableProfiler(Object.keys(stored));
    let rowsReceived = 0;
    let staged = false;
    let pending: StoredRow[] = [];
    const flush = async () => {
      const rows = pending;
      pending = [];
      if (identity && identity.kind !== 'none') {
        if (!staged) { await store.beginStaging(); staged = true; }
        await store.stageRows(rows);
      } else {
        await store.appendRows(dataset.id, rows);
      }
    };
    // Rows go to the store in loads of about COPY_ROWS, whatever the size of the source's batches.
    const write = async (rows: StoredRow[]) => {
      rowsReceived += rows.length;
      for (const row of rows) pending.push(row);
      if (pending.length >= COPY_ROWS) await flush();
    };
    if (req.records instanceof CsvRecords) {
      let csv: CsvRowWriter | undefined;
      for await (const { header, rows } of req.records.rowBatches()) {
        if (!csv) {
          profiler = new TableProfiler(Object.keys(stored), header);
          csv = new CsvRowWriter(header, identity);
        }
        await write(csv.storedRows(rows, profiler, rowsReceived));
      }
    } else if (req.records) {
      for await (const batch of req.records) {
        const rows: StoredRow[] = new Array(batch.length);
        for (let i = 0; i < batch.length; i++) {
          const rec = normaliseRecord(batch[i]!);
          profiler.addRecord(rec);
          rows[i] = identify(rec, identity, rowsReceived + i);
        }
        await write(rows);
      }
    }
    if (pending.length > 0) await flush();
    if (!req.records && created && Object.keys(req.requestedColumns).length === 0) {
      throw new ValidationError({ dataSetName: [`No data was sent for ${req.name}`] }, 'No data was sent', 'NoData');
    }
    if (staged) await store.mergeStaged(dataset.id);

    const inferred = inferColumns(profiler.profiles(), [stored as ColumnPatchMap, req.requestedColumns]);
    const columns = mergeColumns(inferred, stored, req.requestedColumns);
    validateColumns(columns);
    const finalIdentity = identity ?? findIdentity(columns);
    if (!identity && finalIdentity.kind === 'timestamp') {
      // First upload whose timestamp was only inferred (unique dates) after seeing all rows: assign it now.
      // Keys are never inferred, so a key identity was always known before the rows were read.
      await store.setIdentities(dataset.id, finalIdentity.column, parseDate);
    }
    await store.updateMeta(dataset.id, {
      columns,
      identityKind: finalIdentity.kind,
      identityColumn: finalIdentity.kind === 'none' ? null : finalIdentity.column,
    });
    const counts = await store.refreshCounts(dataset.id);
    return { created, rowsReceived, dataset: { ...dataset, columns, identityKind: finalIdentity.kind, identityColumn: finalIdentity.kind === 'none' ? null : finalIdentity.column, ...counts } };
  });
}

function storedIdentity(d: DatasetRecord): Identity {
  return d.identityKind === 'none' || !d.identityColumn ? { kind: 'none' } : { kind: d.identityKind, column: d.identityColumn };
}

/** A declared key or timestamp decides identity before any row is read; otherwise it may still be inferred. */
function definiteIdentity(i: Identity): Identity | undefined {
  return i.kind === 'none' ? undefined : i;
}

/** Values are stored as strings; missing values are left out of the record. */
function normaliseRecord(raw: Record<string, unknown>): Record<string, string> {
  const out: Record<string, string> = {};
  for (const k in raw) {
    const v = raw[k];
    if (v === null || v === undefined) continue;
    if (typeof v === 'string') { if (v !== '') out[k] = v; }
    else if (typeof v === 'number') { if (Number.isFinite(v)) out[k] = String(v); }
    else if (typeof v === 'boolean') out[k] = v ? 'true' : 'false';
    else throw ValidationError.of('data', `column '${k}' holds a ${Array.isArray(v) ? 'list' : 'object'}; values must be numbers or strings`);
  }
  return out;
}

function identify(rec: Record<string, string>, identity: Identity | undefined, index: number): StoredRow {
  const column = identity && identity.kind !== 'none' ? identity.column : undefined;
  return withIdentity(JSON.stringify(rec), column === undefined ? undefined : rec[column], identity, index);
}

/** A row's identity from its value in the key or timestamp column (undefined: the row has none). */
function withIdentity(data: string, v: string | undefined, identity: Identity | undefined, index: number): StoredRow {
  if (!identity || identity.kind === 'none') return { ident: null, ts: null, data };
  if (v === undefined) throw ValidationError.of('data', `record ${index} has no value in the ${identity.kind} column '${identity.column}'`);
  if (identity.kind === 'key') return { ident: v, ts: null, data };
  const ms = parseDate(v);
  if (ms === null) throw ValidationError.of('data', `record ${index}: '${v}' in the timestamp column '${identity.column}' is not a date`);
  return { ident: String(ms), ts: ms, data };
}

/** CSV rows straight to stored rows: profiled positionally, JSON text built from the header. */
class CsvRowWriter {
  private readonly json: RowJsonWriter;
  private readonly identityAt: number;

  constructor(header: readonly string[], private readonly identity: Identity | undefined) {
    this.json = new RowJsonWriter(header);
    this.identityAt = identity && identity.kind !== 'none' ? header.indexOf(identity.column) : -1;
  }

  storedRows(rows: readonly string[][], profiler: TableProfiler, firstIndex: number): StoredRow[] {
    const out: StoredRow[] = new Array(rows.length);
    for (let i = 0; i < rows.length; i++) {
      const values = rows[i]!;
      profiler.addRow(values);
      const v = this.identityAt < 0 ? undefined : values[this.identityAt];
      out[i] = withIdentity(this.json.write(values), v === '' ? undefined : v, this.identity, firstIndex + i);
    }
    return out;
  }
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
