import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_URL, freshDatabase, postgresReachable } from '../support/backends.js';
import { startSibyl, type SibylProcess } from '../scaleout/sibyl-process.js';
import { apiClient, waitFor } from '../scaleout/api-client.js';
import { fixturePath } from '../support/fixtures.js';

/**
 * SIGTERM on `sibyl worker`: it stops claiming and lets a running session finish within the grace
 * period; a second SIGTERM gives its lease back at once, so another worker takes the session over
 * long before the lease would have expired.
 */
const KEY = 'sk_cluster_shutdown_suite_key_0123456';
// Far longer than the test waits: a takeover can only come from the released lease.
const LEASE_MS = 120_000;
// Upper bounds only: a letters session takes seconds on an idle machine, minutes on a shared one
// (a load of 20 on 2 cores made 120 s too short for the grace period and the waits).
const SESSION_WITHIN_MS = 600_000;
const reachable = await postgresReachable();

describe('graceful shutdown of worker processes', { skip: !reachable && `PostgreSQL not reachable at ${ADMIN_URL}` }, () => {
  let db: { url: string; drop: () => Promise<void> };
  const dirs: string[] = [];
  const procs: SibylProcess[] = [];
  let api: SibylProcess;
  let client: pg.Client;

  const start = async (command: 'serve' | 'worker', args: string[], extra: Record<string, string> = {}) => {
    const dir = mkdtempSync(join(tmpdir(), 'sibyl-shutdown-'));
    dirs.push(dir);
    const p = await startSibyl(command, {
      DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', SIBYL_API_KEY: KEY, SIBYL_LEASE_MS: String(LEASE_MS), SIBYL_DATA_DIR: dir, ...extra,
    }, 120_000, args);
    procs.push(p);
    return p;
  };
  const ownerOf = (w: SibylProcess) => new RegExp(`owner (\\S+)\\)`).exec(w.output())?.[1];
  // A claim's holder is "<worker>/<n>"; these tests ask which worker holds it.
  const workerOfClaim = (holderName: string) => holderName.replace(/\/\d+$/, '');
  const holder = async (id: string) => {
    const held = (await client.query<{ lease_owner: string | null }>('SELECT lease_owner FROM sessions WHERE id = $1', [id])).rows[0]?.lease_owner;
    return held ? workerOfClaim(held) : null;
  };
  const newSession = async () => {
    const r = await apiClient(api.url, KEY)('POST', '/v1/sessions/model', { dataSourceName: 'letters', targetColumn: 'lettr', predictionDomain: 'classification' });
    assert.equal(r.status, 200, JSON.stringify(r.json));
    return r.json.sessionId as string;
  };
  const status = async (id: string) => (await apiClient(api.url, KEY)('GET', `/v1/sessions/${id}`)).json.status as string;

  before(async () => {
    db = await freshDatabase();
    api = await start('serve', ['--workers', '0']);
    const csv = readFileSync(fixturePath('classification', 'letter_recognition.csv'), 'utf8');
    const put = await fetch(`${api.url}/v1/data/letters`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' }, body: csv });
    assert.equal(put.status, 201);
    client = new pg.Client({ connectionString: db.url });
    await client.connect();
  });

  after(async () => {
    await client?.end().catch(() => {});
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await db?.drop();
    for (const d of dirs) rmSync(d, { recursive: true, force: true });
  });

  it('a first SIGTERM lets the running session finish in the same worker, which claims nothing more and exits 0', async () => {
    const w = await start('worker', ['--concurrency', '1'], { SIBYL_SHUTDOWN_GRACE_MS: String(SESSION_WITHIN_MS) });
    const id = await newSession();
    await waitFor('the worker to hold the session', async () => ((await holder(id)) === ownerOf(w) ? true : undefined), 60_000, 50);
    const waiting = await newSession();
    await w.kill('SIGTERM');
    assert.equal(await w.exited, 0, w.output());
    assert.equal(await status(id), 'completed', 'the running session finished before the worker left');
    assert.equal(await status(waiting), 'requested', 'nothing new was claimed after SIGTERM');
    const claims = await client.query('SELECT owner FROM lease_claims WHERE job_id = $1', [id]);
    assert.deepEqual(claims.rows.map((r) => workerOfClaim(r.owner)), [ownerOf(w)]);
    // Hand the waiting session to a worker that stays, for the next test to start clean.
    const next = await start('worker', ['--concurrency', '1']);
    await waitFor('the waiting session', async () => ((await status(waiting)) === 'completed' ? true : undefined), SESSION_WITHIN_MS, 250);
    await next.kill('SIGTERM');
  });

  it('a second SIGTERM releases the lease at once: another worker takes the session over long before it would expire', async () => {
    const w1 = await start('worker', ['--concurrency', '1'], { SIBYL_SHUTDOWN_GRACE_MS: String(SESSION_WITHIN_MS) });
    const id = await newSession();
    await waitFor('the first worker to hold the session', async () => ((await holder(id)) === ownerOf(w1) ? true : undefined), 60_000, 50);
    const w2 = await start('worker', ['--concurrency', '1']);
    const signalled = Date.now();
    process.kill(w1.pid, 'SIGTERM');
    await new Promise((r) => setTimeout(r, 200));
    process.kill(w1.pid, 'SIGTERM');
    assert.equal(await w1.exited, 0, w1.output());
    const leftAfterMs = Date.now() - signalled;
    await waitFor('the second worker to take it over', async () => ((await holder(id)) === ownerOf(w2) || (await status(id)) === 'completed' ? true : undefined), 10_000, 50);
    const takenAfterMs = Date.now() - signalled;
    await waitFor('the session to complete', async () => ((await status(id)) === 'completed' ? true : undefined), SESSION_WITHIN_MS, 250);
    const claims = await client.query<{ owner: string; released_at: Date | null }>('SELECT owner, released_at FROM lease_claims WHERE job_id = $1 ORDER BY id', [id]);
    assert.deepEqual(claims.rows.map((r) => workerOfClaim(r.owner)), [ownerOf(w1), ownerOf(w2)]);
    assert.ok(claims.rows[0]!.released_at, 'the first worker released its lease');
    const history = (await apiClient(api.url, KEY)('GET', `/v1/sessions/${id}`)).json.statusHistory.map((h: { status: string }) => h.status);
    assert.deepEqual(history, ['requested', 'started', 'completed']);
    assert.ok(takenAfterMs < LEASE_MS / 4, `taken over after ${takenAfterMs} ms`);
    console.log(`# second SIGTERM: the worker left after ${leftAfterMs} ms, the session was taken over after ${takenAfterMs} ms (lease ${LEASE_MS} ms)`);
    await w2.kill('SIGTERM');
  });
});
