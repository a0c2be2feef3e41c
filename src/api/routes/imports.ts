import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import type { ImportRecord, ImportSort } from '../../store/imports-store.js';
import { isPlainObject, pick, pickString } from '../../domain/lenient.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging } from '../paging.js';
import { isoOffset } from '../../service/sessions/session-view.js';
import { errors, pagingQuery, str } from './schema-parts.js';
import { DEFAULT_S3_REGION } from '../../service/imports/cloud-sources.js';
import { urlPassword } from '../../service/imports/imports-service.js';

const tags = ['imports'];
const IMPORT_SORTS: ImportSort[] = ['id', 'dataSetName', 'requestedDate', 'currentStatusDate'];

function importView(req: FastifyRequest, r: ImportRecord) {
  return {
    importId: r.id,
    type: r.type,
    status: r.status,
    dataSetName: r.datasetName,
    // Imports stored before passwords were taken out of URLs still hold theirs: never shown either.
    parameters: r.type === 'url' ? { ...r.parameters, url: urlPassword(String(r.parameters.url)).shown } : r.parameters,
    requestedDate: isoOffset(r.requestedAt),
    statusHistory: r.statusHistory.map((h) => ({ date: isoOffset(h.date), status: h.status })),
    messages: r.messages,
    columns: r.columns,
    links: [
      { rel: 'self', href: `${baseUrl(req)}/imports/${r.id}` },
      { rel: 'data', href: `${baseUrl(req)}/data/${encodeURIComponent(r.datasetName)}` },
    ],
  };
}

function statusHeaders(status: string): Record<string, string> {
  const pascal = status.charAt(0).toUpperCase() + status.slice(1);
  return { 'Service-Import-Status': pascal, 'Nexosis-Import-Status': pascal };
}

export function registerImportRoutes(app: FastifyInstance, services: Services): void {
  const { imports } = services;

  app.post('/v1/imports/url', {
    schema: {
      tags, summary: 'Import a CSV or JSON file (gzip too) from a URL into a data set',
      body: {
        type: 'object', additionalProperties: true,
        properties: { dataSetName: str('Target data set'), url: str('http(s) address of the file'), contentType: str('csv or json (default: from the extension or Content-Type)'), columns: { type: ['object', 'null'], additionalProperties: true }, auth: { type: 'object', additionalProperties: true } },
      },
      response: errors,
    },
  }, async (req, reply) => {
    const p = Params.of(req);
    const dataSetName = p.required('dataSetName', 'dataSourceName');
    const url = p.required('url');
    const contentType = p.enumOf('contentType', ['csv', 'json'] as const, { 0: 'csv', 1: 'json' });
    const columns = p.columns();
    const basic = pick(pick(p.source, 'auth'), 'basic');
    let basicAuth: { user: string; password: string } | undefined;
    if (isPlainObject(basic)) {
      const user = pickString(basic, 'userId', 'user', 'username');
      const password = pickString(basic, 'password') ?? '';
      if (user === undefined) p.fail('auth.basic.userId', 'userId is required for basic authentication');
      else basicAuth = { user, password };
    }
    p.check();
    const r = await imports.createUrlImport(req.accountId, { dataSetName, url, contentType, columns, basicAuth });
    services.jobs?.poke();
    reply.headers(statusHeaders(r.status));
    return importView(req, r);
  });

  /** dataSetName, contentType and columns, read the same way for every kind of import. */
  function common(p: Params) {
    const dataSetName = p.required('dataSetName', 'dataSourceName');
    const contentType = p.enumOf('contentType', ['csv', 'json'] as const, { 0: 'csv', 1: 'json' });
    const columns = p.columns();
    return { dataSetName, contentType, columns };
  }

  const cloudBody = (props: Record<string, unknown>) => ({
    type: 'object', additionalProperties: true,
    properties: { dataSetName: str('Target data set'), contentType: str('csv or json (default: from the extension or Content-Type)'), columns: { type: ['object', 'null'], additionalProperties: true }, ...props },
  });

  // Credentials of cloud imports are used for the one transfer and never stored, logged or echoed.
  app.post('/v1/imports/s3', {
    schema: {
      tags, summary: 'Import a CSV or JSON file (gzip too) from an S3 bucket (or an S3-compatible endpoint) into a data set',
      body: cloudBody({
        bucket: str('Bucket name'), path: str('Object key'), region: str('Region (default us-east-1)'),
        accessKeyId: str('Access key id (omit both keys for a public object)'), secretAccessKey: str('Secret access key'), sessionToken: str('Session token of temporary credentials'),
        endpoint: str('http(s) address of an S3-compatible service instead of AWS (path-style addressing)'),
      }),
      response: errors,
    },
  }, async (req, reply) => {
    const p = Params.of(req);
    const c = common(p);
    const bucket = p.required('bucket');
    const path = p.required('path', 'key');
    const region = p.str('region') || DEFAULT_S3_REGION;
    const endpoint = p.str('endpoint') || undefined;
    const accessKeyId = p.str('accessKeyId') || undefined;
    const secretAccessKey = p.str('secretAccessKey') || undefined;
    const sessionToken = p.str('sessionToken') || undefined;
    if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) p.fail(accessKeyId ? 'secretAccessKey' : 'accessKeyId', 'accessKeyId and secretAccessKey go together (or neither, for a public object)');
    if (endpoint !== undefined && !/^https?:\/\/[^/]/i.test(endpoint)) p.fail('endpoint', 'endpoint must be an http(s) address');
    if (!/^[a-z0-9-]{2,32}$/i.test(region)) p.fail('region', `'${region}' is not a region name`);
    p.check();
    const r = await imports.createS3Import(req.accountId, { ...c, bucket, path, region, endpoint, credentials: { accessKeyId, secretAccessKey, sessionToken } });
    reply.headers(statusHeaders(r.status));
    return importView(req, r);
  });

  app.post('/v1/imports/azure', {
    schema: {
      tags, summary: 'Import a CSV or JSON file (gzip too) from Azure Blob Storage into a data set',
      body: cloudBody({ connectionString: str('Storage account connection string (echoed as "redacted")'), container: str('Container name'), blob: str('Blob name') }),
      response: errors,
    },
  }, async (req, reply) => {
    const p = Params.of(req);
    const c = common(p);
    const connectionString = p.required('connectionString');
    const container = p.required('container');
    const blob = p.required('blob');
    p.check();
    const r = await imports.createAzureImport(req.accountId, { ...c, connectionString, container, blob });
    reply.headers(statusHeaders(r.status));
    return importView(req, r);
  });

  app.get('/v1/imports/:id', { schema: { tags, summary: 'An import and its status', response: errors } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    const r = await imports.get(req.accountId, id);
    reply.headers(statusHeaders(r.status));
    return importView(req, r);
  });

  app.get('/v1/imports', {
    schema: {
      tags, summary: 'List imports',
      querystring: { type: 'object', properties: { dataSetName: str('Only imports into this data set'), requestedAfterDate: str('Requested on or after'), requestedBeforeDate: str('Requested on or before'), sortBy: str('id, dataSetName, requestedDate or currentStatusDate'), sortOrder: str('asc or desc'), ...pagingQuery } },
      response: errors,
    },
  }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const dataSetName = p.str('dataSetName', 'dataSourceName');
    const after = p.date('requestedAfterDate', 'requestedAfter');
    const before = p.date('requestedBeforeDate', 'requestedBefore');
    const sortBy = p.enumOf('sortBy', IMPORT_SORTS);
    const desc = p.str('sortOrder')?.toLowerCase() === 'desc';
    p.check();
    const result = await imports.list(req.accountId, { dataSetName, after, before, page, sortBy, desc });
    return { items: result.items.map((r) => importView(req, r)), ...pagingFields(req, page, result.totalCount) };
  });
}
