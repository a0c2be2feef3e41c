import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../store/db.js';

/**
 * Prometheus metrics of one process (prom-client). Request, training and ingest figures are
 * counted where they happen, in this process; the state of the shared work (sessions by kind
 * and status, queues, outbox) is read from the database at scrape time, so every API process
 * reports the whole cluster's picture.
 */
export class Metrics {
  readonly registry = new Registry();
  readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  readonly trainingSeconds: Histogram<'kind' | 'outcome'>;
  readonly ingestRows: Counter;

  constructor(db: Db) {
    const registers = [this.registry];
    collectDefaultMetrics({ register: this.registry, prefix: 'sibyl_process_' });
    this.httpDuration = new Histogram({
      name: 'sibyl_http_request_duration_seconds', help: 'HTTP requests by route template, method and status, with their latency',
      labelNames: ['method', 'route', 'status_code'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers,
    });
    this.trainingSeconds = new Histogram({
      name: 'sibyl_session_run_seconds', help: 'Time a session took to run (training and evaluation) in this process, by kind and outcome',
      labelNames: ['kind', 'outcome'], buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600], registers,
    });
    this.ingestRows = new Counter({ name: 'sibyl_ingest_rows_total', help: 'Rows written into data sets by this process (uploads and imports)', registers });

    new Gauge({
      name: 'sibyl_sessions', help: 'Sessions in the database by kind and status', labelNames: ['kind', 'status'], registers,
      async collect() {
        this.reset();
        for (const r of await db.query<{ type: string; status: string; n: string }>('SELECT type, status, count(*) AS n FROM sessions GROUP BY type, status')) {
          this.set({ kind: r.type, status: r.status }, Number(r.n));
        }
      },
    });
    // Queue figures for sessions and imports, read once per scrape.
    const queue = async () => {
      const rows = await db.query<{ queue: string; waiting: string; oldest: number | string | null }>(
        `SELECT 'sessions' AS queue, count(*) AS waiting, extract(epoch FROM now() - min(requested_at)) AS oldest FROM sessions WHERE status = 'requested'
         UNION ALL
         SELECT 'imports', count(*), extract(epoch FROM now() - min(requested_at)) FROM imports WHERE status = 'requested'`);
      return rows.map((r) => ({ queue: r.queue, waiting: Number(r.waiting), oldest: r.oldest === null ? 0 : Number(r.oldest) }));
    };
    new Gauge({
      name: 'sibyl_queue_depth', help: 'Work requested and not yet started', labelNames: ['queue'], registers,
      async collect() { for (const q of await queue()) this.set({ queue: q.queue }, q.waiting); },
    });
    new Gauge({
      name: 'sibyl_queue_oldest_waiting_seconds', help: 'How long the oldest requested, not yet started work has waited (0 when none)', labelNames: ['queue'], registers,
      async collect() { for (const q of await queue()) this.set({ queue: q.queue }, q.oldest); },
    });
    const outbox = async () => {
      const [r] = await db.query<{ n: string; oldest: number | string | null }>(
        'SELECT count(*) AS n, extract(epoch FROM now() - min(created_at)) AS oldest FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL');
      return { n: Number(r?.n ?? 0), oldest: r?.oldest == null ? 0 : Number(r.oldest) };
    };
    new Gauge({
      name: 'sibyl_outbox_backlog', help: 'Notifications (status callbacks, e-mails) not yet delivered nor given up', registers,
      async collect() { this.set((await outbox()).n); },
    });
    new Gauge({
      name: 'sibyl_outbox_oldest_seconds', help: 'Age of the oldest undelivered notification (0 when none)', registers,
      async collect() { this.set((await outbox()).oldest); },
    });
  }

  /** The exposition text; the database-derived gauges are read now. */
  async text(): Promise<string> {
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
