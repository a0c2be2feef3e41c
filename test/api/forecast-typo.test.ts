import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { fixturePath } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/** fpp2 a10 (monthly drug sales, 2.8 to 29.7, 1991-07..2008-06), with the month `typo` (if any) set to `value`. */
function a10(typo?: string, value = 999): string {
  return readFileSync(fixturePath('forecast', 'fpp2', 'a10.csv'), 'utf8').trim().split('\n')
    .map((l) => (typo && l.startsWith(`${typo},`) ? `${typo},${value}` : l)).join('\n');
}

for (const backend of await backends()) {
  describe(`a forecast of a series with a typo (${backend})`, () => {
    let s: TestServer;
    before(async () => {
      s = await startTestServer(backend);
      for (const [name, typo, value] of [['clean', undefined, 999], ['typo', '2000-01-01', 999], ['lasttypo', '2008-06-01', 999], ['zerotypo', '2000-01-01', 0], ['signtypo', '2000-01-01', -12.5]] as const) {
        assert.equal((await s.call('PUT', `/v1/data/${name}`, { body: a10(typo, value), headers: { 'content-type': 'text/csv' } })).status, 201);
      }
    });
    after(async () => { await s.close(); });

    async function forecastOf(dataset: string): Promise<{ values: number[]; messages: { severity: string; message: string }[]; properties: string[] }> {
      const r = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: dataset, targetColumn: 'value', startDate: '2008-07-01', endDate: '2009-06-01', resultInterval: 'month' } });
      assert.equal(r.status, 200, r.text);
      const { messages } = await completedSession(s, r.json.sessionId);
      const results = await s.call('GET', `/v1/sessions/${r.json.sessionId}/results`);
      assert.equal(results.status, 200, results.text);
      const contest = await s.call('GET', `/v1/sessions/${r.json.sessionId}/contest`);
      assert.equal(contest.status, 200, contest.text);
      return { values: results.json.data.map((row: { value: string }) => Number(row.value)), messages, properties: contest.json.champion.dataSourceProperties };
    }

    it('999 in January 2000 is fitted as the month the series gives, so the seasonal forecast stays as the clean series\' one, and a warning says so', async () => {
      const clean = await forecastOf('clean');
      const typo = await forecastOf('typo');
      assert.equal(typo.values.length, 12);
      // Fitted on the 999, the combination went nearly flat: 2.9 from the clean forecast on average.
      const mae = typo.values.reduce((a, v, i) => a + Math.abs(v - clean.values[i]!), 0) / 12;
      assert.ok(mae < 0.3, `mean absolute difference from the clean series' forecast ${mae}: ${typo.values} vs ${clean.values}`);
      const said = typo.messages.filter((m) => m.severity === 'warning' && /999/.test(m.message));
      assert.equal(said.length, 1, JSON.stringify(typo.messages));
      assert.match(said[0]!.message, /^The value 999 of value on 2000-01-01 lies far outside the rest of the series \(2\.8\d* to 29\.6\d*; .*the forecast was fitted with [\d.]+, what the series' trend and season give that period, in its place .*correct it in typo and run the session again/);
      assert.ok(!clean.messages.some((m) => /far outside/.test(m.message)), JSON.stringify(clean.messages));
      // The contest says the champion was fitted on a smoothed series, as the original service's did.
      assert.deepEqual(typo.properties, ['Aggregated', 'Imputed', 'Smoothed']);
      assert.deepEqual(clean.properties, ['Aggregated', 'Imputed']);
    });

    it('a month keyed as 0, or as -12.5, is fitted as the month the series gives too, though it lies within 3 ranges below the series, and a warning says so', async () => {
      const clean = await forecastOf('clean');
      for (const [dataset, value, why] of [['zerotypo', '0', /all of them above zero/], ['signtypo', '-12.5', /all of them above zero/]] as const) {
        const typo = await forecastOf(dataset);
        const mae = typo.values.reduce((a, v, i) => a + Math.abs(v - clean.values[i]!), 0) / 12;
        assert.ok(mae < 0.3, `${dataset}: mean absolute difference from the clean series' forecast ${mae}: ${typo.values} vs ${clean.values}`);
        const said = typo.messages.filter((m) => m.severity === 'warning' && /far outside/.test(m.message));
        assert.equal(said.length, 1, JSON.stringify(typo.messages));
        assert.ok(said[0]!.message.startsWith(`The value ${value} of value on 2000-01-01 lies far outside the rest of the series (2.8`), said[0]!.message);
        assert.match(said[0]!.message, why);
        assert.match(said[0]!.message, /the forecast was fitted with [\d.]+, what the series' trend and season give that period, in its place/);
        assert.deepEqual(typo.properties, ['Aggregated', 'Imputed', 'Smoothed']);
      }
    });

    it('999 as the last month is kept, since nothing after it tells a mistake from a new level, and the warning says the forecast follows it', async () => {
      const { messages, properties } = await forecastOf('lasttypo');
      assert.deepEqual(properties, ['Aggregated', 'Imputed']);
      const said = messages.filter((m) => /far outside/.test(m.message));
      assert.equal(said.length, 1, JSON.stringify(messages));
      assert.match(said[0]!.message, /^The value 999 of value on 2008-06-01 lies far outside .*the forecast was fitted on it as recorded and follows it .*correct it in lasttypo/);
    });
  });
}
