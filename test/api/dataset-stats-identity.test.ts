import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, writeFileSync } from 'node:fs';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';
import { fixturePath } from '../support/fixtures.js';
import { statsIdentityUploads, STATS_IDENTITY_QUERIES } from '../support/stats-identity-data.js';

/**
 * The column statistics are computed in one streaming pass over the stored row texts (a tally per
 * column, each distinct cell read once). This pins every number to what the earlier computation —
 * each row JSON.parse'd, every cell kept, the numbers sorted cell by cell — gave on the same rows:
 * `stats/column-stats-golden.json` was written by that code (SIBYL_RECORD_STATS_GOLDEN=1 writes it again).
 */
const GOLDEN = fixturePath('stats', 'column-stats-golden.json');

async function statsAnswers(s: TestServer): Promise<Record<string, unknown>> {
  const out: Record<string, unknown> = {};
  for (const q of STATS_IDENTITY_QUERIES) {
    const r = await s.call('GET', `/v1/data/identity/stats${q}`);
    assert.equal(r.status, 200, r.text);
    for (const c of Object.values(r.json.columns) as Record<string, unknown>[]) delete c.lastCalculated;
    out[q || 'own types'] = r.json.columns;
  }
  return out;
}

for (const backend of await backends()) {
  describe(`column statistics of a data set (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('are the same numbers, to the last digit, as the cell-by-cell computation gave', async () => {
      const { csv, json } = statsIdentityUploads();
      assert.equal((await s.call('PUT', '/v1/data/identity', { body: csv, headers: { 'content-type': 'text/csv' } })).status, 201);
      const appended = await s.call('PUT', '/v1/data/identity', { json });
      assert.equal(appended.status, 201, appended.text);
      const answers = await statsAnswers(s);
      if (process.env.SIBYL_RECORD_STATS_GOLDEN === '1') writeFileSync(GOLDEN, JSON.stringify(answers, null, 1) + '\n');
      const golden = JSON.parse(readFileSync(GOLDEN, 'utf8')) as Record<string, unknown>;
      // As JSON text: the order of the fields is part of the answer too.
      for (const q of Object.keys(golden)) assert.equal(JSON.stringify(answers[q], null, 1), JSON.stringify(golden[q], null, 1), `statistics ${q}`);
      assert.deepEqual(Object.keys(answers), Object.keys(golden));
      assert.equal((await s.call('DELETE', '/v1/data/identity')).status, 204);
    });
  });
}
