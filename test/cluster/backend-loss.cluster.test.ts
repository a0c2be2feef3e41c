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
import { privatePostgresBinaries, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';
import { clusterState } from './cluster-state.js';

/**
 * The stall seen after a PostgreSQL restart (issue 12), made deterministic: while sessions run,
 * every connection of this test's own database is cut (pg_terminate_backend) again and again;
 * then, where PostgreSQL's server binaries are present, the suite's private server is stopped and
 * started three times while a second batch of sessions runs. Every session must complete (a
 * database that went away is no reason to fail one), and every worker must still be running: a
 * worker holds no connection while the server is down, and used to exit quietly (code 0) then,
 * leaving the sessions to wait forever for workers that were gone.
 */
const KEY = 'sk_backend_loss_suite_key_0123456789';
const SESSIONS = 6;

const reachable = process.env.SIBYL_CLUSTER_BACKEND_LOSS !== '0' && await postgresReachable();
const skip = process.env.SIBYL_CLUSTER_BACKEND_LOSS === '0' ? 'SIBYL_CLUSTER_BACKEND_LOSS=0' : !reachable ? `PostgreSQL not reachable at ${ADMIN_URL}` : false;
const binaries = privatePostgresBinaries();
if ('missing' in binaries) console.log(`# the server stop/start rounds are skipped: ${binaries.missing}`);

describe('cluster: every connection cut repeatedly while sessions run', { skip }, () => {
  let db: { url: string; drop: () => Promise<void> };
  let procs: SibylProcess[] = [];
  let server: PrivatePostgres | undefined;
  let adminUrl = ADMIN_URL;
  let dir = '';

  before(async () => {
    if ('bin' in binaries) adminUrl = (server = await startPrivatePostgres(binaries.bin)).url;
    db = await freshDatabase(adminUrl);
    dir = mkdtempSync(join(tmpdir(), 'sibyl-backend-loss-'));
  });

  after(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await db?.drop().catch(() => {});
    server?.remove();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it('ends every session although its connections are terminated mid-job', async () => {
    const env = { DATABASE_URL: db.url, PORT: '0', HOST: '127.0.0.1', SIBYL_API_KEY: KEY, SIBYL_LEASE_MS: '4000', SIBYL_DATA_DIR: dir };
    procs = await Promise.all([startSibyl('serve', env, 120_000, ['--workers', '0']), startSibyl('worker', env, 120_000, ['--concurrency', '1']), startSibyl('worker', env, 120_000, ['--concurrency', '1'])]);
    const proc = procs[0]!;
    const named = () => procs.map((p, i) => ({ name: i === 0 ? 'serve --workers 0' : `worker ${i}`, proc: p }));
    const call = apiClient(proc.url, KEY);
    const put = await fetch(`${proc.url}/v1/data/iris`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' }, body: readFileSync(fixturePath('classification', 'iris.csv'), 'utf8') });
    assert.ok(put.status === 200 || put.status === 201, await put.text());
    const ids: string[] = [];
    const request = async () => {
      for (let i = 0; i < SESSIONS; i++) {
        const r = await call('POST', '/v1/sessions/model', { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification' });
        assert.equal(r.status, 200, JSON.stringify(r.json));
        ids.push(r.json.sessionId);
      }
    };
    await request();

    const name = new URL(db.url).pathname.slice(1);
    const killer = new pg.Client({ connectionString: adminUrl });
    await killer.connect();
    let cuts = 0;
    try {
      for (let round = 0; round < 24; round++) {
        const { rows } = await killer.query<{ n: number }>(
          'SELECT count(*)::int AS n FROM (SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = $1 AND pid <> pg_backend_pid()) t', [name]);
        cuts += rows[0]!.n;
        await new Promise((r) => setTimeout(r, 250 + (round % 4) * 100));
      }
    } finally {
      await killer.end();
    }
    console.log(`# ${cuts} connections terminated while ${SESSIONS} sessions ran`);
    if (server) {
      // A second batch, so that sessions are running (and workers idle, waiting) when the server goes.
      await waitFor('the API after the cuts', async () => ((await fetch(`${proc.url}/ready`).catch(() => undefined))?.status === 200 ? true : undefined), 30_000, 250);
      await request();
      await new Promise((r) => setTimeout(r, 500));
      for (let round = 0; round < 3; round++) {
        server.stop();
        await new Promise((r) => setTimeout(r, 1500 + round * 1000));
        server.start();
        await new Promise((r) => setTimeout(r, 1500));
      }
      console.log('# the server was stopped and started 3 times');
    }

    const ended = await waitFor('every session to end after the cuts', async () => {
      const all = [];
      for (const id of ids) {
        const r = await call('GET', `/v1/sessions/${id}`).catch(() => undefined);
        if (!r || (r.json.status !== 'completed' && r.json.status !== 'failed')) return undefined;
        all.push(r.json);
      }
      return all;
    }, 240_000, 1000).catch(async (e) => { throw new Error(`${(e as Error).message}\n${await clusterState(db.url, named())}`); });
    for (const s of ended) assert.equal(s.status, 'completed', `${s.sessionId}: ${JSON.stringify(s.messages)}`);
    for (const { name, proc: p } of named()) {
      assert.equal(await Promise.race([p.exited.then((code) => `exited with ${code}`), new Promise((r) => setTimeout(() => r('running'), 100))]), 'running', `${name}:\n${p.output().slice(-3000)}`);
    }
  });
});
