import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { ImportsStore, type ImportRecord, type ImportSort } from '../../store/imports-store.js';
import { openDownload, guessContentType, OutboundFailed, OutboundRefused, type DataFormat } from '../../outbound/index.js';
import { outboundRefusal } from '../../outbound/precheck.js';
import type { ColumnPatchMap } from '../../domain/columns.js';
import { NotFoundError, ServiceError, ValidationError } from '../errors.js';
import type { Page, PageOf } from '../../store/paging.js';
import type { DatasetsService } from '../datasets/datasets-service.js';
import { csvRecords, jsonRecords } from '../datasets/record-sources.js';
import { readJsonUpload } from '../datasets/json-upload.js';

export interface ImportLimits {
  allowHosts: Set<string>;
  maxBytes: number;
  maxJsonBytes: number;
  timeoutMs: number;
}

export interface UrlImportRequest {
  dataSetName: string;
  url: string;
  contentType?: DataFormat;
  columns: ColumnPatchMap;
  basicAuth?: { user: string; password: string };
}

/**
 * URL imports: the request is stored as `requested`; a job worker (this process or any
 * `sibyl worker`) claims it, streams the file into the data set through the ordinary upload path
 * (one transaction: a failed import leaves the data set as it was) and records the outcome.
 */
export class ImportsService {
  constructor(private readonly db: Db, private readonly datasets: DatasetsService, private readonly limits: ImportLimits) {}

  async createUrlImport(accountId: string, req: UrlImportRequest): Promise<ImportRecord> {
    const refusal = await outboundRefusal(req.url, this.limits.allowHosts);
    if (refusal) throw ValidationError.of('url', refusal);
    const now = new Date();
    const record: ImportRecord = {
      id: randomUUID(), accountId, type: 'url', datasetName: req.dataSetName, status: 'requested',
      parameters: { url: req.url }, secret: req.basicAuth ? { basicAuth: req.basicAuth } : null,
      contentType: req.contentType ?? null, columns: req.columns,
      statusHistory: [{ date: now.toISOString(), status: 'requested' }], messages: [], requestedAt: now, updatedAt: now,
    };
    await new ImportsStore(this.db).insert(record);
    return record;
  }

  async get(accountId: string, id: string): Promise<ImportRecord> {
    const r = /^[0-9a-f-]{36}$/i.test(id) ? await new ImportsStore(this.db).get(accountId, id) : undefined;
    if (!r) throw new NotFoundError('import', id);
    return r;
  }

  list(accountId: string, q: { dataSetName?: string; after?: number; before?: number; page: Page; sortBy?: ImportSort; desc?: boolean }): Promise<PageOf<ImportRecord>> {
    return new ImportsStore(this.db).list(accountId, q);
  }

  /** Runs one claimed import to its end; never throws (the outcome is recorded on the import). */
  async run(imp: ImportRecord, owner: string): Promise<void> {
    const store = new ImportsStore(this.db);
    if (imp.status === 'requested') await store.setStatus(imp.id, owner, 'started');
    try {
      const url = String(imp.parameters.url);
      const secret = imp.secret as { basicAuth?: { user: string; password: string } } | null;
      const download = await openDownload(url, {
        allowHosts: this.limits.allowHosts, maxBytes: this.limits.maxBytes, timeoutMs: this.limits.timeoutMs, basicAuth: secret?.basicAuth,
      });
      const format = guessContentType(url, download.contentType, (imp.contentType as DataFormat | null) ?? undefined) ?? 'csv';
      const columns = imp.columns as ColumnPatchMap;
      let result;
      if (format === 'json') {
        const body = await readJsonUpload(download.stream, this.limits.maxJsonBytes);
        result = await this.datasets.put(imp.accountId, imp.datasetName, { records: jsonRecords(body.records), columns: { ...body.columns, ...columns } });
      } else {
        result = await this.datasets.put(imp.accountId, imp.datasetName, { records: csvRecords(download.stream, { maxBytes: this.limits.maxBytes }), columns });
      }
      await store.setStatus(imp.id, owner, 'completed', [
        { severity: 'informational', message: `${result.rowsReceived} rows were imported into ${imp.datasetName} from ${download.finalUrl}.` },
      ], true);
    } catch (e) {
      await store.setStatus(imp.id, owner, 'failed', [{ severity: 'error', message: describe(e) }], true);
    }
  }

}

function describe(e: unknown): string {
  if (e instanceof OutboundRefused || e instanceof OutboundFailed) return e.message;
  if (e instanceof ServiceError) {
    const details = Object.entries(e.details).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join('; ') : String(v)}`).join(', ');
    return details ? `${e.message} (${details})` : e.message;
  }
  return `The import failed: ${(e as Error).message ?? String(e)}`;
}
