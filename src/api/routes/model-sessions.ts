/**
 * Model sessions over HTTP: creation (POST /v1/sessions/model) and the results sub-resources of a
 * completed session (confusion matrix, class scores, anomaly scores, feature importance, contest).
 * Listing, reading and deleting sessions and their plain results live in sessions.ts.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { MAX_CONTAMINATION } from '../../service/models/model-artifact.js';
import type { Services } from '../../service/services.js';
import { modelSessionDraft, type ModelSessionRequest } from '../../service/sessions/model-session-request.js';
import { PREDICTION_DOMAINS } from '../../service/models/model-artifact.js';
import type { Page } from '../../store/paging.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging } from '../paging.js';
import { errors, pagingQuery } from './schema-parts.js';
import { withMahalanobisDistances } from '../../service/sessions/mahalanobis-rows.js';
import { sendRowsCsv } from './datasets.js';
import { wantsCsv } from '../content-negotiation.js';
import { RESULT_PARTS } from '../result-links.js';
import { notApplicable, sendCreatedSession, sessionBody, sessionIdParam, statusHeaders } from './sessions.js';

const tags = ['sessions'];
const pagedQuery = { querystring: { type: 'object', properties: { ...pagingQuery } } };

/** Reads and validates the creation request (every problem reported at once). */
function readModelSessionRequest(req: FastifyRequest): ModelSessionRequest {
  const p = Params.of(req);
  const dataSourceName = p.required('dataSourceName', 'dataSetName');
  const predictionDomain = p.enumOf('predictionDomain', PREDICTION_DOMAINS);
  if (predictionDomain === undefined && p.raw('predictionDomain') === undefined) p.fail('predictionDomain', `predictionDomain is required: one of ${PREDICTION_DOMAINS.join(', ')}`);
  const extra = p.nested('extraParameters') ?? new Params({});
  const extraParameters = extra.source;
  const balance = p.bool('balance') ?? extra.bool('balance');
  const containsAnomalies = p.bool('containsAnomalies') ?? extra.bool('containsAnomalies');
  const contamination = extra.raw('contamination');
  if (contamination !== undefined && contamination !== null && !(typeof contamination === 'number' && contamination > 0 && contamination <= MAX_CONTAMINATION)) {
    p.fail('extraParameters.contamination', `contamination is the share of rows that are anomalies: a number in (0, ${MAX_CONTAMINATION}]; got ${JSON.stringify(contamination)}`);
  }
  const seed = extra.raw('seed');
  if (seed !== undefined && seed !== null && !(Number.isInteger(seed) && (seed as number) >= 0 && (seed as number) <= 0xffffffff)) {
    p.fail('extraParameters.seed', `seed makes a session repeatable: an integer from 0 to ${0xffffffff}; got ${JSON.stringify(seed)}`);
  }
  const columns = p.columns();
  const callbackUrl = p.str('callbackUrl');
  if (callbackUrl !== undefined && !isHttpUrl(callbackUrl)) p.fail('callbackUrl', `'${callbackUrl}' is not an absolute http or https URL`);
  const request = {
    dataSourceName, predictionDomain: predictionDomain!, targetColumn: p.str('targetColumn'), columns,
    balance: balance ?? true, containsAnomalies: containsAnomalies ?? true, extraParameters, callbackUrl, name: p.label('name'),
    missingValues: p.missingValues(),
  };
  p.check();
  return request;
}

function isHttpUrl(s: string): boolean {
  try {
    const u = new URL(s);
    return u.protocol === 'http:' || u.protocol === 'https:';
  } catch {
    return false;
  }
}

function paged<T>(rows: T[], page: Page): T[] {
  return rows.slice(page.page * page.size, (page.page + 1) * page.size);
}

export function registerModelSessionRoutes(app: FastifyInstance, services: Services): void {
  const { sessions } = services;

  app.post('/v1/sessions/model', { schema: { tags, summary: 'Start a model session (classification, regression or anomalies)', response: errors } }, async (req, reply) => {
    const draft = await modelSessionDraft(services, req.accountId, readModelSessionRequest(req));
    return sendCreatedSession(req, reply, await sessions.create(req.accountId, draft));
  });

  /** A completed session's results when `applies` holds for it, else 404 naming the sub-resource. */
  async function resultsFor(req: FastifyRequest, what: keyof typeof RESULT_PARTS) {
    const id = sessionIdParam(req);
    const { session, results } = await sessions.results(req.accountId, id);
    if (!results || !RESULT_PARTS[what].offered(session, results)) throw notApplicable(what, id);
    return { session, results };
  }

  app.get('/v1/sessions/:id/results/confusionmatrix', { schema: { tags, summary: 'Confusion matrix of a classification session (rows = actual class)', response: errors } }, async (req, reply) => {
    const { session, results } = await resultsFor(req, 'confusionMatrix');
    reply.headers(statusHeaders(session));
    return { ...sessionBody(req, session), classes: results.extra.classes, confusionMatrix: results.extra.confusionMatrix, pageNumber: 0, totalPages: 0, pageSize: 0, totalCount: 0 };
  });

  app.get('/v1/sessions/:id/results/classscores', { config: { csv: true }, schema: { tags, summary: 'Test rows with a score per class; Accept: text/csv gives the rows as CSV', ...pagedQuery, response: errors } }, async (req, reply) => {
    const p = Params.query(req);
    const page = readPaging(p);
    p.check();
    const { session, results } = await resultsFor(req, 'classScores');
    const classes = results.extra.classes as string[];
    const target = session.targetColumn!;
    const [start, end] = [page.page * page.size, (page.page + 1) * page.size];
    const scores = await results.rows<number[]>('classScores', start, end);
    const data = (await results.rows('data', start, end)).map((row, i) => {
      const out: Record<string, string> = { ...row };
      classes.forEach((c, j) => { out[`${target}:${c}`] = String(scores[i]![j]); });
      return out;
    });
    reply.headers(statusHeaders(session));
    if (wantsCsv(req)) return sendRowsCsv(reply, data);
    return { ...sessionBody(req, session), classes, metrics: results.metrics, data, ...pagingFields(req, page, results.parts.data ?? 0) };
  });

  app.get('/v1/sessions/:id/results/anomalyscores', { config: { csv: true }, schema: { tags, summary: 'Every row of an anomalies session with its anomaly score (negative = anomalous); Accept: text/csv gives the rows as CSV', ...pagedQuery, response: errors } }, async (req, reply) => {
    const p = Params.query(req);
    const page = readPaging(p);
    p.check();
    const { session, results } = await resultsFor(req, 'anomalyScores');
    const data = await results.rows('anomalyScores', page.page * page.size, (page.page + 1) * page.size);
    reply.headers(statusHeaders(session));
    if (wantsCsv(req)) return sendRowsCsv(reply, data);
    return { ...sessionBody(req, session), metrics: results.metrics, data, ...pagingFields(req, page, results.parts.anomalyScores!) };
  });

  app.get('/v1/sessions/:id/results/featureimportance', { schema: { tags, summary: 'Importance of each feature column (highest first)', ...pagedQuery, response: errors } }, async (req, reply) => {
    const p = Params.query(req);
    const page = readPaging(p);
    p.check();
    const { session, results } = await resultsFor(req, 'featureImportance');
    const scores = Object.entries(results.extra.featureImportance as Record<string, number | null>)
      .map(([name, v]): [string, number | string] => [name, typeof v === 'number' && Number.isFinite(v) ? v : 'NaN'])
      .sort(([, a], [, b]) => (typeof b === 'number' ? b : -Infinity) - (typeof a === 'number' ? a : -Infinity));
    reply.headers(statusHeaders(session));
    const pageScores = paged(scores, page);
    // Beside split gain: mean |contribution| over the held-back rows (sessions trained since explanations), same columns as the page.
    const contributions = results.extra.meanAbsoluteContributions as { scale: string; rows: number; values: Record<string, number> } | undefined;
    const extra = contributions
      ? {
          meanAbsoluteContributions: Object.fromEntries(pageScores.map(([name]) => [name, contributions.values[name] ?? 0])),
          contributionScale: contributions.scale,
          contributionRows: contributions.rows,
        }
      : {};
    return { ...sessionBody(req, session), featureImportance: Object.fromEntries(pageScores), ...extra, supportsFeatureImportance: true, ...pagingFields(req, page, scores.length) };
  });

  app.get('/v1/sessions/:id/results/mahalanobisdistances', { config: { csv: true }, schema: { tags, summary: 'Every row of an anomalies session with its anomaly score and Mahalanobis distance from the mean; Accept: text/csv gives the rows as CSV', ...pagedQuery, response: errors } }, async (req, reply) => {
    const p = Params.query(req);
    const page = readPaging(p);
    p.check();
    const { session, results } = await resultsFor(req, 'mahalanobisDistances');
    // The distances need every row's values (the covariance of all rows): the one result read whole.
    const rows = withMahalanobisDistances(await results.rows('anomalyScores', 0, results.parts.anomalyScores!));
    reply.headers(statusHeaders(session));
    if (wantsCsv(req)) return sendRowsCsv(reply, paged(rows, page));
    return { ...sessionBody(req, session), metrics: results.metrics, data: paged(rows, page), ...pagingFields(req, page, rows.length) };
  });
}
