/**
 * An outbound refusal tells the caller only that the host is not public: never the address a name
 * resolved to, its kind, or the setting that allows it (on a shared server that would let any
 * tenant map the operator's internal DNS). Both places a refusal can come from: the check when a
 * URL is handed over (imports, callbacks) and the one at connect time (a redirect to such a name).
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { eventually, startTestServer, type TestServer } from '../support/server.js';

function assertGeneric(text: string, host: string, what: string): void {
  assert.match(text, new RegExp(`${host.replace(/\./g, '\\.')}.*non-public`), what);
  for (const secret of ['127.0.0.1', '::1', 'is loopback', 'SIBYL_ALLOW_PRIVATE_HOSTS']) {
    assert.ok(!text.includes(secret), `${what}: names ${secret}: ${text}`);
  }
}

describe('outbound refusals do not say what a name resolves to', () => {
  let s: TestServer;
  let redirector: Server;
  let port = 0;
  before(async () => {
    s = await startTestServer('pglite', { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
    const put = await s.call('PUT', '/v1/data/flowers', { body: 'a,b,kind\n1,2,x\n2,3,y\n3,4,x\n4,5,y\n', headers: { 'content-type': 'text/csv' } });
    assert.equal(put.status, 201, put.text);
    // An allowed host that sends the download on to a name resolving to loopback, which is not allowed.
    redirector = createServer((_req, res) => { res.writeHead(302, { location: `http://localhost:${port}/data.csv` }).end(); });
    await new Promise<void>((done) => redirector.listen(0, '127.0.0.1', done));
    port = (redirector.address() as AddressInfo).port;
  });
  after(async () => {
    await new Promise((done) => redirector.close(done));
    await s.close();
  });

  it('a URL import of a name resolving to loopback: 400 in the error shape, without the address', async () => {
    const r = await s.call('POST', '/v1/imports/url', { json: { dataSetName: 'u', url: 'http://localhost/x.csv' } });
    assert.equal(r.status, 400, r.text);
    assert.equal(r.json.errorType, 'RequestValidation');
    assertGeneric(r.json.errorDetails.url[0], 'localhost', 'import');
  });

  it('a session callback to such a name', async () => {
    const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'flowers', targetColumn: 'kind', predictionDomain: 'classification', callbackUrl: 'http://localhost:9/done' } });
    assert.equal(r.status, 400, r.text);
    assertGeneric(r.json.errorDetails.callbackUrl[0], 'localhost', 'callback');
  });

  it('a redirect to such a name, refused at connect time: the import says so without the address', async () => {
    const r = await s.call('POST', '/v1/imports/url', { json: { dataSetName: 'redirected', url: `http://127.0.0.1:${port}/start.csv` } });
    assert.equal(r.status, 200, r.text);
    const done = await eventually(async () => {
      const g = await s.call('GET', `/v1/imports/${r.json.importId}`);
      return g.json.status === 'failed' || g.json.status === 'completed' ? g.json : undefined;
    });
    assert.equal(done.status, 'failed');
    const text = done.messages.map((m: { message: string }) => m.message).join(' ');
    assertGeneric(text.replace(`127.0.0.1:${port}`, 'the-start'), 'localhost', 'redirect');
  });
});
