import Fastify, { LogController, type FastifyInstance } from 'fastify';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import type { Services } from '../service/services.js';
import { installErrorHandling, RouteTable } from './error-handler.js';
import { installAuth } from './auth.js';
import { installContentNegotiation } from './content-negotiation.js';
import { registerDatasetRoutes } from './routes/datasets.js';
import { registerViewRoutes } from './routes/views.js';
import { registerImportRoutes } from './routes/imports.js';
import { registerVocabularyRoutes } from './routes/vocabularies.js';
import { registerMetricDefinitionRoutes } from './routes/metric-definitions.js';
import { registerMessageRoutes } from './routes/messages.js';
import { registerExtraRoutes, type RouteRegistrar } from './route-registrar.js';
import cookie from '@fastify/cookie';
import { registerAccountRoutes } from './routes/account.js';
import { registerWebUi } from './web-ui.js';
import { registerOperationRoutes } from './routes/operations.js';
import { randomUUID } from 'node:crypto';
import { clientErrorHandler, frameworkErrors, installContentEncodingGuard, installNulGuard } from './request-guards.js';
import { installJsonBodyParser } from './json-body.js';
import { installConnectionLimit } from './connection-limit.js';
import { installEarlyAnswerClose, installIdleLimit, timeoutOptions, type RequestTimeouts } from './slow-requests.js';

export interface AppOptions {
  services: Services;
  maxJsonBytes: number;
  maxCsvBytes: number;
  /** How long a request may take to arrive, in all and between two of its bytes (api/slow-requests.ts). */
  timeouts: RequestTimeouts;
  /** Connections one client address may hold open at once, 0 for no limit (api/connection-limit.ts). */
  maxConnectionsPerAddress?: number;
  publicUrl?: string;
  logLevel?: string;
  /** Route modules of later features (sessions, models) plug in here. */
  extraRoutes?: RouteRegistrar[];
}

declare module 'fastify' {
  interface FastifyRequest {
    accountId: string;
  }
  interface FastifyInstance {
    /** SIBYL_PUBLIC_URL: the base of links, when the request's own host is not what clients should see. */
    publicUrl: string | undefined;
    /** Every route as registered (pattern and methods): the fuzz and security suites are generated from it. */
    routeList: { url: string; methods: string[] }[];
  }
}

export async function buildApp(opts: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    // JSON lines (pino) carrying the request id; secrets are censored wherever they would appear.
    logger: {
      level: opts.logLevel ?? 'info',
      redact: { paths: REDACTED, censor: '[redacted]' },
      serializers: { req: (req: { method: string; url: string; host?: string; ip?: string }) => ({ method: req.method, url: censorUrl(req.url), host: req.host, remoteAddress: req.ip }) },
    },
    // Probes and scrapes come every few seconds: they would drown the log.
    logController: new LogController({ requestIdLogLabel: 'requestId', disableRequestLogging: (req) => /^\/(health|ready|metrics)\/?$/.test(req.url) }),
    genReqId: requestId,
    bodyLimit: opts.maxJsonBytes,
    ...timeoutOptions(opts.timeouts),
    routerOptions: { caseSensitive: false, ignoreTrailingSlash: true, ignoreDuplicateSlashes: true, maxParamLength: 500 },
    ajv: { customOptions: { coerceTypes: true, allErrors: true, removeAdditional: false } },
    trustProxy: false,
    clientErrorHandler,
    frameworkErrors,
  });
  app.decorate('publicUrl', opts.publicUrl);
  installIdleLimit(app.server, opts.timeouts.idleTimeoutMs);
  // Last of the connection listeners: it wraps them all.
  installConnectionLimit(app.server, opts.maxConnectionsPerAddress ?? 0);
  installEarlyAnswerClose(app);
  const routes = new RouteTable();
  const routeList: { url: string; methods: string[] }[] = [];
  app.decorate('routeList', routeList);
  app.addHook('onRoute', (r) => {
    const methods = Array.isArray(r.method) ? r.method : [r.method];
    routes.add(r.url, methods.filter((m) => m !== 'HEAD' || methods.length === 1));
    routeList.push({ url: r.url, methods: [...methods] });
  });
  installErrorHandling(app, routes);
  installBodyParsers(app);
  installNulGuard(app);
  installContentEncodingGuard(app);
  installRequestMetrics(app, opts.services);

  await app.register(swagger, {
    openapi: {
      openapi: '3.1.0',
      info: { title: 'Sibyl API', version: '1.0.0', description: 'Self-hostable machine-learning prediction service. Every /v1 request needs the `api-key` header.' },
      components: { securitySchemes: { apiKey: { type: 'apiKey', in: 'header', name: 'api-key' } } },
      security: [{ apiKey: [] }],
    },
  });
  await app.register(swaggerUi, { routePrefix: '/docs' });

  await app.register(cookie);
  installAuth(app, opts.services);
  installContentNegotiation(app);
  app.get('/v1/openapi.json', { schema: { hide: true }, config: { public: true } }, async () => app.swagger());

  registerDatasetRoutes(app, opts.services, { maxCsvBytes: opts.maxCsvBytes });
  registerViewRoutes(app, opts.services);
  registerImportRoutes(app, opts.services);
  registerVocabularyRoutes(app, opts.services);
  registerMetricDefinitionRoutes(app);
  registerMessageRoutes(app, opts.services);
  registerExtraRoutes(app, opts.services, opts.extraRoutes ?? []);
  registerAccountRoutes(app, opts.services);
  registerOperationRoutes(app, opts.services);
  await registerWebUi(app);
  return app;
}

/** CSV is left as the raw stream for the route to parse. */
function installBodyParsers(app: FastifyInstance): void {
  installJsonBodyParser(app);
  app.addContentTypeParser(['text/csv', 'application/csv', 'text/plain'], (_req, payload, done) => done(null, payload));
}

/** Log paths that could hold a secret (keys, passwords, cookies), censored by the logger. */
const REDACTED = [
  'req.headers["api-key"]', 'req.headers.authorization', 'req.headers.cookie', 'res.headers["set-cookie"]',
  'apiKey', 'key', 'password', '*.apiKey', '*.key', '*.password', 'secretAccessKey', 'accessKeyId', 'sessionToken', 'connectionString', '*.secretAccessKey', '*.accessKeyId', '*.sessionToken', '*.connectionString', 'headers["api-key"]', 'headers.authorization',
];

/** A caller's X-Request-Id when it is short and plain (so it can be traced across systems), else a fresh one. */
function requestId(req: { headers: Record<string, string | string[] | undefined> }): string {
  const given = req.headers['x-request-id'];
  return typeof given === 'string' && /^[A-Za-z0-9._:-]{1,128}$/.test(given) ? given : randomUUID();
}

/** Every answer: its request id in X-Request-Id, `X-Content-Type-Options: nosniff`, its latency in the per-route histogram. */
function installRequestMetrics(app: FastifyInstance, services: Services): void {
  app.addHook('onSend', async (req, reply, payload) => {
    reply.header('x-request-id', req.id);
    // A browser must not read a CSV answer (or any other) as HTML or script, whatever its cells hold.
    reply.header('x-content-type-options', 'nosniff');
    return payload;
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route template, never the raw path: unknown paths share one label so they cannot blow up the series.
    const route = req.routeOptions.url ?? 'unmatched';
    services.metrics.httpDuration.observe({ method: req.method, route, status_code: String(reply.statusCode) }, reply.elapsedTime / 1000);
  });
}

/** A key someone put in the query string (`?api-key=…`, `?key=…`) is not written to the log. */
function censorUrl(url: string): string {
  return url.replace(/([?&](?:api[-_]?key|apikey|key|token|password)=)[^&#]*/gi, '$1[redacted]');
}
