/**
 * The dashboard's cookie: an opaque random token (only its hash is stored), HttpOnly, SameSite=Lax,
 * Secure whenever the site is served over https (then with the `__Host-` prefix, which browsers
 * only accept from a secure origin, for the whole site, without a Domain). State-changing requests
 * made with the cookie must echo the session's CSRF token in `X-CSRF-Token` and, when the browser
 * sends an Origin, come from this site.
 */
import { timingSafeEqual } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_TTL_MS } from '../service/auth/auth-service.js';
import { ForbiddenError } from '../service/errors.js';

const PLAIN_NAME = 'sibyl_session';
const SECURE_NAME = '__Host-sibyl_session';
export const CSRF_HEADER = 'x-csrf-token';

/** https when the connection is TLS, or when SIBYL_PUBLIC_URL says the site is reached over https (a proxy in front). */
export function isSecureSite(req: FastifyRequest, publicUrl: string | undefined): boolean {
  return req.protocol === 'https' || (publicUrl ?? '').toLowerCase().startsWith('https:');
}

export function sessionToken(req: FastifyRequest): string | undefined {
  return req.cookies[SECURE_NAME] ?? req.cookies[PLAIN_NAME];
}

export function setSessionCookie(req: FastifyRequest, reply: FastifyReply, token: string, publicUrl: string | undefined): void {
  const secure = isSecureSite(req, publicUrl);
  reply.setCookie(secure ? SECURE_NAME : PLAIN_NAME, token, {
    path: '/', httpOnly: true, sameSite: 'lax', secure, maxAge: Math.floor(SESSION_TTL_MS / 1000),
  });
}

export function clearSessionCookie(req: FastifyRequest, reply: FastifyReply, publicUrl: string | undefined): void {
  const secure = isSecureSite(req, publicUrl);
  reply.clearCookie(secure ? SECURE_NAME : PLAIN_NAME, { path: '/', httpOnly: true, sameSite: 'lax', secure });
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function isSafeMethod(method: string): boolean {
  return SAFE_METHODS.has(method.toUpperCase());
}

/**
 * A browser's cross-site request carries an Origin naming the other site: refused for every
 * state-changing request that a cookie could authenticate or that starts a session (sign-in,
 * sign-up, reset), so neither a forged action nor a login CSRF gets through.
 */
export function assertSameOrigin(req: FastifyRequest): void {
  const origin = req.headers.origin;
  if (origin === undefined || isSafeMethod(req.method)) return;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    host = '';
  }
  if (host === '' || host.toLowerCase() !== (req.headers.host ?? '').toLowerCase()) {
    throw new ForbiddenError('Cross-site requests are refused', 'CrossSiteRequest', { origin });
  }
}

export function assertCsrfToken(req: FastifyRequest, expected: string): void {
  if (isSafeMethod(req.method)) return;
  const header = req.headers[CSRF_HEADER];
  const given = Buffer.from(Array.isArray(header) ? header[0] ?? '' : header ?? '');
  const want = Buffer.from(expected);
  if (given.length !== want.length || !timingSafeEqual(given, want)) {
    throw new ForbiddenError(`A request signed in with the browser cookie must send the session's CSRF token in the ${CSRF_HEADER} header`, 'CsrfTokenMissing');
  }
}
