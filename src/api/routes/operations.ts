import type { FastifyInstance } from 'fastify';
import type { Services } from '../../service/services.js';
import { readiness } from '../../service/readiness.js';
import { sendError } from '../error-handler.js';

/**
 * Probes and metrics for operators, open without a key (keep them on the private network, or
 * behind the proxy, in front of Sibyl): /health says the process is alive, /ready that it can
 * serve (database reachable, migrations applied), /metrics is Prometheus text.
 */
export function registerOperationRoutes(app: FastifyInstance, services: Services): void {
  const config = { public: true };
  const schema = { hide: true };
  app.get('/health', { config, schema }, async (_req, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' };
  });
  app.get('/ready', { config, schema }, async (_req, reply) => {
    const r = await readiness(services.db);
    reply.header('cache-control', 'no-store');
    if (r.ready) return { status: 'ready', ...r };
    return sendError(reply, {
      statusCode: 503, errorType: 'NotReady',
      message: r.database === 'unreachable' ? 'The database does not answer' : `The database lacks migrations (has up to ${r.migrations.applied ?? 'none'}, needs ${r.migrations.expected})`,
      errorDetails: { ...r },
    });
  });
  app.get('/metrics', { config, schema }, async (_req, reply) => {
    try {
      const text = await services.metrics.text();
      return reply.header('cache-control', 'no-store').type(services.metrics.contentType).send(text);
    } catch {
      // The database-derived gauges could not be read: say so rather than answer half a scrape.
      return sendError(reply, { statusCode: 503, errorType: 'NotReady', message: 'Metrics need the database, which does not answer', errorDetails: {} });
    }
  });
}
