/**
 * A CSV answer holds cells its uploader chose: a browser that sniffed it as HTML would run them.
 * Every answer says `X-Content-Type-Options: nosniff` (CSV of data sets and results, JSON, errors).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('X-Content-Type-Options: nosniff', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    const put = await s.call('PUT', '/v1/data/page', { body: 'a,b\n<html><script>alert(1)</script>,2\n', headers: { 'content-type': 'text/csv' } });
    assert.equal(put.status, 201, put.text);
  });
  after(async () => { await s.close(); });

  it('is on CSV answers, JSON answers and errors', async () => {
    const csv = await s.call('GET', '/v1/data/page', { headers: { accept: 'text/csv' } });
    assert.equal(csv.status, 200);
    assert.match(csv.headers.get('content-type') ?? '', /text\/csv/);
    const json = await s.call('GET', '/v1/data/page');
    const missing = await s.call('GET', '/v1/data/absent', { headers: { accept: 'text/csv' } });
    const unauthenticated = await s.call('GET', '/v1/data', { headers: { 'api-key': '' } });
    for (const [what, r] of Object.entries({ csv, json, missing, unauthenticated })) {
      assert.equal(r.headers.get('x-content-type-options'), 'nosniff', what);
    }
    assert.equal(missing.status, 404);
    assert.equal(unauthenticated.status, 401);
  });
});
