/**
 * What an upload said about its rows (a column of day-first dates left as text, the separator it was
 * read with) is kept with the data set: GET /v1/data/<name> says it again to whoever comes back later,
 * in the `messages` the original's data set answers carried. A later upload with rows replaces it
 * (it says how those rows were read); a change of metadata only keeps it.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const DAY_FIRST = /Column 'day' holds dates written day first/;

for (const backend of await backends()) {
  describe(`an upload's messages are kept with its data set (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    const csv = (name: string, body: string) => s.call('PUT', `/v1/data/${name}`, { body, headers: { 'content-type': 'text/csv' } });
    const texts = (messages: { message: string }[]) => messages.map((m) => m.message);

    it('says them again on GET, keeps them through a metadata change, and a later upload replaces them', async () => {
      const first = await csv('uksales', 'day,sales\n12/01/2017,3\n13/01/2017,5\n14/01/2017,4\n');
      assert.equal(first.status, 201, first.text);
      assert.ok(texts(first.json.messages).some((m) => DAY_FIRST.test(m)), first.text);

      const later = await s.call('GET', '/v1/data/uksales');
      assert.equal(later.status, 200);
      assert.deepEqual(later.json.messages, first.json.messages, 'the upload\'s messages, as it answered them');

      const metadata = await s.call('PUT', '/v1/data/uksales', { json: { columns: { sales: { dataType: 'numericMeasure' } } } });
      assert.equal(metadata.status, 201, metadata.text);
      assert.deepEqual((await s.call('GET', '/v1/data/uksales')).json.messages, first.json.messages, 'a metadata-only PUT keeps them');

      const second = await csv('uksales', 'day;sales\n2017-01-20;6,5\n2017-01-21;7,25\n');
      assert.equal(second.status, 201, second.text);
      assert.ok(second.json.messages.length > 0, 'the second upload says how it was read');
      const after = await s.call('GET', '/v1/data/uksales');
      assert.deepEqual(after.json.messages, second.json.messages, 'the latest upload\'s messages replace the earlier ones');
      assert.ok(!texts(after.json.messages).some((m) => DAY_FIRST.test(m)));
    });
  });
}
