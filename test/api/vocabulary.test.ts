/**
 * Text columns over HTTP: a classification session on real reviews (fine-food fixture) with the
 * review declared `text` stores its vocabulary; /v1/vocabulary lists it (by data source, by
 * session, paged) and /v1/vocabulary/<id> gives ranked words and the stop words; prediction uses
 * the saved vocabulary (a complaint scores higher for `other` than praise does). Uploaded as it is,
 * the review is inferred text (domain/prose.ts), so a session with nothing declared learns from it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';
import { fixturePath } from '../support/fixtures.js';

describe('vocabularies over HTTP', () => {
  let s: TestServer;
  let sessionId: string;
  let modelId: string;
  before(async () => {
    s = await startTestServer('pglite');
    const csv = readFileSync(fixturePath('text', 'fine_foods.csv'), 'utf8');
    const up = await s.call('PUT', '/v1/data/reviews', { body: csv, headers: { 'content-type': 'text/csv' } });
    assert.equal(up.status, 201, up.text);
    // .NET clients send dataType Text as the integer 4.
    const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'reviews', predictionDomain: 'classification', targetColumn: 'score', columns: { review: { dataType: 4, role: 'feature' }, product: { role: 'none' } } } });
    assert.equal(r.status, 200, r.text);
    sessionId = r.json.sessionId;
    const done = await completedSession(s, sessionId, 300_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.messages));
    modelId = done.modelId;
  });
  after(async () => { await s.close(); });

  it('lists the vocabulary of the text column, filtered by data source and by session, with paging fields', async () => {
    const all = await s.call('GET', '/v1/vocabulary?page=0&pageSize=50');
    assert.equal(all.status, 200);
    assert.equal(all.json.items.length, 1);
    const v = all.json.items[0];
    assert.equal(v.dataSourceName, 'reviews');
    assert.equal(v.columnName, 'review');
    assert.equal(v.dataSourceType, 'dataSet');
    assert.equal(v.createdBySessionId, sessionId);
    assert.match(v.createdOnDate, /\+00:00$/);
    assert.equal(v.links[0].rel, 'words');
    assert.equal(all.json.totalCount, 1);
    assert.equal((await s.call('GET', '/v1/vocabulary?dataSource=reviews')).json.items.length, 1);
    assert.equal((await s.call('GET', '/v1/vocabulary?dataSource=other')).json.items.length, 0);
    assert.equal((await s.call('GET', `/v1/vocabulary?createdFromSession=${sessionId}`)).json.items.length, 1);
    assert.equal((await s.call('GET', '/v1/vocabulary?createdFromSession=0160fb8f-de87-418c-8ef3-f1a479767437')).json.items.length, 0);
  });

  it('gives words by rank, stop words without rank, filtered by type and paged; unknown ids are 404', async () => {
    const id = (await s.call('GET', '/v1/vocabulary')).json.items[0].id;
    const words = await s.call('GET', `/v1/vocabulary/${id}?type=word&page=1&pageSize=10`);
    assert.equal(words.status, 200);
    assert.equal(words.json.id, id);
    assert.equal(words.json.pageNumber, 1);
    assert.equal(words.json.items.length, 10);
    assert.deepEqual(words.json.items.map((w: any) => w.rank), [10, 11, 12, 13, 14, 15, 16, 17, 18, 19]);
    assert.ok(words.json.items.every((w: any) => w.type === 'word'));
    const top = (await s.call('GET', `/v1/vocabulary/${id}?type=word&pageSize=30`)).json.items.map((w: any) => w.text);
    assert.ok(top.some((t: string) => /great|love|best|delicious|not|disappoint/.test(t)), `top words ${top.join(', ')}`);
    const stops = await s.call('GET', `/v1/vocabulary/${id}?type=stopWord&pageSize=1000`);
    assert.ok(stops.json.items.length > 20);
    assert.ok(stops.json.items.every((w: any) => w.type === 'stopWord' && !('rank' in w)), 'stop words carry no rank (as the original wrote them)');
    assert.ok(stops.json.items.some((w: any) => w.text === 'the'), 'English stop words met are listed');
    assert.ok(stops.json.items.some((w: any) => w.text.includes(' ')), 'so are terms the ranking left out');
    const topSet = new Set((await s.call('GET', `/v1/vocabulary/${id}?type=word&pageSize=1000`)).json.items.map((w: any) => w.text));
    assert.ok(stops.json.items.every((w: any) => !topSet.has(w.text)), 'no term is both a word and a stop word');
    const missing = await s.call('GET', '/v1/vocabulary/9a6a4bf0-e85c-41bc-b3b9-76f7bba81f39');
    assert.equal(missing.status, 404);
    assert.equal(missing.json.errorType, 'NotFound');
    assert.equal((await s.call('GET', `/v1/vocabulary/${id}?type=sentence`)).status, 400);
  });

  it('predicts with the saved vocabulary', async () => {
    const r = await s.call('POST', `/v1/models/${modelId}/predict`, {
      json: { data: [{ review: 'Stale, tasteless and overpriced. Very disappointed, would not buy again.' }, { review: 'Delicious! The best coffee I have had, love it, great price.' }], extraParameters: { includeClassScores: true } },
    });
    assert.equal(r.status, 200, r.text);
    const [bad, good] = r.json.data;
    assert.ok(Number(bad['score:other']) > Number(good['score:other']), JSON.stringify(r.json.data));
    assert.equal(good.score, 'great');
  });

  it('a table of reviews uploaded as it is: the review is read as text, the upload says so, and a session with nothing declared learns from its words', async () => {
    const lines = readFileSync(fixturePath('text', 'fine_foods.csv'), 'utf8').split('\n');
    const up = await s.call('PUT', '/v1/data/asSent', { body: lines.slice(0, 601).join('\n'), headers: { 'content-type': 'text/csv' } });
    assert.equal(up.status, 201, up.text);
    assert.deepEqual(Object.fromEntries(Object.entries(up.json.columns).map(([n, c]: [string, any]) => [n, c.dataType])), { product: 'string', review: 'text', score: 'string' });
    const said = up.json.messages.find((m: any) => /^Column 'review' holds prose/.test(m.message));
    assert.match(said?.message ?? '', /\(each of its 600 cells different, \d+ words each on average\): it is read as text.*Declare its dataType string/, JSON.stringify(up.json.messages));
    const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'asSent', predictionDomain: 'classification', targetColumn: 'score' } });
    assert.equal(r.status, 200, r.text);
    const done = await completedSession(s, r.json.sessionId, 300_000);
    assert.equal(done.status, 'completed', JSON.stringify(done.messages));
    assert.ok(!done.messages.some((m: any) => /review/.test(m.message) && m.severity === 'warning'), JSON.stringify(done.messages));
    const vocabularies = (await s.call('GET', `/v1/vocabulary?createdFromSession=${r.json.sessionId}`)).json.items;
    assert.deepEqual(vocabularies.map((v: any) => v.columnName), ['review']);
    const results = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
    assert.ok(Number(results.json.metrics.rocAreaUnderCurve) > 0.6, JSON.stringify(results.json.metrics));
    assert.equal((await s.call('DELETE', '/v1/data/asSent?cascade=vocabulary')).status, 204);
  });

  it('deleting the data set with cascade=vocabulary removes its vocabularies', async () => {
    const del = await s.call('DELETE', '/v1/data/reviews?cascade=vocabulary');
    assert.equal(del.status, 204);
    assert.equal((await s.call('GET', '/v1/vocabulary')).json.items.length, 0);
  });
});
