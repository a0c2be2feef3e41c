import { describe, it, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { readFixture } from '../support/fixtures.js';
import { backends } from '../support/backends.js';
import { completedSession, startTestServer, type TestServer } from '../support/server.js';

/**
 * Google's daily closing price (fpp2 goog200: 200 trading days from 25 February 2013), dated Monday to
 * Friday as a market's data is. The day grid used to fill every Saturday and Sunday with the column's
 * imputation, the series' mean (about 80 below the last prices), and to forecast those days at it.
 */
function tradingDays(): { csv: string; last: number } {
  const prices = readFixture('forecast', 'fpp2', 'goog200.csv').rows.map(([, v]) => v!);
  const lines = ['date,close'];
  let day = Date.UTC(2013, 1, 25);
  for (const v of prices) {
    while ([0, 6].includes(new Date(day).getUTCDay())) day += 86_400_000;
    lines.push(`${new Date(day).toISOString().slice(0, 10)},${v}`);
    day += 86_400_000;
  }
  return { csv: lines.join('\n') + '\n', last: Number(prices.at(-1)) };
}

const weekday = (label: string) => new Date(label).getUTCDay();

for (const backend of await backends()) {
  describe(`forecast of a series dated on weekdays only (${backend})`, () => {
    let s: TestServer;
    const data = tradingDays();
    before(async () => {
      s = await startTestServer(backend);
      assert.equal((await s.call('PUT', '/v1/data/goog', { body: data.csv, headers: { 'content-type': 'text/csv' } })).status, 201);
    });
    after(async () => { await s.close(); });

    it('forecasts the weekdays only, near the last prices, and says why', async () => {
      const created = await s.call('POST', '/v1/sessions/forecast', { json: { dataSourceName: 'goog', targetColumn: 'close', resultInterval: 'day', startDate: '2013-12-02', endDate: '2013-12-13' } });
      assert.equal(created.status, 200, created.text);
      const session = await completedSession(s, created.json.sessionId);
      const rows = (await s.call('GET', `/v1/sessions/${created.json.sessionId}/results`)).json.data;
      assert.deepEqual(rows.map((r: any) => weekday(r.date)), [1, 2, 3, 4, 5, 1, 2, 3, 4, 5]);
      for (const r of rows) assert.ok(Math.abs(Number(r.close) / data.last - 1) < 0.05, `${r.date}: ${r.close} against a last price of ${data.last}`);
      const holdout = (await s.call('GET', `/v1/sessions/${created.json.sessionId}/results?pageSize=100`)).json;
      assert.ok(holdout.metrics.meanAbsolutePercentError < 0.05, JSON.stringify(holdout.metrics));
      const messages = session.messages.map((m: any) => m.message).join('\n');
      assert.match(messages, /no value on any of its Sundays and Saturdays/);
      assert.doesNotMatch(messages, /has no value for \d+ days|starts \d+ days after/);
    });
  });
}
