import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

const LEVELS = ['0.05', '0.1', '0.2', '0.5', '0.8', '0.9', '0.95'];

for (const backend of await backends()) {
  describe(`the links of a forecast's results (${backend})`, () => {
    let s: TestServer;
    let id: string;
    before(async () => {
      s = await startTestServer(backend);
      const csv = readFileSync(fixturePath('forecast', 'fpp2', 'a10.csv'), 'utf8');
      assert.equal((await s.call('PUT', '/v1/data/a10', { body: csv, headers: { 'content-type': 'text/csv' } })).status, 201);
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'a10', targetColumn: 'value', startDate: '2008-07-01', endDate: '2009-06-01', resultInterval: 'month' } });
      assert.equal(r.status, 200, r.text);
      id = r.json.sessionId;
      await completedSession(s, id);
    });
    after(async () => { await s.close(); });

    it('lists the contest, a prediction-interval link per level and the outliers between self and the paging links, as the original service did', async () => {
      const r = await s.call('GET', `/v1/sessions/${id}/results`);
      assert.equal(r.status, 200, r.text);
      const rels = r.json.links.map((l: { rel: string }) => l.rel);
      assert.deepEqual(rels, ['self', 'contest', ...LEVELS.map((p) => `prediction-interval:${p}`), 'outliers', 'first', 'last']);
    });

    it('every part it links to answers: the contest, the rows of each level (those of ?predictionInterval=) and the outliers', async () => {
      const links: { rel: string; href: string }[] = (await s.call('GET', `/v1/sessions/${id}/results`)).json.links;
      const parts = links.filter((l) => !['self', 'first', 'last'].includes(l.rel));
      assert.equal(parts.length, 2 + LEVELS.length, JSON.stringify(links));
      for (const { rel, href } of parts) {
        const path = new URL(href).pathname + new URL(href).search;
        const got = await s.call('GET', path);
        assert.equal(got.status, 200, `${rel} → ${href}: ${got.text}`);
        if (rel.startsWith('prediction-interval:')) {
          const level = rel.slice('prediction-interval:'.length);
          const direct = await s.call('GET', `/v1/sessions/${id}/results?predictionInterval=${level}`);
          assert.deepEqual(got.json.data, direct.json.data, rel);
          assert.equal(got.json.data.length, 12, rel);
        }
        if (rel === 'contest') assert.ok(got.json.champion, got.text);
        if (rel === 'outliers') assert.ok(Array.isArray(got.json.data), got.text);
      }
    });
  });
}
