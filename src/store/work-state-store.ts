import type { Db } from './db.js';

/** How much shared work the database holds, for the metrics endpoint. */
export interface WorkState {
  sessions: { kind: string; status: string; count: number }[];
  /** Requested, not yet started: sessions and imports; `oldestSeconds` 0 when none wait. */
  queues: { queue: string; waiting: number; oldestSeconds: number }[];
  outbox: { backlog: number; oldestSeconds: number };
}

export class WorkStateStore {
  constructor(private readonly db: Db) {}

  async read(): Promise<WorkState> {
    const sessions = await this.db.query<{ type: string; status: string; n: string }>('SELECT type, status, count(*) AS n FROM sessions GROUP BY type, status');
    const queues = await this.db.query<{ queue: string; waiting: string; oldest: number | string | null }>(
      `SELECT 'sessions' AS queue, count(*) AS waiting, extract(epoch FROM now() - min(requested_at)) AS oldest FROM sessions WHERE status = 'requested'
       UNION ALL
       SELECT 'imports', count(*), extract(epoch FROM now() - min(requested_at)) FROM imports WHERE status = 'requested'`);
    const [outbox] = await this.db.query<{ n: string; oldest: number | string | null }>(
      'SELECT count(*) AS n, extract(epoch FROM now() - min(created_at)) AS oldest FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL');
    return {
      sessions: sessions.map((r) => ({ kind: r.type, status: r.status, count: Number(r.n) })),
      queues: queues.map((r) => ({ queue: r.queue, waiting: Number(r.waiting), oldestSeconds: r.oldest === null ? 0 : Number(r.oldest) })),
      outbox: { backlog: Number(outbox?.n ?? 0), oldestSeconds: outbox?.oldest == null ? 0 : Number(outbox.oldest) },
    };
  }

  /** How many of the migrations up to `expected` are applied, and the highest one. */
  async migrationsApplied(expected: number): Promise<{ count: number; highest: number | null }> {
    const [r] = await this.db.query<{ n: number | null; v: number | null }>('SELECT count(*)::int AS n, max(version) AS v FROM schema_migrations WHERE version <= $1', [expected]);
    return { count: Number(r?.n ?? 0), highest: r?.v ?? null };
  }
}
