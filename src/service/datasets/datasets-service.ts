import { nameProblem } from '../../domain/resource-names.js';
import type { Db } from '../../store/db.js';
import { DEFAULT_COLUMN_LIMITS, listColumnBudget, type ColumnLimits } from './column-limits.js';
import { DatasetsStore, type DatasetRecord, type DatasetSort } from '../../store/datasets-store.js';
import type { ColumnMap, ColumnPatchMap } from '../../domain/columns.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { Page, PageOf } from '../../store/paging.js';
import { ingest, type IngestResult } from './ingest.js';
import type { RecordBatches } from './record-sources.js';
import type { UsageService } from '../usage.js';
import { DatasetRowsStore } from '../../store/dataset-rows-store.js';
import { DatasetWriter, DEFAULT_WRITER_LEASE_MS } from './dataset-writer.js';
import { copyOrMerge } from './segment-builder.js';
import { readRowTexts, READ_CHUNK_ROWS } from './row-reader.js';
import { DatasetStats, type KeptColumnStats } from './dataset-stats.js';

export interface DeleteRowsQuery {
  from?: number;
  to?: number;
  keys?: string[];
  startKey?: string;
  endKey?: string;
  cascade: string[];
}

/** Something else that must go when a data set goes (sessions, models), registered by later features. */
export type DatasetCascade = (accountId: string, datasetName: string, cascade: string[]) => Promise<void>;

export class DatasetsService {
  private readonly cascades: DatasetCascade[] = [];
  private readonly stats = new DatasetStats(this);
  /** Told the number of rows each finished upload wrote (the ingest metric). */
  onIngested: ((rows: number) => void) | undefined;

  constructor(private readonly db: Db, private readonly usage: UsageService, private readonly writerLeaseMs = DEFAULT_WRITER_LEASE_MS, private readonly columnLimits: ColumnLimits = DEFAULT_COLUMN_LIMITS) {}

  onDelete(c: DatasetCascade): void {
    this.cascades.push(c);
  }

  async put(accountId: string, name: string, body: { records?: RecordBatches; columns: ColumnPatchMap; missingValues?: string[] }): Promise<IngestResult> {
    validateDatasetName(name);
    if (!(await new DatasetsStore(this.db).find(accountId, name))) await this.usage.assertCanCreateDataset(accountId);
    try {
      const result = await ingest(this.db, { accountId, name, records: body.records, requestedColumns: body.columns, missingValues: body.missingValues, columnLimits: this.columnLimits }, this.writerLeaseMs);
      this.onIngested?.(result.rowsReceived);
      return result;
    } finally {
      this.usage.invalidate(accountId);
    }
  }

  /** Set when views exist: a view by name as a data source, and its joined rows. */
  views: { source(accountId: string, name: string, o?: { calendarAhead?: boolean }): Promise<DatasetRecord | undefined>; rows(d: DatasetRecord): AsyncGenerator<Record<string, string>[]> } | undefined;

  /**
   * A data set or, failing that, a view of that name: what sessions read (their `dataSourceName`).
   * `calendarAhead: false` (model sessions) reads a calendar view without its calendar-only future rows.
   */
  async getSource(accountId: string, name: string, o: { calendarAhead?: boolean } = {}): Promise<DatasetRecord> {
    const d = await new DatasetsStore(this.db).find(accountId, name);
    if (d) return d;
    const v = await this.views?.source(accountId, name, o);
    if (!v) throw new NotFoundError('dataSet', name);
    return v;
  }

  async get(accountId: string, name: string): Promise<DatasetRecord> {
    const d = await new DatasetsStore(this.db).find(accountId, name);
    if (!d) throw new NotFoundError('dataSet', name);
    return d;
  }

  /** A page of data sets; the columns of those past the page's budget are left out (columnsOmitted). */
  list(accountId: string, q: { partialName?: string; page: Page; sortBy?: DatasetSort; desc?: boolean }): Promise<PageOf<DatasetRecord>> {
    return new DatasetsStore(this.db).list(accountId, { ...q, columnBudget: listColumnBudget(this.columnLimits) });
  }

  async readData(accountId: string, name: string, q: { page: Page; from?: number; to?: number }): Promise<{ dataset: DatasetRecord; rows: Record<string, string>[]; total: number }> {
    const dataset = await this.get(accountId, name);
    const byTime = dataset.identityKind === 'timestamp';
    if ((q.from !== undefined || q.to !== undefined) && !byTime) {
      throw ValidationError.of('startDate', `${name} has no timestamp column, so it cannot be filtered by date`);
    }
    const rowsStore = new DatasetRowsStore(this.db);
    const segments = await rowsStore.liveSegments(dataset.id);
    const { rows, total } = await rowsStore.page(segments, { from: q.from, to: q.to, byTime, offset: q.page.page * q.page.size, limit: q.page.size });
    return { dataset, rows: rows.map((r) => JSON.parse(r) as Record<string, string>), total };
  }

  /** Rows of a data set in storage order (time order for time series), in bounded chunks. */
  async *iterateRows(dataset: DatasetRecord, chunkRows = READ_CHUNK_ROWS): AsyncGenerator<Record<string, string>[]> {
    if (dataset.view) { yield* this.views!.rows(dataset); return; }
    for await (const texts of readRowTexts(this.db, dataset, chunkRows)) yield texts.map((t) => JSON.parse(t) as Record<string, string>);
  }

  /**
   * Which version of a data set's rows is live: its live segments, which every upload and delete
   * replaces or adds to (null for a view, whose rows are those of the data sets it reads).
   */
  async rowsVersion(dataset: DatasetRecord): Promise<string | null> {
    if (dataset.view) return null;
    return (await new DatasetRowsStore(this.db).liveSegments(dataset.id)).map((s) => s.id).join(',');
  }

  /** Column statistics of the live rows, computed once per version of them (dataset-stats.ts). */
  columnStats(dataset: DatasetRecord, names: readonly string[], dataType?: string): Promise<Record<string, KeptColumnStats>> {
    return this.stats.of(dataset, names, dataType);
  }

  /** The same rows as their stored JSON text, for readers that decode them themselves (columnar loading). */
  async *rowTexts(dataset: DatasetRecord, chunkRows = READ_CHUNK_ROWS): AsyncGenerator<string[]> {
    if (dataset.view) { for await (const rows of this.views!.rows(dataset)) yield rows.map((r) => JSON.stringify(r)); return; }
    yield* readRowTexts(this.db, dataset, chunkRows);
  }

  /**
   * The whole data set, or only rows in a date range / with given keys. Like an upload, a partial
   * delete builds the remaining rows as a new version and publishes it in one short step.
   */
  async delete(accountId: string, name: string, q: DeleteRowsQuery): Promise<void> {
    const partial = q.from !== undefined || q.to !== undefined || !!q.keys?.length || q.startKey !== undefined || q.endKey !== undefined;
    await this.get(accountId, name);
    const writer = await DatasetWriter.claim(this.db, accountId, name, this.writerLeaseMs);
    try {
      const dataset = writer.dataset;
      if (writer.created) throw new NotFoundError('dataSet', name); // deleted while we waited for the lock
      const store = new DatasetsStore(this.db);
      if (!partial) {
        await store.deleteHeld(dataset.id, writer.id);
      } else {
        if ((q.from !== undefined || q.to !== undefined) && dataset.identityKind !== 'timestamp') {
          throw ValidationError.of('startDate', `${name} has no timestamp column, so rows cannot be deleted by date`);
        }
        if ((q.keys?.length || q.startKey !== undefined || q.endKey !== undefined) && dataset.identityKind !== 'key') {
          throw ValidationError.of('keys', `${name} has no key column, so rows cannot be deleted by key`);
        }
        const into = await new DatasetRowsStore(this.db).createSegment(dataset.id, writer.id);
        const built = await copyOrMerge(this.db.bulk(), writer, { dataset: dataset.id, into, exclude: rowsMatching(q) });
        await store.publish(dataset.id, writer.id, {
          segment: built.segment, mode: 'replace', rowCount: built.rowCount, dataBytes: built.dataBytes,
          columns: dataset.columns, identityKind: dataset.identityKind, identityColumn: dataset.identityColumn,
        });
      }
      writer.stop();
    } catch (e) {
      await writer.abandon();
      throw e;
    }
    if (!partial) for (const c of this.cascades) await c(accountId, name, q.cascade);
    this.usage.invalidate(accountId);
  }
}

/** The SQL condition (on a dataset_rows row, parameters from $3) of a partial delete. */
function rowsMatching(q: DeleteRowsQuery): { sql: string; params: unknown[] } {
  const conds: string[] = [];
  const params: unknown[] = [];
  const param = (v: unknown) => { params.push(v); return `$${params.length + 2}`; };
  if (q.from !== undefined) conds.push(`ts >= ${param(q.from)}::bigint`);
  if (q.to !== undefined) conds.push(`ts <= ${param(q.to)}::bigint`);
  if (q.keys?.length) conds.push(`ident = ANY(${param(q.keys)}::text[])`);
  if (q.startKey !== undefined) conds.push(`ident >= ${param(q.startKey)}::text`);
  if (q.endKey !== undefined) conds.push(`ident <= ${param(q.endKey)}::text`);
  return { sql: conds.map((c) => `COALESCE(${c}, false)`).join(' AND '), params };
}

/** A data set's name can be a path segment of its URL (domain/resource-names.ts), else 400. */
export function validateDatasetName(name: string): void {
  const problem = nameProblem(name, 'data set');
  if (problem) throw ValidationError.of('dataSetName', problem);
}

export function isTimeSeries(d: DatasetRecord): boolean {
  return d.identityKind === 'timestamp';
}

export function columnsOf(d: DatasetRecord): ColumnMap {
  return d.columns as ColumnMap;
}
