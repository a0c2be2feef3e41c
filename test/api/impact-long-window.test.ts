import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/**
 * The Nile at Aswan, 1871–1970: the textbook level shift after 1898 (the first Aswan dam), a mean
 * drop of 22.6 % (1,097.8 to 850.0). The window 1899–1970 is 72 years after 28: longer than the
 * period before it, as CausalImpact's users run it.
 */
for (const backend of await backends()) {
  describe(`impact windows longer than the pre-period over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const r = await s.call('PUT', '/v1/data/nile', { body: readFileSync(fixturePath('impact', 'nile_aswan.csv'), 'utf8'), headers: { 'content-type': 'text/csv' } });
      assert.equal(r.status, 201, r.text);
    });
    after(async () => { await s.close(); });
    const post = (startDate: string) => s.call('POST', '/v1/sessions/impact', {
      json: { dataSourceName: 'nile', targetColumn: 'flow', eventName: 'Aswan dam', startDate, endDate: '1970-01-01', resultInterval: 'year' },
    });

    it('estimates the Nile drop after 1898 over the 72 years after it, and says the 28 years before it are short', async (t) => {
      const created = await post('1899-01-01');
      assert.equal(created.status, 200, created.text);
      await completedSession(s, created.json.sessionId);
      const r = (await s.call('GET', `/v1/sessions/${created.json.sessionId}/results?pageSize=100`)).json;
      t.diagnostic(`relative effect ${r.metrics.relativeEffect} [${r.relativeEffectLower}, ${r.relativeEffectUpper}], p ${r.metrics.pValue}`);
      assert.equal(r.data.length, 72);
      assert.ok(Math.abs(r.metrics.relativeEffect - -0.226) < 0.03, `relative effect ${r.metrics.relativeEffect}`);
      assert.ok(r.metrics.pValue < 0.05, `p ${r.metrics.pValue}`);
      assert.ok(r.relativeEffectUpper < 0, `interval [${r.relativeEffectLower}, ${r.relativeEffectUpper}]`);
      const short = r.messages.find((m: { message: string }) => /pre-period is short/.test(m.message));
      assert.equal(short?.severity, 'warning', JSON.stringify(r.messages));
      assert.match(short.message, /the window is longer than the 28 periods before the event/);
    });

    it('refuses a window with fewer periods before it than a model can be fitted on', async () => {
      const r = await post('1873-01-01');
      assert.equal(r.status, 400, r.text);
      assert.equal(r.json.errorType, 'InvalidDateRange');
      assert.match(r.json.errorDetails.startDate[0], /needs at least 3 periods of data before it to fit a model of the series; there are 2/);
    });
  });
}
