import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { sendError, type ErrorBody } from './error-handler.js';
import { UnsupportedEncodingError } from '../service/errors.js';

/**
 * Requests broken below the routes still get an answer in the spec's error shape:
 * what node's HTTP parser refuses (an oversized head is 431, a malformed one 400), URLs the router
 * cannot decode, and NUL characters, which no stored text can hold (PostgreSQL refuses them), so
 * they are turned away here before any of them reaches a query.
 */
export function clientErrorHandler(err: Error & { code?: string }, socket: Socket): void {
  if (err.code === 'ECONNRESET' || socket.destroyed) return;
  const body: ErrorBody = err.code === 'HPE_HEADER_OVERFLOW'
    ? { statusCode: 431, errorType: 'RequestHeaderTooLarge', message: 'The request line and headers are larger than the server accepts (the URL may be too long)', errorDetails: {} }
    : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? { statusCode: 408, errorType: 'RequestTimeout', message: 'The request was not received in time', errorDetails: {} }
      : { statusCode: 400, errorType: 'RequestValidation', message: 'The request is not valid HTTP', errorDetails: { request: [describeParserError(err.code)] } };
  writeErrorAndClose(socket, body);
}

/** An answer in the error shape written straight on the socket (no request object to answer through), then the socket closed. */
export function writeErrorAndClose(socket: Socket, body: ErrorBody): void {
  const text = JSON.stringify(body);
  if (socket.writable) {
    socket.write(`HTTP/1.1 ${body.statusCode} ${STATUS_CODES[body.statusCode]}\r\nContent-Length: ${Buffer.byteLength(text)}\r\nContent-Type: application/json\r\nCache-Control: no-cache\r\nConnection: close\r\n\r\n${text}`);
  }
  socket.destroy();
}

function describeParserError(code: string | undefined): string {
  switch (code) {
    case 'HPE_INVALID_HEADER_TOKEN': return 'a header name or value holds a character HTTP does not allow (a control character, NUL)';
    case 'HPE_INVALID_URL': return 'the request target holds characters HTTP does not allow';
    case 'HPE_INVALID_METHOD': return 'unknown method';
    case 'HPE_INVALID_CONTENT_LENGTH': case 'HPE_UNEXPECTED_CONTENT_LENGTH': return 'Content-Length is invalid';
    case 'HPE_INVALID_CHUNK_SIZE': return 'a chunk size is invalid';
    default: return `malformed request (${code ?? 'unknown'})`;
  }
}

/** The router's own failures (an undecodable URL, a path segment beyond the length limit). */
export function frameworkErrors(err: FastifyError, _req: FastifyRequest, reply: FastifyReply): void {
  if (err.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void sendError(reply, { statusCode: 414, errorType: 'UriTooLong', message: 'A path segment is longer than the server accepts', errorDetails: {} });
    return;
  }
  void sendError(reply, { statusCode: 400, errorType: 'RequestValidation', message: 'The URL is not valid (a bad percent-encoding?)', errorDetails: { url: [err.message] } });
}

/**
 * A compressed request body (Content-Encoding: gzip, br, deflate) is refused with a 415: read as
 * raw bytes it gave misleading errors ("a NUL character", "not valid JSON"), and decompressing it
 * would need its own bound on the inflated size. preParsing runs after authentication.
 */
export function installContentEncodingGuard(app: FastifyInstance): void {
  app.addHook('preParsing', async (req) => {
    const encoding = (req.headers['content-encoding'] ?? '').trim().toLowerCase();
    const hasBody = req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
    if (hasBody && encoding !== '' && encoding !== 'identity') throw new UnsupportedEncodingError(encoding);
  });
}

/** Rejects NUL characters in the path and the query (raw or %00) before any handler runs; JSON bodies: api/json-body.ts. */
export function installNulGuard(app: FastifyInstance): void {
  app.addHook('onRequest', async (req) => {
    if (req.url.includes('\0') || /%00/i.test(req.url)) throw nulError('url');
  });
}

class NulError extends Error {
  readonly statusCode = 400;
  constructor(readonly where: string) {
    super(`The ${where} contains a NUL character (\\u0000), which Sibyl cannot store`);
  }
}

function nulError(where: string): Error {
  return new NulError(where);
}

export function isNulError(e: unknown): e is NulError {
  return e instanceof NulError;
}
