import { posix } from 'node:path';
import type { FastifyRequest } from 'fastify';

/** What a request must show: an api-key or dashboard cookie (`api`), the cookie only (`session`), or nothing (`open`). */
export type Access = 'api' | 'session' | 'open';

/**
 * Decided on the route the router matched, never on the raw URL: the router collapses `//`,
 * decodes `%76`, ignores case and a trailing slash, so any test on the raw text can disagree with
 * it about which handler runs (`//v1/data` once ran the /v1/data handler without a key).
 */
export function accessOf(req: FastifyRequest): Access {
  const config = req.routeOptions.config;
  if (config?.public) return 'open';
  if (config?.auth === 'session') return 'session';
  return isUnder(routePath(req), '/v1') ? 'api' : 'open';
}

/** Whether the request reaches one of the dashboard's account routes (under /auth). */
export function isDashboardRoute(req: FastifyRequest): boolean {
  return isUnder(routePath(req), '/auth');
}

/**
 * The matched route's pattern; for a path no route matched (404, 405) the path normalised as the
 * router reads it, so an unknown or misspelt API path still asks for a key before it says 404.
 */
function routePath(req: FastifyRequest): string {
  return req.routeOptions.url ?? normalisedPath(req.url);
}

function normalisedPath(url: string): string {
  const path = url.split('?')[0]!;
  let decoded = path;
  try { decoded = decodeURIComponent(path); } catch { /* the router refuses it before any handler */ }
  // posix.normalize collapses slashes and resolves `.` and `..`, as a client resolving the link would.
  return posix.normalize(decoded).toLowerCase();
}

function isUnder(path: string, prefix: string): boolean {
  return path.toLowerCase() === prefix || path.toLowerCase().startsWith(prefix + '/');
}
