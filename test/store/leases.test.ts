import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Db } from '../../src/store/db.js';
import { migrate } from '../../src/store/migrate.js';
import { SessionsStore } from '../../src/store/sessions-store.js';
import { insertSessionRow } from '../support/session-row.js';
import { JobLoop, type JobKind } from '../../src/jobs/job-loop.js';
import { scratchEmbeddedPool } from '../support/scratch-db.js';

const claimsOf = async (db: Db, id: string) => db.query<{ owner: string; expires_at: Date; released_at: Date | null }>(
  "SELECT owner, expires_at, released_at FROM lease_claims WHERE job_table = 'sessions' AND job_id = $1 ORDER BY id", [id]);

test('a session claimed again by the same worker after its lease expired: the old run is refused, and the log keeps the two holds apart', async () => {
  const db = new Db(await scratchEmbeddedPool());
  await migrate(db.pool);
  try {
    const store = new SessionsStore(db);
    const id = await insertSessionRow(db, 'requested');
    const worker = 'host:1:abcd';
    assert.equal((await store.claim(`${worker}/1`, 50))?.id, id);
    assert.ok(await store.transition(id, `${worker}/1`, 'started'));
    await new Promise((r) => setTimeout(r, 120));
    // The lease ran out (the database was away longer than it lasts): the next claim, here by the same worker, takes it.
    assert.equal((await store.claim(`${worker}/2`, 60_000))?.id, id);
    const firstHoldEnded = (await claimsOf(db, id))[0]!.expires_at.getTime();
    assert.equal(await store.renewLease(id, `${worker}/1`, 60_000), false, 'the old run cannot renew');
    assert.equal(await store.transition(id, `${worker}/1`, 'completed'), undefined, 'nor finish the session');
    assert.equal(await store.renewLease(id, `${worker}/2`, 60_000), true);
    const [first, second] = await claimsOf(db, id);
    assert.equal(first!.expires_at.getTime(), firstHoldEnded, 'renewing the new claim leaves the old hold as it ended');
    assert.ok(second!.expires_at.getTime() > firstHoldEnded);
    // A worker shutting down gives back what it holds under any of its claims, and the log says which.
    assert.equal(await store.release(worker), 1);
    const after = await claimsOf(db, id);
    assert.equal(after[0]!.released_at, null);
    assert.ok(after[1]!.released_at);
    assert.equal((await db.query<{ lease_owner: string | null }>('SELECT lease_owner FROM sessions WHERE id = $1', [id]))[0]!.lease_owner, null);
  } finally {
    await db.close();
  }
});

test('the job loop gives every claim its own holder under the worker\'s name', async () => {
  const holders: string[] = [];
  let left = 3;
  const kind: JobKind<number> = {
    name: 'probe',
    claim: async (holder) => { if (left === 0) return undefined; holders.push(holder); return left--; },
    renew: async () => true,
    run: async () => {},
  };
  const loop = new JobLoop([kind as JobKind<unknown>], { concurrency: 1, pollMs: 10 });
  loop.start();
  const deadline = Date.now() + 10_000;
  while (holders.length < 3 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
  await loop.stop();
  assert.equal(holders.length, 3);
  assert.equal(new Set(holders).size, 3, holders.join(', '));
  for (const h of holders) assert.ok(h.startsWith(`${loop.owner}/`), h);
});
