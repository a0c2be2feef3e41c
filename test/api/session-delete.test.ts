/**
 * Deleting a running session stops it (jobs/job-loop.ts, jobs/session-jobs.ts): the original service
 * had no cancel endpoint, so its clients delete a session to stop one. The worker's next lease renewal
 * finds the row gone, ends the computation's thread, and keeps nothing of the run: no model names the
 * deleted session. Before, the run went on to its end and saved a model whose session answered 404.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { eventually, startTestServer, type TestServer } from '../support/server.js';
import { fixturePath } from '../support/fixtures.js';

describe('deleting a running session', () => {
  let s: TestServer;
  // A lease of 3 s is renewed every second, so a deletion is noticed within about a second.
  before(async () => { s = await startTestServer('pglite', { SIBYL_LEASE_MS: '3000' }); });
  after(async () => { await s.close(); });

  const runs = async (outcome: string) => {
    const text = (await s.call('GET', '/metrics')).text;
    const line = text.split('\n').find((l) => l.startsWith(`sibyl_session_run_seconds_count{kind="model",outcome="${outcome}"}`));
    return line ? Number(line.split(' ').pop()) : 0;
  };

  it('stops its computation within seconds and leaves no model behind', async () => {
    // 20,000 rows of 26 classes: a session that runs for many seconds.
    const up = await s.call('PUT', '/v1/data/letters', { body: readFileSync(fixturePath('classification', 'letter_recognition.csv')), headers: { 'content-type': 'text/csv' } });
    assert.equal(up.status, 201, up.text);
    const created = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'letters', targetColumn: 'lettr', predictionDomain: 'classification' } });
    assert.equal(created.status, 200, created.text);
    const id = created.json.sessionId;
    await eventually(async () => ((await s.call('GET', `/v1/sessions/${id}`)).json.status === 'started' ? true : undefined), 60_000);
    // Into its computation (the data is loaded in well under a second).
    await new Promise((r) => setTimeout(r, 1500));
    assert.equal((await s.call('DELETE', `/v1/sessions/${id}`)).status, 204);
    const deletedAt = Date.now();
    await eventually(async () => ((await runs('stopped')) === 1 ? true : undefined), 20_000, 200);
    assert.ok(Date.now() - deletedAt < 10_000, `stopped ${Date.now() - deletedAt} ms after the deletion`);
    assert.equal(await runs('completed'), 0);
    assert.equal((await s.call('GET', `/v1/sessions/${id}`)).status, 404);
    const models = await s.call('GET', '/v1/models?dataSourceName=letters');
    assert.deepEqual(models.json.items, []);
    // The worker is free again: the next session runs.
    const next = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'letters', targetColumn: 'lettr', predictionDomain: 'classification', columns: { 'x.box': { role: 'none' } } } });
    assert.equal(next.status, 200);
    await eventually(async () => ((await s.call('GET', `/v1/sessions/${next.json.sessionId}`)).json.status === 'started' ? true : undefined), 30_000);
    assert.equal((await s.call('DELETE', `/v1/sessions/${next.json.sessionId}`)).status, 204);
    await eventually(async () => ((await runs('stopped')) === 2 ? true : undefined), 20_000, 200);
  });
});
