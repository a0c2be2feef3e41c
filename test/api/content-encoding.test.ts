/**
 * A compressed request body gets a 415 naming its Content-Encoding, in the error shape; read as raw
 * bytes it once gave "a NUL character is not allowed in CSV" or "Body is not valid JSON".
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { startTestServer, type TestServer } from '../support/server.js';

describe('compressed request bodies', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  it('are refused with 415 naming the encoding, for CSV and JSON alike', async () => {
    for (const [type, text] of [['text/csv', 'a,b\n1,2\n'], ['application/json', '{"data":[{"a":1}]}']] as const) {
      const r = await s.call('PUT', '/v1/data/gz', { body: gzipSync(text), headers: { 'content-type': type, 'content-encoding': 'gzip' } });
      assert.equal(r.status, 415, `${type}: ${r.text}`);
      assert.equal(r.json.statusCode, 415);
      assert.equal(r.json.errorType, 'UnsupportedMediaType');
      assert.match(r.json.message, /Content-Encoding 'gzip'/);
    }
    assert.equal((await s.call('GET', '/v1/data/gz')).status, 404, 'nothing was created');
  });

  it('need a key first, and identity is fine', async () => {
    const anon = await s.call('PUT', '/v1/data/gz', { body: gzipSync('a\n1\n'), headers: { 'api-key': '', 'content-type': 'text/csv', 'content-encoding': 'gzip' } });
    assert.equal(anon.status, 401);
    const plain = await s.call('PUT', '/v1/data/plain', { body: 'a,b\n1,2\n', headers: { 'content-type': 'text/csv', 'content-encoding': 'identity' } });
    assert.equal(plain.status, 201, plain.text);
  });
});
