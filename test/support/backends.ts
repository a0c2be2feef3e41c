import pg from 'pg';
import { randomBytes } from 'node:crypto';

/** PostgreSQL used by the scale-out tests: $TEST_DATABASE_URL, else the machine's local server. */
export const ADMIN_URL = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';

let reachable: Promise<boolean> | undefined;

export function postgresReachable(): Promise<boolean> {
  reachable ??= (async () => {
    const c = new pg.Client({ connectionString: ADMIN_URL, connectionTimeoutMillis: 3000 });
    try {
      await c.connect();
      await c.query('SELECT 1');
      return true;
    } catch {
      return false;
    } finally {
      await c.end().catch(() => {});
    }
  })();
  return reachable;
}

/** A fresh, empty database for one test file; dropped by the returned function. */
export async function freshDatabase(adminUrl = ADMIN_URL): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `sibyl_test_${randomBytes(6).toString('hex')}`;
  const admin = new pg.Client({ connectionString: adminUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const u = new URL(adminUrl);
  u.pathname = `/${name}`;
  return {
    url: u.toString(),
    drop: async () => {
      const a = new pg.Client({ connectionString: adminUrl });
      await a.connect();
      await a.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await a.end();
    },
  };
}

export type Backend = 'pglite' | 'postgres';

/** Both stores when PostgreSQL answers; otherwise PGlite only, saying why. */
export async function backends(): Promise<Backend[]> {
  if (await postgresReachable()) return ['pglite', 'postgres'];
  console.log(`# PostgreSQL not reachable at ${ADMIN_URL}: the PostgreSQL variant of this suite is skipped`);
  return ['pglite'];
}
