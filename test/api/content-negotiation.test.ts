/**
 * `Accept` as RFC 9110 §12.5.1 reads it: q-values weigh the types a route serves (JSON everywhere,
 * CSV on the per-row routes), and a client that accepts none of them gets 406 in the error shape.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startTestServer, type TestServer } from '../support/server.js';

describe('content negotiation on Accept', () => {
  let s: TestServer;
  before(async () => {
    s = await startTestServer('pglite');
    assert.equal((await s.call('PUT', '/v1/data/sales', { body: 'day,sales\n2017-01-01,3\n2017-01-02,5\n', headers: { 'content-type': 'text/csv' } })).status, 201);
  });
  after(async () => { await s.close(); });

  async function typeOf(path: string, accept: string): Promise<[number, string]> {
    const r = await s.call('GET', path, { headers: { accept } });
    return [r.status, (r.headers.get('content-type') ?? '').split(';')[0]!];
  }

  it('a route serving JSON and CSV answers the type of the highest q, then the more specific range, then the one listed first', async () => {
    const cases: [string, string][] = [
      ['text/csv;q=0.1, application/json', 'application/json'],
      ['application/json;q=0.5, text/csv', 'text/csv'],
      ['text/csv', 'text/csv'],
      ['text/*', 'text/csv'],
      ['*/*', 'application/json'],
      ['text/csv, application/json', 'text/csv'],
      ['application/json, text/csv', 'application/json'],
      ['application/json;q=0, */*', 'text/csv'],
      ['text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8', 'application/json'],
      ['TEXT/CSV; Q=1.0', 'text/csv'],
    ];
    for (const [accept, expected] of cases) assert.deepEqual(await typeOf('/v1/data/sales', accept), [200, expected], accept);
  });

  it('a route serving JSON only answers JSON to a client that takes it at any q above 0', async () => {
    for (const accept of ['application/json;q=0.01', 'text/csv;q=0.9, application/*;q=0.1', '*/*;q=0.2']) {
      assert.deepEqual(await typeOf('/v1/data', accept), [200, 'application/json'], accept);
    }
  });

  it('a client that accepts nothing the route serves gets 406 in the error shape, naming what is available', async () => {
    for (const [path, accept, available] of [
      ['/v1/data/sales', 'application/json;q=0', ['application/json', 'text/csv']],
      ['/v1/data/sales', 'text/html', ['application/json', 'text/csv']],
      ['/v1/data', 'text/csv', ['application/json']],
      ['/v1/data', 'application/json;q=0, text/*', ['application/json']],
    ] as const) {
      const r = await s.call('GET', path, { headers: { accept } });
      assert.equal(r.status, 406, `${path} ${accept}`);
      assert.equal(r.headers.get('content-type'), 'application/json; charset=utf-8');
      assert.equal(r.json.statusCode, 406);
      assert.equal(r.json.errorType, 'NotAcceptable');
      assert.match(r.json.message, /Accept header .* does not accept/);
      assert.deepEqual(r.json.errorDetails, { accept, available: [...available] });
    }
  });

  it('no Accept header, or one without a well-formed range, is answered with JSON; a HEAD refused for its Accept has no body', async () => {
    assert.deepEqual(await typeOf('/v1/data/sales', ''), [200, 'application/json']);
    assert.deepEqual(await typeOf('/v1/data/sales', 'nonsense'), [200, 'application/json']);
    assert.deepEqual(await typeOf('/v1/data/sales', 'text/csv;q=2'), [200, 'application/json'], 'a q above 1 is malformed: the range is skipped');
    const head = await s.call('HEAD', '/v1/data', { headers: { accept: 'text/html' } });
    assert.equal(head.status, 406);
    assert.equal(head.text, '');
  });

  it('a request refused for its Accept changes nothing, and a key is still checked first', async () => {
    const put = await s.call('PUT', '/v1/data/other', { body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv', accept: 'text/html' } });
    assert.equal(put.status, 406);
    assert.equal((await s.call('GET', '/v1/data/other')).status, 404);
    const anonymous = await s.call('GET', '/v1/data', { headers: { accept: 'text/html', 'api-key': '' } });
    assert.equal(anonymous.status, 401);
  });
});
