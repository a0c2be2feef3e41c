import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer, type Server } from 'node:http';
import { gzipSync } from 'node:zlib';
import { once } from 'node:events';
import { backends } from '../support/backends.js';
import { eventually, finishedImport, startTestServer, type TestServer } from '../support/server.js';

/** A loopback file server: /data.csv, /data.csv.gz, /data.json, /missing (404). */
async function fileServer(): Promise<{ url: string; server: Server }> {
  const csv = 'time,value\n2017-01-01,1\n2017-01-02,2\n2017-01-03,3\n';
  const server = createServer((req, res) => {
    if (req.url === '/data.csv') { res.setHeader('content-type', 'text/csv'); res.end(csv); }
    else if (req.url === '/data.csv.gz') { res.end(gzipSync(csv)); }
    else if (req.url === '/data.json') { res.setHeader('content-type', 'application/json'); res.end(JSON.stringify({ data: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], columns: { k: { role: 'key' } } })); }
    else if (req.url === '/bad.csv') { res.end('a,b\n1,2\n3\n'); }
    else if (req.url === '/private.csv') {
      const ok = req.headers.authorization === `Basic ${Buffer.from('bob:S3cret PW').toString('base64')}`;
      res.statusCode = ok ? 200 : 401;
      res.end(ok ? csv : 'who are you');
    }
    else if (req.url === '/bomb.csv.gz') void serveBomb(res);
    else { res.statusCode = 404; res.end('no'); }
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const port = (server.address() as { port: number }).port;
  return { url: `http://127.0.0.1:${port}`, server };
}

/**
 * A gzip bomb: members of 1 MB of rows (about 1 KB each compressed; concatenated members are one gzip
 * stream) up to 20 GB, written as fast as the reader takes them. `bomb.cut` is set when the reader
 * closed the connection before the end.
 */
const BOMB_MEMBER = gzipSync('1,2\n'.repeat(250_000));
const bomb = { cut: false };
async function serveBomb(res: import('node:http').ServerResponse): Promise<void> {
  let closed = false;
  const close = once(res, 'close').then(() => { closed = true; });
  res.setHeader('content-type', 'text/csv');
  res.write(gzipSync('a,b\n'));
  for (let i = 0; i < 20_000 && !closed; i++) {
    if (!res.write(BOMB_MEMBER)) await Promise.race([once(res, 'drain'), close]);
  }
  bomb.cut = closed;
  res.end();
}

for (const backend of await backends()) {
  describe(`URL imports (${backend})`, () => {
    let files: { url: string; server: Server };
    let allowed: TestServer;
    let strict: TestServer;
    before(async () => {
      files = await fileServer();
      allowed = await startTestServer(backend, { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
      strict = await startTestServer(backend);
    });
    after(async () => { await allowed.close(); await strict.close(); files.server.close(); });

    it('imports CSV from a loopback host allowed by config, with status history', async () => {
      const r = await allowed.call('POST', '/v1/imports/url', { json: { DataSetName: 'imported', Url: `${files.url}/data.csv` } });
      assert.equal(r.status, 200);
      assert.equal(r.json.status, 'requested');
      assert.equal(r.headers.get('nexosis-import-status'), 'Requested');
      assert.deepEqual(r.json.parameters, { url: `${files.url}/data.csv` });
      const done = await finishedImport(allowed, r.json.importId);
      assert.equal(done.json.status, 'completed', JSON.stringify(done.json.messages));
      assert.deepEqual(done.json.statusHistory.map((h: any) => h.status), ['requested', 'started', 'completed']);
      const data = await allowed.call('GET', '/v1/data/imported');
      assert.equal(data.json.totalCount, 3);
      assert.equal(data.json.columns.time.role, 'timestamp');
    });

    it('imports gzip CSV and JSON in the upload format', async () => {
      const gz = await allowed.call('POST', '/v1/imports/url', { json: { dataSetName: 'gz', url: `${files.url}/data.csv.gz` } });
      assert.equal((await finishedImport(allowed, gz.json.importId)).json.status, 'completed');
      assert.equal((await allowed.call('GET', '/v1/data/gz')).json.totalCount, 3);
      const js = await allowed.call('POST', '/v1/imports/url', { json: { dataSetName: 'js', url: `${files.url}/data.json` } });
      assert.equal((await finishedImport(allowed, js.json.importId)).json.status, 'completed');
      assert.equal((await allowed.call('GET', '/v1/data/js')).json.columns.k.role, 'key');
    });

    it('a failed import says why and leaves the data set as it was', async () => {
      const missing = await allowed.call('POST', '/v1/imports/url', { json: { dataSetName: 'imported', url: `${files.url}/missing` } });
      const m = await finishedImport(allowed, missing.json.importId);
      assert.equal(m.json.status, 'failed');
      assert.match(m.json.messages.at(-1).message, /404/);
      const bad = await allowed.call('POST', '/v1/imports/url', { json: { dataSetName: 'imported', url: `${files.url}/bad.csv` } });
      assert.equal((await finishedImport(allowed, bad.json.importId)).json.status, 'failed');
      assert.equal((await allowed.call('GET', '/v1/data/imported')).json.totalCount, 3);
    });

    it('a gzip file that expands past the upload limit fails the import, which stops reading it', async () => {
      const small = await startTestServer(backend, { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1', SIBYL_MAX_CSV_BYTES: '2000000', SIBYL_MAX_JSON_BYTES: '2000000', SIBYL_SHUTDOWN_GRACE_MS: '0' });
      try {
        bomb.cut = false;
        const r = await small.call('POST', '/v1/imports/url', { json: { dataSetName: 'bomb', url: `${files.url}/bomb.csv.gz` } });
        assert.equal(r.status, 200, r.text);
        const done = await finishedImport(small, r.json.importId);
        assert.equal(done.json.status, 'failed');
        assert.match(done.json.messages.at(-1).message, /limit of 2000000 bytes/);
        assert.equal((await small.call('GET', '/v1/data/bomb')).status, 404);
        await eventually(async () => bomb.cut || undefined, 10_000).catch(() => assert.fail('the download was not stopped at the limit'));
      } finally {
        await small.close();
      }
    });

    it('refuses loopback addresses without the allow-list, and bad URLs', async () => {
      const r = await strict.call('POST', '/v1/imports/url', { json: { dataSetName: 'x', url: `${files.url}/data.csv` } });
      assert.equal(r.status, 400);
      assert.match(r.json.errorDetails.url[0], /loopback/);
      const byName = await strict.call('POST', '/v1/imports/url', { json: { dataSetName: 'x', url: files.url.replace('127.0.0.1', 'localhost') + '/data.csv' } });
      assert.equal(byName.status, 400, 'a name resolving to loopback is refused too');
      const ftp = await strict.call('POST', '/v1/imports/url', { json: { dataSetName: 'x', url: 'ftp://example.com/a.csv' } });
      assert.equal(ftp.status, 400);
      const none = await strict.call('POST', '/v1/imports/url', { json: {} });
      assert.deepEqual(Object.keys(none.json.errorDetails).sort(), ['dataSetName', 'url']);
      assert.equal((await strict.call('GET', '/v1/data/x')).status, 404);
    });

    it('a password in the URL is used for the download but never shown, and is deleted with the credentials once the import ends', async () => {
      const withPassword = files.url.replace('http://', 'http://bob:S3cret%20PW@') + '/private.csv';
      const r = await allowed.call('POST', '/v1/imports/url', { json: { dataSetName: 'private', url: withPassword } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.parameters.url, files.url.replace('http://', 'http://bob:redacted@') + '/private.csv');
      const done = await finishedImport(allowed, r.json.importId);
      assert.equal(done.json.status, 'completed', JSON.stringify(done.json.messages));
      const listed = await allowed.call('GET', '/v1/imports?dataSetName=private');
      for (const answer of [r.text, done.text, listed.text]) assert.doesNotMatch(answer, /S3cret/, 'the password is never echoed');
      const [row] = await allowed.server.services.db.query<{ secret: unknown; parameters: unknown }>('SELECT secret, parameters FROM imports WHERE id = $1', [r.json.importId]);
      assert.equal(row!.secret, null, 'the credentials are deleted once the import ended');
      assert.doesNotMatch(JSON.stringify(row!.parameters), /S3cret/, 'nor stored with the address');
    });

    it('lists imports with filters and dates in the client formats', async () => {
      const all = await allowed.call('GET', '/v1/imports?requestedAfterDate=1-01-2017&requestedBeforeDate=1-01-2100');
      assert.equal(all.status, 200);
      assert.ok(all.json.items.length >= 5);
      const byName = await allowed.call('GET', '/v1/imports?dataSetName=gz');
      assert.deepEqual(byName.json.items.map((i: any) => i.dataSetName), ['gz']);
      const other = await strict.call('GET', `/v1/imports/${byName.json.items[0].importId}`);
      assert.equal(other.status, 404, 'imports are per account (another server here, another store)');
    });
  });
}
