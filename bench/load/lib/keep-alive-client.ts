/**
 * A lean HTTP client for latency runs: node:http over one kept-alive connection. fetch (undici)
 * costs this process about 1 ms of CPU and 0.3–0.5 ms of its own garbage collection per small
 * request on these machines (four times node:http), and on 2 shared cores that CPU and those pauses
 * show up in the measured latency as if they were the server's.
 */
import { Agent, request } from 'node:http';

export class KeepAliveClient {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private readonly host: string;
  private readonly port: number;

  constructor(url: string, private readonly headers: Record<string, string>) {
    const u = new URL(url);
    this.host = u.hostname;
    this.port = Number(u.port);
  }

  /** POSTs a JSON body; resolves with the status once the whole answer has arrived. */
  post(path: string, body: string, extraHeaders: Record<string, string> = {}): Promise<number> {
    return new Promise((resolve, reject) => {
      const req = request({
        host: this.host, port: this.port, path, method: 'POST', agent: this.agent,
        headers: { ...this.headers, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...extraHeaders },
      }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  close(): void {
    this.agent.destroy();
  }
}
