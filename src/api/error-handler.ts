import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ServiceError } from '../service/errors.js';
import { isNulError } from './request-guards.js';
import { sendDashboardIndex, wantsDashboardPage } from './web-ui.js';

export interface ErrorBody {
  statusCode: number;
  message: string;
  errorType: string;
  errorDetails: Record<string, unknown>;
}

const STATUS: Record<ServiceError['kind'], number> = {
  validation: 400,
  unauthorized: 401,
  notFound: 404,
  conflict: 409,
  tooLarge: 413,
  unsupportedMediaType: 415,
  quota: 429,
  forbidden: 403,
};

export function sendError(reply: FastifyReply, body: ErrorBody, headers: Record<string, string> = {}): FastifyReply {
  reply.code(body.statusCode).headers({ 'cache-control': 'no-cache', pragma: 'no-cache', expires: '-1', ...headers });
  // HEAD answers carry no body (the original service sent content-length 0).
  if (reply.request.method === 'HEAD') return reply.send();
  return reply.type('application/json').send(body);
}

/** Maps every failure to the spec's error shape; unexpected ones become 500 ServerError without internals. */
export function installErrorHandling(app: FastifyInstance, routeTable: RouteTable): void {
  app.setErrorHandler((err: FastifyError | Error, req: FastifyRequest, reply: FastifyReply) => {
    if (err instanceof ServiceError) {
      const retry = err.details.retryAfterSeconds;
      return sendError(reply, { statusCode: STATUS[err.kind], message: err.message, errorType: err.errorType, errorDetails: err.details },
        typeof retry === 'number' ? { 'retry-after': String(retry) } : {});
    }
    if (isNulError(err)) {
      return sendError(reply, { statusCode: 400, message: err.message, errorType: 'RequestValidation', errorDetails: { [err.where]: [err.message] } });
    }
    const fe = err as FastifyError;
    const code = fe.statusCode ?? 500;
    if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
      const limit = req.routeOptions.bodyLimit ?? app.initialConfig.bodyLimit ?? 0;
      return sendError(reply, {
        statusCode: 413, errorType: 'RequestTooLarge',
        message: `The request body is larger than the limit of ${limit} bytes`, errorDetails: { limitBytes: limit },
      });
    }
    if (fe.code === 'FST_ERR_CTP_INVALID_MEDIA_TYPE') {
      return sendError(reply, {
        statusCode: 415, errorType: 'UnsupportedMediaType',
        message: `Content-Type '${req.headers['content-type'] ?? ''}' is not supported; send application/json (or text/csv where CSV is accepted)`,
        errorDetails: { contentType: req.headers['content-type'] ?? null },
      });
    }
    if (fe.validation) {
      const details: Record<string, string[]> = {};
      for (const v of fe.validation) {
        const name = (v.instancePath || '').replace(/^\//, '').replace(/\//g, '.') || String((v.params as { missingProperty?: string }).missingProperty ?? fe.validationContext ?? 'request');
        // A parameter repeated in the query string arrives as a list: ajv's "must be string" hides that.
        const given = fe.validationContext === 'querystring' ? (req.query as Record<string, unknown> | undefined)?.[name] : undefined;
        const repeated = v.keyword === 'type' && Array.isArray(given);
        (details[name] ??= []).push(repeated ? `${name} was given ${given.length} times (${given.map((x) => `${name}=${String(x)}`).join(', ')}): give it once` : v.message ?? 'is invalid');
      }
      return sendError(reply, { statusCode: 400, message: 'Request is invalid', errorType: 'RequestValidation', errorDetails: details });
    }
    if (code >= 400 && code < 500) {
      const errorType = code === 400 ? 'RequestValidation' : 'RequestError';
      const details = code === 400 ? { body: [fe.message] } : {};
      return sendError(reply, { statusCode: code, message: code === 400 ? 'Request is invalid' : fe.message, errorType, errorDetails: details });
    }
    req.log.error({ err }, 'unhandled error');
    return sendError(reply, { statusCode: 500, message: 'An unexpected error occurred', errorType: 'ServerError', errorDetails: {} });
  });

  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0]!;
    const allowed = routeTable.methodsFor(path);
    // A route that takes this method but found nothing (a missing file, say) is a 404, not a 405.
    if (allowed.length > 0 && !allowed.includes(req.method)) {
      return sendError(reply, {
        statusCode: 405, errorType: 'MethodNotAllowed',
        message: `The method ${req.method} is not allowed on ${path}; allowed: ${allowed.join(', ')}`,
        errorDetails: { method: req.method, allowed },
      }, { allow: allowed.join(', ') });
    }
    if (wantsDashboardPage(req)) return sendDashboardIndex(reply, 404);
    return sendError(reply, { statusCode: 404, message: `No resource at ${path}`, errorType: 'NotFound', errorDetails: { path } });
  });
}

/** Known route patterns, so an existing path with the wrong method gets 405 instead of 404. */
export class RouteTable {
  private readonly routes: { re: RegExp; methods: Set<string> }[] = [];

  add(url: string, methods: string[]): void {
    const pattern = '^' + url.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/:[A-Za-z]+/g, '[^/]+').replace(/\*/g, '.*') + '/?$';
    this.routes.push({ re: new RegExp(pattern, 'i'), methods: new Set(methods) });
  }

  methodsFor(path: string): string[] {
    const out = new Set<string>();
    for (const r of this.routes) if (r.re.test(path)) for (const m of r.methods) out.add(m);
    return [...out].sort();
  }
}
