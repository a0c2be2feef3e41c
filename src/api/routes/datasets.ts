import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Readable } from 'node:stream';
import type { Services } from '../../service/services.js';
import type { DatasetRecord, DatasetSort } from '../../store/datasets-store.js';
import type { Message } from '../../store/schema.js';
import { columnsToJson, type ColumnMap, type ColumnPatchMap } from '../../domain/columns.js';
import { parseTimestamp, formatStoredTimestamp } from '../../domain/dates.js';
import { csvRecords, jsonRecords } from '../../service/datasets/record-sources.js';
import { interpretJsonUpload } from '../../service/datasets/json-upload.js';
import { TooLargeError, UnsupportedMediaTypeError } from '../../service/errors.js';
import { isPlainObject } from '../../domain/lenient.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging, readRowsQuery } from '../paging.js';
import { isoOffset } from '../../service/sessions/session-view.js';
import { toCsv } from '../csv-output.js';
import { wantsCsv } from '../content-negotiation.js';
import { datasetSchemas } from './dataset-schemas.js';
import { UsageService } from '../../service/usage.js';
import { columnNamed } from '../../domain/columns.js';
import { readMissingValues } from '../../domain/missing-values.js';
import { NotFoundError, ValidationError } from '../../service/errors.js';

const DATASET_SORTS: DatasetSort[] = ['dataSetName', 'dataSetSize', 'rowCount', 'dateCreated', 'lastModified'];

/** `messages`: what to say of the data set, by default what its latest upload said (a list page reads none). */
export function datasetSummary(req: FastifyRequest, d: DatasetRecord, messages: Message[] = d.uploadMessages) {
  const href = `${baseUrl(req)}/data/${encodeURIComponent(d.name)}`;
  return {
    dataSetName: d.name,
    dataSetSize: d.dataBytes,
    isTimeSeries: d.identityKind === 'timestamp',
    columns: columnsToJson(d.columns as ColumnMap),
    rowCount: d.rowCount,
    columnCount: d.columnsOmitted?.count ?? Object.keys(d.columns).length,
    dateCreated: isoOffset(d.createdAt),
    lastModified: isoOffset(d.updatedAt),
    // The data set's own markers for a missing value, when it has any (dashboard-era missingValues).
    ...(d.missingValues.length ? { missingValues: d.missingValues } : {}),
    messages: [...(d.columnsOmitted ? [{ severity: 'informational', message: `The ${d.columnsOmitted.count} columns of ${d.name} are left out of this list, whose page holds too many columns; GET ${href} has them.` }] : []), ...messages],
    links: [{ rel: 'data', href }, { rel: 'self', href }],
  };
}

/** The markers a PUT sets: the JSON body's `missingValues` (as the dashboard sent them), else the query's (CSV); undefined: unchanged. */
function requestedMissingValues(body: unknown, query: string[] | undefined): string[] | undefined {
  if (!(isPlainObject(body) && 'missingValues' in body) || body.missingValues === null) return query;
  const read = readMissingValues(body.missingValues);
  if ('problem' in read) throw ValidationError.of('missingValues', read.problem);
  return read.markers;
}

export function registerDatasetRoutes(app: FastifyInstance, services: Services, opts: { maxCsvBytes: number }): void {
  const { datasets } = services;

  app.put('/v1/data/:name', { schema: datasetSchemas.put }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const p = Params.query(req);
    const timestampColumn = p.str('timestampColumn');
    const missingValuesQuery = p.missingValues();
    p.check();
    const missingValues = requestedMissingValues(req.body, missingValuesQuery);
    const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
    let upload: { records?: ReturnType<typeof csvRecords>; columns: ColumnPatchMap };
    const declared = Number(req.headers['content-length'] ?? 0);
    const planLimit = await services.usage.uploadLimit(req.accountId);
    if (type === 'text/csv' || type === 'application/csv' || type === 'text/plain') {
      const limit = Math.min(opts.maxCsvBytes, planLimit);
      if (declared > limit) {
        (req.body as Readable).resume();
        throw limit < opts.maxCsvBytes ? UsageService.tooLarge(limit) : new TooLargeError(`The CSV upload is larger than the limit of ${opts.maxCsvBytes} bytes`, { limitBytes: opts.maxCsvBytes });
      }
      upload = { records: csvRecords(req.body as Readable, { maxBytes: limit }), columns: {} };
    } else if (type === 'application/json' || type === '') {
      if (declared > planLimit) throw UsageService.tooLarge(planLimit);
      const body = interpretJsonUpload(req.body);
      upload = { records: body.records ? jsonRecords(body.records) : undefined, columns: body.columns };
    } else {
      throw new UnsupportedMediaTypeError(type, ['application/json', 'text/csv']);
    }
    if (timestampColumn) upload.columns = { ...upload.columns, [timestampColumn]: { ...upload.columns[timestampColumn], role: 'timestamp', dataType: 'date' } };
    const result = await datasets.put(req.accountId, name, { ...upload, missingValues });
    // This request's messages: the stored ones are the same after an upload, and a metadata-only PUT says its own.
    const summary = datasetSummary(req, result.dataset, result.messages);
    // 201 + Location for every successful PUT, new or not, as the original answered (the JavaScript
    // client's own suite re-PUTs an existing data set and expects 201); result.created is not exposed.
    reply.code(201).header('location', summary.links[0]!.href);
    return summary;
  });

  app.get('/v1/data', { schema: datasetSchemas.list }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const partialName = p.str('partialName');
    const sortBy = p.enumOf('sortBy', DATASET_SORTS);
    const desc = p.str('sortOrder')?.toLowerCase() === 'desc';
    p.check();
    const result = await datasets.list(req.accountId, { partialName, page, sortBy, desc });
    return { items: result.items.map((d) => datasetSummary(req, d)), ...pagingFields(req, page, result.totalCount) };
  });

  app.get('/v1/data/:name', { schema: datasetSchemas.get, config: { csv: true } }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const p = Params.query(req);
    const { page, from, to, include } = readRowsQuery(p);
    const formatDates = p.bool('formatDates');
    p.check();
    const { dataset, rows, total } = await datasets.readData(req.accountId, name, { page, from, to });
    const columns = Object.keys(dataset.columns).filter((c) => include.length === 0 || include.includes(c));
    const ts = dataset.identityKind === 'timestamp' ? dataset.identityColumn : null;
    const data = rows.map((r) => {
      const out: Record<string, string> = {};
      for (const c of columns) {
        let v = r[c] ?? '';
        if (formatDates && c === ts && v !== '') { const ms = parseTimestamp(v); if (ms !== null) v = formatStoredTimestamp(ms); }
        out[c] = v;
      }
      return out;
    });
    if (wantsCsv(req)) return sendCsv(reply, columns, data);
    const summary = datasetSummary(req, dataset);
    const sessionsLink = { rel: 'sessions', href: `${baseUrl(req)}/sessions?dataSourceName=${encodeURIComponent(name)}` };
    return { ...summary, data, ...pagingFields(req, page, total, [sessionsLink]) };
  });

  // Column statistics, computed from the rows once per version of them (service/datasets/dataset-stats.ts).
  const stats = async (req: FastifyRequest, only?: string) => {
    const { name } = req.params as { name: string };
    const p = Params.query(req);
    const dataType = p.str('dataType');
    p.check();
    const dataset = await datasets.get(req.accountId, name);
    let names = Object.keys(dataset.columns);
    if (only !== undefined) {
      const col = columnNamed(dataset.columns, only);
      if (col === undefined) throw new NotFoundError('column', only);
      names = [col];
    }
    const computed = await datasets.columnStats(dataset, names, dataType);
    const columns = Object.fromEntries(names.map((n) => {
      const { lastCalculated, ...s } = computed[n]!;
      return [n, { ...s, lastCalculated: isoOffset(lastCalculated) }];
    }));
    return { dataSetName: dataset.name, columns };
  };
  app.get('/v1/data/:name/stats', { schema: datasetSchemas.stats }, (req) => stats(req));
  app.get('/v1/data/:name/stats/:column', { schema: datasetSchemas.stats }, (req) => stats(req, (req.params as { column: string }).column));

  app.delete('/v1/data/:name', { schema: datasetSchemas.delete }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const p = Params.query(req);
    const from = p.date('startDate');
    const to = p.date('endDate');
    const keys = p.multi('keys');
    const startKey = p.str('startKey');
    const endKey = p.str('endKey');
    const cascade = p.multi('cascade').map((c) => c.toLowerCase());
    p.check();
    await datasets.delete(req.accountId, name, { from, to, keys, startKey, endKey, cascade });
    return reply.code(204).send();
  });
}

export function sendCsv(reply: FastifyReply, columns: string[], rows: Record<string, string>[]): FastifyReply {
  return reply.type('text/csv; charset=utf-8').send(toCsv(columns, rows));
}

/**
 * Result rows as CSV, their columns in the order the rows first name them: a later row may carry a
 * field the first lacks (a cell left empty), and its values must not be dropped.
 */
export function sendRowsCsv(reply: FastifyReply, rows: Record<string, string>[]): FastifyReply {
  const columns = new Set<string>();
  for (const row of rows) for (const name of Object.keys(row)) columns.add(name);
  return sendCsv(reply, [...columns], rows);
}
