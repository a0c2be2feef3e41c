import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import type { ViewDescription } from '../../service/views/views-service.js';
import type { StoredJoin } from '../../store/views-store.js';
import { columnsToJson, type ColumnMap } from '../../domain/columns.js';
import { parseDate } from '../../domain/dates.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging, readRowsQuery } from '../paging.js';
import { errors, multi, nameParam, pagingQuery, str } from './schema-parts.js';
import { sendCsv } from './datasets.js';
import { wantsCsv } from '../content-negotiation.js';

const tags = ['views'];

/** A view's definition as the original service wrote it (`joins` only when there are some, `links` empty). */
export function viewSummary(d: ViewDescription) {
  const out: Record<string, unknown> = {
    viewName: d.view.name,
    isTimeSeries: d.isTimeSeries,
    links: [] as unknown[],
    dataSetName: d.view.datasetName,
    columns: columnsToJson(d.columns as ColumnMap),
  };
  if (d.view.definition.joins.length) out.joins = d.view.definition.joins.map(joinJson);
  return out;
}

function joinJson(j: StoredJoin): Record<string, unknown> {
  const out: Record<string, unknown> = j.dataSet ? { dataSet: j.dataSet } : { calendar: j.calendar };
  out.columnOptions = j.columnOptions;
  if (j.joins.length) out.joins = j.joins.map(joinJson);
  return out;
}

export function registerViewRoutes(app: FastifyInstance, services: Services): void {
  const { views } = services;
  const location = (req: FastifyRequest, name: string) => `${baseUrl(req)}/views/${encodeURIComponent(name)}`;

  app.put('/v1/views/:name', {
    schema: {
      tags, summary: 'Create or replace a view',
      description: 'Body: `{dataSetName, columns?, joins: [{dataSet: {name}} | {calendar: {name: "Nexosis.Holidays-US"} | {url, timeZone?}}, columnOptions?: {col: {joinInterval, alias}}, joins?]}`. 201 + Location (created or replaced).',
      params: nameParam('View name'), response: errors,
    },
  }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const { view } = await views.put(req.accountId, name, req.body);
    // Like PUT /v1/data: 201 + Location whether the view was new or replaced, as the original answered.
    reply.code(201).header('location', location(req, name));
    return viewSummary(view);
  });

  app.get('/v1/views', {
    schema: {
      tags, summary: 'List views',
      querystring: { type: 'object', properties: { partialName: str('Substring of the view name'), dataSetName: str('Only views that read this data set (also dataSourceName)'), ...pagingQuery } },
      response: errors,
    },
  }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const partialName = p.str('partialName') || undefined;
    const dataSetName = p.str('dataSetName', 'dataSourceName') || undefined;
    p.check();
    const result = await views.list(req.accountId, { partialName, dataSetName, page });
    const items = [];
    for (const v of result.items) items.push(viewSummary(await views.describe(v)));
    return { items, ...pagingFields(req, page, result.totalCount) };
  });

  app.get('/v1/views/:name', {
    config: { csv: true },
    schema: {
      tags, summary: 'A view with its joined rows (values as strings); Accept: text/csv gives CSV',
      params: nameParam('View name'),
      querystring: { type: 'object', properties: { startDate: str('First timestamp'), endDate: str('Last timestamp'), include: multi('Columns to include'), ...pagingQuery } },
      response: errors,
    },
  }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const p = Params.query(req);
    const { page, from, to, include } = readRowsQuery(p);
    p.check();
    const view = await views.get(req.accountId, name);
    const source = (await views.source(req.accountId, name))!;
    const ts = source.identityKind === 'timestamp' ? source.identityColumn : null;
    const columns = Object.keys(source.columns).filter((c) => include.length === 0 || include.includes(c) || c === ts);
    const rows: Record<string, string>[] = [];
    let total = 0;
    const first = page.page * page.size;
    for await (const batch of services.datasets.iterateRows(source)) {
      for (const r of batch) {
        if ((from !== undefined || to !== undefined) && ts) {
          const ms = parseDate(r[ts] ?? '');
          if (ms === null || (from !== undefined && ms < from) || (to !== undefined && ms > to)) continue;
        }
        if (total >= first && rows.length < page.size) rows.push(Object.fromEntries(columns.map((c) => [c, r[c] ?? ''])));
        total++;
      }
    }
    if (wantsCsv(req)) return sendCsv(reply, columns, rows);
    const summary = viewSummary({ view, columns: source.columns, isTimeSeries: ts !== null });
    const sessionsLink = { rel: 'sessions', href: `${baseUrl(req)}/sessions?dataSourceName=${encodeURIComponent(name)}` };
    return { ...summary, data: rows, ...pagingFields(req, page, total, [sessionsLink]) };
  });

  app.delete('/v1/views/:name', {
    schema: {
      tags, summary: 'Delete a view (cascade=session also deletes the sessions that read it)',
      params: nameParam('View name'),
      querystring: { type: 'object', properties: { cascade: multi('Also delete: session') } },
      response: errors,
    },
  }, async (req, reply) => {
    const { name } = req.params as { name: string };
    const p = Params.query(req);
    const cascade = p.multi('cascade').map((c) => c.toLowerCase());
    p.check();
    await views.delete(req.accountId, name);
    if (cascade.some((c) => c.startsWith('session'))) await services.sessions.deleteMatching(req.accountId, { dataSourceName: name });
    return reply.code(204).send();
  });
}
