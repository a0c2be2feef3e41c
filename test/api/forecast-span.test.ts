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
  });
}
