/** Models over HTTP: list, read, delete, and predict (JSON or CSV records). */
import { MODEL_SORTS, type ModelRecord } from '../../store/models-store.js';
import type { Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import { modelsOf, type ModelsService } from '../../service/models/models-service.js';
import { modelView, modelViewJson } from '../../service/models/model-view.js';
import { csvRecords } from '../../service/datasets/record-sources.js';
import { UnsupportedMediaTypeError, ValidationError } from '../../service/errors.js';
import { isPlainObject } from '../../domain/lenient.js';
import { Params } from '../params.js';
import { wantsCsv } from '../content-negotiation.js';
import { sendRowsCsv } from './datasets.js';
import { baseUrl, pagingFields, readPaging } from '../paging.js';
import { errors, pagingQuery, str } from './schema-parts.js';

const tags = ['models'];
const CSV_TYPES = ['text/csv', 'application/csv', 'text/plain'];

/**
 * A predict answer as JSON text: exactly JSON.stringify({...modelView(m, base), data,
 * explanations?, messages}) (the view has none of those keys, so they follow its own in order).
 */
function predictionJson(m: ModelRecord, base: string, data: unknown, messages: unknown[], explanations?: unknown): string {
  const view = modelViewJson(m, base);
  return `${view.slice(0, -1)},"data":${JSON.stringify(data)}${explanations ? `,"explanations":${JSON.stringify(explanations)}` : ''},"messages":${JSON.stringify(messages)}}`;
}

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
      createdBeforeDate: str('Created on or before'), sortBy: str('id, dataSourceName, predictionDomain, createdDate or lastUsedDate'), sortOrder: str('asc or desc'), ...pagingQuery,
    },
  };

  app.get('/v1/models', { schema: { tags, summary: 'List models (oldest first unless sortBy/sortOrder say otherwise)', querystring: listQuery, response: errors } }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const filter = readFilter(p);
    const by = p.enumOf('sortBy', MODEL_SORTS);
    const desc = p.str('sortOrder')?.toLowerCase() === 'desc';
    p.check();
    const r = await models.list(req.accountId, filter, page, { by, desc });
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
    summary: 'Predict records: JSON {data:[…], extraParameters:{includeClassScores, predictionIntervals, includeExplanations}} or a CSV body (both in the query); Accept: text/csv answers the predicted rows as CSV',
    querystring: {
      type: 'object',
      properties: {
        includeClassScores: str('Classification: add a <target>:<class> score (a calibrated probability) per class'),
        predictionIntervals: str('Regression: interval levels, e.g. 0.8,0.95; adds <target>:lower:<level> and <target>:upper:<level> (conformal intervals)'),
        includeExplanations: str('Add `explanations`: per record, each input column\'s contribution to the raw prediction (TreeSHAP / linear), with the base value and the scale'),
      },
    },
    response: errors,
  };
  const predict = async (req: FastifyRequest, reply: FastifyReply) => {
    const { id } = req.params as { id: string };
    const p = Params.of(req);
    const extraParams = p.nested('extraParameters');
    const includeClassScores = p.bool('includeClassScores') ?? extraParams?.bool('includeClassScores');
    const predictionIntervals = readLevels(p, p.raw('predictionIntervals') ?? extraParams?.raw('predictionIntervals'));
    const includeExplanations = p.bool('includeExplanations') ?? extraParams?.bool('includeExplanations');
    p.check();
    const records = await readRecords(req, models, services.config.maxCsvBytes);
    await services.usage.assertCanPredict(req.accountId, records.length);
    const { model, data, messages, explanations } = await models.predict(req.accountId, id, records, { includeClassScores: includeClassScores ?? false, predictionIntervals, includeExplanations: includeExplanations ?? false });
    // The original service answered `Accept: text/csv` with the predicted rows alone (its dashboard's predictRaw).
    if (wantsCsv(req)) return sendRowsCsv(reply, data);
    // Serialized here, the model's part once per cached model (model-view.ts): the same bytes as
    // returning the object, with less work and garbage on the single-record path.
    return reply.type('application/json; charset=utf-8').send(predictionJson(model, baseUrl(req), data, messages, explanations));
  };
  app.post('/v1/models/:id/predict', { schema: predictSchema, config: { csv: true } }, predict);
  app.post('/v1/model/:id/predict', { schema: { ...predictSchema, hide: true }, config: { csv: true } }, predict);
}

/** Interval levels: a list (or comma-separated text) of numbers strictly between 0 and 1; at most 10. */
function readLevels(p: Params, raw: unknown): number[] | undefined {
  if (raw === undefined || raw === null || raw === '') return undefined;
  const items = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(',') : [raw];
  const levels = items.map((v) => (typeof v === 'number' ? v : typeof v === 'string' && v.trim() !== '' ? Number(v) : NaN));
  if (levels.length === 0 || levels.length > 10 || levels.some((l) => !(l > 0 && l < 1))) {
    p.fail('predictionIntervals', `predictionIntervals must be a list of up to 10 levels strictly between 0 and 1 (e.g. [0.8, 0.95]); got ${JSON.stringify(raw)}`);
    return undefined;
  }
  return [...new Set(levels)];
}
