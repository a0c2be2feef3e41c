import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/**
 * A constant series (a price held for three years) is forecast as that value with intervals of no
 * width, which read as certainty: the session says the band is the history's, not the future's. A
 * series that moves (fpp2 a10) gets a band with width and no such warning.
 */
function constantMonths(): string {
  const lines = ['month,price'];
  for (let k = 0; k < 36; k++) lines.push(`${2015 + Math.floor(k / 12)}-${String((k % 12) + 1).padStart(2, '0')}-01,4.99`);
  return lines.join('\n') + '\n';
}

for (const backend of await backends()) {
  describe(`a forecast of a constant series (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      const csv = { headers: { 'content-type': 'text/csv' } };
      assert.equal((await s.call('PUT', '/v1/data/price', { body: constantMonths(), ...csv })).status, 201);
      assert.equal((await s.call('PUT', '/v1/data/a10', { body: readFileSync(fixturePath('forecast', 'fpp2', 'a10.csv'), 'utf8'), ...csv })).status, 201);
    });
    after(async () => { await s.close(); });

    async function forecastOf(dataset: string, target: string, startDate: string, endDate: string) {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: dataset, targetColumn: target, startDate, endDate, resultInterval: 'month' } });
      assert.equal(r.status, 200, r.text);
      const { messages } = await completedSession(s, r.json.sessionId);
      const band = async (level: string) => (await s.call('GET', `/v1/sessions/${r.json.sessionId}/results?predictionInterval=${level}`)).json.data.map((row: Record<string, string>) => Number(row[target]));
      return { messages: messages as { severity: string; message: string }[], low: await band('0.05'), high: await band('0.95') };
    }

    it('says its band of no width is the history\'s, not the future\'s', async () => {
      const f = await forecastOf('price', 'price', '2018-01-01', '2018-06-01');
      f.low.forEach((v: number, i: number) => assert.equal(v, f.high[i], 'a constant history gives a band of no width'));
      const said = f.messages.filter((m) => /intervals have no width/.test(m.message));
      assert.equal(said.length, 1, JSON.stringify(f.messages));
      assert.equal(said[0]!.severity, 'warning');
      assert.match(said[0]!.message, /'price' has the same value in every period/);
    });

    it('a series that moves gets a band with width and no such warning', async () => {
      const f = await forecastOf('a10', 'value', '2008-07-01', '2008-12-01');
      f.low.forEach((v: number, i: number) => assert.ok(v < f.high[i]!, `month ${i}: ${v} – ${f.high[i]}`));
      assert.ok(!f.messages.some((m) => /intervals have no width/.test(m.message)), JSON.stringify(f.messages));
    });
  });
}
