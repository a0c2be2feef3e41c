import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** fpp2 a10 (monthly drug sales) up to 2006-12: 186 months. */
function a10To2006(): string {
  return readFileSync(fixturePath('forecast', 'fpp2', 'a10.csv'), 'utf8').trim().split('\n').filter((l) => !/^200[78]/.test(l)).join('\n');
}

for (const backend of await backends()) {
  describe(`forecast span messages over HTTP (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      assert.equal((await s.call('PUT', '/v1/data/a10', { body: a10To2006(), headers: { 'content-type': 'text/csv' } })).status, 201);
    });
    after(async () => { await s.close(); });
    async function messages(startDate: string, endDate: string): Promise<{ severity: string; message: string }[]> {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'a10', targetColumn: 'value', startDate, endDate, resultInterval: 'month' } });
      assert.equal(r.status, 200, r.text);
      return (await completedSession(s, r.json.sessionId)).messages;
    }

    it('a 288-month forecast from 186 months warns, and says the metrics cover only its first 62 months', async () => {
      const said = (await messages('2007-01-01', '2030-12-01')).map((m) => `${m.severity}: ${m.message}`);
      assert.ok(said.some((m) => /^warning: The forecast runs 288 months ahead from 186 months of data: a forecast should be at most half as long/.test(m)), JSON.stringify(said));
      assert.ok(said.some((m) => /The test metrics cover only the first 62 months of the 288 months forecast/.test(m)), JSON.stringify(said));
    });

    it('a start on the last observed month says that month was not used to fit; an 18-month forecast from the next month says nothing of the kind', async () => {
      const onLast = (await messages('2006-12-01', '2008-06-01')).map((m) => m.message);
      assert.ok(onLast.some((m) => /observations from the start date on \(2006-12-01 to 2006-12-01, 1 month\) were not used to fit/.test(m)), JSON.stringify(onLast));
      const after = await messages('2007-01-01', '2008-06-01');
      assert.deepEqual(after, []);
    });

    it('fewer than 3 periods before the start date is a 400 when the session is requested, not a session that fails later', async () => {
      const before = (await s.call('GET', '/v1/sessions')).json.totalCount;
      // Two months of data; and a start date two months into a10.
      assert.equal((await s.call('PUT', '/v1/data/two-months', { body: 'date,value\n2020-01-01,5\n2020-02-01,6\n', headers: { 'content-type': 'text/csv' } })).status, 201);
      for (const [dataset, startDate, has] of [['two-months', undefined, 2], ['a10', '1991-09-01', 2]] as const) {
        const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: dataset, targetColumn: 'value', resultInterval: 'month', ...(startDate ? { startDate, endDate: '1992-06-01' } : {}) } });
        assert.equal(r.status, 400, r.text);
        assert.equal(r.json.errorType, 'InvalidDateRange');
        assert.match(r.json.errorDetails.startDate[0], new RegExp(`at least 3 months of data before its start date; 'value' has ${has} before .*add earlier data, start later`));
      }
      assert.equal((await s.call('GET', '/v1/sessions')).json.totalCount, before);
      // Three months is enough.
      assert.equal((await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'a10', targetColumn: 'value', resultInterval: 'month', startDate: '1991-10-01', endDate: '1992-06-01' } })).status, 200);
    });
  });
}
