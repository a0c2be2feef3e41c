import { describe, it, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startSibyl, type SibylProcess } from './sibyl-process.js';
import { apiClient, waitFor } from './api-client.js';
import { csvRows, endlessUpload } from './endless-upload.js';
import { backends, freshDatabase } from '../support/backends.js';

const KEY = 'sk_upload_kill_test_key_012345';

for (const backend of await backends()) {
  describe(`an upload killed with kill -9 leaves the data set whole or unchanged (${backend})`, () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'sibyl-upload-kill-'));
    let db: { url: string; drop: () => Promise<void> } | undefined;
    let server: SibylProcess | undefined;
    const env = async () => {
      db ??= backend === 'postgres' ? await freshDatabase() : undefined;
      return { SIBYL_DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', SIBYL_API_KEY: KEY, SIBYL_WRITER_LEASE_MS: '2000', ...(db ? { DATABASE_URL: db.url } : {}) };
    };

    after(async () => {
      await server?.kill('SIGTERM');
      await db?.drop();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('keeps the previous version after a replacing upload dies, hides a new data set whose first upload dies, and takes the next upload', async () => {
      server = await startSibyl('serve', await env(), 180_000);
      let call = apiClient(server.url, KEY);
      const first = await fetch(`${server.url}/v1/data/kept`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' }, body: 'id,x,kind\n' + csvRows(0, 1000) });
      assert.equal(first.status, 201);
      const before = (await call('GET', '/v1/data/kept?pageSize=1000')).json;
      assert.equal(before.data.length, 1000);

      // Two uploads in flight (one appending to `kept`, one creating `fresh`), then kill -9.
      let stop!: () => void;
      const stopped = new Promise<void>((r) => (stop = r));
      await Promise.all([endlessUpload(server.url, KEY, 'kept', stopped), endlessUpload(server.url, KEY, 'fresh', stopped)]);
      await server.kill('SIGKILL');
      stop();

      server = await startSibyl('serve', await env(), 180_000);
      call = apiClient(server.url, KEY);
      const after1 = (await call('GET', '/v1/data/kept?pageSize=1000')).json;
      assert.equal(after1.data.length, 1000);
      assert.deepEqual(after1.data, before.data, 'the data set is unchanged');
      const summary = (await call('GET', '/v1/data?partialName=kept')).json;
      assert.equal(summary.items[0].rowCount, 1000);
      assert.equal((await call('GET', '/v1/data/fresh')).status, 404, 'a data set whose first upload died does not exist');
      assert.deepEqual((await call('GET', '/v1/data')).json.items.map((d: { dataSetName: string }) => d.dataSetName), ['kept']);

      // The dead writer's lock runs out; the next upload goes through and appends.
      const next = await fetch(`${server.url}/v1/data/kept`, { method: 'PUT', headers: { 'api-key': KEY, 'content-type': 'text/csv' }, body: 'id,x,kind\n' + csvRows(1000, 1500) });
      assert.equal(next.status, 201, "every successful PUT answers 201");
      await waitFor('the appended rows', async () => {
        const r = (await call('GET', '/v1/data?partialName=kept')).json;
        return r.items[0].rowCount === 1500 ? true : undefined;
      }, 10_000);
    });
  });
}
