import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface ReceivedCallback {
  token: string | undefined;
  legacyToken: string | undefined;
  body: any;
  /** The status this receiver answered with. */
  answered: number;
}

export interface CallbackReceiver {
  port: number;
  url: string;
  received: ReceivedCallback[];
  /** Callbacks answered 2xx, i.e. the ones the service may count as delivered. */
  accepted(): ReceivedCallback[];
  close(): Promise<void>;
}

/**
 * A real HTTP server on 127.0.0.1 standing in for a client's webhook endpoint. `answer` picks the
 * status of the n-th request (0-based; default 200) and `holdMs` how long it keeps the caller waiting.
 */
export async function startCallbackReceiver(opts: { answer?: (n: number) => number; holdMs?: (n: number) => number; port?: number } = {}): Promise<CallbackReceiver> {
  const { answer = () => 200, holdMs = () => 0, port = 0 } = opts;
  const received: ReceivedCallback[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const n = received.length;
      const status = answer(n);
      received.push({
        token: req.headers['service-webhook-token'] as string | undefined,
        legacyToken: req.headers['nexosis-webhook-token'] as string | undefined,
        body: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        answered: status,
      });
      setTimeout(() => { if (!res.destroyed) res.writeHead(status).end(); }, holdMs(n));
    });
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.address() as AddressInfo).port;
  return {
    port: bound,
    url: `http://127.0.0.1:${bound}/hook`,
    received,
    accepted: () => received.filter((r) => r.answered < 300),
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    }),
  };
}
