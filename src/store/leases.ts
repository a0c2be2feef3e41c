import type { Db } from './db.js';

/**
 * Claims, renewals and releases are short statements; one without an answer in this long is on a
 * dead connection (a server that went away without closing it) and fails, so the loop that sent it
 * carries on (and the connection is dropped) instead of waiting forever.
 */
export const COORDINATION_TIMEOUT_MS = 15_000;
const bounded = { timeoutMs: COORDINATION_TIMEOUT_MS };

/** Tables whose rows are work claimed under a lease (status requested → started → …). */
export type LeasedTable = 'imports' | 'sessions';

/**
 * Claims the oldest row that nobody holds: requested or started, with no lease owner or an
 * expired lease (its worker died). A row claimed but not yet started is held like a started one,
 * so two workers never both pick it up. FOR UPDATE SKIP LOCKED lets any number of processes claim
 * at once without taking the same row. Every claim is logged in lease_claims (who held what, when),
 * which is how a fault test proves no row was ever held by two workers at once.
 */
export async function claimLeased(db: Db, table: LeasedTable, owner: string, leaseMs: number): Promise<Record<string, unknown> | undefined> {
  const rows = await db.query<Record<string, unknown>>(
    `WITH claimed AS (
       UPDATE ${table} SET lease_owner = $1, lease_expires_at = now() + ($2::int * interval '1 millisecond'), attempts = attempts + 1
       WHERE id = (
         SELECT id FROM ${table}
         WHERE status IN ('requested', 'started') AND (lease_owner IS NULL OR lease_expires_at IS NULL OR lease_expires_at < now())
         ORDER BY requested_at FOR UPDATE SKIP LOCKED LIMIT 1)
       RETURNING *),
     logged AS (
       INSERT INTO lease_claims (job_table, job_id, owner, claimed_at, expires_at)
       SELECT '${table}', id::text, $1, now(), lease_expires_at FROM claimed)
     SELECT * FROM claimed`, [owner, leaseMs], bounded);
  return rows[0];
}

/** Extends a lease this owner still holds (optionally only while the row is started); false if it was lost. */
export async function renewLeased(db: Db, table: LeasedTable, id: string, owner: string, leaseMs: number, onlyWhileStarted = false): Promise<boolean> {
  const rows = await db.query(
    `WITH renewed AS (
       UPDATE ${table} SET lease_expires_at = now() + ($3::int * interval '1 millisecond')
       WHERE id = $1 AND lease_owner = $2${onlyWhileStarted ? " AND status = 'started'" : ''} RETURNING id, lease_expires_at),
     logged AS (
       UPDATE lease_claims SET expires_at = renewed.lease_expires_at FROM renewed
       WHERE job_table = '${table}' AND job_id = renewed.id::text AND owner = $2 AND released_at IS NULL)
     SELECT id FROM renewed`,
    [id, owner, leaseMs], bounded);
  return rows.length > 0;
}

/**
 * Gives back every unfinished row this worker holds (a worker shutting down: `owner` is the
 * worker, and its claims are `owner/<n>`), or only row `id` held by the claim `owner` (a job that
 * lost its database connection midway): another worker may claim them at once instead of waiting
 * for the leases to expire. The holder's own late writes are refused from now on, since they are
 * checked against lease_owner.
 */
export async function releaseLeased(db: Db, table: LeasedTable, owner: string, id?: string): Promise<number> {
  const held = id === undefined ? '(lease_owner = $1 OR starts_with(lease_owner, $1 || \'/\'))' : 'lease_owner = $1 AND id = $2';
  const rows = await db.query(
    `WITH held AS (
       SELECT id, lease_owner FROM ${table} WHERE ${held} AND status IN ('requested', 'started') FOR UPDATE),
     released AS (
       UPDATE ${table} t SET lease_owner = NULL, lease_expires_at = NULL FROM held WHERE t.id = held.id
       RETURNING t.id, held.lease_owner AS owner),
     logged AS (
       UPDATE lease_claims SET released_at = now() FROM released
       WHERE job_table = '${table}' AND job_id = released.id::text AND lease_claims.owner = released.owner AND released_at IS NULL)
     SELECT id FROM released`, id === undefined ? [owner] : [owner, id], bounded);
  return rows.length;
}
