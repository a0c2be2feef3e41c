/** Models over HTTP: list, read, delete, and predict (JSON or CSV records). */
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import { modelsOf, type ModelsService } from '../../service/models/models-service.js';
import { modelView } from '../../service/models/model-view.js';
import { csvRecords } from '../../service/datasets/record-sources.js';
import { UnsupportedMediaTypeError, ValidationError } from '../../service/errors.js';
import { isPlainObject } from '../../domain/lenient.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging } from '../paging.js';
import { errors, pagingQuery, str } from './schema-parts.js';

const tags = ['models'];
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain'];

function readFilter(p: Params) {
  return {
    dataSourceName: p.str('dataSourceName', 'dataSetName'),
    createdAfter: p.date('createdAfterDate', 'createdAfter'),
    createdBefore: p.date('createdBeforeDate', 'createdBefore'),
  };
}

/** The records to predict: `{data:[…]}` as JSON, or a CSV body (header line + rows). */
async function readRecords(req: FastifyRequest, models: ModelsService, maxCsvBytes: number): Promise<Record<string, unknown>[]> {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  if (CSV_TYPES.includes(type)) {
    const records: Record<string, unknown>[] = [];
    for await (const batch of csvRecords(req.body as Readable, { maxBytes: maxCsvBytes })) {
      records.push(...batch);
      models.checkBatchSize(records.length);
    }
    return records;
  }
  if (type !== 'application/json' && type !== '') throw new UnsupportedMediaTypeError(type, ['application/json', 'text/csv']);
  const data = new Params(isPlainObject(req.body) ? req.body : {}).raw('data');
  if (!Array.isArray(data) || !data.every(isPlainObject)) throw ValidationError.of('data', 'data must be an array of records (objects of column name to value)');
  return data;
}

export function registerModelRoutes(app: FastifyInstance, services: Services): void {
  const models = modelsOf(services);
  const listQuery = {
    type: 'object',
    properties: {
      dataSourceName: str('Models built on this data source (alias dataSetName)'), createdAfterDate: str('Created on or after'),
      createdBeforeDate: str('Created on or before'), ...pagingQuery,
    },
  };

  app.get('/v1/models', { schema: { tags, summary: 'List models (oldest first)', querystring: listQuery, response: errors } }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const filter = readFilter(p);
    p.check();
    const r = await models.list(req.accountId, filter, page);
    return { items: r.items.map((m) => modelView(m, baseUrl(req))), ...pagingFields(req, page, r.totalCount) };
  });

  app.delete('/v1/models', { schema: { tags, summary: 'Delete the models matching a filter (at least one filter required)', querystring: listQuery, response: errors } }, async (req, reply) => {
    const p = Params.query(req);
    const filter = readFilter(p);
    p.check();
    await models.deleteMatching(req.accountId, filter);
    return reply.code(204).send();
  });

  app.get('/v1/models/:id', { schema: { tags, summary: 'A model: algorithm, test metrics, columns', response: errors } }, async (req) => {
    const { id } = req.params as { id: string };
    return modelView(await models.get(req.accountId, id), baseUrl(req));
  });

  app.delete('/v1/models/:id', { schema: { tags, summary: 'Delete a model', response: errors } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    await models.delete(req.accountId, id);
    return reply.code(204).send();
  });

  const predictSchema = {
    tags,
    summary: 'Predict records: JSON {data:[…], extraParameters:{includeClassScores}} or a CSV body (includeClassScores in the query)',
    querystring: { type: 'object', properties: { includeClassScores: str('Classification: add a <target>:<class> score per class') } },
    response: errors,
  };
  const predict = async (req: FastifyRequest) => {
    const { id } = req.params as { id: string };
    const p = Params.of(req);
    const extra = p.raw('extraParameters');
    const includeClassScores = p.bool('includeClassScores') ?? (isPlainObject(extra) ? new Params(extra).bool('includeClassScores') : undefined);
    p.check();
    const records = await readRecords(req, models, services.config.maxCsvBytes);
    await services.usage.assertCanPredict(req.accountId, records.length);
    const { model, data } = await models.predict(req.accountId, id, records, { includeClassScores: includeClassScores ?? false });
    return { ...modelView(model, baseUrl(req)), data, messages: [] };
  };
  app.post('/v1/models/:id/predict', { schema: predictSchema }, predict);
  app.post('/v1/model/:id/predict', { schema: { ...predictSchema, hide: true } }, predict);
}
