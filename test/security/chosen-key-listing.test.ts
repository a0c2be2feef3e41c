/**
 * A key the operator chose (SIBYL_API_KEY) had its first 8 characters stored and listed in clear as
 * its prefix, shown as `sk_<them>…` although it need not start with sk_. It is listed by `~` and 7
 * hex digits of its hash instead, and migration 12 replaces the clear prefix of existing first keys
 * (the key still signs requests). Generated keys keep their random `sk_` prefix.
 */
import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { createHash } from 'node:crypto';
import { startTestServer, TEST_KEY, type TestServer } from '../support/server.js';
import { BrowserSession } from '../support/browser-session.js';
import { scratchDataDir } from '../support/scratch-db.js';
import { migrate } from '../../src/store/migrate.js';
import { Db } from '../../src/store/db.js';

const fingerprint = (key: string) => '~' + createHash('sha256').update(key).digest('hex').slice(0, 7);
/** Every run of 4 characters of the chosen key: none may show in a listing or the stored prefix. */
const pieces = (key: string) => Array.from({ length: key.length - 3 }, (_, i) => key.slice(i, i + 4)).filter((p) => p !== 'sk_t');

/** Signs in as the first account through the set-password link its address gets. */
async function operatorBrowser(s: TestServer): Promise<BrowserSession> {
  const b = new BrowserSession(s.url);
  const token = /#token=([\w-]+)$/.exec(s.server.adminPasswordLink ?? '')?.[1];
  assert.ok(token, 'a set-password link for the operator');
  assert.equal((await b.call('POST', '/auth/reset', { json: { token, password: 'the operator password' } })).status, 200);
  return b;
}

function assertListedByFingerprint(items: { prefix: string; label: string | null }[]): void {
  const first = items.find((k) => k.label === 'bootstrap');
  assert.ok(first, JSON.stringify(items));
  assert.equal(first.prefix, fingerprint(TEST_KEY), 'the chosen key is listed by its fingerprint, without sk_');
  for (const piece of pieces(TEST_KEY.slice(3))) assert.ok(!JSON.stringify(items).includes(piece), `the listing shows '${piece}' of the key`);
}

describe('keys the operator chose', () => {
  const servers: TestServer[] = [];
  after(async () => { for (const s of servers) await s.close(); });

  it('lists a chosen first key by a fingerprint of its hash, a generated key by its sk_ prefix', async () => {
    const s = await startTestServer('pglite', { SIBYL_ADMIN_EMAIL: 'operator@example.org' });
    servers.push(s);
    assert.equal((await s.call('GET', '/v1/data')).status, 200, 'the chosen key signs requests');
    const b = await operatorBrowser(s);
    const created = await b.call('POST', '/auth/keys', { json: { label: 'laptop' } });
    assert.equal(created.status, 201);
    assert.equal(created.json.prefix, created.json.apiKey.slice(0, 11), 'a generated key: sk_ and its first 8 random characters');
    const listed = await b.call('GET', '/auth/keys');
    assertListedByFingerprint(listed.json.items);
    const stored = await s.server.services.db.query<{ prefix: string }>(`SELECT prefix FROM api_keys WHERE label = 'bootstrap'`);
    assert.equal(stored[0]!.prefix, fingerprint(TEST_KEY), 'nothing of the key is stored in clear');
  });

  it('migration 12 replaces the clear prefix a chosen key was stored with; the key still works', async () => {
    const { dataDir, pool } = await scratchDataDir();
    const db = new Db(pool);
    await migrate(pool, 11);
    // What the previous version stored for SIBYL_API_KEY on the first start.
    await db.query(`INSERT INTO accounts (id, email, plan, created_at) VALUES ('00000000-0000-4000-8000-000000000001', NULL, 'unlimited', now())`);
    await db.query(`INSERT INTO api_keys (id, account_id, prefix, hash, label, created_at) VALUES ('00000000-0000-4000-8000-000000000002', '00000000-0000-4000-8000-000000000001', $1, $2, 'bootstrap', now())`,
      [TEST_KEY.slice(3, 11), createHash('sha256').update(TEST_KEY).digest('hex')]);
    await db.close();
    const s = await startTestServer('pglite', { SIBYL_ADMIN_EMAIL: 'operator@example.org' }, { dataDir });
    servers.push(s);
    assert.equal((await s.call('GET', '/v1/data')).status, 200, 'the chosen key still signs requests');
    assertListedByFingerprint((await (await operatorBrowser(s)).call('GET', '/auth/keys')).json.items);
  });
});
