/**
 * JSON bodies that parse but that no handler or store can keep get a 400 in the error shape naming
 * the place, before any handler runs: nesting thousands of levels deep (once a 500 from the
 * recursive JSON.stringify of the session store), a NUL character at any depth (once a database
 * error below depth 200), a `__proto__` key (once "Body is not valid JSON", which it is).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer, type TestResponse } from '../support/server.js';

const nested = (levels: number, inner: string) => '{"a":'.repeat(levels) + inner + '}'.repeat(levels);

function assertBadRequest(r: TestResponse, pattern: RegExp, what: string): void {
  assert.equal(r.status, 400, `${what}: ${r.text.slice(0, 300)}`);
  assert.equal(r.json.statusCode, 400, what);
  assert.equal(r.json.errorType, 'RequestValidation', what);
  assert.equal(typeof r.json.errorDetails, 'object', what);
  assert.match(r.json.message, pattern, what);
}

describe('JSON bodies: depth, NUL characters and __proto__ keys', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    const put = await s.call('PUT', '/v1/data/flowers', { body: 'a,b,kind\n1,2,x\n2,3,y\n3,4,x\n4,5,y\n', headers: { 'content-type': 'text/csv' } });
    assert.equal(put.status, 201, put.text);
  });
  after(async () => { await s.close(); });

  const session = (extraParameters: string) => s.call('POST', '/v1/sessions/model', {
    body: `{"dataSourceName":"flowers","targetColumn":"kind","predictionDomain":"classification","extraParameters":${extraParameters}}`,
    headers: { 'content-type': 'application/json' },
  });

  it('refuses bodies nested thousands of levels deep, naming the limit', async () => {
    assertBadRequest(await session(nested(5000, '1')), /nested deeper than \d+ levels/, 'session, 5,000 levels');
    const deepRecord = await s.call('PUT', '/v1/data/deep', { body: `{"data":[{"a":${'['.repeat(5000)}${']'.repeat(5000)}}]}`, headers: { 'content-type': 'application/json' } });
    assertBadRequest(deepRecord, /nested deeper than \d+ levels/, 'data set, 5,000 levels');
    assert.equal((await s.call('GET', '/v1/data/deep')).status, 404, 'nothing was created');
    const sessions = await s.call('GET', '/v1/sessions');
    assert.equal(sessions.json.items.length, 0, 'no session was created');
  });

  it('refuses a NUL character at any depth, naming where it is', async () => {
    for (const levels of [1, 30, 63]) {
      const r = await session(nested(levels, '"x\\u0000y"'));
      assertBadRequest(r, /NUL character/, `NUL at depth ${levels}`);
      const place = ['extraParameters', ...Array(levels).fill('a')].join('.');
      assert.ok(r.json.errorDetails[place], `${levels}: names ${place}: ${JSON.stringify(r.json.errorDetails).slice(0, 200)}`);
    }
    assertBadRequest(await session(nested(300, '"\\u0000"')), /nested deeper|NUL/, 'NUL at depth 300');
    const key = await s.call('PUT', '/v1/data/nul', { body: '{"data":[{"a":1,"b\\u0000":2}]}', headers: { 'content-type': 'application/json' } });
    assertBadRequest(key, /NUL character/, 'NUL in a key');
    assert.ok(key.json.errorDetails['data[0].b\u0000'] !== undefined, 'the key is named');
  });

  it('says that a __proto__ key is refused, and where, not that the JSON is invalid', async () => {
    const r = await s.call('PUT', '/v1/data/proto', { body: '{"data":[{"a":1},{"__proto__":1,"a":2}]}', headers: { 'content-type': 'application/json' } });
    assertBadRequest(r, /__proto__.*data\[1\]/, '__proto__ in a record');
    assert.doesNotMatch(r.json.message, /not valid JSON/);
    const invalid = await s.call('PUT', '/v1/data/proto', { body: '{"data":[{"__proto__":1,', headers: { 'content-type': 'application/json' } });
    assert.equal(invalid.status, 400, 'truncated JSON is still just invalid');
  });

  it('accepts ordinary nesting', async () => {
    const r = await s.call('PUT', '/v1/data/plain', { json: { data: [{ a: 1, b: 'x' }], columns: { a: { dataType: 'numeric', role: 'feature' } } } });
    assert.equal(r.status, 201, r.text);
  });
});
