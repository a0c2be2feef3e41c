import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { openDb, type Db } from '../../src/store/db.js';
import { PgLitePool } from '../../src/store/pglite-pool.js';
import { seedFromTemplate } from '../../src/store/embedded-template.js';

const scratchDirs: string[] = [];
process.on('exit', () => { for (const d of scratchDirs) rmSync(d, { recursive: true, force: true }); });

/**
 * A scratch directory for a fresh embedded cluster, copied from the test run's template cluster
 * when there is one (scripts/embedded-template.mjs) rather than initdb'd anew.
 */
function scratchClusterDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'sibyl-scratch-db-'));
  scratchDirs.push(dir);
  const pgDir = join(dir, 'pg');
  const template = process.env.SIBYL_EMBEDDED_TEMPLATE;
  if (template) seedFromTemplate(pgDir, template);
  return pgDir;
}

/** A fresh embedded database with no schema yet (for tests that run the migrations themselves). */
export function scratchEmbeddedPool(): Promise<PgLitePool> {
  return PgLitePool.open(scratchClusterDir());
}

/** A fresh, migrated embedded database. */
export function scratchEmbeddedDb(): Promise<Db> {
  return openDb({ dataDir: scratchClusterDir() });
}

/** A server's data directory (SIBYL_DATA_DIR) whose embedded cluster is opened here first, with no schema yet: to build an older one for a server to upgrade. */
export async function scratchDataDir(): Promise<{ dataDir: string; pool: PgLitePool }> {
  const pgDir = scratchClusterDir();
  return { dataDir: dirname(pgDir), pool: await PgLitePool.open(pgDir) };
}
