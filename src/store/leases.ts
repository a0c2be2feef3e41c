import type { Db } from './db.js';

/** Tables whose rows are work claimed under a lease (status requested → started → …). */
export type LeasedTable = 'imports' | 'sessions';

/**
 * Claims the oldest row that is requested, or started with an expired lease (its worker died).
 * FOR UPDATE SKIP LOCKED lets any number of processes claim at once without taking the same row.
 */
export async function claimLeased(db: Db, table: LeasedTable, owner: string, leaseMs: number): Promise<Record<string, unknown> | undefined> {
  const rows = await db.query<Record<string, unknown>>(
    `UPDATE ${table} SET lease_owner = $1, lease_expires_at = now() + ($2::int * interval '1 millisecond'), attempts = attempts + 1
     WHERE id = (
       SELECT id FROM ${table}
       WHERE status = 'requested' OR (status = 'started' AND lease_expires_at < now())
       ORDER BY requested_at FOR UPDATE SKIP LOCKED LIMIT 1)
     RETURNING *`, [owner, leaseMs]);
  return rows[0];
}

/** Extends a lease this owner still holds (optionally only while the row is started); false if it was lost. */
export async function renewLeased(db: Db, table: LeasedTable, id: string, owner: string, leaseMs: number, onlyWhileStarted = false): Promise<boolean> {
  const rows = await db.query(
    `UPDATE ${table} SET lease_expires_at = now() + ($3::int * interval '1 millisecond')
     WHERE id = $1 AND lease_owner = $2${onlyWhileStarted ? " AND status = 'started'" : ''} RETURNING id`,
    [id, owner, leaseMs]);
  return rows.length > 0;
}
