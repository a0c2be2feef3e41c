import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';
import { fixturePath } from '../support/fixtures.js';

for (const backend of await backends()) {
  describe(`operations endpoints on the ${backend} store`, () => {
    let s: TestServer;
    before(async () => { s = await startTestServer(backend); });
    after(async () => { await s.close(); });

    it('/health and /ready answer without a key; /ready names the database and migrations', async () => {
      const health = await s.call('GET', '/health', { headers: { 'api-key': '' } });
      assert.equal(health.status, 200);
      assert.deepEqual(health.json, { status: 'ok' });
      const ready = await s.call('GET', '/ready', { headers: { 'api-key': '' } });
      assert.equal(ready.status, 200, ready.text);
      assert.equal(ready.json.database, 'reachable');
      assert.equal(ready.json.migrations.upToDate, true);
      assert.equal(ready.json.migrations.applied, ready.json.migrations.expected);
    });

    it('/ready is a 503 in the error shape when the database lacks a migration', async () => {
      const db = s.server.services.db;
      const [{ v }] = await db.query<{ v: number }>('SELECT max(version) AS v FROM schema_migrations');
      const [row] = await db.query<{ name: string }>('SELECT name FROM schema_migrations WHERE version = $1', [v]);
      await db.query('DELETE FROM schema_migrations WHERE version = $1', [v]);
      try {
        const r = await s.call('GET', '/ready');
        assert.equal(r.status, 503);
        assert.equal(r.json.errorType, 'NotReady');
        assert.equal(r.json.statusCode, 503);
        assert.equal(r.json.errorDetails.migrations.upToDate, false);
      } finally {
        await db.query('INSERT INTO schema_migrations (version, name) VALUES ($1, $2)', [v, row!.name]);
      }
    });

    it('/metrics counts requests by route and status, sessions by kind and status, queues, outbox, training time and ingested rows', async () => {
      const csv = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8');
      assert.equal((await s.call('PUT', '/v1/data/iris', { body: csv, headers: { 'content-type': 'text/csv' } })).status, 201);
      await s.call('GET', '/v1/data/nope');
      const created = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification' } });
      await completedSession(s, created.json.sessionId);
      const r = await s.call('GET', '/metrics', { headers: { 'api-key': '' } });
      assert.equal(r.status, 200);
      assert.match(r.headers.get('content-type') ?? '', /text\/plain/);
      const m = r.text;
      assert.match(m, /sibyl_http_request_duration_seconds_count\{method="PUT",route="\/v1\/data\/:name",status_code="201"\} 1\n/);
      assert.match(m, /sibyl_http_request_duration_seconds_count\{method="GET",route="\/v1\/data\/:name",status_code="404"\} 1\n/);
      assert.match(m, /sibyl_http_request_duration_seconds_bucket\{le="0.005",method="PUT"/);
      assert.match(m, /sibyl_sessions\{kind="model",status="completed"\} 1\n/);
      assert.match(m, /sibyl_queue_depth\{queue="sessions"\} 0\n/);
      assert.match(m, /sibyl_queue_oldest_waiting_seconds\{queue="sessions"\} 0\n/);
      assert.match(m, /sibyl_outbox_backlog \d+\n/);
      assert.match(m, /sibyl_session_run_seconds_count\{kind="model",outcome="completed"\} 1\n/);
      assert.match(m, /sibyl_ingest_rows_total 150\n/);
      // The process figures under their usual names, once prefixed.
      assert.match(m, /\nsibyl_process_cpu_seconds_total [\d.]+\n/);
      assert.match(m, /\nsibyl_nodejs_heap_size_used_bytes \d+\n/);
      assert.doesNotMatch(m, /process_process_/);
      // Unknown paths share one label: a scan cannot grow the series without bound.
      assert.doesNotMatch(m, /route="\/v1\/data\/nope"/);
    });

    it('every answer carries a request id; a plain one given by the caller is kept', async () => {
      const mine = await s.call('GET', '/v1/data', { headers: { 'x-request-id': 'trace-123' } });
      assert.equal(mine.headers.get('x-request-id'), 'trace-123');
      const odd = await s.call('GET', '/v1/data', { headers: { 'x-request-id': 'has spaces and {braces}' } });
      assert.match(odd.headers.get('x-request-id') ?? '', /^[0-9a-f-]{36}$/);
    });
  });
}
