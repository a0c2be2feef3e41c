#!/usr/bin/env node
// Browser tests: dist/test/e2e/*.e2e.js with node's test runner, against Debian's Chromium
// (CHROMIUM_PATH overrides /usr/bin/chromium). Without a browser they are skipped, saying so.
// SIBYL_E2E_BACKENDS=pglite,postgres picks the stores (default: the embedded one, then
// PostgreSQL too when TEST_DATABASE_URL/DATABASE_URL or the local server answers).
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import pg from 'pg';

const chromium = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
if (!existsSync(chromium)) {
  console.log(`browser tests skipped: no Chromium at ${chromium} (install Debian's chromium package, or set CHROMIUM_PATH)`);
  process.exit(0);
}

async function postgresAnswers() {
  const url = process.env.TEST_DATABASE_URL ?? process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
  const c = new pg.Client({ connectionString: url, connectionTimeoutMillis: 3000 });
  try { await c.connect(); await c.query('SELECT 1'); return true; } catch { return false; } finally { await c.end().catch(() => {}); }
}

const dir = 'dist/test/e2e';
const files = readdirSync(dir).filter((f) => f.endsWith('.e2e.js')).map((f) => join(dir, f));
const backends = process.env.SIBYL_E2E_BACKENDS?.split(',').map((b) => b.trim()).filter(Boolean)
  ?? ['pglite', ...((await postgresAnswers()) ? ['postgres'] : [])];
let failed = false;
for (const backend of backends) {
  console.log(`# browser tests on the ${backend} store`);
  const r = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=spec', ...files], {
    stdio: 'inherit',
    env: { ...process.env, NODE_ENV: 'test', SIBYL_E2E_BACKEND: backend, CHROMIUM_PATH: chromium },
  });
  if (r.status !== 0) failed = true;
}
console.log('screenshots: test-results/e2e/');
process.exit(failed ? 1 : 0);
