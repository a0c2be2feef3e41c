/**
 * The dashboard-era endpoints of the Elm client 4.1.1 (compat-notes §3.10): `GET /v1/metrics`
 * (`{metrics: [{key, name, description}]}`, sent with `Authorization: Bearer` and `application-name`)
 * and `GET /v1/messages` (`Nexosis.Api.Messages.get`: relatedId, levels, page, pageSize; every item
 * field a required string in `Decoders/Message.elm`), with another account's messages never shown.
 */
import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { BrowserSession } from '../support/browser-session.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

const ELM_FIELDS = ['messageId', 'content', 'severity', 'userId', 'organizationId', 'createdAt', 'relatedId', 'relatedTo'];
const ALL_LEVELS = 'status,debug,informational,warning,error';

for (const backend of await backends()) {
  describe(`GET /v1/metrics and GET /v1/messages (${backend})`, () => {
    let s: TestServer;
    const sessions: Record<string, any> = {};
    before(async () => {
      s = await startTestServer(backend);
      const csv = readFileSync(fixturePath('classification', 'iris.csv'), 'utf8');
      assert.equal((await s.call('PUT', '/v1/data/iris', { body: csv, headers: { 'content-type': 'text/csv' } })).status, 201);
      const requests = {
        classification: { targetColumn: 'Species', predictionDomain: 'classification' },
        regression: { targetColumn: 'Sepal.Length', predictionDomain: 'regression' },
        anomalies: { predictionDomain: 'anomalies', columns: { Species: { role: 'none' } } },
      };
      for (const [kind, request] of Object.entries(requests)) {
        const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'iris', ...request } });
        assert.equal(r.status, 200, r.text);
        sessions[kind] = r.json;
      }
      for (const kind of Object.keys(sessions)) sessions[kind] = await completedSession(s, sessions[kind].sessionId);
    });
    after(async () => { await s.close(); });

    it('GET /v1/metrics names and explains every metric the sessions report, with a Bearer key', async () => {
      const r = await s.call('GET', '/v1/metrics', { headers: { 'api-key': '', authorization: `Bearer ${s.key}`, 'application-name': 'nexosisclient-elm' } });
      assert.equal(r.status, 200, r.text);
      assert.ok(r.headers.get('nexosis-account-datasetcount-current'), 'the account headers are on the answer');
      const metrics = r.json.metrics as { key: string; name: string; description: string }[];
      for (const m of metrics) {
        assert.deepEqual(Object.keys(m), ['key', 'name', 'description']);
        assert.ok(m.key && m.name && m.description.endsWith('.'), JSON.stringify(m));
      }
      const keys = new Set(metrics.map((m) => m.key));
      assert.equal(keys.size, metrics.length, 'each key once');
      for (const [kind, session] of Object.entries(sessions)) {
        const results = await s.call('GET', `/v1/sessions/${session.sessionId}/results?pageSize=1`);
        const reported = Object.keys(results.json.metrics);
        assert.ok(reported.length > 0, kind);
        assert.deepEqual(reported.filter((k) => !keys.has(k)), [], `${kind} metrics without a definition`);
      }
      for (const key of ['meanAbsoluteScaledError', 'pValue', 'absoluteEffect', 'relativeEffect']) assert.ok(keys.has(key), `forecast and impact metric ${key}`);
      assert.equal((await s.call('GET', '/v1/metrics', { headers: { 'api-key': '' } })).status, 401);
    });

    it('a classification of three classes carries a score interval for its macro ROC AUC, also when its test rows are ranked without an error', async () => {
      const results = await s.call('GET', `/v1/sessions/${sessions.classification.sessionId}/results?pageSize=1`);
      const auc = results.json.metrics.rocAreaUnderCurve as number;
      const intervals = results.json.metricIntervals as { metrics: Record<string, { lower: number; upper: number }>; otherMethods?: Record<string, string> };
      const interval = intervals.metrics.rocAreaUnderCurve!;
      assert.ok(interval, JSON.stringify(intervals));
      // Iris's 30 test rows (10 a class) are often ranked perfectly: the interval still reaches below 1.
      assert.ok(interval.lower <= auc && auc <= interval.upper && interval.lower < 0.995, `${auc} in [${interval.lower}, ${interval.upper}]`);
      assert.match(intervals.otherMethods!.rocAreaUnderCurve!, /Newcombe/);
    });

    it('GET /v1/messages gives the sessions\' statuses and messages as the Elm decoder reads them, newest first, paged', async () => {
      const r = await s.call('GET', `/v1/messages?levels=${ALL_LEVELS}&page=0&pageSize=1000`, { headers: { 'api-key': '', authorization: `Bearer ${s.key}` } });
      assert.equal(r.status, 200, r.text);
      for (const field of ['pageNumber', 'totalPages', 'pageSize', 'totalCount']) assert.equal(typeof r.json[field], 'number', field);
      const items = r.json.items as Record<string, string>[];
      const stored = Object.values(sessions).reduce((n, x) => n + x.messages.length + x.statusHistory.length, 0);
      assert.equal(r.json.totalCount, stored, 'each status entered and each stored message, once');
      assert.equal(items.length, stored);
      const account = items[0]!.userId;
      for (const m of items) {
        assert.deepEqual(Object.keys(m).sort(), [...ELM_FIELDS].sort());
        for (const f of ELM_FIELDS) assert.equal(typeof m[f], 'string', f);
        assert.ok(ALL_LEVELS.split(',').includes(m.severity!), m.severity);
        assert.match(m.createdAt!, /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d+\+00:00$/);
        assert.equal(m.relatedTo, 'session');
        assert.equal(m.userId, account);
        assert.equal(m.organizationId, account);
      }
      assert.equal(new Set(items.map((m) => m.messageId)).size, items.length, 'ids are unique');
      const times = items.map((m) => Date.parse(m.createdAt!));
      assert.deepEqual(times, [...times].sort((a, b) => b - a), 'newest first');

      // One session, its progress (the dashboard's query: status only, 5 at a time).
      const id = sessions.classification.sessionId;
      const progress = await s.call('GET', `/v1/messages?relatedId=${id}&levels=status&page=0&pageSize=5`);
      assert.deepEqual(progress.json.items.map((m: any) => m.content), ['Session completed', 'Session started', 'Session requested']);
      assert.ok(progress.json.items.every((m: any) => m.relatedId === id && m.severity === 'status'));
      const own = await s.call('GET', `/v1/messages?relatedId=${id}&levels=warning&levels=informational`);
      const expected = sessions.classification.messages.filter((m: any) => m.severity === 'warning' || m.severity === 'informational');
      assert.deepEqual(own.json.items.map((m: any) => m.content).sort(), expected.map((m: any) => m.message).sort());

      // Stable ids, and pages that add up to the whole list.
      const again = await s.call('GET', `/v1/messages?pageSize=1000`);
      assert.deepEqual(again.json.items.map((m: any) => m.messageId), items.map((m) => m.messageId), 'no levels: all of them, with the same ids');
      const paged: string[] = [];
      for (let page = 0; page < Math.ceil(stored / 4); page++) {
        const p = await s.call('GET', `/v1/messages?page=${page}&pageSize=4`);
        assert.equal(p.json.pageNumber, page);
        assert.equal(p.json.totalPages, Math.ceil(stored / 4));
        paged.push(...p.json.items.map((m: any) => m.messageId));
      }
      assert.deepEqual(paged, items.map((m) => m.messageId));

      const bad = await s.call('GET', '/v1/messages?levels=status,loud');
      assert.equal(bad.status, 400);
      assert.equal(bad.json.errorType, 'RequestValidation');
      assert.match(bad.json.errorDetails.levels[0], /'loud' is not a level/);
    });

    it('a session\'s messages are dated when they were given: a warning given at the request keeps its time after the session ends', async () => {
      const r = await s.call('POST', '/v1/sessions/model', { json: { dataSourceName: 'iris', predictionDomain: 'anomalies', targetColumn: 'Sepal.Length', columns: { Species: { role: 'none' } } } });
      assert.equal(r.status, 200, r.text);
      const given = r.json.messages as { severity: string; message: string }[];
      assert.ok(given.length > 0, 'an anomalies session given a target says it is ignored');
      await new Promise((resolve) => setTimeout(resolve, 20));
      const done = await completedSession(s, r.json.sessionId);
      const completedAt = Date.parse(done.statusHistory.find((e: any) => e.status === 'completed').date);
      assert.ok(completedAt > Date.parse(r.json.requestedDate));
      for (const m of done.messages) assert.deepEqual(Object.keys(m).sort(), ['message', 'severity'], 'the session shows its messages as they were given');
      const listed = (await s.call('GET', `/v1/messages?relatedId=${r.json.sessionId}&levels=debug,informational,warning,error&pageSize=100`)).json.items as Record<string, string>[];
      assert.equal(listed.length, done.messages.length);
      const givenTexts = new Set(given.map((m) => m.message));
      for (const m of listed) {
        const expected = givenTexts.has(m.content!) ? Date.parse(r.json.requestedDate) : completedAt;
        assert.equal(Date.parse(m.createdAt!), expected, `${m.content}: ${m.createdAt}`);
      }
    });

    it('another account sees none of these messages, by list or by relatedId', async () => {
      const other = new BrowserSession(s.url);
      assert.equal((await other.signUp('other@example.org')).status, 201);
      const key = (await other.call('POST', '/auth/keys', { json: { label: 'test' } })).json.apiKey;
      for (const path of ['/v1/messages', `/v1/messages?relatedId=${sessions.classification.sessionId}&levels=${ALL_LEVELS}`]) {
        const r = await s.call('GET', path, { headers: { 'api-key': key } });
        assert.equal(r.status, 200, r.text);
        assert.deepEqual(r.json.items, []);
        assert.equal(r.json.totalCount, 0);
      }
    });
  });
}
