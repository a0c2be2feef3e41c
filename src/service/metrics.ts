import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';
import type { Db } from '../store/db.js';
import { WorkStateStore, type WorkState } from '../store/work-state-store.js';

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
    // prom-client's own names carry their family (process_cpu_seconds_total, nodejs_heap_size_used_bytes):
    // the prefix only marks them as Sibyl's.
    collectDefaultMetrics({ register: this.registry, prefix: 'sibyl_' });
    this.httpDuration = new Histogram({
      name: 'sibyl_http_request_duration_seconds', help: 'HTTP requests by route template, method and status, with their latency',
      labelNames: ['method', 'route', 'status_code'], buckets: [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30], registers,
    });
    this.trainingSeconds = new Histogram({
      name: 'sibyl_session_run_seconds', help: 'Time a session took to run (training and evaluation) in this process, by kind and outcome',
      labelNames: ['kind', 'outcome'], buckets: [0.1, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600, 1800, 3600], registers,
    });
    this.ingestRows = new Counter({ name: 'sibyl_ingest_rows_total', help: 'Rows written into data sets by this process (uploads and imports)', registers });

    // The shared work's state is read once per scrape (in text()) and every gauge below reports from it.
    const state = () => this.workState!;
    new Gauge({
      name: 'sibyl_sessions', help: 'Sessions in the database by kind and status', labelNames: ['kind', 'status'], registers,
      collect() {
        this.reset();
        for (const r of state().sessions) this.set({ kind: r.kind, status: r.status }, r.count);
      },
    });
    new Gauge({
      name: 'sibyl_queue_depth', help: 'Work requested and not yet started', labelNames: ['queue'], registers,
      collect() { for (const q of state().queues) this.set({ queue: q.queue }, q.waiting); },
    });
    new Gauge({
      name: 'sibyl_queue_oldest_waiting_seconds', help: 'How long the oldest requested, not yet started work has waited (0 when none)', labelNames: ['queue'], registers,
      collect() { for (const q of state().queues) this.set({ queue: q.queue }, q.oldestSeconds); },
    });
    new Gauge({
      name: 'sibyl_outbox_backlog', help: 'Notifications (status callbacks, e-mails) not yet delivered nor given up', registers,
      collect() { this.set(state().outbox.backlog); },
    });
    new Gauge({
      name: 'sibyl_outbox_oldest_seconds', help: 'Age of the oldest undelivered notification (0 when none)', registers,
      collect() { this.set(state().outbox.oldestSeconds); },
    });
    this.workStore = new WorkStateStore(db);
  }

  private readonly workStore: WorkStateStore;
  private workState: WorkState | undefined;

  /** The exposition text; the database-derived gauges are read now. */
  async text(): Promise<string> {
    this.workState = await this.workStore.read();
    return this.registry.metrics();
  }

  get contentType(): string {
    return this.registry.contentType;
  }
}
