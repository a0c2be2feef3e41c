import type { Db } from '../../store/db.js';
import { DatasetsStore, type DatasetRecord, type DatasetSort } from '../../store/datasets-store.js';
import type { ColumnMap, ColumnPatchMap } from '../../domain/columns.js';
import { NotFoundError, ValidationError } from '../errors.js';
import type { Page, PageOf } from '../paging.js';
import { ingest, type IngestResult } from './ingest.js';
import type { RecordBatches } from './record-sources.js';
import type { UsageService } from '../usage.js';

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

  constructor(private readonly db: Db, private readonly usage: UsageService) {}

  onDelete(c: DatasetCascade): void {
    this.cascades.push(c);
  }

  async put(accountId: string, name: string, body: { records?: RecordBatches; columns: ColumnPatchMap }): Promise<IngestResult> {
    validateName(name);
    // The quota check runs before the upload's transaction: the embedded store has one connection,
    // and the transaction holds it.
    if (!(await new DatasetsStore(this.db).find(accountId, name))) await this.usage.assertCanCreateDataset(accountId);
    try {
      return await ingest(this.db, { accountId, name, records: body.records, requestedColumns: body.columns });
    } finally {
      this.usage.invalidate(accountId);
    }
  }

  async get(accountId: string, name: string): Promise<DatasetRecord> {
    const d = await new DatasetsStore(this.db).find(accountId, name);
    if (!d) throw new NotFoundError('dataSet', name);
    return d;
  }

  list(accountId: string, q: { partialName?: string; page: Page; sortBy?: DatasetSort; desc?: boolean }): Promise<PageOf<DatasetRecord>> {
    return new DatasetsStore(this.db).list(accountId, q);
  }

  async readData(accountId: string, name: string, q: { page: Page; from?: number; to?: number }): Promise<{ dataset: DatasetRecord; rows: Record<string, string>[]; total: number }> {
    const dataset = await this.get(accountId, name);
    const byTime = dataset.identityKind === 'timestamp';
    if ((q.from !== undefined || q.to !== undefined) && !byTime) {
      throw ValidationError.of('startDate', `${name} has no timestamp column, so it cannot be filtered by date`);
    }
    const { rows, total } = await new DatasetsStore(this.db).readRows(dataset.id, { from: q.from, to: q.to, byTime, offset: q.page.page * q.page.size, limit: q.page.size });
    return { dataset, rows, total };
  }

  /** Rows of a data set in storage order (time order for time series), in batches. */
  async *iterateRows(dataset: DatasetRecord): AsyncGenerator<Record<string, string>[]> {
    yield* new DatasetsStore(this.db).iterateRows(dataset.id, dataset.identityKind === 'timestamp');
  }

  /** The whole data set, or only rows in a date range / with given keys. */
  async delete(accountId: string, name: string, q: DeleteRowsQuery): Promise<void> {
    const partial = q.from !== undefined || q.to !== undefined || !!q.keys?.length || q.startKey !== undefined || q.endKey !== undefined;
    await this.db.tx(async (tx) => {
      const store = new DatasetsStore(tx);
      const dataset = await store.find(accountId, name, { forUpdate: true });
      if (!dataset) throw new NotFoundError('dataSet', name);
      if (!partial) {
        await store.delete(dataset.id);
        return;
      }
      if ((q.from !== undefined || q.to !== undefined) && dataset.identityKind !== 'timestamp') {
        throw ValidationError.of('startDate', `${name} has no timestamp column, so rows cannot be deleted by date`);
      }
      if ((q.keys?.length || q.startKey !== undefined || q.endKey !== undefined) && dataset.identityKind !== 'key') {
        throw ValidationError.of('keys', `${name} has no key column, so rows cannot be deleted by key`);
      }
      await store.deleteRows(dataset.id, q);
      await store.refreshCounts(dataset.id);
    });
    if (!partial) for (const c of this.cascades) await c(accountId, name, q.cascade);
    this.usage.invalidate(accountId);
  }
}

function validateName(name: string): void {
  if (name.length === 0 || name.length > 200) throw ValidationError.of('dataSetName', 'a data set name has 1 to 200 characters');
  if (/[\u0000-\u001f/\\]/.test(name)) throw ValidationError.of('dataSetName', 'a data set name cannot contain control characters or slashes');
}

export function isTimeSeries(d: DatasetRecord): boolean {
  return d.identityKind === 'timestamp';
}

export function columnsOf(d: DatasetRecord): ColumnMap {
  return d.columns as ColumnMap;
}
