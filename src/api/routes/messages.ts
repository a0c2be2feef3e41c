/** `GET /v1/messages`: the account's session and import messages, newest first, paged like every list. */
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
      summary: 'Messages of the account\'s sessions and imports, newest first: each status they entered (severity status) and the messages stored on them',
      description: 'Items: messageId (stable), content, severity, userId and organizationId (the account), createdAt, relatedId (a session or import id), relatedTo (session or import). A stored message carries the time of its session\'s or import\'s last status change.',
      querystring: {
        type: 'object',
        properties: {
          relatedId: str('Messages of this session or import'),
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
