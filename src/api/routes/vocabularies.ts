/** Vocabularies of text columns over HTTP: list (by data source, by session), words of one, delete. */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import type { VocabularyRecord } from '../../store/vocabularies-store.js';
import { isoOffset } from '../../service/sessions/session-view.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging } from '../paging.js';
import { errors, pagingQuery, str } from './schema-parts.js';

const tags = ['vocabularies'];

function summaryView(req: FastifyRequest, v: VocabularyRecord) {
  return {
    id: v.id,
    dataSourceName: v.dataSourceName,
    columnName: v.columnName,
    dataSourceType: v.dataSourceType,
    createdOnDate: isoOffset(v.createdAt),
    createdBySessionId: v.sessionId,
    links: [{ rel: 'words', href: `${baseUrl(req)}/vocabulary/${v.id}` }],
  };
}

function readFilter(p: Params) {
  return { dataSourceName: p.str('dataSource', 'dataSourceName', 'dataSetName'), sessionId: p.str('createdFromSession', 'createdFromSessionId', 'sessionId') };
}

export function registerVocabularyRoutes(app: FastifyInstance, services: Services): void {
  const { vocabularies } = services;
  const filterQuery = { dataSource: str('Vocabularies of this data source (alias dataSourceName)'), createdFromSession: str('Vocabularies built by this session') };

  app.get('/v1/vocabulary', { schema: { tags, summary: 'List vocabularies of text columns', querystring: { type: 'object', properties: { ...filterQuery, ...pagingQuery } }, response: errors } }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const filter = readFilter(p);
    p.check();
    const r = await vocabularies.list(req.accountId, filter, page);
    return { items: r.items.map((v) => summaryView(req, v)), ...pagingFields(req, page, r.totalCount) };
  });

  app.get('/v1/vocabulary/:id', {
    schema: { tags, summary: 'Words of a vocabulary (rank 0 = most important; stop words have no rank)', querystring: { type: 'object', properties: { type: str('word or stopWord'), ...pagingQuery } }, response: errors },
  }, async (req) => {
    const { id } = req.params as { id: string };
    const p = Params.query(req);
    const page = readPaging(p);
    const type = p.enumOf('type', ['word', 'stopWord'] as const, { 0: 'word', 1: 'stopWord' });
    p.check();
    const r = await vocabularies.words(req.accountId, id, type, page);
    return { ...summaryView(req, r.record), items: r.items, ...pagingFields(req, page, r.totalCount) };
  });

  app.delete('/v1/vocabulary/:id', { schema: { tags, summary: 'Delete a vocabulary', response: errors } }, async (req, reply) => {
    const { id } = req.params as { id: string };
    await vocabularies.delete(req.accountId, id);
    return reply.code(204).send();
  });

  app.delete('/v1/vocabulary', { schema: { tags, summary: 'Delete the vocabularies of a data source and/or session', querystring: { type: 'object', properties: filterQuery }, response: errors } }, async (req, reply) => {
    const p = Params.query(req);
    const filter = readFilter(p);
    p.check();
    await vocabularies.deleteMatching(req.accountId, filter);
    return reply.code(204).send();
  });
}
