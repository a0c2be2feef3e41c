/**
 * The api-key cache: an entry in the second half of its life is served at once and refreshed in the
 * background (steady traffic never waits on the database), never used past its life, and a
 * revocation during a refresh is not undone by it.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { AccountsService, hashKey } from '../../src/service/accounts.js';
import type { AccountsStore, KeyRow } from '../../src/store/accounts-store.js';

const KEY = 'sk_abcdefgh0123456789012345678901234567';

/** Key rows in memory; each lookup waits until `release()` when `hold` is set, and is counted. */
function keyStore() {
  const rows: KeyRow[] = [{ id: 'k1', accountId: 'a1', prefix: 'abcdefgh', hash: hashKey(KEY), label: null, createdAt: new Date(), revokedAt: null } as KeyRow];
  let gate: (() => void) | undefined;
  const store = {
    lookups: 0,
    hold: false,
    rows,
    release() { gate?.(); gate = undefined; },
    async keysByPrefix(prefixes: string[]) {
      store.lookups++;
      if (store.hold) await new Promise<void>((r) => (gate = r));
      return rows.filter((r) => prefixes.includes(r.prefix) && !r.revokedAt);
    },
    async countActiveKeys() { return rows[0]!.revokedAt ? 0 : 1; },
    async revokeKey() { rows[0]!.revokedAt = new Date(); return 1; },
  };
  return store;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

test('a key is refreshed ahead of expiry without a request waiting, and a removed key stops working once refreshed', async () => {
  const store = keyStore();
  const accounts = new AccountsService(store as unknown as AccountsStore, 400);
  assert.equal((await accounts.authenticate(KEY))?.accountId, 'a1');
  assert.equal(store.lookups, 1);
  assert.equal((await accounts.authenticate(KEY))?.accountId, 'a1');
  assert.equal(store.lookups, 1, 'a fresh entry is used as it is');
  await sleep(250); // second half of its life
  store.hold = true;
  // Answered from the cache although the refresh it starts has not finished.
  assert.equal((await accounts.authenticate(KEY))?.accountId, 'a1');
  assert.equal(store.lookups, 2);
  assert.equal((await accounts.authenticate(KEY))?.accountId, 'a1');
  assert.equal(store.lookups, 2, 'one refresh at a time');
  store.rows[0]!.revokedAt = new Date(); // gone from the database (e.g. revoked by another process)
  store.release();
  await sleep(10);
  store.hold = false;
  assert.equal(await accounts.authenticate(KEY), undefined);
});

test('a revocation while a refresh is in flight is not undone by it', async () => {
  const store = keyStore();
  const accounts = new AccountsService(store as unknown as AccountsStore, 400);
  await accounts.authenticate(KEY);
  await sleep(250);
  store.hold = true;
  await accounts.authenticate(KEY); // starts the refresh, which reads the key as still valid
  await accounts.revokeKey('k1');
  store.release();
  await sleep(10);
  store.hold = false;
  assert.equal(await accounts.authenticate(KEY), undefined);
  assert.equal(store.lookups, 3, 'the revoked key was looked up again, not served from a refreshed entry');
});
