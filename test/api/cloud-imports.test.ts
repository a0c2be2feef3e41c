/**
 * S3 and Azure imports against emulators the test starts itself: s3rver (in-process) and Azurite's
 * blob service (a child process), both on free loopback ports that the server is allowed to reach
 * through SIBYL_ALLOW_PRIVATE_HOSTS. Real transfers with the clouds' SDKs; credentials never appear
 * in a response, an import record, the database or the log; bad credentials and missing buckets,
 * containers and objects fail the import with a message saying which.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createRequire } from 'node:module';
import { gzipSync } from 'node:zlib';
import { PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { BlobServiceClient } from '@azure/storage-blob';
import { eventually, startTestServer, type TestServer } from '../support/server.js';
import { startSibyl } from '../scaleout/sibyl-process.js';

const require = createRequire(import.meta.url);
const CSV = 'day,sales\n2017-01-01,10\n2017-01-02,12\n2017-01-03,9\n';
// s3rver's one key pair, and Azurite's well-known development account (both public constants).
// s3rver checks the access key id but not SigV4 signatures (its lib/middleware/authentication.js:
// "Signature version 4 calculation is unimplemeneted"), so a wrong secret with the right key id
// is not refused there: bad S3 credentials are tested with an unknown key id; Azurite checks the key.
const S3_KEY = { accessKeyId: 'S3RVER', secretAccessKey: 'S3RVER' };
const AZURE_ACCOUNT = 'devstoreaccount1';
const AZURE_KEY = 'Eby8vdM02xNOcqFlqUwJPLlmEtlCDXJ1OUzFT50uSRZ6IFsuFq2UVErCz4I6tq/K1SZFPTOtr/KBHBeksoGMGw==';

async function freePort(): Promise<number> {
  const srv = createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const port = (srv.address() as { port: number }).port;
  await new Promise<void>((r) => srv.close(() => r()));
  return port;
}

async function startS3(): Promise<{ endpoint: string; close(): Promise<void> } | string> {
  try {
    const S3rver = require('s3rver');
    const dir = mkdtempSync(join(tmpdir(), 'sibyl-s3rver-'));
    const server = new S3rver({ address: '127.0.0.1', port: await freePort(), silent: true, directory: dir, configureBuckets: [{ name: 'sales' }] });
    const { port } = await server.run();
    return { endpoint: `http://127.0.0.1:${port}`, close: async () => { await server.close(); rmSync(dir, { recursive: true, force: true }); } };
  } catch (e) {
    return `s3rver did not start: ${(e as Error).message}`;
  }
}

async function startAzurite(): Promise<{ endpoint: string; child: ChildProcess } | string> {
  const port = await freePort();
  const main = require.resolve('azurite/dist/src/blob/main.js');
  const child = spawn(process.execPath, [main, '--blobHost', '127.0.0.1', '--blobPort', String(port), '--inMemoryPersistence', '--silent', '--skipApiVersionCheck', '--loose'], { stdio: 'ignore' });
  const endpoint = `http://127.0.0.1:${port}/${AZURE_ACCOUNT}`;
  try {
    await eventually(async () => (await fetch(`${endpoint}?comp=list`).then((r) => r.status).catch(() => undefined)), 20_000, 100);
    return { endpoint, child };
  } catch {
    child.kill();
    return 'Azurite did not start within 20 s';
  }
}

const connectionString = (endpoint: string, key = AZURE_KEY) => `DefaultEndpointsProtocol=http;AccountName=${AZURE_ACCOUNT};AccountKey=${key};BlobEndpoint=${endpoint};`;

async function finished(s: TestServer, id: string) {
  return eventually(async () => {
    const r = await s.call('GET', `/v1/imports/${id}`);
    return r.json.status === 'completed' || r.json.status === 'failed' ? r.json : undefined;
  }, 30_000);
}

describe('S3 and Azure imports against emulators', () => {
  let s: TestServer;
  let s3: Awaited<ReturnType<typeof startS3>>;
  let azure: Awaited<ReturnType<typeof startAzurite>>;
  before(async () => {
    [s3, azure] = await Promise.all([startS3(), startAzurite()]);
    if (typeof s3 !== 'string') {
      const client = new S3Client({ region: 'us-east-1', endpoint: s3.endpoint, forcePathStyle: true, credentials: S3_KEY, requestChecksumCalculation: 'WHEN_REQUIRED' });
      await client.send(new PutObjectCommand({ Bucket: 'sales', Key: 'daily.csv', Body: CSV }));
      await client.send(new PutObjectCommand({ Bucket: 'sales', Key: 'keyed.json.gz', Body: gzipSync(JSON.stringify({ data: [{ k: 'a', v: 1 }, { k: 'b', v: 2 }], columns: { k: { role: 'key' } } })) }));
      client.destroy();
    }
    if (typeof azure !== 'string') {
      const container = BlobServiceClient.fromConnectionString(connectionString(azure.endpoint)).getContainerClient('files');
      await container.create();
      await container.getBlockBlobClient('daily.csv').upload(CSV, CSV.length);
    }
    s = await startTestServer('pglite', { SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' });
  });
  after(async () => {
    await s?.close();
    if (s3 && typeof s3 !== 'string') await s3.close();
    if (azure && typeof azure !== 'string') azure.child.kill();
  });

  const needS3 = () => typeof s3 === 'string' ? s3 : false;
  const needAzure = () => typeof azure === 'string' ? azure : false;

  it('S3: imports a CSV with the request\'s credentials; no credential in the answer, the record or the database', async (t) => {
    if (needS3()) return t.skip(needS3() as string);
    const { endpoint } = s3 as { endpoint: string };
    const r = await s.call('POST', '/v1/imports/s3', { json: { DataSetName: 'sales-s3', Bucket: 'sales', Path: 'daily.csv', Region: 'us-east-1', Endpoint: endpoint, AccessKeyId: S3_KEY.accessKeyId, SecretAccessKey: 'S3RVER' } });
    assert.equal(r.status, 200, r.text);
    assert.equal(r.json.type, 's3');
    assert.deepEqual(r.json.parameters, { bucket: 'sales', path: 'daily.csv', region: 'us-east-1', endpoint });
    assert.equal(r.headers.get('nexosis-import-status'), 'Requested');
    const done = await finished(s, r.json.importId);
    assert.equal(done.status, 'completed', JSON.stringify(done.messages));
    const data = await s.call('GET', '/v1/data/sales-s3');
    assert.deepEqual(data.json.data.map((d: any) => d.sales), ['10', '12', '9']);
    const rows = await s.server.services.db.query<{ parameters: unknown; secret: unknown; messages: unknown }>('SELECT parameters, secret, messages FROM imports WHERE id = $1', [r.json.importId]);
    assert.equal(rows[0]!.secret, null);
    assert.ok(!JSON.stringify(rows).includes('S3RVER'), 'no key in the stored import');
    assert.ok(!(await s.call('GET', '/v1/imports')).text.includes('S3RVER'));
  });

  it('S3: a gzipped JSON object, its format from the extension', async (t) => {
    if (needS3()) return t.skip(needS3() as string);
    const r = await s.call('POST', '/v1/imports/s3', { json: { dataSetName: 'keyed-s3', bucket: 'sales', path: 'keyed.json.gz', endpoint: (s3 as { endpoint: string }).endpoint, ...S3_KEY } });
    const done = await finished(s, r.json.importId);
    assert.equal(done.status, 'completed', JSON.stringify(done.messages));
    assert.equal((await s.call('GET', '/v1/data/keyed-s3')).json.columns.k.role, 'key');
  });

  it('S3: bad credentials, a missing bucket and a missing object fail the import with a message saying which', async (t) => {
    if (needS3()) return t.skip(needS3() as string);
    const endpoint = (s3 as { endpoint: string }).endpoint;
    const cases = [
      [{ bucket: 'sales', path: 'daily.csv', accessKeyId: 'AKIAWRONGKEY0000', secretAccessKey: 'wrong-secret-value-1234' }, /access key id is not known/],
      [{ bucket: 'nobucket', path: 'daily.csv', ...S3_KEY }, /bucket does not exist/],
      [{ bucket: 'sales', path: 'nothing.csv', ...S3_KEY }, /no object at this path/],
    ] as const;
    for (const [body, message] of cases) {
      const r = await s.call('POST', '/v1/imports/s3', { json: { dataSetName: 'never', endpoint, ...body } });
      assert.equal(r.status, 200, r.text);
      const done = await finished(s, r.json.importId);
      assert.equal(done.status, 'failed');
      assert.match(done.messages.at(-1).message, message);
      assert.equal(done.messages.at(-1).severity, 'error');
      assert.ok(!JSON.stringify(done).includes('wrong-secret-value-1234'));
    }
    assert.equal((await s.call('GET', '/v1/data/never')).status, 404, 'a failed import creates no data set');
  });

  it('refuses at once (400) an endpoint the outbound guard does not allow, and incomplete requests', async () => {
    const r = await s.call('POST', '/v1/imports/s3', { json: { dataSetName: 'x', bucket: 'b', path: 'p.csv', endpoint: 'http://10.1.2.3:9000', ...S3_KEY } });
    assert.equal(r.status, 400);
    assert.equal(r.json.errorType, 'RequestValidation');
    assert.match(r.json.errorDetails.endpoint[0], /private/);
    assert.ok(!r.text.includes('S3RVER'));
    const az = await s.call('POST', '/v1/imports/azure', { json: { dataSetName: 'x', container: 'c', blob: 'b', connectionString: `AccountName=a;AccountKey=${AZURE_KEY};BlobEndpoint=http://192.168.1.1/a` } });
    assert.equal(az.status, 400);
    assert.ok(az.json.errorDetails.connectionString);
    assert.ok(!az.text.includes(AZURE_KEY), 'the account key is not echoed in the refusal');
    const missing = await s.call('POST', '/v1/imports/s3', { json: { dataSetName: 'x', accessKeyId: 'only-one' } });
    assert.equal(missing.status, 400);
    assert.deepEqual(Object.keys(missing.json.errorDetails).sort(), ['bucket', 'path', 'secretAccessKey']);
  });

  it('Azure: imports a blob; the connection string is echoed as "redacted" and never stored', async (t) => {
    if (needAzure()) return t.skip(needAzure() as string);
    const cs = connectionString((azure as { endpoint: string }).endpoint);
    const r = await s.call('POST', '/v1/imports/azure', { json: { DataSetName: 'sales-azure', ConnectionString: cs, Container: 'files', Blob: 'daily.csv' } });
    assert.equal(r.status, 200, r.text);
    assert.deepEqual(r.json.parameters, { connectionString: 'redacted', container: 'files', blob: 'daily.csv' });
    const done = await finished(s, r.json.importId);
    assert.equal(done.status, 'completed', JSON.stringify(done.messages));
    assert.deepEqual((await s.call('GET', '/v1/data/sales-azure')).json.data.map((d: any) => d.sales), ['10', '12', '9']);
    const rows = await s.server.services.db.query('SELECT * FROM imports WHERE id = $1', [r.json.importId]);
    assert.ok(!JSON.stringify(rows).includes(AZURE_KEY));
  });

  it('Azure: a wrong account key, a missing container and a missing blob fail the import with a message saying which', async (t) => {
    if (needAzure()) return t.skip(needAzure() as string);
    const endpoint = (azure as { endpoint: string }).endpoint;
    const wrongKey = Buffer.alloc(64, 7).toString('base64');
    const cases = [
      [connectionString(endpoint, wrongKey), 'files', 'daily.csv', /account key in the connection string was refused|access denied with these credentials/],
      [connectionString(endpoint), 'nocontainer', 'daily.csv', /container does not exist/],
      [connectionString(endpoint), 'files', 'nothing.csv', /no blob of this name/],
    ] as const;
    for (const [cs, container, blob, message] of cases) {
      const r = await s.call('POST', '/v1/imports/azure', { json: { dataSetName: 'never-azure', connectionString: cs, container, blob } });
      const done = await finished(s, r.json.importId);
      assert.equal(done.status, 'failed');
      assert.match(done.messages.at(-1).message, message);
      assert.ok(!JSON.stringify(done).includes(wrongKey));
    }
  });
  it('the log of a real `sibyl serve` (trace level) never shows a credential, on success or failure', async (t) => {
    if (needS3() || needAzure()) return t.skip(String(needS3() || needAzure()));
    const dataDir = mkdtempSync(join(tmpdir(), 'sibyl-cloud-log-'));
    const key = 'sk_cloud_import_log_test_key_0123456789';
    const server = await startSibyl('serve', { SIBYL_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SIBYL_LOG_LEVEL: 'trace', SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1', SIBYL_API_KEY: key }, 120_000);
    try {
      const post = (path: string, json: unknown) => fetch(`${server.url}${path}`, { method: 'POST', headers: { 'api-key': key, 'content-type': 'application/json' }, body: JSON.stringify(json) }).then((r) => r.json() as Promise<any>);
      const s3Endpoint = (s3 as { endpoint: string }).endpoint;
      const azEndpoint = (azure as { endpoint: string }).endpoint;
      const wrongSecret = 'wrong-secret-for-the-log-test-987';
      const wrongKey = Buffer.alloc(64, 9).toString('base64');
      const ids = [
        (await post('/v1/imports/s3', { dataSetName: 'a', bucket: 'sales', path: 'daily.csv', endpoint: s3Endpoint, ...S3_KEY })).importId,
        (await post('/v1/imports/s3', { dataSetName: 'b', bucket: 'sales', path: 'daily.csv', endpoint: s3Endpoint, accessKeyId: 'AKIALOGTESTKEY01', secretAccessKey: wrongSecret })).importId,
        (await post('/v1/imports/azure', { dataSetName: 'c', connectionString: connectionString(azEndpoint), container: 'files', blob: 'daily.csv' })).importId,
        (await post('/v1/imports/azure', { dataSetName: 'd', connectionString: connectionString(azEndpoint, wrongKey), container: 'files', blob: 'daily.csv' })).importId,
      ];
      const statuses = await eventually(async () => {
        const all = await Promise.all(ids.map((id) => fetch(`${server.url}/v1/imports/${id}`, { headers: { 'api-key': key } }).then((r) => r.json() as Promise<any>)));
        return all.every((i) => i.status === 'completed' || i.status === 'failed') ? all.map((i) => i.status) : undefined;
      }, 30_000);
      assert.deepEqual(statuses, ['completed', 'failed', 'completed', 'failed']);
      await new Promise((r) => setTimeout(r, 300)); // the log is written asynchronously
      const log = server.output();
      assert.ok(log.includes('/v1/imports/s3'), 'the requests are in the log');
      for (const secret of [wrongSecret, wrongKey, AZURE_KEY, connectionString(azEndpoint)]) assert.ok(!log.includes(secret), `the log shows a credential (${secret.slice(0, 6)}…)`);
    } finally {
      await server.kill('SIGTERM');
      rmSync(dataDir, { recursive: true, force: true });
    }
  });
});
