/** `GET /v1/messages`: the account's session, import and data set messages, newest first, paged like every list. */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/services.js';
import { MESSAGE_LEVELS } from '../../service/messages.js';
import { Params } from '../params.js';
import { pagingFields, readPaging } from '../paging.js';
import { errors, multi, pagingQuery, str } from './schema-parts.js';

export function registerMessageRoutes(app: FastifyInstance, services: Services): void {
  app.get('/v1/messages', {
    schema: {
      tags: ['messages'],
      summary: 'Messages of the account\'s sessions, imports and data sets, newest first: each status a session or import entered (severity status), the messages stored on them and those of each data set\'s latest upload',
      description: 'Items: messageId (stable), content, severity, userId and organizationId (the account), createdAt, relatedId (a session or import id, or a data set\'s name), relatedTo (session, import or dataSet). A stored message carries the time of its session\'s, import\'s or data set\'s last change.',
      querystring: {
        type: 'object',
        properties: {
          relatedId: str('Messages of this session or import (its id) or data set (its name)'),
          levels: multi(`Severities, comma-separated or repeated: ${MESSAGE_LEVELS.join(', ')} (empty: all)`),
          ...pagingQuery,
        },
      },
      response: errors,
    },
  }, async (req) => {
    const p = Params.query(req);
    const page = readPaging(p);
    const relatedId = p.str('relatedId');
    const levels = p.multi('levels', 'level').map((l) => l.toLowerCase());
    const unknown = levels.filter((l) => !(MESSAGE_LEVELS as readonly string[]).includes(l));
    if (unknown.length) p.fail('levels', `${unknown.map((l) => `'${l}'`).join(', ')} ${unknown.length === 1 ? 'is not a level' : 'are not levels'}: use ${MESSAGE_LEVELS.join(', ')}`);
    p.check();
    const r = await services.messages.list(req.accountId, { relatedId, severities: levels.length ? levels : undefined }, page);
    return { items: r.items, ...pagingFields(req, page, r.totalCount) };
  });
}
