import type { FastifyInstance } from 'fastify';
import type { Services } from '../service/services.js';
import { UnauthorizedError } from '../service/errors.js';

/**
 * Every /v1 request needs a valid `api-key` header (the late original clients also sent
 * `Authorization: Bearer <key>`). Routes marked `config.public` (the OpenAPI document) are open.
 * Account quota headers go on every authenticated answer, errors and 204s included.
 */
export function installAuth(app: FastifyInstance, services: Services): void {
  app.decorateRequest('accountId', '');
  app.addHook('onRequest', async (req) => {
    if (!/^\/v1(\/|$|\?)/i.test(req.url)) return;
    if ((req.routeOptions.config as { public?: boolean } | undefined)?.public) return;
    const header = req.headers['api-key'];
    let key = Array.isArray(header) ? header[0] : header;
    const auth = req.headers.authorization;
    if (!key && auth?.toLowerCase().startsWith('bearer ')) key = auth.slice(7).trim();
    const principal = await services.accounts.authenticate(key);
    if (!principal) throw new UnauthorizedError();
    req.accountId = principal.accountId;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    if (req.accountId) reply.headers(await services.usage.headers(req.accountId));
    return payload;
  });
}
