import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fixturePath } from '../support/fixtures.js';
import { startSibyl, type SibylProcess } from './sibyl-process.js';
import { apiClient, waitFor } from './api-client.js';

const KEY = 'sk_restart_test_key_0123456789';

describe('restart on the embedded store after kill -9', () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'sibyl-restart-'));
  const env = { SIBYL_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SIBYL_API_KEY: KEY, SIBYL_WORKERS: '1', SIBYL_LEASE_MS: '2000' };
  let server: SibylProcess | undefined;

  after(async () => {
    await server?.kill('SIGTERM');
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('resumes a started and a requested session, each completing once', async () => {
    server = await startSibyl('serve', env);
    let call = apiClient(server.url, KEY);
    const csv = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8');
    const put = await fetch(`${server.url}/v1/data/iris`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' }, body: csv });
    assert.equal(put.status, 201);
    const request = { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification' };
    const first = (await call('POST', '/v1/sessions/model', request)).json.sessionId as string;
    const second = (await call('POST', '/v1/sessions/model', request)).json.sessionId as string;
    // One job at a time: the first is running, the second waits for it.
    await waitFor('the first session to start', async () => ((await call('GET', `/v1/sessions/${first}`)).json.status === 'started' ? true : undefined), 30000, 20);
    const waiting = await call('GET', `/v1/sessions/${second}`);
    assert.equal(waiting.json.status, 'requested');
    await server.kill('SIGKILL');

    const restartedAt = Date.now();
    server = await startSibyl('serve', env);
    call = apiClient(server.url, KEY);
    for (const id of [first, second]) {
      const done = await waitFor(`session ${id} to end`, async () => {
        const r = await call('GET', `/v1/sessions/${id}`);
        return r.json.status === 'completed' || r.json.status === 'failed' ? r.json : undefined;
      }, 90000, 250);
      const history = done.statusHistory as { date: string; status: string }[];
      assert.deepEqual(history.map((h) => h.status), ['requested', 'started', 'completed'], JSON.stringify(done.messages));
      assert.ok(Date.parse(history[2]!.date) >= restartedAt, 'completed by the restarted server');
      const results = await call('GET', `/v1/sessions/${id}/results`);
      assert.equal(typeof results.json.metrics.macroAverageF1Score, 'number');
    }
  });
});
