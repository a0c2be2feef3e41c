import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer as createHttpServer, type Server } from 'node:http';
import { connect, createServer, type Server as NetServer, type Socket } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadConfig } from '../../src/config.js';
import { startServer, type RunningServer } from '../../src/server.js';
import '../../src/features.js';
import { ADMIN_URL, freshDatabase, postgresReachable } from '../support/backends.js';
import { eventually, TEST_KEY } from '../support/server.js';

const reachable = await postgresReachable();

/**
 * A TCP proxy in front of PostgreSQL that, once armed, cuts the connection carrying the next
 * COPY … FROM STDIN (the upload's rows) mid-statement: the database went away under the import,
 * as when PostgreSQL restarts, while every other statement still gets through.
 */
async function copyCuttingProxy(target: URL): Promise<{ url: string; arm(): void; cuts: () => number; close(): Promise<void> }> {
  let armed = false;
  let cuts = 0;
  const sockets = new Set<Socket>();
  const server: NetServer = createServer((client) => {
    const upstream = connect(Number(target.port || 5432), target.hostname);
    sockets.add(client).add(upstream);
    const end = () => { client.destroy(); upstream.destroy(); sockets.delete(client); sockets.delete(upstream); };
    client.on('data', (chunk: Buffer) => {
      if (armed && chunk.includes('FROM STDIN')) {
        armed = false;
        cuts++;
        end();
        return;
      }
      upstream.write(chunk);
    });
    upstream.on('data', (chunk) => client.write(chunk));
    client.on('error', end).on('close', end);
    upstream.on('error', end).on('close', end);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const url = new URL(target);
  url.hostname = '127.0.0.1';
  url.port = String((server.address() as { port: number }).port);
  return {
    url: url.toString(),
    arm: () => { armed = true; },
    cuts: () => cuts,
    close: () => { for (const s of sockets) s.destroy(); return new Promise((r) => server.close(() => r())); },
  };
}

const ROWS = 20_000;
const csv = 'id,x,label\n' + Array.from({ length: ROWS }, (_, i) => `${i},${(i % 97) / 7},${i % 2}`).join('\n') + '\n';

describe('URL import when the database connection is lost midway (PostgreSQL)', { skip: !reachable && `PostgreSQL not reachable at ${ADMIN_URL}` }, () => {
  let db: { url: string; drop: () => Promise<void> };
  let proxy: Awaited<ReturnType<typeof copyCuttingProxy>>;
  let files: Server;
  let filesUrl = '';
  let downloads = 0;
  let api: RunningServer;
  let dataDir = '';

  before(async () => {
    db = await freshDatabase();
    proxy = await copyCuttingProxy(new URL(db.url));
    files = createHttpServer((_req, res) => { downloads++; res.setHeader('content-type', 'text/csv'); res.end(csv); });
    await new Promise<void>((r) => files.listen(0, '127.0.0.1', r));
    filesUrl = `http://127.0.0.1:${(files.address() as { port: number }).port}`;
    dataDir = mkdtempSync(join(tmpdir(), 'sibyl-import-loss-'));
    const config = { ...loadConfig({ ...process.env, SIBYL_ALLOW_PRIVATE_HOSTS: '127.0.0.1' }), port: 0, host: '127.0.0.1', dataDir, databaseUrl: proxy.url, apiKey: TEST_KEY };
    api = await startServer(config, { logLevel: 'silent' });
  });

  after(async () => {
    await api?.close();
    await proxy?.close();
    files?.close();
    await db?.drop();
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  it('is given back and runs again instead of being recorded as failed', async () => {
    const call = async (method: string, path: string, json?: unknown) => {
      const r = await fetch(api.url + path, { method, headers: { 'api-key': TEST_KEY, 'content-type': 'application/json' }, body: json === undefined ? undefined : JSON.stringify(json) });
      return { status: r.status, json: await r.json() as any };
    };
    proxy.arm();
    const created = await call('POST', '/v1/imports/url', { dataSetName: 'imported', url: `${filesUrl}/rows.csv` });
    assert.equal(created.status, 200, JSON.stringify(created.json));
    const done = await eventually(async () => {
      const r = await call('GET', `/v1/imports/${created.json.importId}`);
      return r.json.status === 'completed' || r.json.status === 'failed' ? r : undefined;
    });
    assert.equal(proxy.cuts(), 1, 'the COPY of the first attempt was cut');
    assert.equal(done.json.status, 'completed', JSON.stringify(done.json.messages));
    assert.ok(!done.json.statusHistory.some((h: any) => h.status === 'failed'), JSON.stringify(done.json.statusHistory));
    assert.equal(downloads, 2, 'the file was downloaded again by the second attempt');
    const data = await call('GET', '/v1/data/imported?pageSize=1');
    assert.equal(data.json.totalCount, ROWS, 'every row once: the first attempt left nothing behind');
  });
});
