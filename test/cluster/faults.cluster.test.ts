import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { ADMIN_URL, freshDatabase, postgresReachable } from '../support/backends.js';
import { privatePostgresBinaries, startPrivatePostgres, type PrivatePostgres } from '../support/private-postgres.js';
import { startSibyl, type SibylProcess } from '../scaleout/sibyl-process.js';
import { apiClient, waitFor } from '../scaleout/api-client.js';
import { csvRows, endlessUpload } from '../scaleout/endless-upload.js';
import { startCallbackReceiver, type CallbackReceiver } from '../notify/callback-receiver.js';
import { fixturePath } from '../support/fixtures.js';
import { IGNORE_TRUTH, nottemCsv, WINDOW } from '../support/nottem.js';
import { clusterState } from './cluster-state.js';
import { MODEL_CHECK_MS } from '../../src/service/models/models-service.js';

/**
 * The cluster fault suite (npm run test:cluster): 2 API processes (`serve --workers 0`) and 3
 * `sibyl worker` processes on one PostgreSQL database, SESSIONS sessions of every kind, and while
 * they run: kill -9 of a worker holding a session, kill -9 of an API process mid-upload, the
 * callback receiver down for RECEIVER_DOWN_MS, and a PostgreSQL restart. Every session completes
 * exactly once with the results of a single-process run, every status change reaches the receiver
 * in order, and the lease log shows no session held by two workers at once.
 */
const KEY = 'sk_cluster_fault_suite_key_0123456789';
const SESSIONS = Number(process.env.SIBYL_CLUSTER_SESSIONS ?? 30);
// "Down for a minute" in the issue; 20 s by default so the suite stays a few minutes long
// (the outbox retries at 1, 2, 4, 8, 16 … s, so a longer outage only lengthens the wait).
const RECEIVER_DOWN_MS = Number(process.env.SIBYL_CLUSTER_RECEIVER_DOWN_MS ?? 20000);
const LEASE_MS = 4000;
// The restart stops and starts a PostgreSQL server of the suite's own (initdb into a temporary
// directory, a free port), never the machine's shared one, whose restart breaks everyone else's tests.
const binaries = privatePostgresBinaries();
const RESTART_PG = process.env.SIBYL_CLUSTER_RESTART_POSTGRES !== '0' && 'bin' in binaries;
if (!RESTART_PG) console.log(`# the PostgreSQL restart is skipped: ${'missing' in binaries ? binaries.missing : 'SIBYL_CLUSTER_RESTART_POSTGRES=0'}`);
/** Down for this long between stop and start, so requests meet a server that is gone, not one that blinked. */
const POSTGRES_DOWN_MS = 3000;

const KINDS = {
  model: { path: '/v1/sessions/model', body: { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification' } },
  forecast: { path: '/v1/sessions/forecast', body: { dataSourceName: 'nottem', targetColumn: 'y', startDate: '1938-06-01', endDate: '1938-12-01', resultInterval: 'month', columns: IGNORE_TRUTH } },
  impact: { path: '/v1/sessions/impact', body: { dataSourceName: 'nottem', targetColumn: 'y', eventName: 'e', resultInterval: 'month', ...WINDOW, columns: IGNORE_TRUTH } },
} as const;
type Kind = keyof typeof KINDS;

const reachable = RESTART_PG || await postgresReachable();
const skip = !reachable ? `PostgreSQL not reachable at ${ADMIN_URL}` : false;

describe(`cluster: 2 API + 3 worker processes, ${SESSIONS} sessions of each kind, under faults`, { skip }, () => {
  let db: { url: string; drop: () => Promise<void> };
  let server: PrivatePostgres | undefined;
  let adminUrl = ADMIN_URL;
  let refDb: string | undefined;
  const dataDirs: string[] = [];
  const procs: SibylProcess[] = [];
  const named: { name: string; proc: SibylProcess }[] = [];
  let receiver: CallbackReceiver;
  let receiverPort = 0;
  const received: CallbackReceiver['received'] = [];
  const ids: { id: string; kind: Kind }[] = [];
  /** Results of each session when the same database is run by one process alone. */
  const reference = new Map<string, unknown>();

  const env = (url: string) => {
    const dir = mkdtempSync(join(tmpdir(), 'sibyl-cluster-'));
    dataDirs.push(dir);
    return {
      DATABASE_URL: url, PORT: '0', HOST: '127.0.0.1', SIBYL_API_KEY: KEY, SIBYL_LEASE_MS: String(LEASE_MS), SIBYL_WRITER_LEASE_MS: '3000',
      SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1', SIBYL_DATA_DIR: dir, SIBYL_SHUTDOWN_GRACE_MS: '5000',
    };
  };
  const start = async (command: 'serve' | 'worker', args: string[], url = db.url) => {
    const p = await startSibyl(command, env(url), 120_000, args);
    procs.push(p);
    if (url === db.url) named.push({ name: `${command} ${args.join(' ')}`, proc: p });
    return p;
  };

  before(async () => {
    if (RESTART_PG) {
      server = await startPrivatePostgres((binaries as { bin: string }).bin);
      adminUrl = server.url;
      console.log(`# a private PostgreSQL server for this suite at ${adminUrl}`);
    }
    db = await freshDatabase(adminUrl);
    receiver = await startCallbackReceiver();
    receiverPort = receiver.port;
    // Requests first, through both API processes (no workers yet): every session is then run twice,
    // by the cluster and, on a copy of the database, by one process alone. Session ids (which seed
    // the holdout) are the same in both, so the results must be identical.
    const apis = await Promise.all([start('serve', ['--workers', '0'])]).then(async ([a]) => [a!, await start('serve', ['--workers', '0'])]);
    await upload(apis[0]!.url);
    const callbackUrl = `http://127.0.0.1:${receiverPort}/hook`;
    for (let i = 0; i < SESSIONS; i++) {
      for (const kind of Object.keys(KINDS) as Kind[]) {
        const r = await apiClient(apis[i % 2]!.url, KEY)('POST', KINDS[kind].path, { ...KINDS[kind].body, callbackUrl });
        assert.equal(r.status, 200, JSON.stringify(r.json));
        ids.push({ id: r.json.sessionId, kind });
      }
    }
    await Promise.all(apis.map((a) => a.kill('SIGTERM')));

    refDb = `${new URL(db.url).pathname.slice(1)}_ref`;
    await admin(adminUrl, `CREATE DATABASE ${refDb} TEMPLATE ${new URL(db.url).pathname.slice(1)}`);
    const refUrl = Object.assign(new URL(db.url), { pathname: `/${refDb}` }).toString();
    const c = new pg.Client({ connectionString: refUrl });
    await c.connect();
    await c.query('UPDATE sessions SET callback_url = NULL');
    await c.query('DELETE FROM outbox');
    await c.end();
    const single = await start('serve', [], refUrl);
    const call = apiClient(single.url, KEY);
    const done = await waitFor('the single-process run', () => allEnded(call, ids.map((s) => s.id)), 900_000, 1000);
    for (const s of done) assert.equal(s.status, 'completed', `reference ${s.sessionId}: ${JSON.stringify(s.messages)}`);
    for (const { id } of ids) reference.set(id, await resultsOf(call, id));
    await single.kill('SIGTERM');
  });

  after(async () => {
    await Promise.all(procs.map((p) => p.kill('SIGKILL')));
    await receiver?.close();
    await db?.drop().catch(() => {});
    if (refDb) await admin(adminUrl, `DROP DATABASE IF EXISTS ${refDb} WITH (FORCE)`).catch(() => {});
    server?.remove();
    for (const d of dataDirs) rmSync(d, { recursive: true, force: true });
  });

  it('completes every session once, identically, through worker and API kills, a receiver outage and a PostgreSQL restart', async () => {
    // The receiver is down from the start, for RECEIVER_DOWN_MS, while the other faults happen.
    received.push(...receiver.received);
    await receiver.close();
    const receiverBack = new Promise((r) => setTimeout(r, RECEIVER_DOWN_MS)).then(async () => { receiver = await startCallbackReceiver({ port: receiverPort }); });

    const api1 = await start('serve', ['--workers', '0']);
    const [api2, ...workers] = await Promise.all([start('serve', ['--workers', '0']), start('worker', ['--concurrency', '1']), start('worker', ['--concurrency', '1']), start('worker', ['--concurrency', '1'])]);
    let apis = [api1, api2!];
    const client = new pg.Client({ connectionString: db.url });
    await client.connect();
    try {
      // 1. kill -9 a worker in the middle of a session; a new one takes its place.
      const victim = await waitFor('a worker holding a session', () => workerHolding(client, workers), 120_000, 50);
      await victim.kill('SIGKILL');
      workers.splice(workers.indexOf(victim), 1, await start('worker', ['--concurrency', '1']));
    } finally {
      await client.end().catch(() => {});
    }

    // 2. PostgreSQL restarts under load: every process reconnects and carries on.
    if (RESTART_PG) {
      const pending = (await allStatuses(apiClient(api1.url, KEY), ids.map((s) => s.id))).filter((st) => st !== 'completed').length;
      console.log(`# restarting PostgreSQL with ${pending} of ${ids.length} sessions not yet completed`);
      server!.stop();
      await new Promise((r) => setTimeout(r, POSTGRES_DOWN_MS));
      server!.start();
      await waitFor('the API to be ready again', async () => ((await fetch(`${api1.url}/ready`).catch(() => undefined))?.status === 200 ? true : undefined), 60_000, 250);
    }

    // 3. kill -9 an API process in the middle of an upload that replaces a data set.
    const call1 = apiClient(api1.url, KEY);
    const keptBefore = (await call1('GET', '/v1/data/kept?pageSize=1000')).json.data;
    let stop!: () => void;
    const stopped = new Promise<void>((r) => (stop = r));
    await endlessUpload(api2!.url, KEY, 'kept', stopped, 1000);
    await api2!.kill('SIGKILL');
    stop();
    const keptAfter = (await call1('GET', '/v1/data/kept?pageSize=1000')).json.data;
    assert.equal(keptAfter.length, 1000);
    assert.deepEqual(keptAfter, keptBefore, 'the data set is unchanged after its uploader was killed');
    apis = [api1, await start('serve', ['--workers', '0'])];
    await receiverBack;

    const call = apiClient(apis[1]!.url, KEY);
    const ended = await waitFor('every session to end', async () => {
      try { return await allEnded(call, ids.map((s) => s.id)); } catch { return undefined; }
    }, 900_000, 1000).catch(async (e) => { throw new Error(`${(e as Error).message}\n${await clusterState(db.url, named)}`); });
    for (const s of ended) {
      assert.equal(s.status, 'completed', `${s.sessionId}: ${JSON.stringify(s.messages)}`);
      assert.deepEqual(s.statusHistory.map((h: { status: string }) => h.status), ['requested', 'started', 'completed'], s.sessionId);
    }
    for (const { id, kind } of ids) assert.deepEqual(await resultsOf(call, id), reference.get(id), `${kind} session ${id}: results differ from the single-process run`);

    // Every status change delivered, in order per session (at least once: a repeat is allowed, a reordering is not).
    const all = () => [...received, ...receiver.received];
    await waitFor('every callback', async () => (ids.every(({ id }) => statusesOf(all(), id).at(-1) === 'completed') ? true : undefined), 300_000, 500);
    for (const { id } of ids) {
      const seen = statusesOf(all(), id).filter((st, i, xs) => i === 0 || xs[i - 1] !== st);
      assert.deepEqual(seen, ['requested', 'started', 'completed'], `callbacks of ${id}`);
    }

    // Both API processes and every worker are still there and ready.
    for (const a of apis) assert.equal((await fetch(`${a.url}/ready`)).status, 200);
    for (const w of workers) assert.equal(await Promise.race([w.exited.then(() => 'exited'), new Promise((r) => setTimeout(() => r('running'), 100))]), 'running', w.output());

    // A model deleted through one API process stops predicting through the other (its cache checks within MODEL_CHECK_MS).
    const modelId = ended.find((e) => e.modelId)!.modelId as string;
    const predictVia = (url: string) => apiClient(url, KEY)('POST', `/v1/models/${modelId}/predict`, { data: [{ 'Sepal.Length': '5.1', 'Sepal.Width': '3.5', 'Petal.Length': '1.4', 'Petal.Width': '0.2' }] });
    assert.equal((await predictVia(apis[1]!.url)).status, 200, 'the model predicts through the second API process (and is cached there)');
    assert.ok([200, 204].includes((await apiClient(apis[0]!.url, KEY)('DELETE', `/v1/models/${modelId}`)).status));
    const deletedAt = Date.now();
    await waitFor('the deleted model to be gone from the other API process', async () => ((await predictVia(apis[1]!.url)).status === 404 ? true : undefined), MODEL_CHECK_MS + 5000, 200);
    console.log(`# a model deleted through one API process answered 404 through the other after ${Date.now() - deletedAt} ms`);

    // The lease history: no session was ever held by two workers at once.
    const check = new pg.Client({ connectionString: db.url });
    await check.connect();
    try {
      const { rows } = await check.query<{ job_id: string; owner: string; claimed_at: Date; until: Date }>(
        `SELECT job_id, owner, claimed_at, LEAST(expires_at, COALESCE(released_at, expires_at)) AS until
         FROM lease_claims WHERE job_table = 'sessions' ORDER BY job_id, claimed_at, id`);
      assert.equal(new Set(rows.map((r) => r.job_id)).size, ids.length, 'every session was claimed');
      for (let i = 1; i < rows.length; i++) {
        const [a, b] = [rows[i - 1]!, rows[i]!];
        if (a.job_id !== b.job_id) continue;
        assert.ok(b.claimed_at.getTime() >= a.until.getTime(), `session ${b.job_id}: ${b.owner} claimed it at ${b.claimed_at.toISOString()} while ${a.owner} held it until ${a.until.toISOString()}`);
      }
      const retaken = new Set(rows.filter((r, i) => i > 0 && rows[i - 1]!.job_id === r.job_id).map((r) => r.job_id));
      assert.ok(retaken.size >= 1, 'the killed worker\'s session was taken over');
      console.log(`# ${rows.length} claims of ${ids.length} sessions; ${retaken.size} taken over from a dead worker; ${all().length} callbacks received`);
    } finally {
      await check.end();
    }
  });
});

async function admin(url: string, sql: string): Promise<void> {
  const c = new pg.Client({ connectionString: url });
  await c.connect();
  try { await c.query(sql); } finally { await c.end(); }
}

async function allStatuses(call: ReturnType<typeof apiClient>, ids: string[]): Promise<string[]> {
  return Promise.all(ids.map(async (id) => (await call('GET', `/v1/sessions/${id}`)).json.status as string));
}

/** Data sets of the suite: iris (classification), nottem (forecast, impact), kept (the upload victim). */
async function upload(url: string): Promise<void> {
  const put = async (name: string, body: string) => {
    const r = await fetch(`${url}/v1/data/${name}`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' }, body });
    assert.ok(r.status === 200 || r.status === 201, `${name}: ${r.status} ${await r.text()}`);
  };
  await put('iris', readFileSync(fixturePath('classification', 'iris.csv'), 'utf8'));
  await put('nottem?timestampColumn=date', nottemCsv(1));
  await put('kept', 'id,x,kind\n' + csvRows(0, 1000));
}

async function workerHolding(client: pg.Client, candidates: SibylProcess[]): Promise<SibylProcess | undefined> {
  const { rows } = await client.query<{ lease_owner: string }>(`SELECT lease_owner FROM sessions WHERE status = 'started' AND lease_expires_at > now()`);
  for (const row of rows) {
    const w = candidates.find((c) => row.lease_owner?.split(':')[1] === String(c.pid));
    if (w) return w;
  }
  return undefined;
}

async function allEnded(call: ReturnType<typeof apiClient>, ids: string[]): Promise<any[] | undefined> {
  const all: any[] = [];
  for (const id of ids) {
    const r = await call('GET', `/v1/sessions/${id}`);
    if (r.json.status !== 'completed' && r.json.status !== 'failed') return undefined;
    all.push(r.json);
  }
  return all;
}

/** A session's results without what differs between runs by design (ids, dates, links). */
async function resultsOf(call: ReturnType<typeof apiClient>, id: string): Promise<unknown> {
  const r = await call('GET', `/v1/sessions/${id}/results?pageSize=1000`);
  assert.equal(r.status, 200, JSON.stringify(r.json));
  return strip(r.json);
}

const VARYING = new Set(['sessionId', 'modelId', 'links', 'requestedDate', 'statusHistory', 'callbackUrl', 'createdDate', 'lastUsedDate', 'href']);
function strip(v: unknown): unknown {
  // Debug messages report timings and memory of the run.
  if (Array.isArray(v)) return v.filter((x) => !(x && typeof x === 'object' && (x as { severity?: string }).severity === 'debug')).map(strip);
  if (v === null || typeof v !== 'object') return v;
  return Object.fromEntries(Object.entries(v).filter(([k]) => !VARYING.has(k)).map(([k, x]) => [k, strip(x)]));
}

function statusesOf(received: CallbackReceiver['received'], sessionId: string): string[] {
  return received.filter((r) => r.body.sessionId === sessionId && r.answered < 300).map((r) => r.body.status as string);
}
