import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_URL, freshDatabase, postgresReachable } from '../support/backends.js';
import { startSibyl, type SibylProcess } from './sibyl-process.js';
import { startTrickleServer, type TrickleServer } from './trickle-server.js';
import { apiClient, waitFor } from './api-client.js';
import { startCallbackReceiver, type CallbackReceiver } from '../notify/callback-receiver.js';
import { fixturePath } from '../support/fixtures.js';

const KEY = 'sk_scaleout_test_key_0123456789';
const IMPORTS = 6;
const ROWS = 30;
const SESSIONS = 4;
const LEASE_MS = 3000;

const reachable = await postgresReachable();
if (!reachable) console.log(`# PostgreSQL not reachable at ${ADMIN_URL}: the scale-out test is skipped`);

describe('scale-out: one API and two `sibyl worker` processes on one PostgreSQL database', { skip: !reachable && `PostgreSQL not reachable at ${ADMIN_URL}` }, () => {
  let db: { url: string; drop: () => Promise<void> };
  let trickle: TrickleServer;
  let dataDir: string;
  let api: SibylProcess;
  let workers: SibylProcess[] = [];
  let receiver: CallbackReceiver;

  before(async () => {
    db = await freshDatabase();
    // Each import takes ROWS × 100 ms, long enough to be killed mid-way.
    trickle = await startTrickleServer(ROWS, 100);
    receiver = await startCallbackReceiver();
    dataDir = mkdtempSync(join(tmpdir(), 'sibyl-scaleout-'));
    const env = {
      DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', SIBYL_API_KEY: KEY, SIBYL_WORKERS: '1',
      SIBYL_LEASE_MS: String(LEASE_MS), SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1', SIBYL_DATA_DIR: dataDir,
    };
    api = await startSibyl('serve', env); // migrates the database before the workers open it
    workers = await Promise.all([startSibyl('worker', env), startSibyl('worker', env)]);
  });

  after(async () => {
    await Promise.all([api, ...workers].filter(Boolean).map((p) => p.kill('SIGTERM')));
    await trickle?.close();
    await receiver?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('finishes every import and session exactly once when workers holding leases are killed', async () => {
    const call = apiClient(api.url, KEY);
    const csv = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8');
    const put = await fetch(`${api.url}/v1/data/iris`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' }, body: csv });
    assert.equal(put.status, 201);
    const importIds: string[] = [];
    for (let i = 0; i < IMPORTS; i++) {
      const r = await call('POST', '/v1/imports/url', { dataSetName: `trickle-${i}`, url: trickle.url(`/t${i}.csv`) });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      importIds.push(r.json.importId);
    }
    const sessionIds: string[] = [];
    for (let i = 0; i < SESSIONS; i++) {
      const r = await call('POST', '/v1/sessions/model', {
        dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification', callbackUrl: receiver.url,
      });
      assert.equal(r.status, 200, JSON.stringify(r.json));
      sessionIds.push(r.json.sessionId);
    }

    // kill -9 one worker in the middle of an import, then the other in the middle of a session.
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    let importVictim: { worker: SibylProcess; id: string };
    try {
      importVictim = await waitFor('a worker holding an import', () => workerHolding(client, 'imports', workers), 30000, 50);
      await importVictim.worker.kill('SIGKILL');
      const survivor = workers.filter((w) => w !== importVictim.worker);
      const sessionVictim = await waitFor('a worker holding a session', () => workerHolding(client, 'sessions', survivor), 60000, 50);
      await sessionVictim.worker.kill('SIGKILL');
    } finally {
      await client.end();
    }

    const imports = await waitFor('every import to end', () => allEnded(call, importIds.map((id) => `/v1/imports/${id}`)), 120000);
    const sessions = await waitFor('every session to end', () => allEnded(call, sessionIds.map((id) => `/v1/sessions/${id}`)), 180000);
    for (const job of [...imports, ...sessions]) {
      assert.deepEqual(job.statusHistory.map((h: { status: string }) => h.status), ['requested', 'started', 'completed'], JSON.stringify(job));
    }

    const victimPath = `/t${importIds.indexOf(importVictim.id)}.csv`;
    assert.ok((trickle.requests.get(victimPath) ?? 0) >= 2, 'the killed worker\'s import was taken over and downloaded again');
    assert.equal(trickle.maxConcurrentPerPath(), 1, 'no import ran in two processes at once');
    const sets = await call('GET', '/v1/data?pageSize=100');
    for (let i = 0; i < IMPORTS; i++) {
      const d = sets.json.items.find((x: { dataSetName: string }) => x.dataSetName === `trickle-${i}`);
      assert.equal(d?.rowCount, ROWS, `trickle-${i}: ${JSON.stringify(d)}`);
    }

    // Callbacks are at least once: a worker killed between sending and recording may repeat one, never reorder.
    await waitFor('every callback', async () => (sessionIds.every((id) => statusesOf(receiver, id).at(-1) === 'completed') ? true : undefined), 120000);
    for (const id of sessionIds) {
      const seen = statusesOf(receiver, id).filter((st, i, all) => i === 0 || all[i - 1] !== st);
      assert.deepEqual(seen, ['requested', 'started', 'completed'], id);
    }
  });
});

/** A worker (among `candidates`) that holds an unexpired lease on a row of `table`; owners are "host:pid:…". */
async function workerHolding(client: pg.Client, table: 'imports' | 'sessions', candidates: SibylProcess[]): Promise<{ worker: SibylProcess; id: string } | undefined> {
  const { rows } = await client.query<{ id: string; lease_owner: string }>(
    `SELECT id, lease_owner FROM ${table} WHERE status = 'started' AND lease_expires_at > now()`);
  for (const row of rows) {
    const worker = candidates.find((w) => row.lease_owner.split(':')[1] === String(w.pid));
    if (worker) return { worker, id: row.id };
  }
  return undefined;
}

async function allEnded(call: ReturnType<typeof apiClient>, paths: string[]): Promise<any[] | undefined> {
  const all = await Promise.all(paths.map((p) => call('GET', p)));
  return all.every((r) => r.json.status === 'completed' || r.json.status === 'failed') ? all.map((r) => r.json) : undefined;
}

function statusesOf(receiver: CallbackReceiver, sessionId: string): string[] {
  return receiver.received.filter((r) => r.body.sessionId === sessionId && r.answered < 300).map((r) => r.body.status as string);
}
