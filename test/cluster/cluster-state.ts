import pg from 'pg';
import type { SibylProcess } from '../scaleout/sibyl-process.js';

/**
 * What a stalled cluster is waiting on, for the message of a test that timed out: the unfinished
 * sessions with their lease holders, every connection to the database and what it runs or waits
 * for (pg_stat_activity), and which of the test's processes are still alive (with their last output).
 */
export async function clusterState(dbUrl: string, procs: { name: string; proc: SibylProcess }[]): Promise<string> {
  const lines: string[] = [];
  const c = new pg.Client({ connectionString: dbUrl, connectionTimeoutMillis: 5000 });
  try {
    await c.connect();
    const sessions = await c.query(
      `SELECT id, status, lease_owner, lease_expires_at - now() AS lease_left, attempts FROM sessions
       WHERE status NOT IN ('completed', 'failed', 'cancelled') ORDER BY requested_at`);
    lines.push(`unfinished sessions (${sessions.rows.length}):`, ...sessions.rows.map((r) => `  ${JSON.stringify(r)}`));
    const activity = await c.query(
      `SELECT pid, application_name, client_port, state, wait_event_type, wait_event, now() - state_change AS for, left(query, 120) AS query
       FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()`);
    lines.push(`connections (${activity.rows.length}):`, ...activity.rows.map((r) => `  ${JSON.stringify(r)}`));
  } catch (e) {
    lines.push(`the database did not answer: ${(e as Error).message}`);
  } finally {
    await c.end().catch(() => {});
  }
  for (const { name, proc } of procs) {
    const alive = await Promise.race([proc.exited.then((code) => `exited with ${code}`), new Promise<string>((r) => setTimeout(() => r('running'), 50))]);
    lines.push(`--- ${name} (pid ${proc.pid}): ${alive}; last output:`, proc.output().slice(-1500));
  }
  return lines.join('\n');
}
