import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { backends } from '../support/backends.js';
import { IGNORE_TRUTH, nottemCsv, WINDOW } from '../support/nottem.js';
import { startTestServer, type TestServer } from '../support/server.js';


for (const backend of await backends()) {
  describe(`impact sessions over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const r = await s.call('PUT', '/v1/data/nottem?timestampColumn=date', { body: nottemCsv(1), headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201, r.text);
    });
    after(async () => { await s.close(); });

    it('creates a session as the JS client does: eventName echoed and in extraParameters, compat dates', async () => {
      const r = await s.call('POST', '/v1/sessions/impact', { json: { startDate: '01-01-1938', endDate: '06-01-1938', resultInterval: 'month', dataSourceName: 'nottem', targetColumn: 'y', eventName: 'myevent', columns: IGNORE_TRUTH } });
      assert.equal(r.status, 200, r.text);
      assert.equal(r.json.type, 'impact');
      assert.equal(r.json.status, 'requested');
      assert.equal(r.json.predictionDomain, 'impact');
      assert.equal(r.json.eventName, 'myevent');
      assert.deepEqual(r.json.extraParameters, { event: 'myevent' });
      assert.equal(r.json.startDate, '1938-01-01T00:00:00+00:00');
      assert.equal(r.json.endDate, '1938-06-01T00:00:00+00:00');
      assert.equal(r.json.resultInterval, 'month');
      assert.equal(r.json.dataSetName, 'nottem');
      assert.equal(r.json.columns.post.role, 'none');
      const q = await s.call('POST', '/v1/sessions/impact?dataSetName=nottem&startDate=1938-01-01&endDate=1938-06-01&eventName=e&targetColumn=y&resultInterval=3&callbackUrl=https://example.com/cb', { body: '""', headers: { 'content-type': 'application/json' } });
      assert.equal(q.status, 200, q.text);
      assert.equal(q.json.resultInterval, 'month');
      assert.ok(q.headers.get('service-webhook-token'));
      const outliers = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results/outliers`);
      assert.equal(outliers.status, 404, 'outliers are for forecast sessions only');
      assert.equal(outliers.json.errorType, 'NotFound');
      assert.deepEqual(outliers.json.errorDetails, { itemType: 'outliers', itemId: r.json.sessionId });
      assert.match(outliers.json.message, /is an impact session: outliers exist only for forecast sessions/);
    });

    it('rejects windows the data cannot support and missing or malformed parameters', async () => {
      const post = (json: Record<string, unknown>) => s.call('POST', '/v1/sessions/impact', { json: { dataSourceName: 'nottem', targetColumn: 'y', eventName: 'e', resultInterval: 'month', ...WINDOW, columns: IGNORE_TRUTH, ...json } });
      let r = await post({ endDate: '1939-03-01' });
      assert.equal(r.status, 400);
      assert.equal(r.json.errorType, 'InvalidDateRange', 'the window must end by the last date');
      r = await post({ startDate: '1938-06-01', endDate: '1938-01-01' });
      assert.equal(r.json.errorType, 'InvalidDateRange');
      r = await post({ startDate: '1920-03-01', endDate: '1920-12-01' });
      assert.equal(r.json.errorType, 'InvalidDateRange', 'the window needs 3 periods before it, the fewest a model can be fitted on');
      r = await post({ eventName: undefined });
      assert.equal(r.status, 400);
      assert.ok(r.json.errorDetails.eventName);
      r = await post({ startDate: '1938-13-01' });
      assert.equal(r.json.errorType, 'RequestValidation');
      assert.ok(r.json.errorDetails.startDate);
      r = await post({ startDate: undefined });
      assert.equal(r.status, 400);
      assert.ok(r.json.errorDetails.startDate);
      r = await post({ columns: { rainfall: { role: 'feature' } } });
      assert.equal(r.status, 400);
      assert.ok(r.json.errorDetails.rainfall);
      r = await post({ dataSourceName: 'nowhere' });
      assert.equal(r.status, 404);
    });

  });
}
