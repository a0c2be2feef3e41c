import type { SqlPool } from './sql-pool.js';
import { MIGRATIONS } from './migrations.js';

const LOCK_ID = 7272011; // arbitrary, constant: serialises migrations across processes

/** Applies every migration not yet applied (up to `upTo` when given: tests of a migration's data conversion). */
export async function migrate(pool: SqlPool, upTo = Infinity): Promise<number[]> {
  const c = await pool.connect();
  const applied: number[] = [];
  try {
    await c.query('SELECT pg_advisory_lock($1)', [LOCK_ID]);
    await c.query(`CREATE TABLE IF NOT EXISTS schema_migrations (
      version int PRIMARY KEY, name text NOT NULL, applied_at timestamptz NOT NULL DEFAULT now())`);
    const done = new Set((await c.query<{ version: number }>('SELECT version FROM schema_migrations')).rows.map((r) => r.version));
    for (const m of MIGRATIONS) {
      if (done.has(m.version) || m.version > upTo) continue;
      await c.query('BEGIN');
      try {
        for (const stmt of splitStatements(m.sql)) await c.query(stmt);
        await c.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [m.version, m.name]);
        await c.query('COMMIT');
        applied.push(m.version);
      } catch (e) {
        await c.query('ROLLBACK');
        throw e;
      }
    }
  } finally {
    await c.query('SELECT pg_advisory_unlock($1)', [LOCK_ID]).catch(() => {});
    c.release();
  }
  return applied;
}

/** Extended-protocol queries take one statement each; migrations hold no ';' inside literals. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*$/m)
    .map((s) => s.replace(/^\s*--.*$/gm, '').trim())
    .filter((s) => s.length > 0);
}
