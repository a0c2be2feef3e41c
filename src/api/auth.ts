import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Services } from '../service/services.js';
import type { BrowserSession } from '../service/auth/auth-service.js';
import { UnauthorizedError } from '../service/errors.js';
import { assertCsrfToken, assertSameOrigin, sessionToken } from './web-session.js';
import { accessOf, isDashboardRoute } from './route-access.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** Set when the request was authenticated by the dashboard's cookie rather than an api-key. */
    webSession?: BrowserSession;
  }
  interface FastifyContextConfig {
    /** Open to everyone (the OpenAPI document, sign-in and sign-up). */
    public?: boolean;
    /** Dashboard routes outside /v1 that need a signed-in browser. */
    auth?: 'session';
  }
}

/**
 * Every /v1 request needs a valid `api-key` header (the late original clients also sent
 * `Authorization: Bearer <key>`) or, from the dashboard, its session cookie plus the CSRF token on
 * state-changing requests. Routes marked `config.public` are open; `config.auth: 'session'` routes
 * (the account area under /auth) take the cookie only. Account quota headers go on every
 * authenticated answer, errors and 204s included.
 */
export function installAuth(app: FastifyInstance, services: Services): void {
  // Read before authentication (or on an open route) the account id throws instead of being '':
  // a handler that runs unauthenticated by some future mistake fails closed with 401, not on a query.
  const accounts = new WeakMap<FastifyRequest, string>();
  app.decorateRequest('accountId', {
    getter(this: FastifyRequest) {
      const id = accounts.get(this);
      if (!id) throw new UnauthorizedError();
      return id;
    },
    setter(this: FastifyRequest, id: string) { accounts.set(this, id); },
  });
  app.decorateRequest('webSession', undefined);
  // onRequest runs after routing: accessOf reads the matched route, so every spelling of a path is judged alike.
  app.addHook('onRequest', async (req) => {
    const access = accessOf(req);
    // Sign-in, sign-up and reset start sessions: a cross-site form must not do that either.
    if (isDashboardRoute(req)) assertSameOrigin(req);
    if (access === 'open') return;
    if (access === 'api') {
      const header = req.headers['api-key'];
      let key = Array.isArray(header) ? header[0] : header;
      const authorization = req.headers.authorization;
      if (!key && authorization?.toLowerCase().startsWith('bearer ')) key = authorization.slice(7).trim();
      if (key) {
        const principal = await services.accounts.authenticate(key);
        if (!principal) throw new UnauthorizedError();
        req.accountId = principal.accountId;
        return;
      }
    }
    const session = await services.auth.session(sessionToken(req));
    if (!session) throw access === 'api' ? new UnauthorizedError() : new UnauthorizedError('Sign in first', 'NotSignedIn');
    assertSameOrigin(req);
    assertCsrfToken(req, session.csrfToken);
    req.accountId = session.accountId;
    req.webSession = session;
  });
  app.addHook('onSend', async (req, reply, payload) => {
    const accountId = accounts.get(req);
    if (accountId) reply.headers(await services.usage.headers(accountId));
    return payload;
  });
}
