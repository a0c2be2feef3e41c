import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/services.js';
import { parseResultInterval } from '../../domain/intervals.js';
import { createForecastSession } from '../../service/timeseries/forecast-sessions.js';
import { createImpactSession } from '../../service/timeseries/impact-sessions.js';
import type { SeriesSessionRequest } from '../../service/timeseries/series-session.js';
import { Params } from '../params.js';
import { pagingFields, readPaging } from '../paging.js';
import { errors, pagingQuery, str } from './schema-parts.js';
import { sendCreatedSession, sessionBody, sessionIdParam, statusHeaders } from './sessions.js';
import { NotFoundError } from '../../service/errors.js';
import { sendRowsCsv } from './datasets.js';
import { wantsCsv } from '../content-negotiation.js';
import { offersOutliers } from '../result-links.js';

const tags = ['sessions'];

const seriesParams = {
  dataSourceName: str('Data set to analyse (alias dataSetName)'), dataSetName: str('Alias of dataSourceName'),
  targetColumn: str('Column to forecast (or give it role target in columns)'),
  resultInterval: str('Hour, Day, Week, Month, Quarter or Year; any case, or .NET 0..4 (no quarter). Default: Day, or the rows\' own spacing when they are a coarser grid'),
  callbackUrl: str('Webhook for status changes'), name: str('Session name'),
};

/** Parameters both kinds share, from the query string and/or the JSON body (body wins). */
function readSeriesRequest(p: Params): SeriesSessionRequest {
  return {
    dataSourceName: p.required('dataSourceName', 'dataSetName'),
    targetColumn: p.str('targetColumn'),
    start: p.writtenDate('startDate'),
    end: p.writtenDate('endDate'),
    interval: p.parsed('resultInterval', parseResultInterval),
    callbackUrl: p.str('callbackUrl'),
    name: p.label('name'),
    columns: p.raw('columns'),
    missingValues: p.missingValues(),
  };
}

export function registerTimeseriesSessionRoutes(app: FastifyInstance, services: Services): void {
  app.post('/v1/sessions/forecast', {
    schema: {
      tags, summary: 'Forecast a numeric column of a time-series data set from startDate to endDate',
      description: 'Results: one row per period (timestamp column and forecast); ?predictionInterval= gives the quantile series of that level; /results/outliers lists the target\'s outliers and the values a smoothed series would give them (the forecast is fitted on the values as recorded, but for a value far outside the rest of the series — a typo — which is fitted as its smoothed value, with a warning in messages).',
      querystring: { type: 'object', properties: { ...seriesParams, startDate: str('First period to forecast (on or before the last date in the data set)'), endDate: str('Last period to forecast') } },
      response: errors,
    },
  }, async (req, reply) => {
    const p = Params.of(req);
    const request = readSeriesRequest(p);
    p.check();
    return sendCreatedSession(req, reply, await createForecastSession(services, req.accountId, request));
  });

  app.post('/v1/sessions/impact', {
    schema: {
      tags, summary: 'Estimate the effect of an event on a time series over the window startDate..endDate',
      description: 'Results: metrics pValue, absoluteEffect, relativeEffect; one row per period of the window with <target> (observed), <target>:predicted (counterfactual without the event), <target>:lower and <target>:upper (its 95 % interval). Features set to role none are ignored; other features are controls.',
      querystring: { type: 'object', properties: { ...seriesParams, startDate: str('Start of the event window'), endDate: str('End of the event window'), eventName: str('Name of the event (required)') } },
      response: errors,
    },
  }, async (req, reply) => {
    const p = Params.of(req);
    const request = { ...readSeriesRequest(p), eventName: p.requiredLabel('eventName') };
    p.check();
    return sendCreatedSession(req, reply, await createImpactSession(services, req.accountId, request));
  });

  app.get('/v1/sessions/:id/results/outliers', {
    config: { csv: true },
    schema: { tags, summary: 'Forecast sessions: the target\'s outliers (<target>:actual) and the values a smoothed series would give them (<target>:smooth)', querystring: { type: 'object', properties: { ...pagingQuery } }, response: errors },
  }, async (req, reply) => {
    const p = Params.query(req);
    const page = readPaging(p);
    p.check();
    const id = sessionIdParam(req);
    const { session, results } = await services.sessions.results(req.accountId, id);
    if (!offersOutliers(session)) {
      throw new NotFoundError('outliers', id, `Session ${id} is ${session.type === 'impact' ? 'an' : 'a'} ${session.type} session: outliers exist only for forecast sessions`);
    }
    reply.headers(statusHeaders(session));
    const slice = results ? await results.rows('outliers', page.page * page.size, (page.page + 1) * page.size) : [];
    if (wantsCsv(req)) return sendRowsCsv(reply, slice);
    return { ...sessionBody(req, session), data: slice, ...pagingFields(req, page, results?.parts.outliers ?? 0) };
  });
}
