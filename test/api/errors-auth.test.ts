import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

function assertErrorShape(body: any, status: number, errorType?: string): void {
  assert.equal(body.statusCode, status);
  assert.equal(typeof body.message, 'string');
  assert.equal(typeof body.errorType, 'string');
  assert.equal(typeof body.errorDetails, 'object');
  if (errorType) assert.equal(body.errorType, errorType);
  assert.ok(!JSON.stringify(body).includes('    at '), 'no stack traces');
}

describe('authentication and the error shape', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite', { SIBYL_MAX_JSON_BYTES: '2048' }); });
  after(async () => { await s.close(); });

  it('401 without a key, with an unknown key and with a revoked key', async () => {
    for (const headers of [{ 'api-key': '' }, { 'api-key': 'sk_not_a_real_key_at_all' }]) {
      const r = await s.call('GET', '/v1/data', { headers });
      assert.equal(r.status, 401);
      assertErrorShape(r.json, 401);
    }
    const a = await s.server.services.accounts.createAccount(null);
    const { key, row } = await s.server.services.accounts.createKey(a.id);
    assert.equal((await s.call('GET', '/v1/data', { headers: { 'api-key': key } })).status, 200);
    assert.equal((await s.call('GET', '/v1/data', { headers: { 'api-key': '', authorization: `Bearer ${key}` } })).status, 200, 'Bearer tokens work too');
    await s.server.services.accounts.revokeKey(row.id);
    assert.equal((await s.call('GET', '/v1/data', { headers: { 'api-key': key } })).status, 401);
  });

  it('stores keys only as hashes', async () => {
    const rows = await s.server.services.db.query<{ hash: string }>('SELECT hash FROM api_keys');
    assert.ok(rows.length > 0);
    for (const r of rows) assert.ok(!r.hash.includes(s.key) && /^[0-9a-f]{64}$/.test(r.hash));
  });

  it('404 for unknown paths, 405 for known paths with another method', async () => {
    const nf = await s.call('GET', '/v1/nothing-here');
    assert.equal(nf.status, 404);
    assertErrorShape(nf.json, 404, 'NotFound');
    const na = await s.call('POST', '/v1/data/abc', { json: {} });
    assert.equal(na.status, 405);
    assertErrorShape(na.json, 405);
    assert.match(na.headers.get('allow') ?? '', /PUT/);
  });

  it('413 for a body over the limit, naming the limit; 415 for an unsupported type', async () => {
    const big = await s.call('PUT', '/v1/data/big', { json: { data: Array.from({ length: 200 }, (_, i) => ({ i, v: 'x'.repeat(20) })) } });
    assert.equal(big.status, 413);
    assertErrorShape(big.json, 413);
    assert.match(big.json.message, /2048 bytes/);
    const xml = await s.call('PUT', '/v1/data/x', { body: '<a/>', headers: { 'content-type': 'application/xml' } });
    assert.equal(xml.status, 415);
    assertErrorShape(xml.json, 415);
    assert.equal((await s.call('GET', '/v1/data/big')).status, 404, 'nothing was created');
  });

  it('400 RequestValidation names each bad parameter; malformed JSON is a 400 too', async () => {
    const r = await s.call('GET', '/v1/data?page=-1&pageSize=abc');
    assert.equal(r.status, 400);
    assertErrorShape(r.json, 400, 'RequestValidation');
    assert.ok(r.json.errorDetails.page && r.json.errorDetails.pageSize);
    const bad = await s.call('PUT', '/v1/data/x', { body: '{"data": [', headers: { 'content-type': 'application/json' } });
    assert.equal(bad.status, 400);
    assertErrorShape(bad.json, 400);
    const meta = await s.call('PUT', '/v1/data/x', { json: { columns: { a: { dataType: 'banana' } } } });
    assert.equal(meta.status, 400);
    assert.ok(meta.json.errorDetails.a, 'the column is named');
    for (const path of ['/v1/data', '/v1/sessions', '/v1/messages']) {
      const twice = await s.call('GET', `${path}?page=1&page=2`);
      assert.equal(twice.status, 400, path);
      assertErrorShape(twice.json, 400, 'RequestValidation');
      assert.deepEqual(twice.json.errorDetails.page, ['page was given 2 times (page=1, page=2): give it once'], path);
    }
  });

  it('HEAD errors carry no body; every answer carries the account headers', async () => {
    const r = await s.call('HEAD', '/v1/sessions/not-a-guid');
    assert.equal(r.status, 400);
    assert.equal(r.text, '');
    const ok = await s.call('GET', '/v1/data?page=0&pageSize=1');
    for (const h of ['DataSetCount', 'SessionCount', 'PredictionCount']) {
      assert.match(ok.headers.get(`nexosis-account-${h.toLowerCase()}-allotted`) ?? '', /^\d+$/);
      assert.match(ok.headers.get(`nexosis-account-${h.toLowerCase()}-current`) ?? '', /^\d+$/);
    }
  });

  it('serves an OpenAPI 3.1 document from the route schemas and a browsable reference', async () => {
    const r = await s.call('GET', '/v1/openapi.json', { headers: { 'api-key': '' } });
    assert.equal(r.status, 200);
    assert.equal(r.json.openapi, '3.1.0');
    for (const p of ['/v1/data/{name}', '/v1/data', '/v1/imports/url', '/v1/sessions/{id}']) assert.ok(r.json.paths[p], `documents ${p}`);
    const docs = await fetch(`${s.url}/docs/`);
    assert.equal(docs.status, 200);
    assert.match(await docs.text(), /<html/i);
  });
});
