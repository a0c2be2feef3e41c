/**
 * How many connections one client address may hold open at once (SIBYL_MAX_CONNECTIONS_PER_ADDRESS):
 * without a cap, one peer can open thousands of idle keep-alive connections and use up the
 * process's file descriptors, which the database and every other client need too.
 *
 * A connection over the cap never reaches the HTTP parser: it is answered 429 in the error shape
 * and closed, its request bytes read and dropped meanwhile, so the client sees the answer rather
 * than a reset.
 */
import type { Server } from 'node:http';
import type { Socket } from 'node:net';
import { STATUS_CODES } from 'node:http';

/** How long a refused connection is kept to let the client read the answer before it is cut. */
const REFUSED_LINGER_MS = 2000;

/** `::ffff:10.0.0.1` and `10.0.0.1` are the same client on a dual-stack socket. */
function peerOf(socket: Socket): string | undefined {
  const a = socket.remoteAddress;
  return a?.startsWith('::ffff:') && a.includes('.') ? a.slice(7) : a;
}

function refuse(socket: Socket, max: number): void {
  const body = JSON.stringify({
    statusCode: 429, errorType: 'TooManyConnections',
    message: `This client address already holds ${max} open connections to the server, the most one address may: send further requests on those connections (keep-alive) or close some, then retry`,
    errorDetails: { maxConnectionsPerAddress: [String(max)] },
  });
  socket.on('error', () => { /* the client went away first: nothing to answer */ });
  socket.resume();
  socket.end(`HTTP/1.1 429 ${STATUS_CODES[429]}\r\nContent-Length: ${Buffer.byteLength(body)}\r\nContent-Type: application/json; charset=utf-8\r\nX-Content-Type-Options: nosniff\r\nCache-Control: no-cache\r\nRetry-After: 1\r\nConnection: close\r\n\r\n${body}`);
  setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
}

/**
 * Counts open connections by peer address; `max` 0 is no limit. Installed after every other
 * `connection` listener of the server (Node's HTTP parser among them), which it then calls only
 * for connections within the cap.
 */
export function installConnectionLimit(server: Server, max: number): void {
  if (max <= 0) return;
  const open = new Map<string, number>();
  const listeners = server.listeners('connection') as ((socket: Socket) => void)[];
  server.removeAllListeners('connection');
  server.on('connection', (socket: Socket) => {
    const peer = peerOf(socket);
    if (peer !== undefined) {
      const n = open.get(peer) ?? 0;
      if (n >= max) {
        refuse(socket, max);
        return;
      }
      open.set(peer, n + 1);
      socket.once('close', () => {
        const left = (open.get(peer) ?? 1) - 1;
        if (left > 0) open.set(peer, left);
        else open.delete(peer);
      });
    }
    for (const listener of listeners) listener.call(server, socket);
  });
}
