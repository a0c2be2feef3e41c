import type { IncomingMessage, Server, ServerResponse } from 'node:http';
import type { FastifyInstance } from 'fastify';
import type { Socket } from 'node:net';
import { writeErrorAndClose } from './request-guards.js';

export interface RequestTimeouts {
  /** Longest time from a request's first byte to its last (SIBYL_REQUEST_TIMEOUT_MS). */
  requestTimeoutMs: number;
  /** Longest silence while a request's head or body is still arriving (SIBYL_IDLE_TIMEOUT_MS). */
  idleTimeoutMs: number;
}

/** Fastify's default: clients' pools keep connections for about a minute. */
const KEEP_ALIVE_MS = 72_000;
/** A head is at most 16 KiB; no real client needs longer to send it. Node's own default is 60 s. */
const HEADERS_TIMEOUT_MS = 30_000;

/**
 * The Fastify options behind the whole-request limit. Node's requestTimeout and headersTimeout
 * count only until a request has fully arrived (its parser leaves the checked list then), so a
 * request the server is still working on is never cut by them. Fastify's `connectionTimeout` is a
 * plain socket timeout and would do exactly that, so it stays off: the idle limit is
 * `installIdleLimit`'s.
 */
export function timeoutOptions(t: RequestTimeouts) {
  const headersTimeout = Math.min(HEADERS_TIMEOUT_MS, t.requestTimeoutMs);
  return {
    requestTimeout: t.requestTimeoutMs,
    // Between requests a keep-alive connection waits no longer than a request may stay silent.
    keepAliveTimeout: Math.min(KEEP_ALIVE_MS, t.idleTimeoutMs),
    connectionTimeout: 0,
    // Node checks these deadlines on an interval (30 s by default), so a limit is at most this late.
    http: { headersTimeout, requestTimeout: t.requestTimeoutMs, connectionsCheckingInterval: Math.max(50, Math.min(5000, Math.floor(headersTimeout / 4))) },
  };
}

/**
 * Closes a connection on which a request's head or body stops arriving for `idleMs` (a body
 * trickled a byte at a time would hold it for ever), answering 408 when nothing was answered yet.
 * Silence is not the client's when the request has fully arrived (the server is working on it,
 * however long) or when the server holds the body back (back-pressure from a slow ingest): those
 * are never cut. Between requests the silence is the keep-alive timeout's, which closes it.
 */
export function installIdleLimit(server: Server, idleMs: number): void {
  const exchanges = new WeakMap<Socket, { req: IncomingMessage; res: ServerResponse }>();
  server.on('connection', (socket: Socket) => socket.setTimeout(idleMs));
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    exchanges.set(req.socket, { req, res });
    // Node took the keep-alive timeout off when the head arrived; the body is still to come.
    if (!req.complete) req.socket.setTimeout(idleMs);
  });
  // With a listener here Node leaves every socket timeout to it (it destroys the socket otherwise).
  server.on('timeout', (socket: Socket) => {
    // Timers run before the event loop reads sockets: after the loop was busy longer than the limit,
    // bytes that came meanwhile are read only after this. Judge once they have been.
    const bytesRead = socket.bytesRead;
    setImmediate(() => {
      if (!socket.destroyed && socket.bytesRead === bytesRead) onSilence(socket, exchanges.get(socket), idleMs);
    });
  });
}

function onSilence(socket: Socket, exchange: { req: IncomingMessage; res: ServerResponse } | undefined, idleMs: number): void {
  if (exchange?.req.complete) {
    if (exchange.res.writableFinished) socket.destroy();
    return;
  }
  if (socket.isPaused()) {
    socket.setTimeout(idleMs);
    return;
  }
  if (exchange?.res.headersSent) {
    socket.destroy();
    return;
  }
  writeErrorAndClose(socket, {
    statusCode: 408, errorType: 'RequestTimeout',
    message: `Nothing of the request arrived for ${idleMs / 1000} s while its ${exchange ? 'body' : 'head'} was incomplete: the server stopped waiting`,
    errorDetails: {},
  });
}

/**
 * An answer sent before its request's body fully arrived (a 401 for a missing key, a 413) says
 * `Connection: close`, and Node closes the socket after it: otherwise Node would go on reading
 * and discarding the rest, and a trickled body would hold the connection as long as it lasts.
 */
export function installEarlyAnswerClose(app: FastifyInstance): void {
  app.addHook('onSend', async (req, reply, payload) => {
    if (!req.raw.complete) reply.header('connection', 'close');
    return payload;
  });
}
