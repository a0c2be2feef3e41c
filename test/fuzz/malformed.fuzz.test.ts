import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fixturePath } from '../support/fixtures.js';
import { rawRequest, requestHead, type RawResponse } from '../support/raw-http.js';
import { malformedRequests, type FuzzRequest } from './generate.js';

// How many generated requests per store; SIBYL_FUZZ_REQUESTS raises it for a longer hunt.
const COUNT = Number(process.env.SIBYL_FUZZ_REQUESTS ?? 3000);
const SEED = Number(process.env.SIBYL_FUZZ_SEED ?? 20261123);
const IN_FLIGHT = 8;

for (const backend of await backends()) {
  describe(`bad input on the ${backend} store: ${COUNT} generated malformed requests`, () => {
    let s: TestServer;
    let seed: { dataSet: string; sessionId: string; modelId: string; importId: string };

    before(async () => {
      s = await startTestServer(backend);
      const csv = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8');
      assert.equal((await s.call('PUT', '/v1/data/iris', { body: csv, headers: { 'content-type': 'text/csv' } })).status, 201);
      const session = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification' } });
      assert.equal(session.status, 200, session.text);
      const done = await waitForSession(s, session.json.sessionId);
      const imp = await s.call('POST', '/v1/imports/url', { json: { dataSetName: 'never', url: 'http://127.0.0.1:1/x.csv' } });
      // Loopback imports are refused at request time (400) unless allowed: then there is no import id to aim at.
      seed = { dataSet: 'iris', sessionId: session.json.sessionId, modelId: done.modelId, importId: imp.json?.importId ?? '00000000-0000-4000-8000-000000000000' };
    });
    after(async () => { await s?.close(); });

    it('answers every one with a 4xx in the error shape (or a harmless read), never a 5xx, and changes nothing', async () => {
      const before = await snapshot(s);
      const requests = malformedRequests(SEED, COUNT, s.server.app.routeList, seed, s.key);
      const failures: string[] = [];
      const tally = new Map<number, number>();
      let next = 0;
      const worker = async () => {
        for (;;) {
          const i = next++;
          if (i >= requests.length) return;
          const r = requests[i]!;
          let res: RawResponse;
          try {
            res = await send(s.url, r);
          } catch (e) {
            failures.push(`#${i} ${r.label}: ${(e as Error).message}`);
            continue;
          }
          tally.set(res.status, (tally.get(res.status) ?? 0) + 1);
          const problem = judge(r, res);
          if (problem) failures.push(`#${i} ${r.label} ${JSON.stringify(r.target.subarray(0, 160).toString('latin1'))}: ${problem}`);
        }
      };
      await Promise.all(Array.from({ length: IN_FLIGHT }, worker));
      console.log(`# ${backend}: ${requests.length} requests, answers by status: ${JSON.stringify(Object.fromEntries([...tally].sort((a, b) => a[0] - b[0])))}`);
      assert.deepEqual(failures.slice(0, 40), [], `${failures.length} of ${requests.length} answers were wrong`);
      // Still alive and serving.
      assert.equal((await s.call('GET', '/health')).status, 200);
      assert.equal((await s.call('GET', '/v1/data/iris')).status, 200);
      assert.deepEqual(await snapshot(s), before, 'stored data changed');
    });
  });
}

async function send(url: string, r: FuzzRequest): Promise<RawResponse> {
  const head = requestHead(r.method, r.target, r.headers, r.body.length);
  return rawRequest(url, head, r.body);
}

function judge(r: FuzzRequest, res: RawResponse): string | undefined {
  if (res.status >= 500) return `answered ${res.status}: ${res.body.toString('utf8').slice(0, 300)}`;
  if (res.status < 400) {
    // A lenient read may answer (unknown parameters are ignored, compat-notes §2.2); a write must not.
    if (r.method === 'GET' || r.method === 'HEAD' || r.mayPass) return undefined;
    return `answered ${res.status} to a malformed ${r.method}: ${res.body.toString('utf8').slice(0, 200)}`;
  }
  if (r.method === 'HEAD') return undefined; // no body by definition
  let body: any;
  try { body = JSON.parse(res.body.toString('utf8')); } catch { return `answered ${res.status} without a JSON body: ${JSON.stringify(res.body.toString('latin1').slice(0, 200))}`; }
  const shaped = body && body.statusCode === res.status && typeof body.message === 'string' && typeof body.errorType === 'string'
    && body.errorDetails !== null && typeof body.errorDetails === 'object';
  return shaped ? undefined : `answered ${res.status} outside the error shape: ${res.body.toString('utf8').slice(0, 200)}`;
}

/** What the account holds, read through the API: it must be the same before and after the barrage. */
async function snapshot(s: TestServer): Promise<unknown> {
  const rows = await s.server.services.db.query<{ t: string; n: string }>(
    `SELECT 'datasets' AS t, count(*)::text AS n FROM datasets UNION ALL SELECT 'rows', count(*)::text FROM dataset_rows
     UNION ALL SELECT 'sessions', count(*)::text FROM sessions UNION ALL SELECT 'models', count(*)::text FROM models
     UNION ALL SELECT 'imports', count(*)::text FROM imports UNION ALL SELECT 'accounts', count(*)::text FROM accounts
     UNION ALL SELECT 'keys', count(*)::text FROM api_keys UNION ALL SELECT 'outbox', count(*)::text FROM outbox`);
  const data = await s.call('GET', '/v1/data/iris?pageSize=1000');
  const sets = await s.call('GET', '/v1/data?pageSize=1000');
  return { counts: rows, rows: data.json.data, sets: sets.json.items.map((d: any) => [d.dataSetName, d.rowCount]) };
}

async function waitForSession(s: TestServer, id: string): Promise<any> {
  const end = Date.now() + 120000;
  for (;;) {
    const r = await s.call('GET', `/v1/sessions/${id}`);
    if (r.json.status === 'completed') return r.json;
    if (r.json.status === 'failed' || Date.now() > end) throw new Error(`seed session: ${r.text}`);
    await new Promise((done) => setTimeout(done, 200));
  }
}
