/**
 * The key check and the router agree on every spelling of a path. The router collapses `//`,
 * decodes percent-escapes, ignores case and a trailing slash; a check on the raw URL once let
 * `//v1/data` and `/%761/data` run the /v1 handlers with no key (and the URL import's address
 * pre-check answer for anyone). Each spelling is written byte for byte on the socket, since fetch
 * would tidy some of them.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';
import { rawRequest, requestHead, type RawResponse } from '../support/raw-http.js';

/** Spellings of /v1/<rest>: each one either routes to the /v1 handler or matches nothing. */
const SPELLINGS = [
  (rest: string) => `//v1/${rest}`,
  (rest: string) => `///v1/${rest}`,
  (rest: string) => `/v1//${rest}`,
  (rest: string) => `/%761/${rest}`, // %76 = v
  (rest: string) => `/%76%31/${rest}`, // %31 = 1
  (rest: string) => `/v1/${rest.replace(/^./, (c) => `%${c.charCodeAt(0).toString(16)}`)}`,
  (rest: string) => `/%2Fv1/${rest}`, // an escaped slash
  (rest: string) => `/v1%2F${rest}`,
  (rest: string) => `/V1/${rest.toUpperCase()}`,
  (rest: string) => `/v1/${rest}/`,
  (rest: string) => `//v1/${rest}//`,
  (rest: string) => `/v1/../v1/${rest}`,
  (rest: string) => `/v1/./${rest}`,
  (rest: string) => `/%2e%2e/v1/${rest}`,
  (rest: string) => `/v1/${rest}?api-key=`,
];

const ENDPOINTS: { method: string; rest: string; contentType?: string; body?: string }[] = [
  { method: 'GET', rest: 'data' },
  { method: 'GET', rest: 'metrics' },
  { method: 'GET', rest: 'data/iris' },
  { method: 'GET', rest: 'sessions' },
  { method: 'PUT', rest: 'data/sneaky', contentType: 'text/csv', body: 'a,b\n1,2\n' },
  // The address pre-check must not answer either: it would tell who asks what a name resolves to.
  { method: 'POST', rest: 'imports/url', contentType: 'application/json', body: JSON.stringify({ dataSetName: 'u', url: 'http://localhost/x.csv' }) },
];

function send(s: TestServer, method: string, target: string, headers: [string, string][] = [], body = ''): Promise<RawResponse> {
  return rawRequest(s.url, requestHead(method, target, headers, Buffer.byteLength(body)), body);
}

function assertUnauthorized(r: RawResponse, what: string): void {
  assert.equal(r.status, 401, `${what}: ${r.status} ${r.body.toString()}`);
  const body = JSON.parse(r.body.toString());
  assert.equal(body.statusCode, 401, what);
  assert.equal(body.errorType, 'Unauthorized', what);
  assert.equal(typeof body.message, 'string', what);
  assert.equal(typeof body.errorDetails, 'object', what);
}

describe('every spelling of an API path needs a key', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  it('answers 401 without a key, whatever the spelling and the endpoint', async () => {
    for (const e of ENDPOINTS) {
      for (const spell of SPELLINGS) {
        const target = spell(e.rest);
        const headers: [string, string][] = e.contentType ? [['Content-Type', e.contentType]] : [];
        assertUnauthorized(await send(s, e.method, target, headers, e.body), `${e.method} ${target}`);
      }
    }
    const created = await s.call('GET', '/v1/data/sneaky');
    assert.equal(created.status, 404, 'nothing was stored');
  });

  it('the spellings the router accepts reach the same handler with a key', async () => {
    for (const target of ['//v1/data', '/%761/data', '/V1/DATA', '/v1/data/', '/v1//metrics']) {
      const r = await send(s, 'GET', target, [['api-key', s.key]]);
      assert.equal(r.status, 200, `${target}: ${r.body.toString()}`);
    }
  });

  it('a wrong key is refused on every spelling too', async () => {
    for (const target of ['//v1/data', '/%761/metrics', '/V1/Sessions']) {
      assertUnauthorized(await send(s, 'GET', target, [['api-key', 'sk_not_a_real_key_at_all']]), target);
    }
  });

  it('the dashboard routes keep their cross-site guard on every spelling', async () => {
    for (const target of ['/auth/signin', '//auth/signin', '/%61uth/signin', '/AUTH/SIGNIN/']) {
      const body = JSON.stringify({ email: 'x@example.org', password: 'whatever whatever' });
      const r = await send(s, 'POST', target, [['Content-Type', 'application/json'], ['Origin', 'https://evil.example']], body);
      assert.equal(r.status, 403, `${target}: ${r.body.toString()}`);
      assert.equal(JSON.parse(r.body.toString()).errorType, 'CrossSiteRequest', target);
    }
  });
});
