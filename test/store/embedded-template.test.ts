/**
 * A new embedded store copied from a template cluster (SIBYL_EMBEDDED_TEMPLATE, set by the test
 * runner) is a whole store: migrated, writable, its own; a store that exists is never overwritten,
 * and the template is left as it was.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { openStore } from '../../src/store/open-store.js';
import { PgLitePool } from '../../src/store/pglite-pool.js';

async function templateCluster(): Promise<{ dir: string; remove: () => void }> {
  const set = process.env.SIBYL_EMBEDDED_TEMPLATE;
  if (set) return { dir: set, remove: () => {} };
  const dir = join(mkdtempSync(join(tmpdir(), 'sibyl-template-')), 'pg');
  await (await PgLitePool.open(dir)).end();
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

test('a new embedded store is copied from the template, migrated and kept; the template stays empty', async () => {
  const template = await templateCluster();
  const dataDir = mkdtempSync(join(tmpdir(), 'sibyl-seeded-'));
  try {
    const config = { ...loadConfig({ SIBYL_DATA_DIR: dataDir, SIBYL_EMBEDDED_TEMPLATE: template.dir }) };
    assert.equal(config.embeddedTemplate, template.dir);
    const first = await openStore(config);
    assert.ok(existsSync(join(dataDir, 'pg', 'PG_VERSION')));
    const migrations = await first.db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
    assert.ok(migrations[0]!.n >= 1);
    await first.db.query('CREATE TABLE kept (v text)');
    await first.db.query("INSERT INTO kept VALUES ('mine')");
    await first.close();

    const again = await openStore(config);
    assert.deepEqual(await again.db.query('SELECT v FROM kept'), [{ v: 'mine' }], 'an existing store is opened, not replaced');
    await again.close();

    // Opened through a copy: the run's template is shared by test files copying it at the same time,
    // and opening it would write its postmaster.pid (a copy running then saw the file vanish).
    const probeDir = mkdtempSync(join(tmpdir(), 'sibyl-template-probe-'));
    cpSync(template.dir, join(probeDir, 'pg'), { recursive: true });
    const bare = await PgLitePool.open(join(probeDir, 'pg'));
    try {
      const c = await bare.connect();
      const tables = await c.query<{ n: number }>("SELECT count(*)::int AS n FROM information_schema.tables WHERE table_schema = 'public'");
      c.release();
      assert.equal(tables.rows[0]!.n, 0, 'the template holds no schema');
    } finally {
      await bare.end();
      rmSync(probeDir, { recursive: true, force: true });
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
    template.remove();
  }
});
