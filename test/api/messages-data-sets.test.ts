/**
 * `GET /v1/messages` lists what each data set's latest upload said (kept on the data set since
 * migration 11, said again by `GET /v1/data/<name>`) beside the sessions' and imports' messages:
 * relatedTo `dataSet`, relatedId the data set's name. A later upload replaces them, deleting the
 * data set removes them. Pages come from the store in order, also over thousands of sessions.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { startTestServer, type TestServer } from '../support/server.js';

const FIELDS = ['messageId', 'content', 'severity', 'userId', 'organizationId', 'createdAt', 'relatedId', 'relatedTo'];
type Item = Record<string, string>;

for (const backend of await backends()) {
  describe(`GET /v1/messages: data sets' upload messages (${backend})`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    const csv = (name: string, body: string) => s.call('PUT', `/v1/data/${encodeURIComponent(name)}`, { body, headers: { 'content-type': 'text/csv' } });
    const messagesOf = async (query: string): Promise<Item[]> => {
      const r = await s.call('GET', `/v1/messages?${query}`);
      assert.equal(r.status, 200, r.text);
      return r.json.items;
    };

    it('lists each data set\'s upload messages by its name, replaced by its next upload and gone with it', async () => {
      const first = await csv('uk sales', 'day,sales\n12/01/2017,3\n13/01/2017,5\n14/01/2017,4\n');
      assert.equal(first.status, 201, first.text);
      const said = first.json.messages as { severity: string; message: string }[];
      assert.ok(said.length > 0, first.text);
      assert.equal((await csv('quiet', 'a,b\n1,2\n3,4\n')).status, 201);

      const own = await messagesOf(`relatedId=${encodeURIComponent('uk sales')}&pageSize=100`);
      assert.deepEqual(own.map((m) => [m.severity, m.content]).sort(), said.map((m) => [m.severity, m.message]).sort());
      for (const m of own) {
        assert.deepEqual(Object.keys(m).sort(), [...FIELDS].sort());
        for (const f of FIELDS) assert.equal(typeof m[f], 'string', f);
        assert.equal(m.relatedTo, 'dataSet');
        assert.equal(m.relatedId, 'uk sales');
        assert.match(m.createdAt!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00$/);
      }
      const all = await messagesOf('pageSize=1000');
      assert.deepEqual(all.filter((m) => m.relatedTo === 'dataSet').map((m) => m.messageId).sort(), own.map((m) => m.messageId).sort(),
        'the account\'s list holds them too');
      const warnings = said.filter((m) => m.severity === 'warning');
      assert.deepEqual((await messagesOf('relatedId=uk%20sales&levels=warning')).map((m) => m.content).sort(), warnings.map((m) => m.message).sort());
      assert.deepEqual(await messagesOf('relatedId=uk%20sales&levels=status'), [], 'a data set has no statuses');
      assert.deepEqual((await messagesOf(`relatedId=${encodeURIComponent('uk sales')}&pageSize=100`)).map((m) => m.messageId), own.map((m) => m.messageId), 'ids stay');

      const second = await csv('uk sales', 'day;sales\n2017-01-20;6,5\n2017-01-21;7,25\n');
      assert.equal(second.status, 201, second.text);
      const replaced = await messagesOf('relatedId=uk%20sales');
      assert.deepEqual(replaced.map((m) => m.content).sort(), second.json.messages.map((m: any) => m.message).sort());
      assert.ok(!replaced.some((m) => own.some((o) => o.messageId === m.messageId && o.content !== m.content)), 'a replaced message does not keep another\'s id');

      assert.equal((await s.call('DELETE', '/v1/data/uk%20sales')).status, 204);
      assert.deepEqual(await messagesOf('relatedId=uk%20sales'), []);
      assert.deepEqual((await messagesOf('pageSize=1000')).filter((m) => m.relatedTo === 'dataSet'), []);
    });

    it('an upload\'s messages are dated when the upload made them: a later change of the metadata alone moves the data set\'s lastModified, not them', async () => {
      const upload = await csv('dated', 'day,sales\n12/01/2017,3\n13/01/2017,5\n14/01/2017,4\n');
      assert.equal(upload.status, 201, upload.text);
      const dated = await messagesOf('relatedId=dated');
      assert.ok(dated.length > 0);
      for (const m of dated) assert.equal(m.createdAt, upload.json.lastModified);
      await new Promise((r) => setTimeout(r, 20));
      const metadata = await s.call('PUT', '/v1/data/dated', { json: { columns: { sales: { role: 'target' } } } });
      assert.equal(metadata.status, 201, metadata.text);
      assert.ok(Date.parse(metadata.json.lastModified) > Date.parse(upload.json.lastModified));
      assert.deepEqual(await messagesOf('relatedId=dated'), dated, 'same messages, same ids, same dates');
      const shown = await s.call('GET', '/v1/data/dated');
      assert.deepEqual(shown.json.messages, upload.json.messages, 'the data set shows them as the upload said them, without the date');
      assert.equal((await s.call('DELETE', '/v1/data/dated')).status, 204);
    });

    it('pages thousands of sessions\' statuses and messages newest first, from the store', async () => {
      const db = s.server.services.db;
      const [account] = await db.query<{ id: string }>('SELECT id FROM accounts LIMIT 1');
      // 3,000 finished sessions a minute apart, each requested, started, completed (dates as the service
      // writes them) with an informational message at its end, and one data set upload between them.
      const sessions = 3000;
      await db.query(`
        INSERT INTO sessions (id, account_id, type, status, dataset_name, status_history, messages, requested_at, updated_at)
        SELECT gen_random_uuid(), $1, 'model', 'completed', 'ds',
               jsonb_build_array(
                 jsonb_build_object('date', to_char(t0 AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'status', 'requested'),
                 jsonb_build_object('date', to_char((t0 + interval '1 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'status', 'started'),
                 jsonb_build_object('date', to_char((t0 + interval '20 second') AT TIME ZONE 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'), 'status', 'completed')),
               jsonb_build_array(jsonb_build_object('severity', 'informational', 'message', 'session ' || i)),
               t0, t0 + interval '20 second'
          FROM (SELECT i, now() - interval '1 day' - i * interval '1 minute' AS t0 FROM generate_series(1, $2::int) i) g`, [account!.id, sessions]);

      const total = 4 * sessions + (await messagesOf('relatedId=quiet')).length;
      const first = await s.call('GET', '/v1/messages?pageSize=8');
      assert.equal(first.json.totalCount, total);
      assert.equal(first.json.totalPages, Math.ceil(total / 8));
      const recent = (await messagesOf('pageSize=8&page=0')).filter((m) => m.relatedTo === 'session');
      // The newest session (i = 1): its message and completion at the same instant, then its start and request.
      assert.deepEqual(recent.slice(0, 4).map((m) => m.content), ['session 1', 'Session completed', 'Session started', 'Session requested']);
      assert.deepEqual(recent.slice(4, 8).map((m) => m.content), ['session 2', 'Session completed', 'Session started', 'Session requested']);

      const last = await messagesOf(`pageSize=8&page=${Math.ceil(total / 8) - 1}`);
      assert.equal(last.at(-1)!.content, 'Session requested', 'the oldest: the first session\'s request');
      const warned = await s.call('GET', '/v1/messages?levels=informational&pageSize=3&page=1');
      assert.deepEqual(warned.json.items.map((m: Item) => m.content), ['session 4', 'session 5', 'session 6']);
      assert.equal(warned.json.totalCount, sessions + (await messagesOf('relatedId=quiet&levels=informational')).length);
      const times = last.map((m) => Date.parse(m.createdAt!));
      assert.deepEqual(times, [...times].sort((a, b) => b - a));
    });
  });
}
