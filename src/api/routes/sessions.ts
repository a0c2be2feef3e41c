import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import type { SessionRecord, SessionSort, SessionType } from '../../store/sessions-store.js';
import { isUuid } from '../../service/sessions/sessions-service.js';
import { pascalStatus, sessionView } from '../../service/sessions/session-view.js';
import { NotFoundError, ValidationError } from '../../service/errors.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging } from '../paging.js';
import { errors, pagingQuery, str } from './schema-parts.js';
import { sendRowsCsv } from './datasets.js';
import { wantsCsv } from '../content-negotiation.js';
import { sendError } from '../error-handler.js';
import { intervalPart } from '../../store/result-pages.js';
import { intervalLevels, resultLinks } from '../result-links.js';

const tags = ['sessions'];
const SESSION_SORTS: SessionSort[] = ['id', 'name', 'type', 'status', 'dataSourceName', 'requestedDate'];
const TYPES: SessionType[] = ['model', 'forecast', 'impact'];

export function statusHeaders(s: SessionRecord): Record<string, string> {
  return { 'Service-Session-Status': pascalStatus(s.status), 'Nexosis-Session-Status': pascalStatus(s.status) };
}

/** The session body, as GET /v1/sessions/<id> gives it. */
export function sessionBody(req: FastifyRequest, s: SessionRecord): Record<string, unknown> {
  return sessionView(s, baseUrl(req));
}

/** Session ids in paths must be GUIDs (400 RequestValidation otherwise, as the original service answered). */
export function sessionIdParam(req: FastifyRequest): string {
  const { id } = req.params as { id: string };
  if (!isUuid(id)) throw new ValidationError({ sessionId: [`The value '${id}' is not valid for Guid.`] });
  return id;
}

/** Answers a created session: 200 with the body, the webhook token header when a callback URL was given. */
export function sendCreatedSession(req: FastifyRequest, reply: FastifyReply, s: SessionRecord): Record<string, unknown> {
  if (s.webhookToken) reply.headers({ 'Service-Webhook-Token': s.webhookToken, 'Nexosis-Webhook-Token': s.webhookToken });
  reply.headers(statusHeaders(s));
  req.server.services?.jobs?.poke();
  return sessionBody(req, s);
}

declare module 'fastify' {
  interface FastifyInstance {
    services?: Services;
  }
}

export function registerSessionRoutes(app: FastifyInstance, services: Services): void {
  const { sessions } = services;
  if (!app.hasDecorator('services')) app.decorate('services', services);

  const listQuery = {
    type: 'object',
    properties: {
      dataSourceName: str('Sessions on this data source (alias dataSetName)'), type: str('model, forecast or impact'), eventName: str('Impact event name'),
      modelId: str('Sessions that built this model'), requestedAfterDate: str('Requested on or after'), requestedBeforeDate: str('Requested on or before'),
      sortBy: str('id, name, type, status, dataSourceName or requestedDate'), sortOrder: str('asc or desc'), ...pagingQuery,
    },
  };

  function readFilter(p: Params) {
    const modelId = p.str('modelId');
    // A model id that is not a GUID names no model: say so (400, as for /v1/models/<id>) rather than let it reach SQL.
    if (modelId !== undefined && !isUuid(modelId)) throw new ValidationError({ modelId: [`The value '${modelId}' is not valid for Guid.`] });
    return {
      dataSourceName: p.str('dataSourceName', 'dataSetName'),
      type: p.enumOf('type', TYPES, undefined, 'sessionType'),
      eventName: p.str('eventName'),
      modelId,
      requestedAfter: p.date('requestedAfterDate', 'requestedAfter', 'startDate'),
      requestedBefore: p.date('requestedBeforeDate', 'requestedBefore', 'endDate'),
    };
  }

  app.get('/v1/sessions', { schema: { tags, summary: 'List sessions (oldest first by default)', querystring: listQuery, response: errors } }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const filter = readFilter(p);
    const by = p.enumOf('sortBy', SESSION_SORTS);
    const desc = p.str('sortOrder')?.toLowerCase() === 'desc';
    p.check();
    const r = await sessions.list(req.accountId, filter, page, { by, desc });
    return { items: r.items.map((s) => sessionBody(req, s)), ...pagingFields(req, page, r.totalCount) };
  });

  app.delete('/v1/sessions', { schema: { tags, summary: 'Delete the sessions matching a filter (at least one filter required)', querystring: listQuery, response: errors } }, async (req, reply) => {
    const p = Params.query(req);
    const filter = readFilter(p);
    p.check();
    await sessions.deleteMatching(req.accountId, filter);
    return reply.code(204).send();
  });

  app.get('/v1/sessions/:id', { exposeHeadRoute: false, schema: { tags, summary: 'A session and its status', response: errors } }, async (req, reply) => {
    const s = await sessions.get(req.accountId, sessionIdParam(req));
    reply.headers(statusHeaders(s));
    return sessionBody(req, s);
  });

  // HEAD: status only, in a header; errors without a body (as the original service did).
  app.head('/v1/sessions/:id', { schema: { tags, summary: 'Session status in the Service-Session-Status header' } }, async (req, reply) => {
    const s = await sessions.get(req.accountId, sessionIdParam(req));
    return reply.headers(statusHeaders(s)).code(200).send();
  });

  app.delete('/v1/sessions/:id', { schema: { tags, summary: 'Delete a session and its results', response: errors } }, async (req, reply) => {
    await sessions.delete(req.accountId, sessionIdParam(req));
    return reply.code(204).send();
  });

  app.get('/v1/sessions/:id/results', {
    config: { csv: true },
    schema: { tags, summary: 'Session with metrics and result rows (paged); Accept: text/csv gives the rows as CSV',
      description: 'Model sessions add trainingRows, testRows, modelTrainingRows and metricIntervals (a 95 % interval per test metric: a bootstrap of the test rows, for the ROC AUC the score interval of Newcombe as otherMethods says; none for a metric resting on a few rows, with a warning in messages); classification adds expectedCalibrationErrorReference (the ECE perfectly calibrated scores would show on these rows). Impact sessions add the effect intervals (absoluteEffectLower/Upper, relativeEffectLower/Upper, effectIntervalLevel) and, when controls were used, withoutControls (the same analysis without them: pValue, effects, their intervals, and whether it disagrees) and controlShifts (how much each control moved the counterfactual over the window).', querystring: { type: 'object', properties: { predictionInterval: str('Forecasts: the interval level of the rows (default 0.5)'), ...pagingQuery } }, response: errors },
  }, async (req, reply) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const interval = p.str('predictionInterval');
    p.check();
    const { session, results } = await sessions.results(req.accountId, sessionIdParam(req));
    reply.headers(statusHeaders(session));
    let part = 'data';
    if (interval !== undefined && results) {
      const key = intervalLevels(results).find((k) => Number(k) === Number(interval));
      if (key === undefined) {
        return sendError(reply, { statusCode: 400, message: 'Request is invalid', errorType: 'RequestValidation', errorDetails: { predictionInterval: [`'${interval}' is not one of the session's availablePredictionIntervals`] } });
      }
      part = intervalPart(key);
    }
    const total = results?.parts[part] ?? 0;
    const slice = results ? await results.rows(part, page.page * page.size, (page.page + 1) * page.size) : [];
    if (wantsCsv(req)) return sendRowsCsv(reply, slice);
    // Forecasts: the held-out periods the metrics were measured on (<target>:actual, <target>:predicted), for charts.
    const holdout = Array.isArray(results?.extra.holdout) ? { holdout: results.extra.holdout } : {};
    // Result-level figures beside the metrics (impact: the effects' intervals and their level).
    const fields = (results?.extra.resultFields ?? {}) as Record<string, unknown>;
    const links = results ? resultLinks(baseUrl(req), session, results) : [];
    return { ...sessionBody(req, session), metrics: results?.metrics ?? {}, ...holdout, ...fields, data: slice, ...pagingFields(req, page, total, links) };
  });
}

/** A 404 for a results sub-resource that does not apply to this kind of session. */
export function notApplicable(what: string, id: string): NotFoundError {
  return new NotFoundError(what, id);
}
