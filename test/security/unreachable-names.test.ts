/**
 * A data set or view named `.` or `..` could be made (a raw `PUT /v1/data/%2E%2E`, an import's
 * `dataSetName`) but never reached again: every client resolves those segments away. They are
 * refused with 400 at creation, and nothing is made.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { rawRequest, requestHead } from '../support/raw-http.js';

describe('names a URL cannot reach', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  const put = (target: string, contentType: string, body: string) =>
    rawRequest(s.url, requestHead('PUT', target, [['api-key', s.key], ['Content-Type', contentType]], Buffer.byteLength(body)), body);

  it('refuses a data set named . or .. with a 400 naming the rule', async () => {
    for (const target of ['/v1/data/%2E', '/v1/data/%2e%2e', '/v1/data/%2E%2e']) {
      const r = await put(target, 'text/csv', 'a,b\n1,2\n');
      assert.equal(r.status, 400, `${target}: ${r.body.toString()}`);
      const error = JSON.parse(r.body.toString());
      assert.equal(error.errorType, 'RequestValidation');
      assert.match(error.errorDetails.dataSetName[0], /cannot be '\.' or '\.\.'/);
    }
    const listed = await s.call('GET', '/v1/data');
    assert.deepEqual(listed.json.items, [], 'no data set was made');
  });

  it('refuses an import into a data set named ..', async () => {
    const r = await s.call('POST', '/v1/imports/url', { json: { dataSetName: '..', url: 'https://example.org/data.csv' } });
    assert.equal(r.status, 400, r.text);
    assert.match(r.json.errorDetails.dataSetName[0], /cannot be '\.' or '\.\.'/);
    assert.equal((await s.call('GET', '/v1/imports')).json.items.length, 0, 'no import was queued');
  });

  it('refuses a view named ..', async () => {
    assert.equal((await s.call('PUT', '/v1/data/sales', { body: 'day,amount\n2017-01-01,3\n2017-01-02,4\n', headers: { 'content-type': 'text/csv' } })).status, 201);
    const r = await put('/v1/views/%2E%2E', 'application/json', JSON.stringify({ dataSetName: 'sales' }));
    assert.equal(r.status, 400, r.body.toString());
    assert.match(JSON.parse(r.body.toString()).errorDetails.viewName[0], /cannot be '\.' or '\.\.'/);
  });

  it('still takes names with dots in them', async () => {
    for (const name of ['...', '.hidden', 'v1.2']) {
      const r = await s.call('PUT', `/v1/data/${encodeURIComponent(name)}`, { body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201, `${name}: ${r.text}`);
      assert.equal((await s.call('GET', `/v1/data/${encodeURIComponent(name)}`)).status, 200, name);
    }
  });
});
