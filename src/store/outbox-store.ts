import type { Db } from './db.js';

export interface OutboxItem {
  id: number;
  accountId: string;
  /** callback: POST to target; email: a session's completion mail; mail: a ready message ({subject, text}) to target. */
  kind: 'callback' | 'email' | 'mail';
  sessionId: string | null;
  target: string;
  payload: string;
  headers: Record<string, string>;
  attempts: number;
}

export class OutboxStore {
  constructor(private readonly db: Db) {}

  /** Called inside the transaction that makes the change being announced. */
  async enqueue(item: Omit<OutboxItem, 'id' | 'attempts'>): Promise<void> {
    await this.db.kysely.insertInto('outbox').values({
      account_id: item.accountId, kind: item.kind, session_id: item.sessionId, target: item.target,
      payload: item.payload, headers: JSON.stringify(item.headers), next_attempt_at: new Date(), created_at: new Date(),
    }).execute();
  }

  /**
   * Claims due items, at most one per session and only the oldest undelivered one of each session,
   * so callbacks of one session arrive in order.
   */
  async claimDue(owner: string, leaseMs: number, limit: number): Promise<OutboxItem[]> {
    const rows = await this.db.query<Record<string, unknown>>(
      `UPDATE outbox SET lease_owner = $1, lease_expires_at = now() + ($2::int * interval '1 millisecond'), attempts = attempts + 1
       WHERE id IN (
         SELECT o.id FROM outbox o
         WHERE o.delivered_at IS NULL AND o.failed_at IS NULL AND o.next_attempt_at <= now()
           AND (o.lease_expires_at IS NULL OR o.lease_expires_at < now())
           AND NOT EXISTS (
             SELECT 1 FROM outbox p WHERE p.session_id = o.session_id AND p.kind = o.kind AND p.id < o.id
               AND p.delivered_at IS NULL AND p.failed_at IS NULL)
         ORDER BY o.id FOR UPDATE SKIP LOCKED LIMIT $3)
       RETURNING *`, [owner, leaseMs, limit]);
    return rows.map((r) => ({
      id: Number(r.id), accountId: String(r.account_id), kind: r.kind as OutboxItem['kind'], sessionId: (r.session_id as string | null) ?? null,
      target: String(r.target), payload: String(r.payload), headers: (typeof r.headers === 'string' ? JSON.parse(r.headers) : r.headers) as Record<string, string>,
      attempts: Number(r.attempts),
    }));
  }

  async delivered(id: number): Promise<void> {
    // A delivered account mail held a one-time link: it is not kept.
    await this.db.query(`UPDATE outbox SET delivered_at = now(), lease_owner = NULL, payload = CASE WHEN kind = 'mail' THEN '' ELSE payload END WHERE id = $1`, [id]);
  }

  /** Schedules another attempt, or gives up (failed_at) when retryAt is null. */
  async retry(id: number, error: string, retryAt: Date | null): Promise<void> {
    await this.db.query(
      `UPDATE outbox SET last_error = $2, lease_owner = NULL, lease_expires_at = NULL,
         next_attempt_at = COALESCE($3::timestamptz, next_attempt_at), failed_at = CASE WHEN $3::timestamptz IS NULL THEN now() ELSE NULL END
       WHERE id = $1`, [id, error.slice(0, 1000), retryAt ? retryAt.toISOString() : null]);
  }

  async pending(sessionId?: string): Promise<number> {
    const rows = await this.db.query<{ n: number }>(
      `SELECT count(*)::bigint AS n FROM outbox WHERE delivered_at IS NULL AND failed_at IS NULL ${sessionId ? 'AND session_id = $1' : ''}`,
      sessionId ? [sessionId] : []);
    return Number(rows[0]?.n ?? 0);
  }
}
