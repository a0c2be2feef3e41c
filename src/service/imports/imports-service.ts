import { randomUUID } from 'node:crypto';
import type { Db } from '../../store/db.js';
import { ImportsStore, type ImportRecord, type ImportSort } from '../../store/imports-store.js';
import { openDownload, guessContentType, OutboundFailed, OutboundRefused, type DataFormat } from '../../outbound/index.js';
import { outboundRefusal } from '../../outbound/precheck.js';
import type { ColumnPatchMap } from '../../domain/columns.js';
import { NotFoundError, ServiceError, ValidationError } from '../errors.js';
import type { Page, PageOf } from '../../store/paging.js';
import { validateDatasetName, type DatasetsService } from '../datasets/datasets-service.js';
import { csvRecords, jsonRecords } from '../datasets/record-sources.js';
import { readJsonUpload } from '../datasets/json-upload.js';
import type { Readable } from 'node:stream';
import { openAzureBlob, openS3Object, s3EndpointUrl, type AzureLocation, type S3Credentials, type S3Location } from './cloud-sources.js';
import { isConnectionLoss } from '../../store/connection-loss.js';
import type { Logger } from '../../log.js';

export interface ImportLimits {
  allowHosts: Set<string>;
  /** Largest download, counted after decompression (SIBYL_IMPORT_MAX_BYTES). */
  maxBytes: number;
  maxJsonBytes: number;
  /** Largest CSV upload (SIBYL_MAX_CSV_BYTES): an imported file is an upload, whatever it was compressed to. */
  maxCsvBytes: number;
  timeoutMs: number;
  /** The largest upload the account's plan allows (none: no plan limit). */
  uploadLimit?: (accountId: string) => Promise<number>;
}

export interface UrlImportRequest {
  dataSetName: string;
  url: string;
  contentType?: DataFormat;
  columns: ColumnPatchMap;
  basicAuth?: { user: string; password: string };
}

export interface CloudImportCommon {
  dataSetName: string;
  contentType?: DataFormat;
  columns: ColumnPatchMap;
}
export type S3ImportRequest = CloudImportCommon & S3Location & { credentials: S3Credentials };
export type AzureImportRequest = CloudImportCommon & AzureLocation & { connectionString: string };

/** Credentials of a cloud import, held in this process's memory only, for the one transfer. */
type CloudSecret = { kind: 's3'; credentials: S3Credentials } | { kind: 'azure'; connectionString: string };

/**
 * URL imports: the request is stored as `requested`; a job worker (this process or any
 * `sibyl worker`) claims it, streams the file into the data set through the ordinary upload path
 * (one transaction: a failed import leaves the data set as it was) and records the outcome.
 */
export class ImportsService {
  /** S3/Azure credentials by import id: never written to the database, a log or a response. */
  private readonly secrets = new Map<string, CloudSecret>();
  /** The lease owner of cloud imports this process runs itself (they need the credentials it holds). */
  private readonly owner = `api-import:${randomUUID()}`;
  private readonly running = new Map<string, Promise<void>>();

  constructor(private readonly db: Db, private readonly datasets: DatasetsService, private readonly limits: ImportLimits, private readonly log?: Pick<Logger, 'info' | 'warn'>) {}

  /**
   * S3 and Azure imports run in the process that received them, straight away, under a lease it
   * holds: the credentials stay in its memory (the import row has none) and are dropped when the
   * transfer ends. Should the process die first, the lease runs out and whichever worker claims the
   * import fails it with a message asking to send it again.
   */
  async createS3Import(accountId: string, req: S3ImportRequest): Promise<ImportRecord> {
    const endpoint = s3EndpointUrl(req).toString();
    const refusal = await outboundRefusal(endpoint, this.limits.allowHosts);
    if (refusal) throw ValidationError.of(req.endpoint ? 'endpoint' : 'region', refusal);
    const parameters: Record<string, unknown> = { bucket: req.bucket, path: req.path, region: req.region };
    if (req.endpoint) parameters.endpoint = req.endpoint;
    return this.startCloudImport(accountId, 's3', req, parameters, { kind: 's3', credentials: req.credentials });
  }

  async createAzureImport(accountId: string, req: AzureImportRequest): Promise<ImportRecord> {
    const endpoint = azureBlobEndpoint(req.connectionString);
    if (endpoint === undefined) throw ValidationError.of('connectionString', 'the connection string names no BlobEndpoint and no AccountName');
    const refusal = await outboundRefusal(endpoint, this.limits.allowHosts);
    if (refusal) throw ValidationError.of('connectionString', refusal.replace(req.connectionString, 'redacted'));
    const parameters = { connectionString: 'redacted', container: req.container, blob: req.blob };
    return this.startCloudImport(accountId, 'azure', req, parameters, { kind: 'azure', connectionString: req.connectionString });
  }

  private async startCloudImport(accountId: string, type: 's3' | 'azure', req: CloudImportCommon, parameters: Record<string, unknown>, secret: CloudSecret): Promise<ImportRecord> {
    validateDatasetName(req.dataSetName);
    const now = new Date();
    const record: ImportRecord = {
      id: randomUUID(), accountId, type, datasetName: req.dataSetName, status: 'requested', parameters, secret: null,
      contentType: req.contentType ?? null, columns: req.columns,
      statusHistory: [{ date: now.toISOString(), status: 'requested' }], messages: [], requestedAt: now, updatedAt: now,
    };
    const store = new ImportsStore(this.db);
    const leaseMs = this.limits.timeoutMs + 60_000;
    await store.insertHeld(record, this.owner, leaseMs);
    this.secrets.set(record.id, secret);
    const renew = setInterval(() => { store.renewLease(record.id, this.owner, leaseMs).catch(() => {}); }, Math.max(1000, leaseMs / 3));
    renew.unref();
    const done = this.run(record, this.owner)
      .catch(() => { /* the outcome could not be recorded (store closing): the lease runs out and a worker fails it */ })
      .finally(() => { clearInterval(renew); this.secrets.delete(record.id); this.running.delete(record.id); });
    this.running.set(record.id, done);
    return record;
  }

  /**
   * Shutdown: lets the cloud imports this process runs finish within `graceMs`, then fails those
   * still running (their credentials go with the process) with a message asking to send them again.
   */
  async drain(graceMs = 30_000): Promise<void> {
    if (this.running.size === 0) return;
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<void>((r) => { timer = setTimeout(r, graceMs); });
    await Promise.race([Promise.allSettled([...this.running.values()]), timeout]);
    clearTimeout(timer);
    const store = new ImportsStore(this.db);
    for (const id of [...this.running.keys()]) {
      this.secrets.delete(id);
      await store.setStatus(id, this.owner, 'failed', [{ severity: 'error', message: 'The server stopped before the transfer finished; the credentials were held only in its memory, so send the import again.' }], true).catch(() => {});
    }
  }

  async createUrlImport(accountId: string, req: UrlImportRequest): Promise<ImportRecord> {
    validateDatasetName(req.dataSetName);
    const refusal = await outboundRefusal(req.url, this.limits.allowHosts);
    if (refusal) throw ValidationError.of('url', refusal);
    const now = new Date();
    const { shown, credentials } = urlPassword(req.url);
    const basicAuth = req.basicAuth ?? credentials;
    const record: ImportRecord = {
      id: randomUUID(), accountId, type: 'url', datasetName: req.dataSetName, status: 'requested',
      parameters: { url: shown }, secret: basicAuth ? { basicAuth } : null,
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

  /**
   * Runs one claimed import to its end, recording the outcome on the import. Throws only when the
   * database went away under a URL import: that import did not fail, and the job loop gives it back
   * to run again (jobs/job-loop.ts), as it does sessions. A cloud import cannot run anywhere else
   * (its credentials are in this process's memory only), so it is recorded as failed.
   */
  async run(imp: ImportRecord, owner: string): Promise<void> {
    const store = new ImportsStore(this.db);
    const about = { importId: imp.id, type: imp.type, dataSetName: imp.datasetName, worker: owner };
    // Started already: the worker that held it died or gave it back, and this one starts it again.
    this.log?.info(about, imp.status === 'requested' ? 'import started' : 'import taken over from an earlier worker');
    if (imp.status === 'requested') await store.setStatus(imp.id, owner, 'started');
    const secret = this.secrets.get(imp.id);
    let source: Awaited<ReturnType<ImportsService['open']>> | undefined;
    try {
      // A small gzip file may expand a thousandfold: the decompressed bytes count against the same
      // limits as an upload's, and the download stops as soon as they are passed.
      const planBytes = (await this.limits.uploadLimit?.(imp.accountId)) ?? Infinity;
      const maxBytes = Math.min(this.limits.maxBytes, planBytes);
      source = await this.open(imp, secret, maxBytes);
      const format = guessContentType(source.name, source.contentType, (imp.contentType as DataFormat | null) ?? undefined) ?? 'csv';
      const columns = imp.columns as ColumnPatchMap;
      let result;
      if (format === 'json') {
        const body = await readJsonUpload(source.stream, this.limits.maxJsonBytes);
        result = await this.datasets.put(imp.accountId, imp.datasetName, { records: jsonRecords(body.records), columns: { ...body.columns, ...columns } });
      } else {
        result = await this.datasets.put(imp.accountId, imp.datasetName, { records: csvRecords(source.stream, { maxBytes: Math.min(maxBytes, this.limits.maxCsvBytes) }), columns });
      }
      await store.setStatus(imp.id, owner, 'completed', [
        { severity: 'informational', message: `${result.rowsReceived} rows were imported into ${imp.datasetName} from ${source.from}.` },
        ...result.messages,
      ], true);
      this.log?.info({ ...about, rows: result.rowsReceived }, 'import completed');
    } catch (e) {
      if (imp.type === 'url' && isConnectionLoss(e)) {
        source?.stream.destroy();
        throw e;
      }
      const reason = scrub(describe(e), secret, basicAuthOf(imp));
      await store.setStatus(imp.id, owner, 'failed', [{ severity: 'error', message: reason }], true);
      // The operator's log may say which address a name resolved to; the import's messages do not.
      this.log?.warn({ ...about, reason: e instanceof OutboundRefused ? e.message : reason }, 'import failed');
    }
  }

  /** The file of an import as a stream, whichever kind of source it comes from. */
  private async open(imp: ImportRecord, secret: CloudSecret | undefined, maxBytes: number): Promise<{ stream: Readable; contentType: string | undefined; name: string; from: string }> {
    const limits = { allowHosts: this.limits.allowHosts, maxBytes, timeoutMs: this.limits.timeoutMs };
    const p = imp.parameters;
    if (imp.type === 's3' || imp.type === 'azure') {
      if (!secret || secret.kind !== imp.type) {
        throw new Error('the credentials of this import were held only in the memory of the process that received it, which stopped before the transfer finished; send the import again.');
      }
      const o = secret.kind === 's3'
        ? await openS3Object({ bucket: String(p.bucket), path: String(p.path), region: String(p.region), endpoint: p.endpoint === undefined ? undefined : String(p.endpoint) }, secret.credentials, limits)
        : await openAzureBlob(secret.connectionString, { container: String(p.container), blob: String(p.blob) }, limits);
      return { stream: o.stream, contentType: o.contentType, name: o.name, from: o.source };
    }
    // A password shown as 'redacted' in the URL is in basicAuth, which the download prefers.
    const url = String(p.url);
    const download = await openDownload(url, { ...limits, basicAuth: basicAuthOf(imp) });
    return { stream: download.stream, contentType: download.contentType, name: url, from: download.finalUrl };
  }

}

/** A URL import's one-time credentials (auth.basic, or a password taken out of its URL), until it ends. */
function basicAuthOf(imp: ImportRecord): { user: string; password: string } | undefined {
  return (imp.secret as { basicAuth?: { user: string; password: string } } | null)?.basicAuth;
}

/** The blob endpoint a connection string points at (BlobEndpoint=, else https://<AccountName>.blob.<EndpointSuffix>). */
export function azureBlobEndpoint(connectionString: string): string | undefined {
  const parts = new Map<string, string>();
  for (const part of connectionString.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0) parts.set(part.slice(0, eq).trim().toLowerCase(), part.slice(eq + 1).trim());
  }
  if (parts.get('usedevelopmentstorage') === 'true') return 'http://127.0.0.1:10000/devstoreaccount1';
  if (parts.has('blobendpoint')) return parts.get('blobendpoint');
  const account = parts.get('accountname');
  if (!account) return undefined;
  return `${parts.get('defaultendpointsprotocol') ?? 'https'}://${account}.blob.${parts.get('endpointsuffix') ?? 'core.windows.net'}`;
}

/**
 * A URL import's address as it is stored and shown: a password in it (https://user:pass@host/…) is
 * replaced by 'redacted', like an Azure connection string, and travels with the import's one-time
 * credentials instead, which are deleted once the import ends.
 */
export function urlPassword(url: string): { shown: string; credentials?: { user: string; password: string } } {
  let parsed: URL;
  try { parsed = new URL(url); } catch { return { shown: url }; }
  if (parsed.password === '' || parsed.password === 'redacted') return { shown: url };
  const credentials = { user: decodeURIComponent(parsed.username), password: decodeURIComponent(parsed.password) };
  parsed.password = 'redacted';
  return { shown: parsed.href, credentials };
}

/** No credential, or a piece of a connection string, ever reaches an import's messages. */
function scrub(message: string, secret: CloudSecret | undefined, basicAuth?: { password: string }): string {
  const values = !secret ? [] : secret.kind === 's3'
    ? [secret.credentials.secretAccessKey, secret.credentials.sessionToken, secret.credentials.accessKeyId]
    : [secret.connectionString, ...secret.connectionString.split(';').map((p) => p.slice(p.indexOf('=') + 1)).filter((v) => v.length >= 16)];
  if (basicAuth) values.push(basicAuth.password, encodeURIComponent(basicAuth.password));
  let out = message;
  for (const v of values) if (v && v.length >= 4) out = out.split(v).join('[redacted]');
  return out;
}

function describe(e: unknown): string {
  if (e instanceof OutboundRefused) return e.publicMessage;
  if (e instanceof OutboundFailed) return e.message;
  if (e instanceof ServiceError) {
    const details = Object.entries(e.details).map(([k, v]) => `${k}: ${Array.isArray(v) ? v.join('; ') : String(v)}`).join(', ');
    return details ? `${e.message} (${details})` : e.message;
  }
  return `The import failed: ${(e as Error).message ?? String(e)}`;
}
