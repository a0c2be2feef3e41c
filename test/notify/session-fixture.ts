import { readFileSync } from 'node:fs';
import assert from 'node:assert/strict';
import { fixturePath } from '../support/fixtures.js';
import type { TestServer } from '../support/server.js';

/** Uploads Fisher's iris (150 rows) as data set `iris` for the account of `key` (default: the test key). */
export async function uploadIris(s: TestServer, key?: string): Promise<void> {
  const csv = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8');
  const r = await s.call('PUT', '/v1/data/iris', { body: csv, headers: { 'content-type': 'text/csv', ...(key ? { 'api-key': key } : {}) } });
  assert.ok(r.status === 200 || r.status === 201, r.text);
}

/** Requests a classification model session on `iris`; it completes within seconds. */
export async function requestModelSession(s: TestServer, opts: { callbackUrl?: string; key?: string } = {}): Promise<{ id: string; webhookToken: string | null }> {
  const r = await s.call('POST', '/v1/sessions/model', {
    json: { dataSourceName: 'iris', targetColumn: 'Species', predictionDomain: 'classification', callbackUrl: opts.callbackUrl },
    headers: opts.key ? { 'api-key': opts.key } : {},
  });
  assert.equal(r.status, 200, r.text);
  assert.equal(r.json.status, 'requested');
  return { id: r.json.sessionId, webhookToken: r.headers.get('service-webhook-token') };
}

/** The outbox rows of one session, as the deliverer left them (the outbox has no HTTP view). */
export async function outboxRows(s: TestServer, sessionId: string): Promise<{ kind: string; delivered: boolean; failed: boolean; lastError: string | null; attempts: number }[]> {
  const rows = await s.server.services.db.query<Record<string, unknown>>(
    'SELECT kind, delivered_at, failed_at, last_error, attempts FROM outbox WHERE session_id = $1 ORDER BY id', [sessionId]);
  return rows.map((r) => ({
    kind: String(r.kind), delivered: r.delivered_at !== null, failed: r.failed_at !== null,
    lastError: (r.last_error as string | null) ?? null, attempts: Number(r.attempts),
  }));
}
