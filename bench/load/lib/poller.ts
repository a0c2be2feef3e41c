import { fork, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { BENCH_KEY } from './server.js';

export interface Latencies {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  max: number;
}

/**
 * Another client, in its own process (so the benchmark's own work never delays it), asking for
 * `path` one request after another with `pauseMs` between them; `mark` starts a new phase.
 */
export class Poller {
  private readonly child: ChildProcess;

  private constructor(child: ChildProcess) {
    this.child = child;
  }

  static async start(url: string, path: string, pauseMs = 20): Promise<Poller> {
    const child = fork(fileURLToPath(new URL('./poller-child.js', import.meta.url)), [url, path, String(pauseMs), BENCH_KEY], { stdio: 'inherit' });
    await new Promise<void>((resolve) => child.once('message', () => resolve()));
    return new Poller(child);
  }

  /** Latencies since the previous call (or the start). */
  async take(): Promise<Latencies> {
    return new Promise((resolve) => {
      this.child.once('message', (m) => resolve(m as Latencies));
      this.child.send('take');
    });
  }

  async stop(): Promise<void> {
    this.child.send('stop');
    await new Promise((r) => this.child.once('exit', r));
  }
}

export function formatLatencies(l: Latencies): string {
  return `${l.count} requests, ${l.errors} errors, p50 ${l.p50.toFixed(1)} ms, p99 ${l.p99.toFixed(1)} ms, max ${l.max.toFixed(1)} ms`;
}
