/**
 * Replays the recorded traffic of the original service (test/fixtures/conformance/nexosis-js/cassettes)
 * against a real Sibyl server and compares what unmodified clients depend on: the status code, the
 * account headers, and the shape of JSON bodies (every recorded top-level field present, with a
 * compatible JSON type; the same for the first list item). Model numbers are not compared.
 * Every cassette is replayed in an order that creates what it presumes: the sessions it reads are
 * the ones the replay posted (their recorded ids, and those of sessions of the same kind that the
 * original account held, are mapped to Sibyl's; so is the vocabulary of a text session trained here on
 * the data set name the vocabulary reads use), and the reads wait until they completed. Cassettes
 * of features Sibyl does not have yet are listed with their reason and counted as not replayed;
 * the run prints `conformance: <passed>/<total>`.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CASSETTES, fixturePath } from '../support/fixtures.js';
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

/** Cassettes that cannot be replayed here, with the reason (none today; a new cassette of a missing feature goes here). */
const UNREPLAYABLE: Record<string, string> = {};

/** In the order the client's tests run them: uploads, session requests, reads once they completed, deletes. */
const SEQUENCE = [
  'put-dataset-testJavascript', 'put-dataset-jsHousingData', 'put-dataset-testnode', 'put-dataset-SessionHousingData', 'put-dataset-differentDataset',
  'put-dataset-testjavascriptviewdataset', 'put-dataset-testJavascriptViewDataset2',
  'get-account-usage', 'get-dataset-list', 'get-dataset-testJavascript',
  'post-imports-url', 'post-imports-s3', 'post-imports-azure', 'get-imports-detail', 'get-imports', 'get-imports-name',
  'get-imports-requestedAfterDate', 'get-imports-requestedBeforeDate', 'get-imports-dates',
  'get-models-detail-notfound', 'delete-models-notFound', 'post-models-predict-invalid', 'post-models-predict-notFound', 'head-session-invalid',
  'post-session-forecast', 'post-session-impact', 'post-session-model', 'post-session-classification', 'post-session-anomalies',
  'get-sessions', 'get-sessions-parameters', 'get-sessions-sort',
  'put-views-testjavascriptview', 'put-views-testJavascriptViewJoins', 'get-views-list', 'get-views-testJavascriptView',
  'get-vocabularies-list', 'get-vocabularies-list-bydatasource', 'get-vocabularies-list-bysession', 'get-vocabulary-words', 'get-vocabulary-words-bytype',
  // Reads of completed sessions.
  'head-session-modelComplete', 'head-session-classification-status', 'get-sessions-model',
  'get-session-results', 'get-session-results-predictioninterval', 'get-sessions-timeseries-outliers',
  'get-sessions-contest', 'get-sessions-contestant', 'get-sessions-contest-champion', 'get-sessions-contest-contestants', 'get-sessions-contest-selection',
  'get-sessions-confusionmatrix', 'get-session-classscores', 'get-sessions-feature-importance', 'get-sessions-anomaly-distance',
  'get-models-list', 'get-models-detail', 'post-models-predict', 'delete-models',
  'delete-session', 'delete-views-testJavascriptView', 'delete-views-testJavascriptViewJoins',
  'delete-dataset-testJavascript-rangeParameter', 'delete-dataset-testjavascript', 'delete-dataset-jsHousingData', 'delete-dataset-testnode',
  'delete-dataset-SessionHousingData', 'delete-dataset-differentDataset', 'delete-dataset-testJavascriptViewDataset', 'delete-dataset-testJavascriptViewDataset2',
];

/** Sessions the original account held (not posted by any cassette), by the kind of session they were. */
const HELD_BY_ORIGINAL: Record<string, 'forecast' | 'classification' | 'anomalies'> = {
  '015e528f-cbaf-4a37-a584-51a4a5b943d1': 'forecast',
  '01603745-c923-440d-9833-5674e55aa8f9': 'forecast',
  '0162b521-f347-4c82-8bda-f2425908af14': 'forecast',
  '01605bc4-6560-4d07-9394-ec0041f909c4': 'classification',
  '0162b4c5-ebc6-459c-93bf-a2354190499f': 'classification',
  '0162b4c5-714f-40bd-947b-88eb8bcfd54b': 'anomalies',
};
const RECORDED_CONTESTANT = '01603745-f128-44e0-ba2f-831a6e4d30b5';
const RECORDED_MODEL = 'd2d3b223-f605-40b4-b3c1-90cac6db61f8';
const RECORDED_S3_IMPORT = '01605be5-2505-4e8e-81ca-3802ac92ba4d';
/** The original account's text session, the data set it read and one vocabulary it made. */
const RECORDED_TEXT_SESSION = '0160fb8f-de87-418c-8ef3-f1a479767437';
const RECORDED_TEXT_DATA_SET = 'Axon.Api.Verification.Regression_Airline';
const RECORDED_VOCABULARY = '9a6a4bf0-e85c-41bc-b3b9-76f7bba81f39';

describe('recorded traffic of the original service', () => {
  let s: TestServer;
  /** Recorded id → Sibyl's. */
  const ids = new Map<string, string>();
  const ours: Record<string, string> = {};
  const results: { name: string; ok: boolean; reason?: string }[] = [];
  before(async () => { s = await startTestServer('pglite'); });
  after(async () => {
    await s.close();
    const passed = results.filter((r) => r.ok).length;
    const total = SEQUENCE.length;
    console.log(`conformance: ${passed}/${total}`);
    for (const [name, reason] of Object.entries(UNREPLAYABLE)) console.log(`  not replayed: ${name} (${reason})`);
    for (const r of results.filter((x) => !x.ok && !(x.name in UNREPLAYABLE))) console.log(`  failed: ${r.name}: ${r.reason}`);
  });

  async function completed(id: string): Promise<Record<string, any>> {
    for (let i = 0; i < 1200; i++) {
      const r = await s.call('GET', `/v1/sessions/${id}`);
      if (['completed', 'failed', 'cancelled'].includes(r.json?.status)) return r.json;
      await new Promise((f) => setTimeout(f, 250));
    }
    throw new Error(`session ${id} did not finish`);
  }

  /** Maps what the reads presume once the sessions the replay posted have completed. */
  async function mapCompletedSessions(): Promise<void> {
    if (ids.has(RECORDED_MODEL)) return;
    const kinds: Record<string, string> = { forecast: ours.forecast!, classification: ours.classification!, anomalies: ours.anomalies! };
    for (const id of Object.values(kinds)) assert.equal((await completed(id)).status, 'completed', `session ${id} completed`);
    for (const [recorded, kind] of Object.entries(HELD_BY_ORIGINAL)) ids.set(recorded, kinds[kind]!);
    const model = await completed(ours.model!);
    assert.equal(model.status, 'completed');
    ids.set(RECORDED_MODEL, model.modelId);
    const contest = await s.call('GET', `/v1/sessions/${ours.forecast}/contest`);
    ids.set(RECORDED_CONTESTANT, contest.json.champion.id);
  }

  /** The vocabulary reads presume a completed text session on the data set they name: train one on real reviews. */
  async function createVocabulary(): Promise<void> {
    if (ids.has(RECORDED_VOCABULARY)) return;
    const reviews = readFileSync(fixturePath('text', 'fine_foods.csv'), 'utf8').split('\n').slice(0, 401).join('\n');
    const up = await s.call('PUT', `/v1/data/${RECORDED_TEXT_DATA_SET}`, { body: reviews, headers: { 'content-type': 'text/csv' } });
    assert.equal(up.status, 201, up.text);
    const posted = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: RECORDED_TEXT_DATA_SET, predictionDomain: 'classification', targetColumn: 'score', columns: { review: { dataType: 'text', role: 'feature' }, product: { role: 'none' } } } });
    assert.equal(posted.status, 200, posted.text);
    assert.equal((await completed(posted.json.sessionId)).status, 'completed');
    const vocabulary = await s.call('GET', `/v1/vocabulary?createdFromSession=${posted.json.sessionId}`);
    ids.set(RECORDED_TEXT_SESSION, posted.json.sessionId);
    ids.set(RECORDED_VOCABULARY, vocabulary.json.items[0].id);
  }

  function mapped(text: string): string {
    let out = text;
    for (const [recorded, mine] of ids) out = out.split(recorded).join(encodeURIComponent(mine));
    return out;
  }

  for (const name of SEQUENCE) {
    const skip = UNREPLAYABLE[name];
    it(name, { skip }, async () => {
      const c = load(name);
      try {
        if (name.startsWith('get-vocabular')) await createVocabulary();
        if (/^(head-session-(model|class)|get-session|get-sessions-(model|timeseries|contest|confusion|feature|anomaly)|get-models-(list|detail$)|post-models-predict$|delete-models$|delete-session)/.test(name)) await mapCompletedSessions();
        const headers: Record<string, string> = {};
        for (const [k, v] of Object.entries(c.req.headers)) {
          if (!['content-length', 'connection', 'accept-encoding', 'host'].includes(k.toLowerCase())) headers[k] = String(v);
        }
        const r = await s.call(c.req.method, `/v1${mapped(c.req.url)}`, { body: c.req.body || undefined, headers });
        assert.equal(r.status, c.res.status, `${c.req.method} ${c.req.url}: ${r.text.slice(0, 300)}`);
        assert.ok(r.headers.get('nexosis-account-datasetcount-current'), 'account headers on every answer');
        if (c.res.headers.location) assert.match(r.headers.get('location') ?? '', /\/v1\/(data|views)\/.+/);
        for (const h of ['nexosis-import-status', 'nexosis-session-status']) {
          if (!c.res.headers[h]) continue;
          // The recorded import detail is of an S3 import that had completed; ours is the URL import, in whatever state it reached.
          if (name === 'get-imports-detail') assert.match(r.headers.get(h) ?? '', /^(Requested|Started|Completed|Failed|Cancelled)$/, h);
          else assert.equal(r.headers.get(h), c.res.headers[h]![0], h);
        }
        if (c.res.body && c.req.method !== 'HEAD') assertShape(JSON.parse(c.res.body), r.json, name);
        const recorded = c.res.body && c.req.method !== 'HEAD' ? JSON.parse(c.res.body) : undefined;
        if (recorded?.sessionId && name.startsWith('post-session-')) {
          ids.set(recorded.sessionId, r.json.sessionId);
          const kind = name === 'post-session-forecast' ? 'forecast' : name === 'post-session-model' ? 'model' : name.replace('post-session-', '');
          ours[kind] = r.json.sessionId;
        }
        if (recorded?.importId && name === 'post-imports-url') { ids.set(recorded.importId, r.json.importId); ids.set(RECORDED_S3_IMPORT, r.json.importId); }
        results.push({ name, ok: true });
      } catch (e) {
        results.push({ name, ok: false, reason: (e as Error).message.split('\n')[0] });
        throw e;
      }
    });
  }
});
