/** `GET /v1/metrics`: the name and meaning of every metric a session's results can carry. */
import type { FastifyInstance } from 'fastify';
import { METRIC_DEFINITIONS } from '../../service/metric-definitions.js';
import { errors } from './schema-parts.js';

export function registerMetricDefinitionRoutes(app: FastifyInstance): void {
  app.get('/v1/metrics', {
    schema: {
      tags: ['metrics'],
      summary: 'The metrics session results carry: {metrics: [{key, name, description}]}',
      description: 'Not Prometheus: that is /metrics, outside /v1, for operators.',
      response: errors,
    },
  }, async () => ({ metrics: METRIC_DEFINITIONS }));
}
