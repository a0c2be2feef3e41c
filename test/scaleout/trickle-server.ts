import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface TrickleServer {
  url(path: string): string;
  /** How many times each path was requested. */
  requests: Map<string, number>;
  /** The most downloads of one path that were ever in progress at the same time. */
  maxConcurrentPerPath(): number;
  close(): Promise<void>;
}

/**
 * Serves `/<name>.csv` (rows id,value for id 1..rows) slowly, a row every `rowEveryMs`, so an
 * import holds its lease long enough to be interrupted. Tracks overlapping downloads per path:
 * two workers running the same import at once would show as two.
 */
export async function startTrickleServer(rows: number, rowEveryMs: number): Promise<TrickleServer> {
  const requests = new Map<string, number>();
  const active = new Map<string, number>();
  let maxConcurrent = 0;
  const server = createServer((req, res) => {
    const path = req.url ?? '/';
    requests.set(path, (requests.get(path) ?? 0) + 1);
    const now = (active.get(path) ?? 0) + 1;
    active.set(path, now);
    maxConcurrent = Math.max(maxConcurrent, now);
    let ended = false;
    const end = () => {
      if (ended) return;
      ended = true;
      active.set(path, (active.get(path) ?? 1) - 1);
    };
    res.on('close', end);
    res.writeHead(200, { 'content-type': 'text/csv' });
    res.write('id,value\n');
    let id = 0;
    const timer = setInterval(() => {
      if (res.destroyed) { clearInterval(timer); return; }
      id++;
      res.write(`${id},${id * 3}\n`);
      if (id === rows) {
        clearInterval(timer);
        res.end();
      }
    }, rowEveryMs);
  });
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  const { port } = server.address() as AddressInfo;
  return {
    url: (path) => `http://127.0.0.1:${port}${path}`,
    requests,
    maxConcurrentPerPath: () => maxConcurrent,
    close: () => new Promise<void>((done) => {
      server.closeAllConnections();
      server.close(() => done());
    }),
  };
}
