/**
 * The contest of a completed session (compat-notes §3.7): every candidate the session tried with its
 * metrics, the champion with its test rows, each contestant, and the selection figures (how many
 * rows trained and tested it). Model sessions keep the whole contest; a forecast session keeps the
 * one method its backtest chose, so its contest has that single contestant.
 */
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../../service/services.js';
import type { SessionRecord } from '../../store/sessions-store.js';
import type { ContestantView, ContestView } from '../../service/models/contest-view.js';
import { contestOf } from '../session-contest.js';
import { Params } from '../params.js';
import { baseUrl, pagingFields, readPaging } from '../paging.js';
import { errors, pagingQuery } from './schema-parts.js';
import { notApplicable, sessionBody, sessionIdParam, statusHeaders } from './sessions.js';

const tags = ['sessions'];
const pagedQuery = { querystring: { type: 'object', properties: { ...pagingQuery } } };

export function registerContestRoutes(app: FastifyInstance, services: Services): void {
  async function contestFor(req: FastifyRequest) {
    const id = sessionIdParam(req);
    const { session, results } = await services.sessions.results(req.accountId, id);
    const contest = results ? contestOf(session, results) : undefined;
    if (!results || !contest) throw notApplicable('contest', id);
    return { session, results, contest };
  }
  const withLinks = (req: FastifyRequest, s: SessionRecord) => (c: ContestantView) => ({
    ...c, links: [{ rel: 'self', href: `${baseUrl(req)}/sessions/${s.id}/contest/contestants/${encodeURIComponent(c.id)}` }],
  });

  app.get('/v1/sessions/:id/contest', { schema: { tags, summary: 'The candidates a session tried, with their metrics, and the champion', response: errors } }, async (req, reply) => {
    const { session, contest } = await contestFor(req);
    reply.headers(statusHeaders(session));
    const link = withLinks(req, session);
    return { ...sessionBody(req, session), championMetric: contest.championMetric, champion: link(contest.champion), contestants: contest.contestants.map(link) };
  });

  app.get('/v1/sessions/:id/contest/contestants', { schema: { tags, summary: 'The contestants of a session (no session fields)', response: errors } }, async (req, reply) => {
    const { session, contest } = await contestFor(req);
    reply.headers(statusHeaders(session));
    return { items: contest.contestants.map(withLinks(req, session)) };
  });

  /** A contestant with rows: the champion's are the session's test (model) or forecast rows; other contestants kept none. */
  async function contestantWithRows(req: FastifyRequest, pick: (c: ContestView) => ContestantView | undefined) {
    const p = Params.query(req);
    const page = readPaging(p);
    p.str('predictionInterval');
    p.check();
    const { session, results, contest } = await contestFor(req);
    const contestant = pick(contest);
    if (!contestant) throw notApplicable('contestant', (req.params as { cid?: string }).cid ?? '');
    const champion = contestant.id === contest.champion.id;
    const slice = champion ? await results.rows('data', page.page * page.size, (page.page + 1) * page.size) : [];
    return { session, body: { ...withLinks(req, session)(contestant), data: slice, ...pagingFields(req, page, champion ? results.parts.data ?? 0 : 0) } };
  }

  app.get('/v1/sessions/:id/contest/champion', { schema: { tags, summary: 'The champion with its test rows', ...pagedQuery, response: errors } }, async (req, reply) => {
    const { session, body } = await contestantWithRows(req, (c) => c.champion);
    reply.headers(statusHeaders(session));
    return body;
  });

  app.get('/v1/sessions/:id/contest/contestants/:cid', { schema: { tags, summary: 'One contestant (rows only for the champion)', ...pagedQuery, response: errors } }, async (req, reply) => {
    const { cid } = req.params as { cid: string };
    const { session, body } = await contestantWithRows(req, (c) => c.contestants.find((x) => x.id === cid) ?? (c.champion.id === cid ? c.champion : undefined));
    reply.headers(statusHeaders(session));
    return body;
  });

  app.get('/v1/sessions/:id/contest/selection', { schema: { tags, summary: 'How the data was split to select the champion', response: errors } }, async (req, reply) => {
    const { session, results, contest } = await contestFor(req);
    const dataset = await services.datasets.getSource(req.accountId, session.datasetName).catch(() => undefined);
    const featureCount = Object.values(session.columns as Record<string, { role?: string }>).filter((c) => c.role === 'feature').length;
    const testCount = session.type === 'forecast' ? Number(results.extra.holdoutPeriods ?? 0) : (results.parts.data ?? 0);
    const observationCount = dataset?.rowCount ?? 0;
    reply.headers(statusHeaders(session));
    return {
      ...sessionBody(req, session),
      metricSets: [{
        dataSetProperties: contest.champion.dataSourceProperties,
        metrics: { observationCount, trainingCount: Math.max(0, observationCount - testCount), testCount, featureCount },
      }],
    };
  });
}
