/**
 * Replays the recorded traffic of the original service (test/fixtures/conformance/nexosis-js/cassettes)
 * against a real Sibyl server and compares what unmodified clients depend on: the status code, the
 * account headers, and the shape of JSON bodies (every recorded top-level field present, with a
 * compatible JSON type; the same for the first list item). Model numbers are not compared.
 * Cassettes that need state seeded by the original service (fixed session/model ids, views,
 * vocabularies, paid-tier contests) are not replayable and are not listed.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CASSETTES } from '../support/fixtures.js';
import { startTestServer, type TestServer } from '../support/server.js';

interface Cassette {
  req: { url: string; method: string; headers: Record<string, string>; body?: string };
  res: { status: number; headers: Record<string, string[]>; body?: string };
}

function load(name: string): Cassette {
  // json5 with unquoted keys: a JavaScript object literal.
  return (0, eval)(`(${readFileSync(resolve(CASSETTES, `${name}.json5`), 'utf8')})`) as Cassette;
}

const jsonType = (v: unknown) => (v === null ? 'null' : Array.isArray(v) ? 'array' : typeof v);

function assertShape(recorded: unknown, ours: unknown, where: string): void {
  if (jsonType(recorded) !== 'object' || jsonType(ours) !== 'object') return;
  const r = recorded as Record<string, unknown>;
  const o = ours as Record<string, unknown>;
  for (const [k, v] of Object.entries(r)) {
    assert.ok(k in o, `${where}: field '${k}' is missing`);
    const a = jsonType(v);
    const b = jsonType(o[k]);
    if (a !== 'null' && b !== 'null') assert.equal(b, a, `${where}.${k}: ${b} instead of ${a}`);
  }
  for (const list of ['items', 'data']) {
    const ri = r[list];
    const oi = o[list];
    if (Array.isArray(ri) && Array.isArray(oi) && ri.length && oi.length && list === 'items') assertShape(ri[0], oi[0], `${where}.${list}[0]`);
  }
}

/** In the order the client's tests run them: uploads first, reads, then deletes. */
const SEQUENCE = [
  'put-dataset-testJavascript', 'put-dataset-jsHousingData', 'put-dataset-testnode', 'put-dataset-SessionHousingData', 'put-dataset-differentDataset',
  'get-account-usage', 'get-dataset-list', 'get-dataset-testJavascript',
  'post-imports-url', 'get-imports', 'get-imports-requestedAfterDate', 'get-imports-requestedBeforeDate', 'get-imports-dates',
  'get-models-detail-notfound', 'delete-models-notFound', 'post-models-predict-invalid', 'post-models-predict-notFound', 'head-session-invalid',
  'post-session-forecast', 'post-session-impact', 'post-session-model', 'post-session-classification', 'post-session-anomalies',
  'get-sessions', 'get-sessions-parameters', 'get-sessions-sort',
  'delete-dataset-testJavascript-rangeParameter', 'delete-dataset-testjavascript', 'delete-dataset-jsHousingData', 'delete-dataset-testnode',
  'delete-dataset-SessionHousingData', 'delete-dataset-differentDataset',
];

describe('recorded traffic of the original service', () => {
  let s: TestServer;
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => { await s.close(); });

  for (const name of SEQUENCE) {
    it(name, async () => {
      const c = load(name);
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(c.req.headers)) {
        if (!['content-length', 'connection', 'accept-encoding', 'host'].includes(k.toLowerCase())) headers[k] = String(v);
      }
      const r = await s.call(c.req.method, `/v1${c.req.url}`, { body: c.req.body || undefined, headers });
      assert.equal(r.status, c.res.status, `${c.req.method} ${c.req.url}: ${r.text.slice(0, 300)}`);
      assert.ok(r.headers.get('nexosis-account-datasetcount-current'), 'account headers on every answer');
      if (c.res.headers.location) assert.match(r.headers.get('location') ?? '', /\/v1\/data\/.+/);
      for (const h of ['nexosis-import-status']) if (c.res.headers[h]) assert.equal(r.headers.get(h), c.res.headers[h]![0]);
      if (c.res.body && c.req.method !== 'HEAD') assertShape(JSON.parse(c.res.body), r.json, name);
    });
  }
});
